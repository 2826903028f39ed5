"""Deterministic extraction of the clinical findings a guideline search needs from a question stem.

Age, sex, pregnancy (with the trimester worked out from weeks of gestation), breastfeeding,
body weight, key symptoms (skipping negated ones: "denies fever") and labelled vitals and labs.
No model is involved, so the same question always yields the same query.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_AGE = re.compile(r"\b(\d{1,3})[- ](year|month|week|day)s?[- ]old\b", re.IGNORECASE)
_AGE_ALT = re.compile(r"\baged?\s+(\d{1,3})(?:\s+years)?\b", re.IGNORECASE)
# (pattern, sex, noun used in the query); the first match in the text wins
_PERSON = (
    (re.compile(r"\b(girl|daughter)\b", re.IGNORECASE), "female", "girl"),
    (re.compile(r"\b(boy|son)\b", re.IGNORECASE), "male", "boy"),
    (re.compile(r"\b(infant|newborn|neonate|baby|toddler|child)\b", re.IGNORECASE), None, None),
    (re.compile(r"\b(woman|women|female|lady|mother|she|her)\b", re.IGNORECASE), "female", "woman"),
    (re.compile(r"\b(man|men|male|father|he|his)\b", re.IGNORECASE), "male", "man"),
)
_PREGNANT = re.compile(r"\b(pregnant|pregnancy|gestation|gravida|primigravida|multigravida|G\d+P\d+|antenatal|"
                       r"prenatal|trimester)\b", re.IGNORECASE)
_WEEKS = re.compile(r"\b(\d{1,2})\s*(?:weeks?|wks?)(?:'|’)?\s*(?:of\s+)?(?:gestation|pregnan|into)", re.IGNORECASE)
_WEEKS_PREGNANT = re.compile(r"\b(\d{1,2})\s*(?:-\s*)?weeks?\s+pregnant\b", re.IGNORECASE)
_TRIMESTER = re.compile(r"\b(first|second|third|1st|2nd|3rd)\s+trimester\b", re.IGNORECASE)
_BREASTFEEDING = re.compile(r"\b(breast-?feeding|lactating|nursing|postpartum)\b", re.IGNORECASE)
_WEIGHT = re.compile(r"\b(?:weighs|weighing|weight(?:\s+of)?|body weight)\s*(?:is\s+)?(\d{1,3}(?:\.\d)?)\s*kg\b",
                     re.IGNORECASE)
_NEGATION = re.compile(r"\b(no|not|denies|denied|without|negative for|absence of|free of)\b[^.;]{0,40}$",
                       re.IGNORECASE)

# symptom vocabulary: (pattern, canonical name)
_SYMPTOMS: tuple[tuple[str, str], ...] = (
    (r"fever|febrile|pyrexia", "fever"), (r"chills|rigors", "chills"), (r"headache", "headache"),
    (r"cough", "cough"), (r"haemoptysis|hemoptysis|coughing up blood", "haemoptysis"),
    (r"night sweats", "night sweats"), (r"weight loss|losing weight", "weight loss"),
    (r"vomiting|emesis", "vomiting"), (r"nausea", "nausea"), (r"diarrh(o)?ea", "diarrhoea"),
    (r"abdominal pain", "abdominal pain"), (r"jaundice|icterus|yellow(ing)? of the (skin|eyes)", "jaundice"),
    (r"convulsions?|seizures?|fits", "convulsions"), (r"confusion|confused|altered mental status|"
     r"impaired consciousness|obtunded|drowsy|lethargic|coma(tose)?", "impaired consciousness"),
    (r"shortness of breath|dyspn(o)?ea|breathless(ness)?|difficulty breathing", "shortness of breath"),
    (r"chest pain", "chest pain"), (r"palpitations", "palpitations"), (r"rash", "rash"),
    (r"itch(ing|y)?|pruritus", "itching"), (r"fatigue|tired(ness)?|malaise|weakness", "fatigue"),
    (r"dark urine|cola-colou?red urine", "dark urine"), (r"pallor|pale", "pallor"),
    (r"oedema|edema|swelling of the (legs|ankles)", "oedema"), (r"blurred vision|visual (disturbance|changes)|"
     r"vision loss|loss of vision", "visual disturbance"),
    (r"numbness|tingling|paraesthesia|paresthesia|burning (feet|sensation)", "numbness or tingling"),
    (r"joint pain|arthralgia", "joint pain"), (r"bleeding", "bleeding"), (r"proteinuria", "proteinuria"),
    (r"lymphadenopathy|swollen (lymph )?nodes?", "lymphadenopathy"), (r"myalgia|muscle aches?", "muscle aches"),
    (r"unable to (drink|feed|breastfeed)|cannot drink|poor feeding", "unable to drink or feed"),
)
_SYMPTOM_PATTERNS = tuple((re.compile(rf"\b(?:{p})\b", re.IGNORECASE), name) for p, name in _SYMPTOMS)

# labelled measurements: a name, up to a few filler words, a number (or a fraction) and its unit
_MEASURES: tuple[tuple[str, str], ...] = (
    (r"blood pressure|BP", r"\d{2,3}\s*/\s*\d{2,3}\s*(?:mm\s?Hg)?"),
    (r"temperature|temp", r"\d{2,3}(?:\.\d)?\s*°?\s*[CF]\b"),
    (r"pulse|heart rate", r"\d{2,3}(?:\s*/\s*min|\s*bpm)?"),
    (r"respiratory rate|respirations", r"\d{1,2}(?:\s*/\s*min)?"),
    (r"h(a)?emoglobin|Hb", r"\d{1,2}(?:\.\d)?\s*g/dL"),
    (r"(blood )?glucose", r"\d{1,3}(?:\.\d)?\s*(?:mmol/L|mg/dL)"),
    (r"parasit(a)?emia", r"\d{1,2}(?:\.\d+)?\s*%"),
    (r"platelets?(?: count)?", r"[\d,]+\s*(?:/\s*(?:mm3|µL|uL)|×\s*10\^?9/L)?"),
    (r"creatinine", r"\d{1,4}(?:\.\d+)?\s*(?:mg/dL|µmol/L|umol/L)"),
    (r"ALT|AST|alanine aminotransferase", r"\d{1,4}\s*(?:U/L|IU/L)"),
    (r"CD4(?: count)?", r"\d{1,4}(?:\s*cells)?(?:\s*/\s*(?:mm3|µL))?"),
    (r"HbA1c", r"\d{1,2}(?:\.\d)?\s*%"),
    (r"oxygen saturation|SpO2|O2 saturation", r"\d{2,3}\s*%"),
)
_MEASURE_PATTERNS = tuple(
    (re.compile(rf"\b({name})\b[^.;\d]{{0,25}}?({value})", re.IGNORECASE), name) for name, value in _MEASURES)


@dataclass
class Findings:
    age: str | None = None
    sex: str | None = None
    person: str | None = None  # the noun for the patient: woman, man, girl, boy, child, infant...
    pregnancy: str | None = None
    breastfeeding: bool = False
    weight: str | None = None
    symptoms: list[str] = field(default_factory=list)
    measurements: list[str] = field(default_factory=list)

    def text(self) -> str:
        """A compact comma-separated description, most discriminating facts first."""
        parts: list[str] = []
        if self.age or self.person:
            parts.append(" ".join(filter(None, (self.age, self.person))))
        if self.pregnancy:
            parts.append(self.pregnancy)
        if self.breastfeeding:
            parts.append("breastfeeding")
        if self.weight:
            parts.append(f"weight {self.weight}")
        parts.extend(self.symptoms)
        parts.extend(self.measurements)
        return ", ".join(parts)


def _trimester_from_weeks(weeks: int) -> str:
    return "first trimester" if weeks < 14 else ("second trimester" if weeks < 28 else "third trimester")


def _negated(text: str, start: int) -> bool:
    window = text[max(0, start - 60):start]
    clause = re.split(r"[.;]|\bbut\b|\band\b(?=\s+(?:has|had|is|reports))", window)[-1]
    return bool(_NEGATION.search(clause))


def _pregnancy(text: str) -> str | None:
    if not _PREGNANT.search(text):
        return None
    if re.search(r"\b(not pregnant|pregnancy test (is|was) negative|negative pregnancy test)\b", text, re.IGNORECASE):
        return None
    explicit = _TRIMESTER.search(text)
    weeks_match = _WEEKS.search(text) or _WEEKS_PREGNANT.search(text)
    parts = ["pregnant"]
    if weeks_match:
        weeks = int(weeks_match.group(1))
        parts.append(f"{weeks} weeks' gestation")
        if not explicit and 0 < weeks <= 42:
            parts.append(_trimester_from_weeks(weeks))
    if explicit:
        word = explicit.group(1).lower()
        parts.append({"1st": "first", "2nd": "second", "3rd": "third"}.get(word, word) + " trimester")
    return ", ".join(parts)


def extract_findings(text: str) -> Findings:
    """The findings stated in a question stem (see the module docstring for what is looked for)."""
    findings = Findings()
    age = _AGE.search(text)
    if age:
        findings.age = f"{age.group(1)}-{age.group(2).lower()}-old"
    elif (alt := _AGE_ALT.search(text)) is not None:
        findings.age = f"{alt.group(1)}-year-old"
    people = [(m.start(), sex, noun or m.group(1).lower(), noun is None or noun in ("girl", "boy"))
              for pattern, sex, noun in _PERSON if (m := pattern.search(text))]
    # "a child ... his mother": a child anywhere is the patient; otherwise the first adult mentioned
    chosen = min((p for p in people if p[3]), default=None) or min(people, default=None)
    if chosen is not None:
        findings.sex, findings.person = chosen[1], chosen[2]
    findings.pregnancy = _pregnancy(text)
    if findings.pregnancy:
        findings.sex, findings.person = "female", "woman"
    findings.breastfeeding = bool(_BREASTFEEDING.search(text))
    weight = _WEIGHT.search(text)
    if weight:
        findings.weight = f"{weight.group(1)} kg"
    for pattern, name in _SYMPTOM_PATTERNS:
        for match in pattern.finditer(text):
            if not _negated(text, match.start()):
                if name not in findings.symptoms:
                    findings.symptoms.append(name)
                break
    for pattern, _ in _MEASURE_PATTERNS:
        match = pattern.search(text)
        if match:
            value = " ".join(match.group(match.lastindex or 2).split())
            findings.measurements.append(f"{match.group(1).lower()} {value}")
    return findings
