"""Basic pipeline: few-shot exemplars with model-written rationales, then one answer at temperature 0."""

from __future__ import annotations

import asyncio

from mdagents.pipelines import basic
from mdagents.pipelines.answers import answer_letter
from tests.pipelines.helpers import EXEMPLARS, QUESTIONS, context, good_llm, provider, roles


async def test_answers_correctly_with_exemplar_history() -> None:
    llm = good_llm()
    ctx = context(llm, exemplars=EXEMPLARS, num_exemplars=3)
    decision = await basic.solve(QUESTIONS[1], ctx)
    assert answer_letter(decision.text, QUESTIONS[1].options) == "A"
    assert decision.level == "basic" and decision.details == {"exemplars": 3}
    assert roles(ctx) == {"exemplar_rationale": 3, "basic_agent": 1}
    messages, params = provider(llm).requests[-1]
    assert params.temperature == 0.0 and params.answer_format == "letter"
    # system + 3 exemplars as (question, answer + rationale) turns + the question
    assert [m.role for m in messages] == ["system", *["user", "assistant"] * 3, "user"]
    assert messages[2].content.startswith("Answer: (A) Deficiency of A")
    assert "The key findings point directly to this answer." in messages[2].content
    assert "Let's think step by step" in messages[-1].content


async def test_per_run_rationales_are_written_once_across_concurrent_questions() -> None:
    llm = good_llm()
    ctx = context(llm, exemplars=EXEMPLARS, num_exemplars=5, rationales="per-run")
    decisions = await asyncio.gather(*(basic.solve(q, ctx) for q in QUESTIONS))
    assert [answer_letter(d.text, q.options) for d, q in zip(decisions, QUESTIONS, strict=True)] == \
        [q.answer_idx for q in QUESTIONS]
    assert roles(ctx) == {"exemplar_rationale": 5, "basic_agent": 4}
    # run overhead, not booked to whichever question came first
    assert {call.role for call in ctx.transcript.calls} == {"basic_agent"}


async def test_per_question_rationales_are_rewritten_for_every_question() -> None:
    llm = good_llm()
    ctx = context(llm, exemplars=EXEMPLARS, num_exemplars=5, rationales="per-question")
    await asyncio.gather(*(basic.solve(q, ctx) for q in QUESTIONS))
    assert roles(ctx) == {"exemplar_rationale": 20, "basic_agent": 4}


async def test_without_exemplars_it_is_one_call() -> None:
    llm = good_llm()
    ctx = context(llm)
    decision = await basic.solve(QUESTIONS[0], ctx)
    assert decision.details == {"exemplars": 0}
    assert len(provider(llm).requests) == 1
