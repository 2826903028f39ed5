"""Reading an answer letter out of an agent's reply, and asking for replies in that format.

Intermediate needs each expert's current letter for the vote tally and the consensus check; it
uses the same reader that grades the final answer (mdagents.scoring), so votes and grades agree.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from mdagents.data.datasets import Question
from mdagents.scoring import read_answer


def answer_letter(text: str, options: dict[str, str]) -> str | None:
    """The option letter a reply commits to, or None when it commits to none."""
    return read_answer(text, options).letter


def answer_params(question: Question, *, structured: bool = False) -> dict[str, Any]:
    """Generation hints for calls whose reply is an answer: "letter" (the local provider turns it into a
    grammar), or "json" for a structured final decision (each provider asks for it through its SDK)."""
    return {"answer_format": "json" if structured else "letter", "answer_letters": tuple(question.options)}


def vote_tally(letters: list[str | None]) -> list[tuple[str, int]]:
    """Votes per letter, most votes first, ties in letter order; abstentions are left out."""
    counts = Counter(letter for letter in letters if letter is not None)
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))
