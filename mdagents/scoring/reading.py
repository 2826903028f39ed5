"""Grading one reply: what option the model committed to, or why it committed to none.

1. The contract line (`Answer: (X) option text`, last one first; structured answers arrive as one).
2. When the reply has no contract line, the free-text fallback (fallback.py), whose every step
   accepts only an answer nothing else in the reply contradicts.
3. Truncation is what the provider said (`finish_reason` "length"/"max_tokens"), never guessed from
   the text: a cut reply counts only a committed answer that came before the cut.
Every no-answer has a reason: conflict, ambiguous, truncated, refused or none. The optional LLM
extractor (llm_extractor.py) reads what is left and its reply goes through `read_answer` too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from mdagents.data.datasets import Question
from mdagents.scoring.contract import AMBIGUOUS, CONFLICT, REFUSED, read_contract
from mdagents.scoring.fallback import AMBIGUOUS as OFFERS_SEVERAL
from mdagents.scoring.fallback import read_free_text
from mdagents.scoring.text import after_reasoning, plain, plain_options

GRADER_VERSION = "contract-1"
TRUNCATED = "truncated"
NONE = "none"
REASONS = (CONFLICT, AMBIGUOUS, TRUNCATED, REFUSED, NONE)
CONTRACT = "contract"
LLM = "llm"

_REFUSAL = re.compile(
    r"\b(?:cannot|can['’]t|unable\s+to|won['’]t|will\s+not|not\s+able\s+to|decline\s+to)\s+(?:reliably\s+)?"
    r"(?:determine|choose|pick|decide|tell|answer|select|commit|provide|give|recommend)"
    r"|\bnot\s+enough\s+information|\binsufficient\s+(?:information|data)|\bnone\s+of\s+the\s+(?:listed\s+|given\s+)?"
    r"(?:options|answers|choices)|\bundecided\b|\bno\s+consensus\b|\bwould\s+not\s+commit", re.IGNORECASE)


_HEDGE = re.compile(r"\b(?:probably|possibly|perhaps|maybe|likely|tentative\w*|let\s+me\s+(?:verify|check|double-check|"
                    r"reconsider|re-?read)|not\s+sure)\b", re.IGNORECASE)
_VOTE = re.compile(r"(?<![\w'’])\(?([A-E])\)?\s*[=:]\s*(\d+)\b")


def _tied_vote(body: str) -> bool:
    """A vote tally whose top options tie ("B = 2, C = 2") and no later decision."""
    votes = {letter: int(count) for letter, count in _VOTE.findall(body)}
    top = sorted(votes.values(), reverse=True)
    return len(top) >= 2 and top[0] == top[1]


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
    """The answer `text` committed to among `options` (letter -> text)."""
    truncated = is_truncation(finish_reason)
    body = plain(text or "")
    if not body.strip():
        cut = truncated or (bool((text or "").strip()) and not after_reasoning(text or "").strip())
        return Reading(None, NONE, TRUNCATED if truncated else NONE if not cut else TRUNCATED)
    options = plain_options(options)
    line = read_contract(body, options, truncated=truncated)
    if line is not None:
        return Reading(line.key, CONTRACT, line.reason)
    last_line = body.strip().splitlines()[-1]
    if _REFUSAL.search(last_line):
        return Reading(None, NONE, REFUSED)
    if _tied_vote(body):
        return Reading(None, NONE, AMBIGUOUS)
    if truncated:  # only what was said with conviction before the cut counts
        body = " ".join(s for s in re.split(r"(?<=[.!?])\s+", body) if not _HEDGE.search(s))
    found, step = read_free_text(body, options, declarations_only=truncated)
    if found == OFFERS_SEVERAL:
        return Reading(None, step, REFUSED if _REFUSAL.search(body) else AMBIGUOUS)
    if found is not None:
        return Reading(found, step)
    return Reading(None, NONE, TRUNCATED if truncated else REFUSED if _REFUSAL.search(body) else NONE)


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
