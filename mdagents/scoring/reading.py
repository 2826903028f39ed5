"""Grading one reply: the option the model committed to, or why it committed to none.

The reply's statements (statements.py) are weighed by kind: the last answer line (`Answer: (X) text`,
the contract; structured answers arrive as one) binds before any declaration in free text, and a
declaration before the reply's first or last line. An earlier statement of another option that the
reply never revised, or a hedge after the last one, leaves no answer. A reply that states nothing is
read for the one option it names and does not rule out (mentions.py). Truncation is what the provider
said (`finish_reason`), never guessed from the text. Every no-answer has a reason: conflict,
ambiguous, truncated, refused or none; the optional LLM extractor reads those through `read_answer`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from mdagents.data.datasets import Question
from mdagents.scoring.mentions import UNDECIDED, conditional_letters, read_mentions
from mdagents.scoring.statements import (
    AMBIGUOUS,
    CONFLICT,
    CONTRACT,
    REFUSED,
    REVISION,
    STRONG,
    WEAK,
    Statement,
    favoured,
    statements,
)
from mdagents.scoring.text import (
    after_reasoning,
    genus_spelled_out,
    own_turn,
    plain,
    plain_options,
    tally,
    unwrapped,
    words,
)

GRADER_VERSION = "contract-12"
TRUNCATED, NONE, LLM, DECLARATION = "truncated", "none", "llm", "declaration"
REASONS = (CONFLICT, AMBIGUOUS, TRUNCATED, REFUSED, NONE)
MODEL_READABLE = (NONE, CONFLICT, AMBIGUOUS)  # no answer the rules could read; a model might (an alias)
_REFUSAL = re.compile(
    r"\b(?:cannot|can['’]t|unable\s+to|won['’]t|will\s+not|not\s+able\s+to|decline\s+to)\s+(?:reliably\s+)?"
    r"(?:determine|choose|pick|decide|tell|answer|select|commit|provide|give|recommend)|\bnot\s+enough\s+information"
    r"|\binsufficient\s+(?:information|data)|\bnone\s+of\s+the\s+(?:listed\s+|given\s+)?(?:options|answers|choices)"
    r"|\bundecided\b|\bno\s+consensus\b|\bwould\s+not\s+commit", re.IGNORECASE)
# Why a reply with no answer has none, beyond its statements: it declines ("I'm sorry, I can't help with that",
# "no puedo ofrecer un diagnóstico"), or it reports a split ("the panel is evenly split", "the vote is tied").
_DECLINE = re.compile(
    r"\b(?:sorry|as\s+an\s+ai|i['’]?m\s+not\s+a\s+doctor|(?:can['’]?t|cannot|unable\s+to|not\s+able\s+to|won['’]t(?:\s+be\s+able\s+to)?|will\s+not)"
    r"\s+(?:help|assist|prescribe|diagnose|interpret|evaluate|make\s+(?:treatment|clinical|medical)|provide\s+(?:medical|a\s+diagnosis))"
    r"|rather\s+not\s+(?:pick|choose|answer|select|say|recommend)|should(?:n['’]?t|\s+not)\s+(?:pick|choose|select|recommend)|refrain\s+from|abstain|not\s+comfortable|not\s+(?:be\s+)?appropriate\s+for\s+me"
    r"|(?:please|should)\s+(?:consult|seek|contact)|decline\s+to|no\s+puedo|je\s+ne\s+(?:peux|saurais)|não\s+posso"
    r"|kann\s+(?:ich\s+)?(?:keine|nicht))|无法|不能", re.IGNORECASE)
_SPLIT = re.compile(r"\b(?:no\s+(?:consensus|majority)|(?:evenly|equally)\s+(?:split|divided)|(?:remains?|is|was)\s+split|"
                    r"split\s+(?:vote|decision)|tie[ds]?|torn\s+between|(?:decide|pick|choose)\s+between)\b", re.IGNORECASE)
_HEDGE = re.compile(r"\b(?:probably|possibly|perhaps|maybe|likely|tentative\w*|let\s+me\s+(?:verify|check|double-check|"
                    r"reconsider|re-?read)|not\s+sure)\b", re.IGNORECASE)
_UNSURE = re.compile(r"\b(?:not\s+sure|unsure|uncertain|could\s+also|might\s+also|may\s+also)\b", re.IGNORECASE)
_CUT_MID_DECLARATION = re.compile(r"\b(?:(?:answer|choice|option)\s*(?:is|:|would\s+be)?\s*(?:(?-i:the|a|an)|option)?|"
                                  r"i\s+think|i\s+would\s+(?:choose|say)|so)\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Reading:
    """The option letter a reply committed to, or None and the reason; `step` names what read it."""

    letter: str | None
    step: str
    reason: str | None = None

    @property
    def status(self) -> str:
        return "ok" if self.letter is not None else "failed"


def is_truncation(finish_reason: str | None) -> bool:
    """Whether a provider's stop reason says the reply hit the length limit (every provider's spelling)."""
    return (finish_reason or "").lower() in ("length", "max_tokens", "max_output_tokens")


def read_answer(text: str | None, options: dict[str, str], *, finish_reason: str | None = None) -> Reading:
    """The answer `text` committed to among `options` (letter -> text). Cached: a debate reads the same
    reply for the vote tally, the consensus check and the record."""
    reply, ran_on = own_turn(unwrapped(text or ""))
    return _read(reply, tuple(options.items()), is_truncation(finish_reason) and not ran_on)


@lru_cache(maxsize=4096)
def _read(text: str, option_items: tuple[tuple[str, str], ...], truncated: bool) -> Reading:
    """The stated answer, weighed against the reply's own odds or ranking of the options, if it gives them: a
    stated answer that is not their favourite is a conflict; a reply that states none commits to their favourite."""
    body, options = plain(text), plain_options(dict(option_items))
    reading = _stated(text, body, options, truncated)
    if reading.reason == TRUNCATED or not _MAY_WEIGH.search(text):
        return reading
    favourite = favoured(body, options)
    if favourite is None:
        return reading
    if reading.letter is not None:  # a tie at the top leaves the choice to an answer line
        if favourite == reading.letter or (favourite == AMBIGUOUS and reading.step == CONTRACT):
            return reading
        return Reading(None, reading.step, AMBIGUOUS if favourite == AMBIGUOUS else CONFLICT)
    if reading.step != CONTRACT and reading.reason in (NONE, AMBIGUOUS) and favourite in options:
        return Reading(favourite, DECLARATION)
    return reading


_MAY_WEIGH = re.compile(r"\d\s*%|\d\s*/\s*10\b|(?<!\d)0?\.\d|>|\brank", re.IGNORECASE)


def _stated(text: str, body: str, options: dict[str, str], truncated: bool) -> Reading:
    """What the reply states, read from `body` (its plain text) against `options` (their plain texts)."""
    if not body.strip():
        cut = truncated or (bool(text.strip()) and not after_reasoning(text).strip())
        return Reading(None, NONE, TRUNCATED if cut else NONE)
    if truncated and (looped := _loop_cut(body)) != body:
        body, truncated = looped, False  # cut while repeating a line it had written whole: not cut mid-answer
    body = genus_spelled_out(body, options)
    found = statements(body, options)
    if any(s.kind == CONTRACT for s in found):
        return _cut(_reading(_decide(found, body, options, truncated=truncated), CONTRACT), truncated)
    last = body.strip().splitlines()[-1]
    refusal = _REFUSAL.search(last) if _refuses(last) else None
    if refusal and not any(s.value in options and re.search(r"[.!?:]", body[len(body) - len(last) + refusal.end():max(s.at, 0)])
                           for s in found):  # "I can't give medical advice, but for the exam: ... Answer: A" answers
        return _cut(Reading(None, NONE, REFUSED), truncated)
    votes = sorted(_tally(body, options).values(), reverse=True)
    if len(votes) >= 2 and votes[0] == votes[1]:
        return Reading(None, NONE, AMBIGUOUS)  # a tied tally ("B = 2, C = 2") and no decision after it
    if truncated:  # only what was said with conviction before the cut counts
        body = " ".join(s for s in re.split(r"(?<=[.!?])\s+", body) if not _HEDGE.search(s))
        found = [s for s in statements(body, options) if s.at < len(body)]  # the cut line is not a closing line
    if conditional_letters(body) > 1 or re.search(r"\bit\s+depends\b", body, re.IGNORECASE):
        return Reading(None, DECLARATION, AMBIGUOUS)
    said = _decide(found, body, options)
    if said is None and _CUT_MID_DECLARATION.search(body.rstrip()[-40:]):
        said = AMBIGUOUS  # cut off right after "the answer is"
    step = DECLARATION
    if said is None and not truncated and _declines(body.strip().split("\n", 1)[0]):
        return Reading(None, NONE, REFUSED)  # "I can't help with this one. ... how insulin overdose is recognised"
    if said is None and not truncated:
        said, step = read_mentions(body, options)
    if said in (None, NONE):  # nothing stated, or a labelled answer no rule can read (an alias: the LLM extractor's)
        return Reading(None, step if said else NONE, TRUNCATED if truncated else _why_none(body))
    if said == AMBIGUOUS and _DECLINE.search(body):
        return Reading(None, step, REFUSED)
    return _cut(_reading(said, step), truncated)


def _bare_opening(body: str) -> bool:
    """The reply's first line is only an answer ("Yes.", "**No.**", "B"), not a sentence that opens on one ("Yes, this is
    an interesting question")."""
    first = body.lstrip().split("\n", 1)[0]
    return bool(re.fullmatch(r"\W*(?:yes|no|maybe|\(?[A-E]\)?)\W*", first, re.IGNORECASE))


def _loop_cut(body: str) -> str:
    """A reply cut by the token limit while repeating its last line ("Answer: (B) no" again and again, then
    "Answer: (B"): the cut copy is dropped, and the lines it repeated are read."""
    lines = [line.strip() for line in body.rstrip().split("\n") if line.strip()]
    looped = len(lines) >= 3 and lines[-2] == lines[-3] and lines[-2].startswith(lines[-1]) and lines[-1] != lines[-2]
    return body.rstrip().rsplit("\n", 1)[0] if looped else body


def _why_none(body: str) -> str:
    """A reply that states nothing: it declined, it reported a split, or it said nothing readable."""
    if _declines(body):
        return REFUSED
    return AMBIGUOUS if _SPLIT.search(body) or UNDECIDED.search(body) else NONE


def _declines(text: str) -> bool:
    return bool(_DECLINE.search(text)) or _refuses(text)


def _refuses(text: str) -> bool:
    """Says it cannot answer, and not because a panel split ("no consensus was reached" is a split)."""
    return bool(_REFUSAL.search(text)) and not _SPLIT.search(text)


def _cut(reading: Reading, truncated: bool) -> Reading:
    """A reply cut by the length limit before it committed to an answer has no answer because it was cut."""
    return Reading(None, reading.step, TRUNCATED) if truncated and reading.letter is None else reading


def _tally(body: str, options: dict[str, str]) -> dict[str, int]:
    """Votes reported per option, by letter or by text: "B = 2, C = 2", "yes: 2, no: 2"."""
    names = {key: key for key in options} | {text.lower(): key for key, text in options.items() if text.strip()}
    return {names.get(name, names.get(name.lower(), name)): int(count) for name, count in tally(options).findall(body)
            if name in names or (len(name) > 1 and name.lower() in names)}


def _majority(body: str, options: dict[str, str]) -> str | None:
    """The option a vote tally reported in `body` gives the most votes to, if one has more than any other."""
    votes = sorted(_tally(body, options).items(), key=lambda vote: -vote[1])
    return votes[0][0] if votes and (len(votes) == 1 or votes[0][1] > votes[1][1]) else None


def _reading(said: str | None, step: str) -> Reading:
    return Reading(None, step, said) if said in REASONS else Reading(said, step)


def _complete(line: str, option: str) -> bool:
    """An answer line cut by the token limit still gave its answer if the option's text was written out
    whole, alone or ended by a sentence break before the cut ("(A) Cardiac tamponade. This needs ..."), or
    was being written out when the cut came: "(D) Hepatic aden"."""
    said = re.split(r"[.;!?](?:\s|$)|\s[—–-]\s", line, maxsplit=1)
    begun = line.strip().lower()
    return (set(words(line)) == set(words(option)) or (len(said) == 2 and set(words(said[0])) == set(words(option)))
            or (len(begun) >= 3 and option.lower().startswith(begun)))


def _decide(found: list[Statement], body: str, options: dict[str, str], *, truncated: bool = False) -> str | None:
    """The last statement of the most binding kind, unless an earlier one named another option and the
    reply never revised it (a conflict between answer lines, ambiguous between declarations), or what
    follows the last answer line takes it back: a hedge, or another answer without a revision."""
    contract = [s for s in found if s.kind == CONTRACT]
    pool = contract or [s for s in found if s.kind == STRONG] or [s for s in found if s.kind == WEAK]
    if not pool:
        return None
    final = pool[-1]
    if contract and truncated and (REVISION.search(body, final.at) or ("\n" not in body[final.at:].rstrip() and final.value in options
                                   and not _complete(body[final.at:].split(")", 1)[-1], options[final.value]))):
        return TRUNCATED  # the answer line was still being written, or being revised, when the reply was cut
    if contract and final.value not in options:
        return final.value
    if _CUT_MID_DECLARATION.search(body.rstrip()[-40:]) and not contract and len({s.value for s in pool}) != 1:
        return AMBIGUOUS
    rivals = contract[:-1] if contract else [s for s in found if s.at < final.at]
    if not contract and _majority(body[:max(final.at, 0)], options) == final.value:
        rivals = []  # the votes it counted, then the majority it decided on: "A=1, B=3, D=1. Majority answer: (B)"
    stop = max(s.end for s in found if s.at == final.at) or final.at  # its own words too: "Corrected final answer: B"
    for earlier in rivals:
        asked = re.match(r"[^.!\n]*\?", body[max(earlier.at, 0):])  # "D, not C? No - ..." asks, does not declare
        if ((earlier.value in options or (contract and earlier.value == CONFLICT)) and final.value in options
                and earlier.value != final.value and not asked
                and not REVISION.search(body, max(earlier.at, 0), max(final.at, stop))):
            return CONFLICT if contract else AMBIGUOUS  # "Answer: (D) Central cord" then "Answer: (C) Central cord"
    if contract:  # a declaration before the answer lines ("The correct answer is (C)"), unless itself in doubt
        before = [s for s in found if s.kind != CONTRACT and (0 <= s.at or _bare_opening(body)) and s.at < contract[0].at]
        prior = _decide(before, body, options)
        said = [s for s in before if s.value == prior]
        if prior in options and prior != final.value and not REVISION.search(body, said[-1].end, final.end):
            return CONFLICT  # "I therefore revise my answer to Class IV." then "Answer: (B) Class III"
        lines = {s.at for s in contract}
        if any(s.kind == STRONG and s.at not in lines and contract[0].at < s.at < final.at and s.value in options
               and s.value != final.value and not REVISION.search(body, s.end, final.at) for s in found):
            return CONFLICT  # "Answer: (B)", "the best answer here is (A)", then "Answer: (B)" again
    if not contract:
        later = {s.value for s in found if s.at > final.at and s.value in options and s.value != final.value
                 and not re.match(r"\s*(?:\d+[.)]|[-*•])\s", body[body.rfind("\n", 0, max(min(s.at, len(body)) - 1, 0)) + 1:])}
        if final.kind == STRONG and later and final.value in options and not REVISION.search(body, max(final.at, 0)):
            return CONFLICT  # "Final decision: No", then "Therefore yes, probiotics prevent it."
        return AMBIGUOUS if final.value in (*options, NONE) and UNDECIDED.search(body, max(final.at, 0)) else final.value
    tail = body[final.at:].split("\n", 1)[1] if "\n" in body[final.at:] else ""
    if not tail.strip():
        return final.value
    if UNDECIDED.search(tail) or (REVISION.search(tail) and _UNSURE.search(tail)):
        return AMBIGUOUS  # "Actually, I'm not sure ..."
    said_after = [s.value for s in found if s.at >= len(body) - len(tail) and s.kind != CONTRACT and s.value != NONE]
    later = set(said_after) - {final.value}
    if not later:
        return final.value
    if said_after[-1] == final.value:
        return CONFLICT  # "Answer: (D)", "wait, that's C", then "(D)" again: no answer stands last
    return later.pop() if len(later) == 1 and REVISION.search(tail) and not later & set(REASONS) else CONFLICT


@dataclass(frozen=True)
class Grade:
    """The scored outcome of one reply: `correct` is False when the reply committed to no answer."""

    prediction: str | None
    parse_status: str
    correct: bool
    extraction: str = NONE
    reason: str | None = None


def grade_reading(reading: Reading, question: Question) -> Grade:
    return Grade(prediction=reading.letter, parse_status=reading.status,
                 correct=reading.letter is not None and reading.letter == question.answer_idx,
                 extraction=reading.step, reason=reading.reason)


def grade(text: str | None, question: Question, *, finish_reason: str | None = None) -> Grade:
    """Read the answer in `text` and compare it with the question's true letter."""
    return grade_reading(read_answer(text, question.options, finish_reason=finish_reason), question)
