"""Grading on realistic replies: the shapes real models (and SmolLM2) produce."""

from __future__ import annotations

import pytest

from mdagents.data.datasets import Question
from mdagents.scoring import Grade, grade, read_answer

FOUR = {
    "A": "Metformin",
    "B": "Insulin glargine",
    "C": "Lisinopril",
    "D": "Atorvastatin",
}
FIVE = {
    "A": "Acute pancreatitis",
    "B": "Perforated peptic ulcer",
    "C": "Acute cholecystitis",
    "D": "Small bowel obstruction",
    "E": "Mesenteric ischemia",
}
YES_NO = {"A": "yes", "B": "no", "C": "maybe"}
NESTED = {"A": "Metformin", "B": "Metformin and insulin", "C": "Observation", "D": "Surgery"}

OK_CASES = [
    # (reply, options, expected letter)
    ("Answer: (C)", FOUR, "C"),
    ("Answer: C", FOUR, "C"),
    ("**Answer: C**", FOUR, "C"),
    ("**Answer:** C", FOUR, "C"),
    ("The answer is C.", FOUR, "C"),
    ("The correct answer is (B) Insulin glargine.", FOUR, "B"),
    ("$\\boxed{C}$", FOUR, "C"),
    ("Therefore the final answer is $\\boxed{\\text{D}}$.", FOUR, "D"),
    ("\\[ \\boxed{(A)} \\]", FOUR, "A"),
    ("(C) Lisinopril", FOUR, "C"),
    ("C) Lisinopril, because ACE inhibitors protect the kidney.", FOUR, "C"),
    ("Final answer: c", FOUR, "C"),
    ("final answer: (d)", FOUR, "D"),
    ("the answer is b.", FOUR, "B"),
    ("C", FOUR, "C"),
    ("(D).", FOUR, "D"),
    ("Lisinopril", FOUR, "C"),
    ("The best treatment here is atorvastatin, to lower LDL.", FOUR, "D"),
    ("I first thought A, since metformin is first line. Answer: C", FOUR, "C"),
    ("Answer: A\n\nWait, on reflection the kidney matters more.\nAnswer: (C)", FOUR, "C"),
    ("The answer is A. Actually, no: the answer is C.", FOUR, "C"),
    ("Answer: (E) Mesenteric ischemia", FIVE, "E"),
    ("The most likely diagnosis is E) Mesenteric ischemia given pain out of proportion.", FIVE, "E"),
    ("**Final Answer**: (E)", FIVE, "E"),
    ("Option E is correct.", FIVE, "E"),
    ("(B) is the correct answer because of free air under the diaphragm.", FIVE, "B"),
    ("## Answer\nB", FIVE, "B"),
    ("`Answer: D`", FIVE, "D"),
    ("Answer: Acute cholecystitis", FIVE, "C"),
    ("yes", YES_NO, "A"),
    ("No.", YES_NO, "B"),
    ("Maybe, the evidence is mixed.", YES_NO, "C"),
    ("Based on the results, the answer is yes.", YES_NO, "A"),
    ("Answer: (B) no", YES_NO, "B"),
    ("Answer: Metformin and insulin", NESTED, "B"),
    ("Start metformin and insulin together.", NESTED, "B"),
    ("I'd go with C.", FOUR, "C"),
    ("The correct option is: D", FOUR, "D"),
    ("The answer would be option B, insulin glargine.", FOUR, "B"),
    # SmolLM2-135M style: repeats the question, rambles, then answers.
    (
        "A 54-year-old man with type 2 diabetes and albuminuria. The patient has diabetes. "
        "The patient has protein in the urine. Diabetes can damage the kidneys. "
        "The answer is C) Lisinopril. Lisinopril is an ACE inhibitor. Lisinopril is used for blood pressure.",
        FOUR,
        "C",
    ),
    (
        "The patient has a history of diabetes. Metformin is a drug for diabetes. Atorvastatin lowers "
        "cholesterol. Insulin is a hormone.\n\nAnswer: (C) Lisinopril\n\nExplanation: The answer is (C) "
        "Lisinopril because it reduces proteinuria.",
        FOUR,
        "C",
    ),
    (
        "Step 1: consider the options.\nA. Metformin - first line for glucose.\nB. Insulin - not needed.\n"
        "C. Lisinopril - reduces albuminuria.\nD. Atorvastatin - lipids.\nThe best answer is C.",
        FOUR,
        "C",
    ),
    ("Answer: (X)\nAnswer: (B)", FOUR, "B"),
]

FAILED_CASES = [
    ("", FOUR),
    ("   \n", FOUR),
    ("It could be A or C.", FOUR),
    ("Either (A) or (C) would be reasonable here.", FOUR),
    ("Answer: (F)", FOUR),
    ("Answer: E", FOUR),
    ("I am not sure. The patient needs more tests.", FOUR),
    ("Both metformin and lisinopril are reasonable choices.", FOUR),
    (
        "Option A: Metformin helps glucose. Option B: insulin helps too. Option C: Lisinopril helps kidneys.",
        FOUR,
    ),
    ("A 54-year-old man with diabetes presents with albuminuria.", FOUR),
    ("The answer is not clear from the information given.", FOUR),
    ("There is no evidence either way in this trial.", YES_NO),
    ("Answer: (X)", FOUR),
    ("Answer: B or C", FOUR),
    ("The patient should receive the hepatitis B vaccine.", FOUR),
    ("Looking at the answer choices A through D, I cannot decide.", FOUR),
]


@pytest.mark.parametrize(("reply", "options", "expected"), OK_CASES)
def test_reads_the_intended_letter(reply: str, options: dict[str, str], expected: str) -> None:
    reading = read_answer(reply, options)
    assert (reading.letter, reading.status, reading.reason) == (expected, "ok", None)


@pytest.mark.parametrize(("reply", "options"), FAILED_CASES)
def test_unparseable_or_ambiguous_replies_fail_with_a_reason(reply: str, options: dict[str, str]) -> None:
    reading = read_answer(reply, options)
    assert (reading.letter, reading.status) == (None, "failed")
    assert reading.reason in ("conflict", "ambiguous", "refused", "none")


def test_there_are_enough_reply_variants() -> None:
    assert len(OK_CASES) + len(FAILED_CASES) >= 40


def test_lowercase_option_keys_are_returned_as_given() -> None:
    assert read_answer("Answer: (B)", {"a": "x", "b": "y"}).letter == "b"


def _question(answer_idx: str = "C") -> Question:
    return Question(id="medqa-test-1", question="?", options=FOUR, answer_idx=answer_idx, answer=FOUR[answer_idx])


def test_grade_marks_right_wrong_and_failed() -> None:
    assert grade("Answer: (C)", _question()) == Grade("C", "ok", True, "contract")
    assert grade("Answer: (A)", _question()) == Grade("A", "ok", False, "contract")
    assert grade("Lisinopril", _question()) == Grade("C", "ok", True, "option_text")
    assert grade("no idea", _question()) == Grade(None, "failed", False, "none", "none")
    assert grade("Answer: (A) Lisinopril", _question()) == Grade(None, "failed", False, "contract", "conflict")


TALLIES = [  # (tally, options): votes reported by letter or by the options' own words
    ("Votes: {a} = 2, {b} = 2.", FOUR), ("Expert votes: {a}: 2, {b}: 2.", FOUR), ("Expert votes: {a} = 2, {b} = 2.", YES_NO),
]


@pytest.mark.parametrize(("tally", "options"), TALLIES)
@pytest.mark.parametrize("by_text", [False, True])
@pytest.mark.parametrize("close", ["", " The group is evenly split.", " I cannot break the tie from the abstract alone."])
def test_a_tied_tally_is_no_answer_however_the_votes_are_named(tally: str, options: dict[str, str], by_text: bool,
                                                                close: str) -> None:
    a, b = (options["A"], options["B"]) if by_text or options is YES_NO else ("A", "B")
    reading = read_answer(tally.format(a=a, b=b) + close, options)
    assert (reading.letter, reading.reason) == (None, "ambiguous")
    decided = read_answer(tally.format(a=a, b=b) + f"\n\nAnswer: ({'B'}) {options['B']}", options)
    assert decided.letter == "B"  # a decision after the tally still counts


@pytest.mark.parametrize("opening", ["A is likely given the findings.", "A fits best."])
def test_a_reply_that_weighs_each_letter_in_turn_names_no_single_one(opening: str) -> None:
    reply = f"{opening} B would show something else. C shortens the QT. D causes torsades."
    assert read_answer(reply, FOUR).letter is None
    assert read_answer("A 54-year-old man. Metformin first. C is not indicated.", FOUR).letter != "C"


@pytest.mark.parametrize(("stated", "line", "expected"), [
    ("the next step is lisinopril", "Answer: Metformin", None),  # reasoning and answer line disagree: a conflict
    ("the best next step is metformin", "Answer: Metformin", "A"),
    ("the next step is lisinopril", "Actually, on reflection, Answer: (A) Metformin", "A"),  # a revision
])
def test_a_next_step_stated_before_the_answer_line_must_agree_with_it(stated: str, line: str, expected: str | None) -> None:
    reading = read_answer(f"Given the findings, {stated}.\n\n{line}", FOUR)
    assert reading.letter == expected
    if expected is None:
        assert reading.reason == "conflict"


@pytest.mark.parametrize(("reply", "options", "expected"), [
    ("Resposta: deficiência de vitamina B12", {"A": "Vitamin B12 deficiency", "B": "Folate deficiency",
                                                "C": "Iron deficiency"}, "A"),
    ("Respuesta: colecistitis aguda", FIVE, None),  # a translation that is not a spelling: not guessed
    ("उत्तर: मधुमेह", {"A": "मधुमेह", "B": "उच्च रक्तचाप"}, "A"),  # other scripts keep their vowel signs
])
def test_accents_are_spelling_not_meaning(reply: str, options: dict[str, str], expected: str | None) -> None:
    assert read_answer(reply, options).letter == expected


DEMENTIA = {"A": "Lewy body dementia", "B": "Alzheimer disease", "C": "Frontotemporal dementia", "D": "Vascular dementia"}


@pytest.mark.parametrize(("reply", "expected"), [
    # an eponym is not the marker "pick": without an answer line there is no answer, with one it stands
    ("Disinhibition and frontal atrophy. This is Pick disease.", None),
    ("Disinhibition and frontal atrophy. This is Pick disease.\n\nAnswer: (C) Frontotemporal dementia", "C"),
    ("Disinhibition and frontal atrophy: Pick disease, in short.\n\nAnswer: C", "C"),
    # a sentence opening on the article "A" is not a rating of option A
    ("A right frontal lesion was excluded. A correct history matters here.\n\nAnswer: (C) Frontotemporal dementia", "C"),
    ("A right-sided weakness is absent.\nA best-practice work-up was done.\n\nFinal answer: D", "D"),
    # a note after the answer that mentions other options describes them, it does not offer them
    ("The answer is **C**.\n\nNote that option B describes amyloid plaques, and option A describes Lewy bodies.", "C"),
    ("The answer is C.\nOr B, if the memory loss came first.", None),
    # counts reported as "letter - text: n" are a tally, not a choice
    ("Panel votes:\nB - Alzheimer disease: 2 (geriatrician, neurologist)\nC - Frontotemporal dementia: 3 (psychiatrist, "
     "radiologist, internist)\n\nAnswer: (C) Frontotemporal dementia", "C"),
])
def test_names_articles_notes_and_counts_are_not_choices(reply: str, expected: str | None) -> None:
    assert read_answer(reply, DEMENTIA).letter == expected


NECK = {"A": "Cystic hygroma", "B": "Thyroglossal duct cyst", "C": "Branchial cleft cyst", "D": "Dermoid cyst"}


@pytest.mark.parametrize(("reply", "expected"), [
    ("Midline and moves with swallowing.\n\nI'd go with the thyroglossal cyst.", "B"),
    ("The answer is Meckel's diverticulum.", None),  # no such option here
    ("Diagnosis: thyroglossal duct cyst.", "B"),
    ("**Most likely: branchial cyst**", "C"),
    ("I'd go with the cleft cyst.", "C"),
    ("I'd go with the neck cyst.", None),  # "cyst" is in every option: none is named
    ("La respuesta es: quiste del conducto tirogloso.", None),  # a translation: the model extractor's
])
def test_a_conclusion_naming_part_of_one_option_names_it(reply: str, expected: str | None) -> None:
    assert read_answer(reply, NECK).letter == expected


@pytest.mark.parametrize(("reply", "expected"), [
    ("La respuesta es: tal vez.", "C"), ("La réponse est non.", "B"), ("Die Antwort ist ja.", "A"),
    ("A resposta é: não.", "B"), ("La réponse: peut-être, sans plus de données.", "C"),
])
def test_foreign_answer_words_before_yes_no(reply: str, expected: str | None) -> None:
    assert read_answer(reply, YES_NO).letter == expected


@pytest.mark.parametrize(("reply", "letter", "reason"), [
    ("Symptoms with minimal activity, none at rest: this is NYHA class 3 heart failure.", "C", None),
    ("Answer: (C) NYHA class three", "C", None),
    ("Answer: class 3", "C", None),
    ("Answer: Class II–III", None, "ambiguous"),
    ("Answer: (B) Class III", None, "conflict"),
])
def test_roman_and_arabic_numerals_after_a_counting_word_are_the_same_option(reply: str, letter: str | None,
                                                                              reason: str | None) -> None:
    options = {"A": "NYHA class I", "B": "NYHA class II", "C": "NYHA class III", "D": "NYHA class IV"}
    found = read_answer(reply, options)
    assert (found.letter, found.reason) == (letter, reason)


BACTERIA = {"A": "Campylobacter jejuni", "B": "Salmonella Typhi", "C": "Shigella dysenteriae",
            "D": "Escherichia coli O157:H7", "E": "Vibrio cholerae"}


@pytest.mark.parametrize(("reply", "expected"), [
    ("Answer: C. jejuni", "A"),  # the genus's initial, not the letter C
    ("Bloody diarrhoea after undercooked chicken.\n\nAnswer: (A) C. jejuni", "A"),
    ("Answer: E. coli O157:H7", "D"),
    ("Answer: (C) E. coli O157:H7", None),  # the letter C and option D's species: a conflict
    ("Answer: E", "E"),  # a letter alone is still a letter
    ("Answer: V. cholerae", "E"),
])
def test_a_genus_shortened_to_its_initial_names_its_option(reply: str, expected: str | None) -> None:
    assert read_answer(reply, BACTERIA).letter == expected


ANTIDOTES = {"A": "Naloxone", "B": "Flumazenil", "C": "N-acetylcysteine", "D": "Fomepizole"}


@pytest.mark.parametrize(("reply", "options", "expected", "reason"), [
    ("Answer: NAC", ANTIDOTES, "C", None),  # not "N/A"
    ("Answer: N/A", ANTIDOTES, None, "refused"),
    ("NAC", ANTIDOTES, "C", None),  # a whole reply that is one option's abbreviation
    ("Thiamine", {"A": "Vitamin B1 (thiamine)", "B": "Vitamin B3 (niacin)", "C": "Vitamin C"}, "A", None),
    ("Class A", {"A": "Child-Pugh class C", "B": "Child-Pugh class A", "C": "Child-Pugh class B"}, None, "none"),
    ("Tegretol", {"A": "Carbamazepine", "B": "Gabapentin"}, None, "none"),  # a brand name: the extractor's
])
def test_a_short_whole_reply_is_read_as_its_answer(reply: str, options: dict[str, str], expected: str | None,
                                                     reason: str | None) -> None:
    reading = read_answer(reply, options)
    assert (reading.letter, reading.reason) == (expected, reason)


YES_NO = {"A": "yes", "B": "no", "C": "maybe"}


@pytest.mark.parametrize(("reply", "expected"), [
    ("Answer: yes\n" * 6 + "Answer:", "A"),  # an answer repeated until the limit cut the last one empty
    ("Answer: yes\nWait, let me reconsider the secondary endpoint.\nAnswer:", None),  # cut while revising
    ("Answer:", None),
])
def test_an_answer_line_cut_empty(reply: str, expected: str | None) -> None:
    reading = read_answer(reply, YES_NO, finish_reason="length")
    assert reading.letter == expected and (expected is not None or reading.reason == "truncated")


@pytest.mark.parametrize("reply", [
    "Antwort: (A) ja bzw. (C) vielleicht",
    "Réponse : (A) oui ou (C) peut-être",
    "Antwort: (A) oder (C)",
    "Risposta: (A) sì oppure (C) forse",
])
def test_two_answers_joined_by_or_in_other_languages_are_ambiguous(reply: str) -> None:
    assert read_answer(reply, YES_NO).reason == "ambiguous"


GLOMERULAR = {"A": "IgA nephropathy", "B": "Poststreptococcal glomerulonephritis", "C": "Alport syndrome",
              "D": "Goodpasture syndrome"}
VERDICT_TABLE = ("| Option | Latency | C3 | Verdict |\n|---|---|---|---|\n| A. IgA nephropathy | 1-2 days | Normal | ✗ |\n"
                 "| B. Poststreptococcal GN | 1-3 weeks | Low | {b} |\n| C. Alport syndrome | none | Normal | ✗ |\n"
                 "| D. Goodpasture syndrome | none | Normal | {d} |\n\n")


@pytest.mark.parametrize(("b", "d", "line", "expected"), [
    ("✓ Best fit", "✗", "Answer: (B) Poststreptococcal glomerulonephritis", "B"),
    ("✓ Best fit", "✗", "Answer: (A) IgA nephropathy", None),  # the table picks B, the answer line A: a conflict
    ("**Yes**", "No", "Answer: (D) Goodpasture syndrome", None),
    ("Most likely", "Unlikely", "", "B"),  # the table alone
    ("Yes", "Yes", "Answer: (D) Goodpasture syndrome", "D"),  # two rows picked: the table decides nothing
])
def test_a_table_whose_verdict_column_picks_one_option(b: str, d: str, line: str, expected: str | None) -> None:
    reading = read_answer(VERDICT_TABLE.format(b=b, d=d) + line, GLOMERULAR)
    assert reading.letter == expected and (expected is not None or reading.reason == "conflict")


@pytest.mark.parametrize(("reply", "expected", "reason"), [
    ("1. Focal segmental glomerulosclerosis — 45%\n2. Minimal change disease — 45%\n\nFocal segmental "
     "glomerulosclerosis and minimal change disease are essentially tied here.", None, "ambiguous"),
    ("Which of the following is the most likely diagnosis? Focal segmental glomerulosclerosis, minimal change "
     "disease, IgA nephropathy. Please think step by step.", None, "none"),
])
def test_a_tie_or_an_echoed_question_is_no_answer(reply: str, expected: str | None, reason: str) -> None:
    options = {"A": "Focal segmental glomerulosclerosis", "B": "Minimal change disease", "C": "IgA nephropathy"}
    assert (read_answer(reply, options).letter, read_answer(reply, options).reason) == (expected, reason)


HEART = {"A": "Metoprolol", "B": "Verapamil", "C": "Furosemide", "D": "Digoxin", "E": "Atenolol"}


@pytest.mark.parametrize(("reply", "expected", "reason"), [
    ("The answer is: 3", "C", None),  # an option by its number
    ("A loop diuretic reduces preload.\n\nAnswer: 3. Furosemide", "C", None),
    ("Answer: 2. Furosemide", None, "conflict"),  # option 2 is verapamil, the text furosemide
    ("The correct choice is number 4 (digoxin).", "D", None),
])
def test_an_option_given_by_its_number(reply: str, expected: str | None, reason: str | None) -> None:
    reading = read_answer(reply, HEART)
    assert (reading.letter, reading.reason) == (expected, reason)


def test_a_numbered_list_after_a_marker_is_not_an_answer() -> None:
    reply = "Limits before drawing a conclusion:\n\n1. Selection bias: not randomised.\n2. Confounding: sicker patients"
    assert read_answer(reply, YES_NO).letter is None


def test_numbers_are_not_positions_when_options_are_numbers() -> None:
    assert read_answer("Answer: 2", {"A": "2 mg", "B": "4 mg", "C": "6 mg"}).letter != "B"


@pytest.mark.parametrize(("reply", "expected"), [
    ("<|im_start|>assistant\nC<|im_end|>\n<|im_start|>assistant\n", "C"),  # the model's own turn header is not words
    ("[/INST] C", "C"),
    ("B. Verapamil\n\nQuestion: Which drug treats pulmonary edema?\nA. Furosemide\nB. Digoxin\nAnswer: A. Furosemide",
     "B"),  # opened on its answer, then invented a next question
    ("Furosemide unloads the lungs.\n\nAnswer: (C) Furosemide\n\n**Question:** Which drug ...?\n(A) x\n\nAnswer: (A) x",
     "C"),
])
def test_what_a_small_model_writes_around_its_answer(reply: str, expected: str) -> None:
    assert read_answer(reply, HEART).letter == expected


@pytest.mark.parametrize(("reply", "finish_reason", "expected"), [
    ("Answer: (B) no\n" * 5 + "Answer: (B", "length", "B"),  # a loop cut in its last copy
    ("Answer: (B) no\nAnswer: (B", "length", None),  # written once, then cut: not a loop
    ("- the axillary nerve\n- the median nerve descends\n- the median", "length", None),  # a list cut, not a loop
])
def test_a_line_repeated_until_the_token_limit(reply: str, finish_reason: str, expected: str | None) -> None:
    assert read_answer(reply, YES_NO, finish_reason=finish_reason).letter == expected


@pytest.mark.parametrize(("reply", "expected", "reason"), [
    ("The answer is (C), low potassium levels.", "C", None),
    ("The answer is (C), low phosphate levels.", None, "conflict"),
    ("Final decision: C, with digoxin to follow.", "C", None),  # what follows "with" is not the answer's name
])
def test_the_words_beside_an_answer_letter(reply: str, expected: str | None, reason: str | None) -> None:
    options = {"A": "Hypernatremia", "B": "Hypercalcemia", "C": "Hypokalemia", "D": "Hypophosphatemia"}
    reading = read_answer(reply, options)
    assert (reading.letter, reading.reason) == (expected, reason)


@pytest.mark.parametrize(("reply", "expected"), [
    ("Pain migrating to McBurney point with fever. The answer is Appendisitis.", "C"),  # misspelt
    ("A) Ovarian torsion\nB) Diverticulitis\nC) Acute appendicitis\nD) Crohn disease\n\nC) Acute appendicitis", "C"),
])
def test_a_misspelling_a_verb_and_an_echoed_list(reply: str, expected: str | None) -> None:
    options = {"A": "Ovarian torsion", "B": "Diverticulitis", "C": "Acute appendicitis", "D": "Crohn disease"}
    assert read_answer(reply, options).letter == expected


def test_to_answer_is_a_verb_not_a_label() -> None:
    reply = "Both parts need to be satisfied to answer \"yes.\" Safety data, however, are limited and the question is"
    assert read_answer(reply, YES_NO, finish_reason="length").reason == "truncated"


MENINGITIS = {"A": "Viêm màng não do phế cầu", "B": "Viêm màng não do lao", "C": "Viêm màng não do virus",
              "D": "Viêm màng não do não mô cầu"}
NEPHRO = {"A": "Острый цистит", "B": "Острый пиелонефрит", "C": "Мочекаменная болезнь", "D": "Острый гломерулонефрит"}


@pytest.mark.parametrize(("reply", "options", "expected", "reason"), [
    ("Ответ: Б) Острый пиелонефрит", NEPHRO, "B", None),  # Cyrillic option letters, in order
    ("Ответ: Г) Острый пиелонефрит", NEPHRO, None, "conflict"),  # Г is the fourth
    ("В анализе мочи лейкоцитурия.\n\nОтвет: В", NEPHRO, "C", None),  # "В" opening a sentence is a word
    ("उत्तर: (ख)", NEPHRO, "B", None),
    ("정답: ② 급성 신우신염", NEPHRO, "B", None),
    ("答え：エ", NEPHRO, "D", None),
    ("الإجابة: ج", NEPHRO, "C", None),
    ("Đáp án: D. Viêm màng não do lao", MENINGITIS, None, "conflict"),  # the label, then a letter and another text
    ("Vậy đáp án là A hoặc B, tùy thời điểm.", MENINGITIS, None, "ambiguous"),
    ("答案：A、C", MENINGITIS, None, "ambiguous"),
    ("Risposta: A\n\nAnzi no, rileggendo: la risposta giusta è la C.", MENINGITIS, "C", None),
    ("J'hésite entre B et D.\n\nLes deux restent défendables.", MENINGITIS, None, "ambiguous"),
])
def test_answers_in_other_languages_and_scripts(reply: str, options: dict[str, str], expected: str | None,
                                                reason: str | None) -> None:
    reading = read_answer(reply, options)
    assert (reading.letter, reading.reason) == (expected, reason)


@pytest.mark.parametrize(("reply", "expected"), [
    ("Нет. Различия статистически незначимы.", "B"),
    ("はい。\n\n本研究では有意に低下していました。", "A"),
    ("Có thể.\n\nKết quả gợi ý ...", "C"),
    ("Có nhiều nghiên cứu về vấn đề này, nhưng kết quả khác nhau.", None),  # "Có" opening a sentence: "there are"
    ("结论：否。", "B"),
    ("Resposta: A) não", None),  # the letter says yes, the word no
])
def test_yes_no_answered_in_other_languages(reply: str, expected: str | None) -> None:
    assert read_answer(reply, YES_NO).letter == expected


@pytest.mark.parametrize(("reply", "options", "expected", "reason"), [
    ("Ans. is 'd' i.e., All of the above", {"A": "B12", "B": "Folate", "C": "Thyroid", "D": "All of the above"}, "D", None),
    ("Ans. is 'a' i.e., Ulnar nerve", {"A": "Median nerve", "B": "Ulnar nerve", "C": "Radial nerve"}, None, "conflict"),
    ("Answer is option 2 (9%).", {"A": "4.5%", "B": "9%", "C": "18%", "D": "1%"}, "B", None),  # numeric options
    ("Many students pick pubarche (B), but the first sign is thelarche.\n\nSo the answer is A.",
     {"A": "Thelarche", "B": "Pubarche", "C": "Menarche"}, "A", None),
    ("The results differ by time point.\n\nSo: yes for long-term outcomes, no for short-term outcomes.", YES_NO, None,
     "ambiguous"),
])
def test_indian_exam_answers_and_split_yes_no(reply: str, options: dict[str, str], expected: str | None,
                                              reason: str | None) -> None:
    reading = read_answer(reply, options)
    assert (reading.letter, reading.reason) == (expected, reason)


def test_the_replys_own_odds_or_ranking_are_weighed_against_its_answer() -> None:
    options = {"A": "Carbamazepine", "B": "Valproate", "C": "Ethosuximide", "D": "Phenytoin"}
    odds = "P(A)=0.02  P(B)=0.25  P(C)=0.70  P(D)=0.03\n\n"
    assert read_answer(odds + "Answer: (C) Ethosuximide", options).letter == "C"
    assert read_answer(odds + "Answer: (B) Valproate", options).reason == "conflict"
    assert read_answer("Ranking: C > B > A > D\n\nAnswer: B", options).reason == "conflict"
    assert read_answer("A: 5%\nB: 10%\nC: 80%\nD: 5%\n\nEthosuximide is first line.", options).letter == "C"
    assert read_answer("A: 10%, B: 40%, C: 40%, D: 10%", options).reason == "ambiguous"


@pytest.mark.parametrize(("reply", "options", "expected", "reason"), [
    ("Both are specific for SLE.\n\nAnswer: C — Both A and B.",
     {"A": "Anti-dsDNA", "B": "Anti-Sm", "C": "Both A and B", "D": "Anti-histone"}, "C", None),  # its own text
    ("Answer: C — B and D.", {"A": "Anti-dsDNA", "B": "Anti-Sm", "C": "Both A and B", "D": "Anti-histone"}, None, "ambiguous"),
    ("→ A (TMP-SMX DS daily)", {"A": "Trimethoprim-sulfamethoxazole", "B": "Dapsone", "C": "Atovaquone"}, "A", None),
    ("46,XY, high testosterone.\n\nCevap: Seçenek C — Androjen duyarsızlık sendromu.",
     {"A": "Turner syndrome", "B": "Klinefelter syndrome", "C": "Androgen insensitivity syndrome"}, "C", None),
    ("Anterior STEMI within 90 minutes.\n\nAnswer: primary percutaneous coronary intervention",
     {"A": "Streptokinase", "B": "Primary PCI", "C": "Tenecteplase", "D": "CABG"}, "B", None),  # the option abbreviates
    ("Grows beyond the wound margins, recurs after excision.\n\nA.\n\n(A hypertrophic scar would stay within the wound.)",
     {"A": "Keloid", "B": "Hypertrophic scar", "C": "Lipoma"}, "A", None),  # a remark after the answer
    ("Grows beyond the wound margins.\n\nA.\n\n(But a hypertrophic scar is possible if it regresses.)",
     {"A": "Keloid", "B": "Hypertrophic scar", "C": "Lipoma"}, None, "ambiguous"),
])
def test_an_options_own_letters_an_arrow_and_an_aside(reply: str, options: dict[str, str], expected: str | None,
                                                       reason: str | None) -> None:
    reading = read_answer(reply, options)
    assert (reading.letter, reading.reason) == (expected, reason)


CUSHING = {"A": "Exogenous glucocorticoids", "B": "Pituitary adenoma", "C": "Adrenal adenoma", "D": "Ectopic ACTH secretion"}


IN_TRANSPORT = [  # (reply, expected, reason) against CUSHING
    ('{"id": "msg_1", "type": "message", "content": [{"type": "text", "text": "Iatrogenic.\\n\\nAnswer: A"}]}', "A", None),
    ('{"choices": [{"index": 0, "message": {"role": "assistant", "content": "Iatrogenic.\\nAnswer: B"}}]}', "B", None),
    ('{"candidates": [{"content": {"parts": [{"text": "Answer: C"}]}}]}', "C", None),
    ('{"messages": [{"role": "user", "content": "A. x\\nB. y"}, {"role": "assistant", "content": "Answer: D"}]}', "D", None),
    ("\n\n".join(f'data: {{"choices": [{{"delta": {{"content": "{part}"}}}}]}}' for part in ("Iatro", "genic. Answer", ": A")),
     "A", None),
    ('"Iatrogenic \\u2192 exogenous steroids.\\nAnswer: A"', "A", None),  # a JSON string
    ("DEBUG:root:raw='Iatrogenic.\\n\\nAnswer: B'", "B", None),  # a log's repr: escaped newlines
    ("<p>Iatrogenic.</p><p><b>Answer: A &mdash; Exogenous glucocorticoids</b></p>", "A", None),
    ("<p>Iatrogenic.</p><p><b>Answer: C &mdash; Pituitary adenoma</b></p>", None, "conflict"),
    ("<p><strong>Answer:</strong> &#68; &ndash; ectopic ACTH</p>", "D", None),
    ("Iatrogenic.\n\nAnswer: \u200bA\u200b", "A", None),  # zero-width spaces
    ("\ufeffA\n\nIatrogenic.", "A", None),  # a byte-order mark
    ("~~Answer: B~~\n\nCorrection: iatrogenic is commoner.\n\n**Answer: A**", "A", None),  # struck out
    ("| Q | Answer | Key fact |\n|:-:|:-:|---|\n| Commonest cause | **A** | steroids |", "A", None),
    ("| Feature | Finding |\n|---|---|\n| Cortisol | high |\n| **Diagnosis** | **Ectopic ACTH secretion** |", "D", None),
    ("Steroid use, no mass → exogenous glucocorticoids. Taper slowly.", "A", None),  # an arrow to an option
    ("Low ACTH → adrenal adenoma; high ACTH → pituitary adenoma.", None, "none"),  # associations, not a conclusion
    ("**Best answer: B**\n\n---\n**TL;DR** — adrenal adenoma, **C**.", None, "conflict"),
    ("Final answer: Adrenal adenoma — B", None, "conflict"),  # the text first, then another letter
    ("I can't provide personal medical advice, but for this exam question: steroids. Answer: A", "A", None),
    ("I can't help with this one: it could facilitate harm. I'd be glad to explain pituitary adenoma instead.", None,
     "refused"),
    ("analysisSteroid use is commonest. So A.assistantfinal**A – Exogenous glucocorticoids**", "A", None),
    ("**A (exogenous glucocorticoids).** Taper slowly and check the axis.", "A", None),
    ('```json\n{"options": [{"letter": "A", "correct": true}, {"letter": "B", "correct": false}]}\n```', "A", None),
    ("Empiric therapy is A + B + C (all three), plus ectopic ACTH secretion (D) work-up.", None, "ambiguous"),
]
YES_NO_OPENINGS = [  # against YES_NO
    ("Yes.\n\nThe loading reduced insulin resistance; stay did not differ.\n\nAnswer: no", None, "conflict"),
    ("Yes, this is an interesting question. No difference was found.\n\nAnswer: (B) no", "B", None),
    ("The association splits by sex: the honest answer is \"yes for men, no for women.\"", None, "ambiguous"),
    ('```json\n{"final_decision": "yes"}\n```\n\nThe trial showed no benefit. The answer is no.', None, "conflict"),
    ("**C** (maybe) — the association lost significance after adjustment.", "C", None),
]
HYPO = {"A": "Hypokalemia", "B": "Hyperkalemia", "C": "Hypocalcemia", "D": "Hypernatremia"}
AGENT_FRAMEWORKS = [  # against HYPO; look-alike words too
    ('Thought: the ECG shows U waves.\nAction: submit_answer(option="A")', "A", None),
    ("Thought: peaked T waves.\nFinish[B]", "B", None),
    ("<INFO> C", "C", None),
    ('RunResult.final_output: "A"\n\nLast agent: hypokalemia, so my final answer is B.', None, "conflict"),
    ('{"votes": [{"agent": "a", "choice": "B"}, {"agent": "b", "choice": "A"}], "final": "B"}', "B", None),
    ('{"final": {"letter": "C", "text": "Hypocalcemia"}}', "C", None),
    ("FINAL_ANSWER: A\n\nRationale: U waves and weakness.", "A", None),
    ("Votes: A 1, B 3.\nWinner: B (3/4)", "B", None),
    ("Agent 1: peaked T waves.\nAgent 2: agreed.\n\nFinal answer: B\n\nTERMINATE", "B", None),
    ("## Final Answer:\nThe answer has been submitted via the Submit Answer tool.\n\nTool input: {\"letter\": \"A\"}", "A", None),
    ("So the answer is hyperkalaemia.", "B", None),
    ("The reading is hypomagnesemia.", None, "none"),  # not hypernatremia or hypokalemia misspelt
    ("**Final decision: A**\n\nU waves and weakness on the ECG.\n\nB) Hyperkalemia", None, "conflict"),
    ('{"steps": [{"agent": "a", "output": "U waves"}], "final": {"letter": "A", "text": "Hypokalemia"}}', "A", None),
    ("Renal_Agent: U waves and weakness.\nCardio_Agent: agreed, the ECG fits.\nJudge: A.", "A", None),
    ("AI Assistant: Solution: B. Peaked T waves and a wide QRS.\nNext request.", "B", None),
    ("| Agent | Verdict |\n|---|---|\n| renal | peaked T waves |\n| **Final** | **B — Hyperkalemia** |", "B", None),
]


@pytest.mark.parametrize(("reply", "options", "expected", "reason"), [
    *((reply, CUSHING, expected, reason) for reply, expected, reason in IN_TRANSPORT),
    *((reply, YES_NO, expected, reason) for reply, expected, reason in YES_NO_OPENINGS),
    *((reply, HYPO, expected, reason) for reply, expected, reason in AGENT_FRAMEWORKS),
])
def test_transport_agent_frameworks_and_yes_no_openings(reply: str, options: dict[str, str], expected: str | None,
                                                         reason: str | None) -> None:
    reading = read_answer(reply, options)
    assert (reading.letter, reading.reason) == (expected, reason)


@pytest.mark.parametrize(("reply", "expected"), [
    ("### Final decision: No\n\nThe trial shows fewer cases. Therefore yes, it prevents them.", None),
    ("The abstract reports fewer infections with the probiotic.\n\nTherefore yes, it prevents them.", "A"),
    ("Planner: decide the answer and map the conclusion to yes/no/maybe.", None),
])
def test_a_yes_no_conclusion_and_the_choices_listed(reply: str, expected: str | None) -> None:
    assert read_answer(reply, YES_NO).letter == expected
