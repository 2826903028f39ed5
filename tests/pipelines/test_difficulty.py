"""The adaptive router: robust parsing, a recorded fallback, booked as 'classifier'."""

from __future__ import annotations

import pytest

from mdagents.pipelines.difficulty import FALLBACK_LEVEL, classify, parse_difficulty
from tests.fakes.scripted import scripted_llm
from tests.pipelines.helpers import QUESTIONS, context, provider


@pytest.mark.parametrize(("reply", "level"), [
    ("Difficulty: basic", "basic"),
    ("difficulty: Intermediate.", "intermediate"),
    ("**Difficulty:** 3) advanced", "advanced"),
    ("Difficulty/complexity: **advanced**", "advanced"),
    ("The difficulty is: 2", "intermediate"),
    ("2) intermediate", "intermediate"),
    ("3", "advanced"),
    ("advanced", "advanced"),
    ("Several specialities are involved, so experts should discuss it.\n\nDifficulty: intermediate", "intermediate"),
    ("This is not a basic question.\nDifficulty: advanced", "advanced"),
    ("The question is intermediate in complexity.", "intermediate"),
])
def test_parses_good_and_noisy_replies(reply: str, level: str) -> None:
    assert parse_difficulty(reply) == level


@pytest.mark.parametrize("reply", [
    "",
    "I cannot tell.",
    "Difficulty: high",
    # the original matched '1)' and 'basic' anywhere and called this basic
    "1) basic: ... 2) intermediate: ... 3) advanced: ... all could apply",
    "Not basic; maybe intermediate or advanced.",
    "See options 1) and 2).",
])
def test_unparseable_replies_give_none(reply: str) -> None:
    assert parse_difficulty(reply) is None


async def test_classify_books_one_classifier_call_at_temperature_zero() -> None:
    llm = scripted_llm(["Reasoning...\nDifficulty: advanced"])
    ctx = context(llm)
    assert await classify(QUESTIONS[0], ctx) == ("advanced", "classified")
    [(messages, params)] = provider(llm).requests
    assert params.temperature == 0.0
    assert "(C) Myocardial infarction" in messages[-1].content  # the options are shown
    assert [c.role for c in ctx.transcript.calls] == ["classifier"]


async def test_unparseable_reply_falls_back_and_says_so() -> None:
    llm = scripted_llm(["Hmm, hard to say."])
    lines: list[str] = []
    ctx = context(llm)
    ctx.verbose, ctx.log = True, lines.append
    assert await classify(QUESTIONS[0], ctx) == (FALLBACK_LEVEL, "fallback")
    assert FALLBACK_LEVEL == "intermediate"
    assert any("unparseable" in line for line in lines)
