"""medprompt: nearest train questions by embedding, self-generated chains of thought kept only when right,
a choice-shuffle ensemble mapped back to the shown letters."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

from mdagents.data.datasets import Question
from mdagents.llm.mock import options_after, step_reply
from mdagents.methods import resolve
from mdagents.methods.medprompt import neighbours, shuffled
from mdagents.pipelines.answers import answer_letter
from tests.fakes.scripted import last_user, scripted_llm
from tests.pipelines.helpers import LOOKUP, QUESTIONS, context, good_llm, provider
from tests.pipelines.responders import true_option

POOL = [
    Question("tr-0", "Which antidote reverses an opioid overdose with pinpoint pupils and slow breathing?",
             {"A": "Naloxone", "B": "Atropine"}, "A", "Naloxone"),
    Question("tr-1", "A toddler has a seal-like barking cough at night. What virus causes it?",
             {"A": "Parainfluenza virus", "B": "Rhinovirus"}, "A", "Parainfluenza virus"),
    Question("tr-2", "Which hormone excess causes exophthalmos and heat intolerance?",
             {"A": "Cortisol", "B": "Thyroid hormone"}, "B", "Thyroid hormone"),
    Question("tr-3", "Crushing chest pain with ST elevation: what is the diagnosis?",
             {"A": "Myocardial infarction", "B": "Pericarditis"}, "A", "Myocardial infarction"),
]
ALL = {**LOOKUP, **{q.question: q.answer for q in POOL}}


async def test_the_nearest_train_questions_are_the_exemplars() -> None:
    ctx = context(good_llm(), exemplars=POOL)
    near = await neighbours(QUESTIONS[2], ctx, shots=2, pool=4)  # "Which drug reverses opioid-induced ..."
    assert near[0].id == "tr-0"
    assert (await neighbours(QUESTIONS[1], ctx, shots=1, pool=4))[0].id == "tr-1"
    assert [q.id for q in await neighbours(QUESTIONS[1], ctx, shots=1, pool=2)] == ["tr-1"]
    assert await neighbours(QUESTIONS[1], context(good_llm()), shots=3, pool=4) == []  # no train split


def _responder(wrong_on: set[str]) -> Any:
    """Answers right, except on the train questions in `wrong_on`."""
    def respond(messages: Any, params: Any) -> str:
        text = last_user(messages)
        truth = true_option(text, ALL)
        if truth and any(q.question in text and q.id in wrong_on for q in POOL):
            options = options_after(text, text.rfind("Options:"))
            wrong = next(letter for letter in options if letter != truth[0])
            truth = (wrong, options[wrong])
        return step_reply(text, truth, "basic")
    return respond


async def test_chains_of_thought_are_kept_only_when_right_and_written_once_per_run() -> None:
    llm = scripted_llm(_responder({"tr-3"}))
    ctx = context(llm, exemplars=POOL)
    method = resolve("medprompt:5:4:4")
    decisions = await asyncio.gather(*(method.decide(q, ctx) for q in QUESTIONS))
    assert [answer_letter(d.text, q.options) for d, q in zip(decisions, QUESTIONS, strict=True)] == \
        [q.answer_idx for q in QUESTIONS]
    assert all("tr-3" not in d.details["exemplars"] and len(d.details["exemplars"]) == 3 for d in decisions)
    run = ctx.shared["run_transcript"]
    assert Counter(c.role for c in run.calls) == {"exemplar_cot": 4}  # each pool question once, for the run
    assert Counter(c.role for c in ctx.transcript.calls) == {"ensemble_member": 5 * 4}
    member = next(m for m, _ in provider(llm).requests if len(m) > 2)
    assert [m.role for m in member] == ["system", *["user", "assistant"] * 3, "user"]


async def test_the_ensemble_shuffles_the_choices_and_votes_in_the_shown_letters() -> None:
    question = QUESTIONS[0]
    orders = [list(shuffled(question, k).options.values()) for k in range(1, 6)]
    assert len({tuple(o) for o in orders}) > 1 and all(sorted(o) == sorted(question.options.values()) for o in orders)
    llm = good_llm()
    decision = await resolve("medprompt:5:2:4").decide(question, context(llm))  # no train pool: zero-shot CoT
    seen = {tuple(options_after(last_user(m), last_user(m).rfind("Options:")).values()) for m, _ in provider(llm).requests}
    assert seen == {tuple(o) for o in orders}
    assert decision.details["vote"]["letters"] == [question.answer_idx] * 5
    assert [p.temperature for _, p in provider(llm).requests] == [0.7] * 5
