"""Majority voting over answers, shared by every ensemble method (cot-sc, majority-vote, llm-debate, ...).

The rule: each answer's letter is read by the project's grader (`answer_letter`); an answer that
commits to no option does not vote. The letter with the most votes wins; a tie goes to the tied
letter whose first vote came earliest in answer order (sample 1, 2, ...; agent 1, 2, ...) -- not
to the earliest letter of the alphabet, which with shuffled options would be a position bias.
With no readable vote there is no answer: the decision says so and is graded as no answer.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mdagents.data.datasets import Question
from mdagents.pipelines.answers import answer_letter
from mdagents.pipelines.base import Decision


@dataclass(frozen=True)
class Vote:
    winner: str | None
    counts: dict[str, int]  # letter -> votes, winner first, then by votes and first appearance
    letters: list[str | None]  # each answer's letter, in answer order (None: no readable answer)

    def to_dict(self) -> dict[str, Any]:
        return {"winner": self.winner, "counts": self.counts, "letters": self.letters,
                "unreadable": sum(letter is None for letter in self.letters)}


def majority(letters: Sequence[str | None]) -> Vote:
    """Plurality of the readable letters; ties to the letter voted first (see the module docstring)."""
    counts = Counter(letter for letter in letters if letter is not None)
    first = {letter: letters.index(letter) for letter in counts}
    ranked = sorted(counts, key=lambda letter: (-counts[letter], first[letter]))
    return Vote(ranked[0] if ranked else None, {letter: counts[letter] for letter in ranked}, list(letters))


def letters_of(replies: Sequence[str], question: Question) -> list[str | None]:
    return [answer_letter(reply, question.options) for reply in replies]


def vote_decision(method: str, question: Question, replies: Sequence[str], **details: Any) -> Decision:
    """The decision of a vote over `replies`: its text ends with the winner's contract line."""
    return decided(method, question, majority(letters_of(replies, question)), **details)


def decided(method: str, question: Question, vote: Vote, **details: Any) -> Decision:
    """A vote's decision, its text ending with the winner's answer line (or naming no option)."""
    total = len(vote.letters)
    if vote.winner is None:
        text = f"None of the {total} answers named one of the options: no majority."
    else:
        text = (f"Majority vote: {vote.counts[vote.winner]} of {total} answers chose this option.\n"
                f"Answer: ({vote.winner}) {question.options[vote.winner]}")
    return Decision(text=text, level=method, details={"vote": vote.to_dict(), **details})
