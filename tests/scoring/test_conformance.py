"""Conformance of the answer reader over a generated cross product of replies.

Every final-line form is combined with every reasoning paragraph, every question shape, every
correct-letter position and several option orders (the expected letter follows the option text
when the order changes). The reader must return the right letter for every committed reply and
no letter, with the right reason, for every reply that commits to two options, contradicts
itself or refuses. Adding a form, a paragraph or a shape is one line in the tables below.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from mdagents.scoring import read_answer

LETTERS = "ABCDE"

# Question shapes: option texts in their listed order. Options are neutral on purpose, so the
# letter-like words injected by the reasoning paragraphs are the only traps.
SHAPES: dict[str, list[str]] = {
    "four": ["Ceftriaxone", "Metronidazole", "Doxycycline", "Azithromycin"],
    "five": [
        "Observation",
        "Lumbar puncture",
        "Head CT without contrast",
        "Intravenous acyclovir",
        "Electroencephalography",
    ],
    "yesno": ["yes", "no", "maybe"],
}


def _listed(texts: list[str]) -> list[str]:
    return list(texts)


def _reversed(texts: list[str]) -> list[str]:
    return texts[::-1]


def _rotated(texts: list[str]) -> list[str]:
    return texts[2:] + texts[:2]


# Option orders: the same texts under other letters.
ORDERS: dict[str, Callable[[list[str]], list[str]]] = {
    "listed": _listed,
    "reversed": _reversed,
    "rotated": _rotated,
}

Form = Callable[[str, str], str]

# Final lines committing to one option: (name, line from (letter, option text), clearly final).
# "Clearly final" forms are also used after a revised earlier answer line.
FINAL_FORMS: list[tuple[str, Form, bool]] = [
    ("contract", lambda L, T: f"Answer: ({L}) {T}", True),
    ("contract-period", lambda L, T: f"Answer: ({L}) {T}.", True),
    ("contract-lowercase-text", lambda L, T: f"Answer: ({L}) {T.lower()}", True),
    ("contract-bold", lambda L, T: f"**Answer: ({L}) {T}**", True),
    ("bold-no-paren", lambda L, T: f"**Answer: {L}) {T}**", True),
    ("no-paren", lambda L, T: f"Answer: {L}) {T}", True),
    ("letter-only", lambda L, T: f"Answer: {L}", True),
    ("letter-paren-only", lambda L, T: f"Answer: ({L})", True),
    ("text-only", lambda L, T: f"Answer: {T}", True),
    ("the-answer-is", lambda L, T: f"The answer is {L}.", True),
    ("final-answer", lambda L, T: f"Final answer: {L}", True),
    ("final-answer-full", lambda L, T: f"Final answer: ({L}) {T}", True),
    ("text-then-letter", lambda L, T: f"Final answer: {T} ({L})", True),
    ("bracket-letter", lambda L, T: f"[{L}]", True),
    ("arrow-letter", lambda L, T: f"Final → {L}", True),
    ("spanish-label", lambda L, T: f"Seleccionada: {L} – {T}", True),
    ("chinese-short-label", lambda L, T: f"答：{L}", True),
    ("correct-answer-is", lambda L, T: f"The correct answer is ({L}) {T}.", True),
    ("markdown-header", lambda L, T: f"## Answer: {L}", True),
    ("boxed", lambda L, T: f"\\boxed{{{L}}}", True),
    ("boxed-math", lambda L, T: f"$\\boxed{{{L}}}$", True),
    ("answer-tag", lambda L, T: f"<answer>{L}</answer>", True),
    (
        "json",
        lambda L, T: json.dumps({"reasoning": "Weighing the findings.", "answer": L, "confidence": 0.8}),
        True,
    ),
    ("option-line", lambda L, T: f"{L}) {T}", False),
    ("bold-letter", lambda L, T: f"**{L}**", False),
    ("go-with", lambda L, T: f"I'd go with {L}.", False),
    ("so-letter", lambda L, T: f"So {L}.", False),
    ("diagnosis-label", lambda L, T: f"Diagnosis: {T.lower()}.", False),
    ("most-likely-label", lambda L, T: f"**Most likely: {T}**", False),
    ("label-text-arrow-letter", lambda L, T: f"Diagnosis: {T.lower()} → ({L}).", False),
    ("text-dash-option-letter", lambda L, T: f"Answer: {T} — option {L}", True),
    ("critic-keep", lambda L, T: f"Verdict: keep {L}. The expert's reasoning holds.", False),
    ("critic-revise", lambda L, T: f"The expert's answer does not fit the findings. Revise to {L}.", False),
    ("table-row-chosen", lambda L, T: f"| Option | Fits? |\n|---|---|\n| {L} {T} | ✅ chosen |", False),
    ("answer-is-text-option", lambda L, T: f"The answer is {T.lower()}, option {L}.", False),
    ("chinese-traditional-label", lambda L, T: f"選擇：{L}（{T}）", True),
    ("marked-list-item", lambda L, T: "\n".join(f"{i}. {x}" + (" ← chosen" if x == L else "")
                                                 for i, x in enumerate(sorted({L, *_two_others(L)}), 1)), False),
    ("ticked-box", lambda L, T: "\n".join(f"- [{'x' if x == L else ' '}] {x}" for x in sorted({L, *_two_others(L)})), False),
    ("final-answer-letter-period-text", lambda L, T: f"**Final Answer:** {L}. {T}", True),
    ("answer-letter-text-in-brackets", lambda L, T: f"Answer: {L} ({T})", True),
    ("boxed-text-in-brackets", lambda L, T: f"**Final Answer:** \\boxed{{{L}}} ({T})", True),
    ("typed-ans", lambda L, T: f"ans {L.lower()}", False),
    ("typed-def", lambda L, T: f"def {L}, classic picture", False),
    ("typed-going-with", lambda L, T: f"going w/ {L}, {T.lower()} fits", False),
    ("panel-stands-by", lambda L, T: f"Expert 2, with respect, I disagree. I stand by {L}.", False),
    ("coordinator-adopts", lambda L, T: f"Both teams' reports were weighed; the coordinator therefore adopts {L}.", False),
    ("typed-so-letter", lambda L, T: f"classic findings, so {L}. (other options don't fit lol)", False),
    ("ans-dash-lower", lambda L, T: f"Ans- {L.lower()}", True),
    ("answer-option-number", lambda L, T: f"The correct answer is option {'ABCDE'.index(L) + 1}, {T.lower()}.", False),
    ("alpaca-response", lambda L, T: f"### Response:\n{L}. {T}", False),
]


def _two_others(letter: str) -> list[str]:
    """Two letters every question kind has (yes/no/maybe included), other than `letter`."""
    return [x for x in "ABC" if x != letter][:2]

Paragraph = Callable[[dict[str, str], str], str]


def _others(options: dict[str, str], letter: str) -> list[str]:
    return [other for other in options if other != letter]


def _plain(options: dict[str, str], letter: str) -> str:
    return (
        "Let's work through the findings step by step. The history, the examination and the "
        "timing of the symptoms all point towards a single best choice."
    )


def _tempting(options: dict[str, str], letter: str) -> str:
    other = _others(options, letter)[0]
    return f'The option "{options[other]}" is tempting here, but it does not explain the whole picture.'


def _negating(options: dict[str, str], letter: str) -> str:
    first, second = _others(options, letter)[:2]
    return (
        f"Not ({first}), since the timing is wrong. Option {second} is incorrect because it would "
        "not explain the findings either."
    )


def _either_or(options: dict[str, str], letter: str) -> str:
    first, second = _others(options, letter)[-2:]
    return (
        f"At first it could be either {options[first]} or {options[second]}, but on closer reading "
        "neither fits the whole picture."
    )


def _options_listed(options: dict[str, str], letter: str) -> str:
    listing = "\n".join(f"{key}) {text}" for key, text in options.items())
    return f"The options are:\n{listing}\n\nComparing each with the vignette, one fits best."


def _letters_in_names(options: dict[str, str], letter: str) -> str:
    return (
        "Her hepatitis B serology is negative and vitamin A levels are normal. A type A aortic "
        "dissection was excluded, Group A Streptococcus was not isolated, factor VIII activity is "
        "normal, HLA-B27 is negative and IgA levels are normal. This is a grade A recommendation "
        "for a class C patient."
    )


def _thinking(options: dict[str, str], letter: str) -> str:
    other = _others(options, letter)[-1]
    return (
        f"<think>\nCould it be {options[other]}? Not really; it misses the key finding. "
        "Re-read the vignette once more.\n</think>"
    )


def _revision(options: dict[str, str], letter: str) -> str:
    wrong = _others(options, letter)[0]
    return (
        f"Answer: ({wrong}) {options[wrong]}\n\n"
        "Wait, actually, I misread the vignette: that option does not fit. Correcting my answer:"
    )


def _sentence_openers(options: dict[str, str], letter: str) -> str:
    return (
        "A right-sided effusion was ruled out.\nA correct reading of the chest film needs a lateral view.\n"
        "B cells and E-selectin levels are normal, and Pick disease is not in question."
    )


def _vote_count(options: dict[str, str], letter: str) -> str:
    other = _others(options, letter)[0]
    return (
        f"Expert votes:\n{other} - {options[other]}: 2 (internist, radiologist)\n"
        f"{letter} - {options[letter]}: 3 (neurologist, intensivist, pharmacist)\n\nThe majority view is persuasive."
    )


def _asked_and_ruled_out(options: dict[str, str], letter: str) -> str:
    other = _others(options, letter)[0]
    return f"Let me think about whether {options[other].lower()} could be involved — no, that's a different picture."


# Reasoning placed before the final line: (name, paragraph, needs a clearly final form).
PARAGRAPHS: list[tuple[str, Paragraph, bool]] = [
    ("no-reasoning", lambda options, letter: "", False),
    ("plain", _plain, False),
    ("tempting-other", _tempting, False),
    ("negates-others", _negating, False),
    ("either-or", _either_or, False),
    ("options-listed", _options_listed, False),
    ("letters-in-names", _letters_in_names, False),
    ("thinking-block", _thinking, False),
    ("revision", _revision, True),
    ("sentence-openers", _sentence_openers, False),
    ("vote-count", _vote_count, True),
    ("asked-and-ruled-out", _asked_and_ruled_out, False),
]

PairForm = Callable[[str, str, str, str], str]

# Final lines that must give no letter: (name, line from (L1, T1, L2, T2), expected reason).
NO_ANSWER_FORMS: list[tuple[str, PairForm, str]] = [
    ("letter-or-letter", lambda L1, T1, L2, T2: f"Answer: {L1} or {L2}", "ambiguous"),
    ("full-or-full", lambda L1, T1, L2, T2: f"Answer: ({L1}) {T1} or ({L2}) {T2}", "ambiguous"),
    ("so-and", lambda L1, T1, L2, T2: f"So {L1} and {L2}.", "ambiguous"),
    (
        "conditional",
        lambda L1, T1, L2, T2: f"If the patient is stable, ({L1}) {T1}; otherwise ({L2}) {T2}.",
        "ambiguous",
    ),
    ("letter-text-conflict", lambda L1, T1, L2, T2: f"Answer: ({L1}) {T2}", "conflict"),
    ("text-letter-conflict", lambda L1, T1, L2, T2: f"Answer: {T2} ({L1})", "conflict"),
    ("text-letter-or", lambda L1, T1, L2, T2: f"Answer: {T1} ({L1}) or {T2} ({L2})", "ambiguous"),
    ("letter-unless-letter", lambda L1, T1, L2, T2: f"So {L1}, unless the patient is pregnant, in which case {L2}.", "ambiguous"),
    ("conflicting-line-then-line", lambda L1, T1, L2, T2: f"Answer: ({L2}) {T1}\nAnswer: ({L1}) {T1}", "conflict"),
    ("text-which-is-choice-conflict", lambda L1, T1, L2, T2: f"The answer is {T2.lower()}, which is choice {L1}.", "conflict"),
    ("text-option-paren-conflict", lambda L1, T1, L2, T2: f"Answer: {T2} (option {L1})", "conflict"),
    ("going-with-either", lambda L1, T1, L2, T2: f"I'm going with either {L1} or {L2}.", "ambiguous"),
    ("text-which-is-bare-letter-conflict", lambda L1, T1, L2, T2: f"That's {T2.lower()}, which is {L1}.", "conflict"),
    ("split-vote-list", lambda L1, T1, L2, T2: f"Expert votes: {L1}, {L1}, {L2}, {L2}. The panel is split.", "ambiguous"),
    ("equally-valid", lambda L1, T1, L2, T2: f"My answer is {T1.lower()} ({L1})... though {T2.lower()} ({L2}) "
                                               "would be equally valid.", "ambiguous"),
    ("leave-both", lambda L1, T1, L2, T2: f"I would answer {L1}, but one could argue {L2}. I'll leave both.", "ambiguous"),
    ("or-hard-to-say", lambda L1, T1, L2, T2: f"Probably {L1}. So {L1} or {L2}, hard to say.", "ambiguous"),
    ("moderator-reports-both", lambda L1, T1, L2, T2: f"Moderator summary: two experts chose {L1}, one chose {L2}. The panel is "
                                                         "split 2-1 and I won't override the experts; I am reporting both "
                                                         "positions.", "ambiguous"),
    ("votes-then-no-decision", lambda L1, T1, L2, T2: f"Expert votes: {L1}, {L2}.\n\nModerator: the experts disagree. "
                                                         "I'm unable to reach a decision.", "ambiguous"),
    ("two-clauses-two-letters", lambda L1, T1, L2, T2: f"In an adult I'd choose {L1}, in a child under 12 {L2}.", "ambiguous"),
    ("text-dash-answer-letter-conflict", lambda L1, T1, L2, T2: f"It's {T2} — answer {L1}.", "conflict"),
    ("json-letter-text-conflict", lambda L1, T1, L2, T2: json.dumps({"answer": L1, "answer_text": T2}), "conflict"),
    ("so-text-then-other-line", lambda L1, T1, L2, T2: f"So {T1.lower()}.\n\nAnswer: ({L2}) {T2}", "conflict"),
    (
        "two-answer-lines",
        lambda L1, T1, L2, T2: f"Answer: ({L1}) {T1}\n\nAnswer: ({L2}) {T2}",
        "conflict",
    ),
    ("letter-period-other-text", lambda L1, T1, L2, T2: f"**Final Answer:** {L1}. {T2}", "conflict"),
    ("letter-other-text-in-brackets", lambda L1, T1, L2, T2: f"Answer: {L1} ({T2})", "conflict"),
    ("boxed-other-text-in-brackets", lambda L1, T1, L2, T2: f"\\boxed{{{L1}}} ({T2})", "conflict"),
    ("letter-comma-other-text", lambda L1, T1, L2, T2: f"{L1}, {T2.lower()} — fits the picture", "conflict"),
    ("spanish-letter-o-letter", lambda L1, T1, L2, T2: f"La respuesta es {L1} o {L2}.", "ambiguous"),
    ("two-letters-equally-valid", lambda L1, T1, L2, T2: f"I'd consider {L1} and {L2} equally valid here.", "ambiguous"),
    ("cannot-choose", lambda L1, T1, L2, T2: "I cannot choose any of these options.", "refused"),
    (
        "none-correct",
        lambda L1, T1, L2, T2: "None of the options is correct, so I will not pick one.",
        "refused",
    ),
]

MIN_CASES = 1000


@dataclass(frozen=True)
class Case:
    """One generated reply with what a careful grader reads from it."""

    label: str
    reply: str
    options: dict[str, str]
    letter: str | None
    reason: str | None


def _question_variants() -> list[tuple[str, dict[str, str]]]:
    variants = []
    for shape, texts in SHAPES.items():
        for order, arrange in ORDERS.items():
            arranged = arrange(texts)
            variants.append((f"{shape}/{order}", dict(zip(LETTERS, arranged, strict=False))))
    return variants


def _join(paragraph: str, line: str) -> str:
    return f"{paragraph}\n\n{line}" if paragraph else line


def answered_cases() -> list[Case]:
    cases = []
    for question, options in _question_variants():
        for letter, text in options.items():
            for paragraph_name, paragraph, needs_final in PARAGRAPHS:
                reasoning = paragraph(options, letter)
                for form_name, form, clearly_final in FINAL_FORMS:
                    if needs_final and not clearly_final:
                        continue
                    cases.append(
                        Case(
                            label=f"{form_name} | {paragraph_name} | {question} | {text}",
                            reply=_join(reasoning, form(letter, text)),
                            options=options,
                            letter=letter,
                            reason=None,
                        )
                    )
    return cases


def unanswered_cases() -> list[Case]:
    cases: dict[tuple[str, str], Case] = {}
    for question, options in _question_variants():
        for first, first_text in options.items():
            for second, second_text in options.items():
                if first == second:
                    continue
                for paragraph_name, paragraph, needs_final in PARAGRAPHS:
                    if needs_final:
                        continue
                    reasoning = paragraph(options, first)
                    for form_name, form, reason in NO_ANSWER_FORMS:
                        reply = _join(reasoning, form(first, first_text, second, second_text))
                        cases.setdefault(
                            (question, reply),
                            Case(
                                label=f"{form_name} | {paragraph_name} | {question} | {first}+{second}",
                                reply=reply,
                                options=options,
                                letter=None,
                                reason=reason,
                            ),
                        )
    return list(cases.values())


def _failures(cases: list[Case]) -> list[str]:
    failures = []
    for case in cases:
        reading = read_answer(case.reply, case.options)
        if reading.letter != case.letter or reading.reason != case.reason:
            failures.append(
                f"{case.label}: expected {case.letter or case.reason}, "
                f"got {reading.letter or reading.reason}\n    reply: {case.reply!r}"
            )
    return failures


def _report(failures: list[str], total: int) -> str:
    shown = "\n".join(failures[:30])
    return f"{len(failures)} of {total} generated replies misread (first 30):\n{shown}"


def test_every_committed_answer_is_read() -> None:
    cases = answered_cases()
    assert len(cases) >= MIN_CASES
    assert {case.letter for case in cases} == set(LETTERS)
    failures = _failures(cases)
    assert not failures, _report(failures, len(cases))


def test_two_options_conflicts_and_refusals_give_no_letter() -> None:
    cases = unanswered_cases()
    assert len(cases) >= MIN_CASES
    assert {case.reason for case in cases} == {"ambiguous", "conflict", "refused"}
    failures = _failures(cases)
    assert not failures, _report(failures, len(cases))


CUT_REASONING = (
    "The patient's presentation suggests an infectious cause, and the most important next "
    "consideration is whether the"
)


def test_reply_cut_by_length_limit_is_truncated() -> None:
    for question, options in _question_variants():
        cut = read_answer(CUT_REASONING, options, finish_reason="length")
        assert (cut.letter, cut.reason) == (None, "truncated"), question
        stopped = read_answer(CUT_REASONING, options, finish_reason="stop")
        assert stopped.letter is None, question
        assert stopped.reason == "none", question


def test_answer_line_completed_before_the_cut_still_counts() -> None:
    for question, options in _question_variants():
        for letter, text in options.items():
            reply = (
                f"Answer: ({letter}) {text}\n\n"
                "This choice is supported by the timing of the symptoms and by the"
            )
            reading = read_answer(reply, options, finish_reason="length")
            assert reading.letter == letter, f"{question} {letter}: {reading.reason}"
            same_line = f"Answer: ({letter}) {text}. This needs to be done first; do not confuse it with the"
            assert read_answer(same_line, options, finish_reason="length").letter == letter, question
            mid_text = f"Answer: ({letter}) {text[:max(3, len(text) // 2)]}"
            # cut inside the option's text: the letter was given and the text so far is its option's
            assert read_answer(mid_text, options, finish_reason="length").letter == letter, question
            # cut right after the letter, before any of its text: the answer line was still being written
            assert read_answer(f"Answer: ({letter}) ", options, finish_reason="length").reason == "truncated", question
