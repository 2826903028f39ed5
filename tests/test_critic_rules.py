"""Critic layer 1 (no LLM): formatting, dosage safety and diagnostic rigor, in English and Spanish."""

from __future__ import annotations

import pytest

from mdagents.critic import deterministic_review
from mdagents.critic.dosage import uncited_doses
from mdagents.critic.formatting import chosen_letter, missing_concepts
from mdagents.critic.rigor import recommended_treatments
from mdagents.data.datasets import Question

BLEEDING = Question(
    id="t-0",
    question="A 60-year-old woman has postmenopausal bleeding; endometrial thickness is 12 mm. Next step?",
    options={"A": "Endometrial biopsy", "B": "Total hysterectomy", "C": "Observation", "D": "Tamoxifen 20 mg daily"},
    answer_idx="A",
    answer="Endometrial biopsy",
)
SANGRADO = Question(
    id="t-1",
    question="Mujer de 60 años con sangrado posmenopáusico y endometrio de 12 mm. ¿Siguiente paso?",
    options={"A": "Biopsia endometrial", "B": "Histerectomía total", "C": "Observación", "D": "Tamoxifeno"},
    answer_idx="A",
    answer="Biopsia endometrial",
)


def mcq(text: str, question: Question = BLEEDING):
    return deterministic_review(text, question=question, mode="mcq")


def free(text: str, question: Question | None = None):
    return deterministic_review(text, question=question, mode="free_text")


# --- formatting, multiple choice -------------------------------------------------------------

@pytest.mark.parametrize("text, question", [
    ("Postmenopausal bleeding needs a tissue diagnosis first.\nAnswer: (A) Endometrial biopsy", BLEEDING),
    ("Answer: (A) Endometrial biopsy, because tissue diagnosis comes first", BLEEDING),  # one-line (grammar) form
    ("**Final answer:** $\\boxed{A}$ because tissue must be obtained before any treatment.", BLEEDING),
    ('{"answer": "A) Endometrial biopsy", "rationale": "tissue diagnosis always comes first"}', BLEEDING),
    ("El sangrado posmenopáusico exige diagnóstico histológico.\nRespuesta: (A) Biopsia endometrial", SANGRADO),
    ("La respuesta correcta es la opción A, porque primero se necesita una muestra de tejido.", SANGRADO),
])
def test_well_formed_choice_passes(text: str, question: Question) -> None:
    verdict = mcq(text, question)
    assert (verdict.verdict, verdict.issues) == ("PASS", [])


def test_no_option_named_fails_with_the_expected_line() -> None:
    verdict = mcq("I would take a sample of the endometrium before anything else.")
    assert (verdict.verdict, verdict.layer) == ("FAIL", "format")
    assert "Answer: (X)" in verdict.feedback and "A, B, C, D" in verdict.feedback


def test_two_options_named_fails() -> None:
    verdict = mcq("Either could be right here.\nAnswer: A\nAnswer: C")
    assert (verdict.verdict, verdict.layer) == ("FAIL", "format")
    assert "several options (A, C)" in verdict.feedback


def test_same_option_repeated_is_one_option() -> None:
    text = "Tissue first, so the answer is A. Biopsy settles the diagnosis.\nFinal answer: (A) Endometrial biopsy"
    assert mcq(text).verdict == "PASS"


def test_letter_outside_the_options_fails() -> None:
    verdict = mcq("A tissue diagnosis is needed before deciding anything else.\nAnswer: (E)")
    assert verdict.layer == "format" and "(E) is not one of the options" in verdict.feedback


@pytest.mark.parametrize("text, question", [
    ("Answer: (A) Endometrial biopsy", BLEEDING),
    ("Respuesta: A", SANGRADO),
])
def test_letter_without_rationale_fails(text: str, question: Question) -> None:
    verdict = mcq(text, question)
    assert verdict.layer == "format" and any("rationale" in i for i in verdict.issues)


@pytest.mark.parametrize("text, question, quoted", [
    ("Tissue diagnosis comes first in this case.\nAnswer: (C) Endometrial biopsy", BLEEDING, "Endometrial biopsy"),
    ("Hace falta confirmar el diagnóstico primero.\nRespuesta: (C) Biopsia endometrial", SANGRADO,
     "Biopsia endometrial"),
])
def test_letter_disagreeing_with_quoted_option_text_fails(text: str, question: Question, quoted: str) -> None:
    verdict = mcq(text, question)
    assert verdict.layer == "format"
    assert f'chooses (C) but quotes the text of option (A) "{quoted}"' in verdict.feedback


def test_longer_option_text_wins_the_agreement_check() -> None:
    q = Question("t-2", "Stable angina after stent?", {"A": "Aspirin", "B": "Aspirin plus clopidogrel"}, "B", "")
    ok = mcq("Dual antiplatelet therapy is needed after a stent.\nAnswer: (B) Aspirin plus clopidogrel", q)
    bad = mcq("Dual antiplatelet therapy is needed after a stent.\nAnswer: (A) Aspirin plus clopidogrel", q)
    assert ok.verdict == "PASS"
    assert bad.verdict == "FAIL" and "quotes the text of option (B)" in bad.feedback


def test_chosen_letter_is_the_last_declared() -> None:
    assert chosen_letter("The answer is (B).") == "B"
    assert chosen_letter("The answer is a difficult one; respuesta final: **D**") == "D"
    assert chosen_letter("no letter here") is None


# --- formatting, free text ---------------------------------------------------------------------

def test_free_text_with_own_headers_passes_in_english() -> None:
    text = ("Summary of the case: fever and productive cough for three days.\n"
            "Work-up: chest X-ray to confirm consolidation.\n"
            "Therapy: amoxicillin or doxycycline.\n"
            "Bottom line: start amoxicillin and review in 48 hours.")
    assert missing_concepts(text) == []
    assert free(text).verdict == "PASS"


def test_free_text_with_own_headers_passes_in_spanish() -> None:
    text = ("Cuadro clínico: fiebre y tos productiva de tres días.\n"
            "Diagnóstico diferencial: neumonía frente a bronquitis; radiografía de tórax para confirmarlo.\n"
            "Opciones terapéuticas: amoxicilina o doxiciclina.\n"
            "En resumen: iniciar amoxicilina y reevaluar a las 48 horas.")
    assert free(text).verdict == "PASS"


@pytest.mark.parametrize("text", ["Give amoxicillin for ten days.", "Dar amoxicilina durante diez días."])
def test_bare_instruction_misses_every_concept(text: str) -> None:
    verdict = free(text)
    assert (verdict.verdict, verdict.layer) == ("FAIL", "format")
    for concept in ("clinical findings", "diagnostic validation", "management options", "final recommendation"):
        assert concept in verdict.feedback


def test_free_text_names_only_the_missing_concept() -> None:
    text = ("Hallazgos: fiebre y tos. Tratamiento: amoxicilina o doxiciclina. "
            "Recomendación: iniciar amoxicilina.")
    verdict = free(text)
    assert verdict.layer == "format"
    assert "does not cover: diagnostic validation." in verdict.feedback


# --- safety: dosages ---------------------------------------------------------------------------

FREE_OK = ("Findings: fever and cough. Diagnosis: confirmed by chest X-ray. Treatment options: antibiotics. "
           "Recommendation: ")


@pytest.mark.parametrize("text", [
    FREE_OK + "amoxicillin 500 mg every 8 hours.",
    FREE_OK + "enoxaparin 1 mg/kg twice daily.",
    FREE_OK + "amoxicilina 500 mg cada 8 horas.",
    FREE_OK + "insulina 10 UI antes de cenar.",
    # words that sound like a citation but point at nothing a reader can check
    FREE_OK + "amoxicillin 500 mg every 8 hours, according to the IDSA guideline.",
    FREE_OK + "amoxicillin 500 mg every 8 hours (IDSA 2019).",
    FREE_OK + "amoxicilina 500 mg cada 8 horas según la guía SEPAR.",
    FREE_OK + "amoxicillin 500 mg three times a day as per guidelines (2023 update).",
])
def test_uncited_dosage_fails(text: str) -> None:
    verdict = free(text)
    assert (verdict.verdict, verdict.layer) == ("FAIL", "safety")
    assert "without a cited source" in verdict.feedback and "[G1]" in verdict.feedback


@pytest.mark.parametrize("text", [
    FREE_OK + "amoxicillin 500 mg every 8 hours [1].",
    FREE_OK + "amoxicillin 500 mg every 8 hours [G2].",
    FREE_OK + "amoxicillin 500 mg every 8 hours [IDSA/ATS 2019].",
    FREE_OK + "amoxicillin, dose per local protocol; glucose 250 mg/dL and anti-Xa 0.5 IU/mL noted.",
])
def test_bracketed_source_or_lab_value_passes(text: str) -> None:
    assert free(text).verdict == "PASS"


PNEUMONIA_SECTIONS = [
    {"id": "cap.nxml#4", "source": "cap.nxml", "section": "Community-acquired pneumonia > Outpatient treatment",
     "content": "Pneumonia guideline (sample) > Community-acquired pneumonia > Outpatient treatment\n\nAmoxicillin..."},
    {"id": "cap.nxml#0", "source": "cap.nxml", "section": "Recommendations",
     "content": "Pneumonia guideline (sample) > Recommendations\n\nGeneral advice."},
]


@pytest.mark.parametrize("text", [
    FREE_OK + "amoxicillin 500 mg every 8 hours, as in section cap.nxml#4.",
    FREE_OK + "amoxicillin 500 mg every 8 hours (Community-acquired pneumonia > Outpatient treatment).",
    FREE_OK + "Amoxicillin 500 mg every 8 hours per pneumonia guideline (sample) > recommendations.",
])
def test_dosage_naming_a_retrieved_section_passes(text: str) -> None:
    assert deterministic_review(text, question=None, mode="free_text", context_chunks=PNEUMONIA_SECTIONS).verdict == "PASS"


@pytest.mark.parametrize("text", [
    FREE_OK + "amoxicillin 500 mg every 8 hours, see the recommendations.",  # a bare chapter title
    FREE_OK + "amoxicillin 500 mg every 8 hours, as in section cap.nxml#9.",  # not a retrieved section
    FREE_OK + "amoxicillin 500 mg every 8 hours, as in section cap.nxml#41.",
    FREE_OK + "amoxicillin 500 mg every 8 hours, see Outpatient treatment.",  # a leaf title is not the path
])
def test_dosage_naming_no_retrieved_section_fails(text: str) -> None:
    verdict = deterministic_review(text, question=None, mode="free_text", context_chunks=PNEUMONIA_SECTIONS)
    assert (verdict.verdict, verdict.layer) == ("FAIL", "safety")


def test_citation_must_be_in_the_dosage_sentence() -> None:
    text = FREE_OK + "amoxicillin 500 mg every 8 hours. The guideline supports antibiotics [G1]."
    assert uncited_doses(text) == ["500 mg"]
    named = FREE_OK + "amoxicillin 500 mg every 8 hours. See cap.nxml#4."
    assert uncited_doses(named, chunks=PNEUMONIA_SECTIONS) == ["500 mg"]


def test_dosage_quoted_from_the_question_is_exempt() -> None:
    text = "Tamoxifen would be wrong without tissue.\nAnswer: (D) Tamoxifen 20 mg daily"
    assert mcq(text).layer != "safety"
    assert mcq(text + "\nAdd metformin 850 mg.").layer == "safety"


# --- diagnostic rigor --------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    FREE_OK.replace("Diagnosis: confirmed by chest X-ray", "Diagnosis: likely endometrial cancer")
    + "total hysterectomy.",
    "Hallazgos: masa mamaria. Diagnóstico: probable carcinoma. Opciones: cirugía o quimioterapia. "
    "Recomendación: iniciar quimioterapia.",
])
def test_definitive_treatment_without_confirmation_fails(text: str) -> None:
    verdict = free(text, Question("t-3", "Woman with a breast mass and bleeding.", {}, "", ""))
    assert (verdict.verdict, verdict.layer) == ("FAIL", "rigor")
    assert "request the diagnostic step first" in verdict.feedback


@pytest.mark.parametrize("case", [
    "Endometrial biopsy showed grade 1 endometrioid adenocarcinoma.",
    "La biopsia confirmó un carcinoma ductal infiltrante.",
])
def test_confirmed_diagnosis_allows_definitive_treatment(case: str) -> None:
    text = ("Hallazgos: carcinoma. Diagnóstico: confirmado. Opciones: cirugía o quimioterapia. "
            "Recomendación: histerectomía total.")
    assert free(text, Question("t-4", case, {}, "", "")).verdict == "PASS"


@pytest.mark.parametrize("case", [
    "68-year-old woman with known adenocarcinoma of the endometrium, referred for treatment.",
    "Paciente con carcinoma de endometrio conocido tras legrado.",
    "Known uterine sarcoma on follow-up.",
])
def test_a_tumour_named_in_the_case_is_a_known_diagnosis(case: str) -> None:
    text = ("Findings: endometrial cancer. Diagnosis: endometrial cancer. Options: surgery. "
            "Recommendation: total hysterectomy.")
    assert free(text, Question("t-6", case, {}, "", "")).verdict == "PASS"
    # The same words without the case's diagnosis still fail.
    assert free(text, Question("t-7", "Postmenopausal bleeding.", {}, "", "")).layer == "rigor"


def test_requesting_the_biopsy_first_passes() -> None:
    text = ("Findings: postmenopausal bleeding. Diagnosis: suspected cancer, to be confirmed. "
            "Options: biopsy, then surgery if malignant. Recommendation: obtain an endometrial biopsy before surgery.")
    assert free(text, Question("t-5", "Postmenopausal bleeding.", {}, "", "")).verdict == "PASS"


def test_negated_treatment_is_not_a_recommendation() -> None:
    assert recommended_treatments("Surgery is not indicated. No se recomienda la cirugía.") == []
    assert recommended_treatments("Proceed to chemotherapy; avoid radiotherapy.") == ["chemotherapy"]


def test_mcq_rigor_judges_the_chosen_option() -> None:
    bad = mcq("Bleeding after menopause is worrying, so remove the uterus.\nAnswer: (B) Total hysterectomy")
    good = mcq("Hysterectomy would be premature; tissue diagnosis first.\nAnswer: (A) Endometrial biopsy")
    assert (bad.verdict, bad.layer) == ("FAIL", "rigor")
    assert good.verdict == "PASS"


def test_all_layer_one_problems_are_reported_together() -> None:
    verdict = free("Start chemotherapy 75 mg/m2 now.")
    assert verdict.layer == "format"
    assert len(verdict.issues) == 3
    assert "75 mg/m2" in verdict.issues[1] and "chemotherapy" in verdict.issues[2]
