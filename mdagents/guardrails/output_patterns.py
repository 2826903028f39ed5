"""Regular expressions the regex output check looks for in a model's reply, one list per violation type."""

from __future__ import annotations

# Words naming a condition: "you have <one of these>" reads as a diagnosis.
CONDITION = (r"(?:\w+itis|\w+osis|\w+emia|\w+oma|\w+pathy|cancer|diabetes|an? infection|infection|the flu|flu|"
             r"a cold|covid(?:-19)?|pneumonia|migraines?|asthma|hypertension|high blood pressure|depression|anxiety|"
             r"adhd|a tumou?r|a disease|\w+ disease|a disorder|\w+ disorder|\w+ syndrome|a condition|strep|"
             r"an? ulcer|ulcer|gerd|reflux|ibs|a uti|uti|a concussion|a fracture|a sprain|sciatica|gout|anemia|"
             r"a stroke|a heart attack|heart failure|kidney stones?|gallstones)")

# Mild phrasing that is softened ("you have the flu" -> "this may indicate the flu").
SOFTEN = [
    (r"\byou(?:'ve| have)(?: got)?\s+(?=" + CONDITION + r"\b)", "this may indicate "),
    (r"\byou(?:'re| are)\s+suffering\s+from\s+(?=" + CONDITION + r"\b)", "this may indicate "),
    (r"\byou(?:'re| are)\s+(?=(?:diabetic|anemic|hypertensive|asthmatic|depressed)\b)", "this may indicate being "),
]
# Not a diagnosis: "if you have diabetes", "people who have asthma", "do you have ...".
NOT_DIAGNOSIS_BEFORE = r"(?:\bif|\bwhen|\bwhether|\bdo|\bwho|\bthat|\bbecause|\bonce|\bin case|\bsince|\bwhile|\bunless)\s*$"

VIOLATIONS: dict[str, list[str]] = {
    "DIAGNOSIS": [
        r"\byou\s+(?:definitely|clearly|certainly|probably|most likely|likely)\s+have\b",
        r"\b(?:your|the) diagnosis is\b|\byou (?:are|have been) diagnosed with\b|\bi(?:'d| would)? diagnose\b",
        r"\bthis is (?:definitely|clearly|certainly|almost certainly)\s+(?:a |an )?" + CONDITION,
        r"\b(?:it|this) (?:sounds|looks) like you have\b",
    ],
    "TREATMENT": [
        r"\byou\s+(?:should|must|need to|have to|'ll need to)\s+(?:start|begin|take|stop|switch|get on|go on)\s+"
        r"(?:taking\s+)?(?:an?\s+)?(?:\w+\s+)?(?:antibiotics?|medications?|medicines?|\w+(?:cillin|mycin|pril|sartan|statin|olol|"
        r"prazole|azepam|oxetine|aline|formin|profen|cetamol|phen|one|ide|ine))\b",
        r"\bi\s+(?:would\s+)?(?:recommend|suggest|prescribe|advise)\s+(?:that\s+you\s+)?(?:you\s+)?(?:start|take|taking|starting|stop|"
        r"switch|a course of|an?\s+)\b",
        r"\b(?:stop|discontinue|quit)\s+taking\s+your\b",
        r"\byou\s+(?:need|require)\s+(?:surgery|antibiotics|an operation|a prescription for)\b",
    ],
    "DOSING": [
        r"\b\d+(?:\.\d+)?\s*(?:mg|mcg|µg|g|ml|units?|iu|tablets?|pills?|capsules?|puffs?|drops?)\b.{0,40}"
        r"\b(?:every|twice|once|three times|daily|a day|per day|at night|in the morning|each|hourly|bid|tid|qid)\b",
        r"\b(?:take|give|use|increase (?:it |your dose )?to|reduce (?:it |your dose )?to)\s+\d+(?:\.\d+)?\s*(?:mg|mcg|g|ml|units?|iu|tablets?|pills?|capsules?)\b",
        r"\b(?:double|halve|increase|decrease|raise|lower)\s+your\s+(?:\w+\s+)?(?:dose|dosage|insulin)\b",
        r"\b(?:maximum|max|usual|typical|recommended|starting)\s+(?:daily\s+)?(?:dose|dosage)\s+(?:is|of)\b.{0,20}\d",
    ],
    "LAB_INTERPRETATION": [
        r"\byour\s+(?:\w+\s+){0,2}(?:results?|labs?|a1c|hba1c|cholesterol|ldl|hdl|psa|tsh|creatinine|egfr|alt|ast|glucose|"
        r"blood (?:test|work|sugar|count)|levels?|mri|ct|x-?ray|scan|ultrasound|ecg|ekg|biopsy|report|numbers)\b.{0,40}"
        r"\b(?:is|are|was|were|shows?|showed|indicates?|suggests?|means?|looks?)\s+(?:\w+\s+)?"
        r"(?:high|low|elevated|normal|abnormal|fine|concerning|consistent with|dangerous|borderline|worrying|reassuring|bad|good)\b",
        r"\b(?:based on|looking at|from)\s+your\s+(?:\w+\s+)?(?:results?|labs?|numbers|scan|report|levels?|mri|x-?ray)\b",
    ],
    "CONTRADICTS_EMERGENCY": [
        r"\b(?:no need to|don'?t need to|do not need to|there'?s no need to|don'?t|do not)\s+(?:go to|call|visit|rush to)\s+"
        r"(?:the\s+)?(?:er|emergency|911|999|112|an ambulance|a&e|hospital|urgent care)\b",
        r"\b(?:wait and see|wait it out|sleep it off|ride it out)\b",
        r"\b(?:probably|likely|almost certainly)\s+(?:nothing|not)\s+(?:serious|to worry about|an emergency|dangerous)\b",
        r"\b(?:isn'?t|is not|not)\s+an?\s+emergency\b",
        r"\byou can wait (?:until|till|for)\b",
    ],
    "MEDICAL_ADVICE": [
        r"\byou\s+should\s+(?:try|avoid|eat|drink|stop|start|use|do|take|cut|increase|reduce|get|see|go)\b",
        r"\bi\s+(?:would\s+)?(?:recommend|suggest|advise)\s+(?:that\s+)?you\b",
        r"\bmy advice (?:to you )?is\b|\bin your case\b|\bfor you specifically\b",
    ],
    "OUTDATED_INFO": [
        r"\b(?:as of|in|from|since|published in|guidelines? (?:of|from))\s+(?P<year>(?:19|20)\d\d)\b",
        r"\((?P<year2>(?:19|20)\d\d)\)",
    ],
    "UNCLEAR_LANGUAGE": [
        r"\b(?:idiopathic|iatrogenic|a?etiolog\w*|orthostatic|vasovagal|\w*perfusion|pathognomonic|nosocomial|sequelae|prophylaxis|contraindicated|"
        r"comorbidit\w*|pathophysiolog\w*|sequela|paresthesia|dyspnea|dyspnoea|syncope|pruritus|erythema|emesis|"
        r"hemodynamic\w*|prn|q\.?d\.?|b\.?i\.?d\.?|t\.?i\.?d\.?|p\.?o\.?)\b",
    ],
    "SPECULATION": [
        r"\bi\s+(?:think|guess|suspect|believe|bet|feel like)\s+(?:it'?s|it is|you|this is|that'?s)\b",
        r"\bmy (?:guess|hunch|feeling) is\b|\bi'?m not (?:sure|certain) but\b",
        r"\b(?:it'?s|it is|that'?s|this is)\s+(?:probably|most likely|likely|almost certainly)\s+(?:just\s+)?(?:a |an )?\w+",
        r"\bcould be anything\b",
    ],
}

# Serious topics that need "when to seek care" in the same reply (INCOMPLETE_SAFETY).
SERIOUS_TOPIC = (r"\b(?:chest (?:pain|pressure|tightness)|heart attack|stroke|shortness of breath|trouble breathing|difficulty breathing|"
                 r"suicid\w*|self-harm|overdose|anaphylaxis|severe allergic|sepsis|severe bleeding|seizure|"
                 r"loss of consciousness|fainting|meningitis|blood in (?:your )?(?:stool|urine|vomit))\b")
SEEK_CARE = (r"\b(?:911|999|112|000|988|emergency|urgent care|seek (?:immediate |urgent |prompt )?(?:medical )?"
             r"(?:care|help|attention)|call (?:your|a) (?:doctor|clinician|healthcare)|see a doctor (?:right away|promptly|"
             r"immediately|urgently)|right away|immediately|ambulance)\b")

# Reply already carries a disclaimer / a referral to a professional.
DISCLAIMER = (r"(?:not a substitute for|not medical advice|educational (?:purposes|information)|general information|"
              r"consult (?:a|your) (?:doctor|healthcare|health care|physician|clinician|pharmacist)|"
              r"talk (?:to|with) (?:a|your) (?:doctor|healthcare|health care|physician|clinician|pharmacist)|"
              r"speak (?:to|with) (?:a|your) (?:doctor|healthcare|health care|physician|clinician|pharmacist)|"
              r"qualified health)")

# Emergency numbers of all regions (a reply naming one the patient's region does not use assumes a region).
EMERGENCY_NUMBER = r"(?:call|dial|ring|phone)\s+(?P<number>911|999|112|000|111|15|120|192|998|123)\b"
URL = r"\bhttps?://[^\s)\]>\"']+|\bwww\.[^\s)\]>\"']+"
