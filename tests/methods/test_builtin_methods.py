"""The baseline methods: right answers from a good model, and exactly the calls each method implies."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from mdagents.methods import BUILTIN, resolve
from mdagents.methods.vote import majority
from mdagents.pipelines.answers import answer_letter
from mdagents.pipelines.base import PipelineContext
from mdagents.pipelines.question_text import question_text
from tests.fakes.scripted import last_user, scripted_llm
from tests.pipelines.helpers import EXEMPLARS, QUESTIONS, context, good_llm, provider

# method spec -> (calls per question, the accounting role of every call)
EXPECTED = {
    "zero-shot": (1, "zero_shot_agent"),
    "few-shot": (1, "few_shot_agent"),
    "cot": (1, "cot_agent"),
    "cot-sc": (5, "cot_sample"),
    "cot-sc:3": (3, "cot_sample"),
    "majority-vote": (5, "voter"),
    "majority-vote:12": (12, "voter"),
    "llm-debate": (6, "debater"),
    "llm-debate:4:3": (12, "debater"),
    "medprompt:3:2:5": (3, "ensemble_member"),
}
# methods whose calls are of several roles: spec -> calls per role when the experts agree at once
BY_ROLE = {
    "medagents": {"domain_gatherer": 2, "question_expert": 5 + 5, "option_expert": 2, "report_assistant": 1,
                  "decision_maker": 1},
    "medagents:3:1:2": {"domain_gatherer": 2, "question_expert": 3 + 3, "option_expert": 1, "report_assistant": 1,
                        "decision_maker": 1},
}


def roles(ctx: PipelineContext) -> Counter[str]:
    return Counter(call.role for call in ctx.transcript.calls)


@pytest.mark.parametrize("spec", [*EXPECTED, *BY_ROLE])
async def test_each_method_answers_right_with_the_calls_it_implies(spec: str) -> None:
    expected = BY_ROLE.get(spec) or {EXPECTED[spec][1]: EXPECTED[spec][0]}
    calls = sum(expected.values())
    method = resolve(spec)
    for question in QUESTIONS:
        llm = good_llm()
        ctx = context(llm, exemplars=EXEMPLARS, num_exemplars=3)
        decision = await method.decide(question, ctx)
        assert answer_letter(decision.text, question.options) == question.answer_idx
        assert roles(ctx) == expected
        run = ctx.shared.get("run_transcript")  # calls made once for the run (medprompt's exemplar CoTs)
        made = len(provider(llm).requests) - (len(run.calls) if run else 0)
        assert method.calls is not None and method.calls[0] <= made == calls <= method.calls[1]
        assert decision.text.rstrip().splitlines()[-1].startswith("Answer: (")


def test_every_builtin_is_tested() -> None:
    assert {spec.split(":")[0] for spec in [*EXPECTED, *BY_ROLE]} == set(BUILTIN)


async def test_cot_sc_samples_k_distinct_answers_at_temperature_0_7() -> None:
    llm = good_llm()
    await resolve("cot-sc:5").decide(QUESTIONS[0], context(llm))
    params = [p for _, p in provider(llm).requests]
    assert [p.temperature for p in params] == [0.7] * 5
    assert sorted(p.seed for p in params) == [1, 2, 3, 4, 5]  # distinct calls, distinct cache entries
    assert all("Let's think step by step" in last_user(m) for m, _ in provider(llm).requests)


def _answers(*letters: str) -> Any:
    """A responder giving the i-th call the i-th letter (calls in seed order)."""
    def respond(messages: Any, params: Any) -> str:
        options = QUESTIONS[0].options
        letter = letters[(params.seed or 1) - 1]
        return f"Reasoning.\nAnswer: ({letter}) {options[letter]}" if letter != "?" else "I am not sure."
    return respond


@pytest.mark.parametrize(("letters", "winner", "counts"), [
    (("A", "C", "C", "B", "C"), "C", {"C": 3, "A": 1, "B": 1}),
    (("B", "A", "A", "B", "D"), "B", {"B": 2, "A": 2, "D": 1}),  # tie: the letter voted first wins
    (("D", "?", "?", "A", "A"), "A", {"A": 2, "D": 1}),  # answers without a letter do not vote
])
async def test_cot_sc_takes_the_majority(letters: tuple[str, ...], winner: str, counts: dict[str, int]) -> None:
    ctx = context(scripted_llm(_answers(*letters)))
    decision = await resolve("cot-sc").decide(QUESTIONS[0], ctx)
    assert answer_letter(decision.text, QUESTIONS[0].options) == winner
    assert decision.details["vote"]["counts"] == counts
    assert next(iter(decision.details["vote"]["counts"])) == winner


async def test_no_readable_vote_is_no_answer() -> None:
    decision = await resolve("cot-sc:2").decide(QUESTIONS[0], context(scripted_llm(_answers("?", "?"))))
    assert answer_letter(decision.text, QUESTIONS[0].options) is None
    assert decision.details["vote"] == {"winner": None, "counts": {}, "letters": [None, None], "unreadable": 2}


def test_majority_tie_rule_is_first_vote_not_alphabet() -> None:
    assert majority(["C", "A", "A", "C"]).winner == "C"
    assert majority([None, "B", "A"]).winner == "B"
    assert majority([]).winner is None


async def test_few_shot_shows_the_basic_exemplars_as_answered_turns() -> None:
    llm = good_llm()
    await resolve("few-shot").decide(QUESTIONS[1], context(llm, exemplars=EXEMPLARS, num_exemplars=3))
    messages, params = provider(llm).requests[0]
    assert [m.role for m in messages] == ["system", *["user", "assistant"] * 3, "user"]
    assert messages[1].content == question_text(EXEMPLARS[0])
    assert messages[2].content == "Answer: (A) Deficiency of A"  # no model-written rationale: one call only
    assert params.temperature == 0.0


async def test_debaters_read_the_other_agents_latest_answers() -> None:
    question = QUESTIONS[2]
    options = question.options

    def respond(messages: Any, params: Any) -> str:
        text = last_user(messages)
        if "solutions to the problem from other agents" not in text:  # round 1: agent 1 is wrong
            letter = "A" if params.seed == 1 else "D"
        else:
            letter = "D"
        return f"My view, agent {params.seed}.\nAnswer: ({letter}) {options[letter]}"

    llm = scripted_llm(respond)
    decision = await resolve("llm-debate:3:2").decide(question, context(llm))
    requests = provider(llm).requests
    assert len(requests) == 6
    second = [(m, p) for m, p in requests if "other agents" in last_user(m)]
    assert len(second) == 3
    for messages, params in second:
        text = last_user(messages)
        assert f"agent {params.seed}." not in text  # an agent is shown the others, not itself
        assert sum(f"agent {k}." in text for k in (1, 2, 3)) == 2
        assert [m.role for m in messages] == ["system", "user", "assistant", "user"]  # its own first answer kept
    assert decision.details["rounds"] == [["A", "D", "D"], ["D", "D", "D"]]
    assert answer_letter(decision.text, options) == "D"


async def test_majority_vote_agents_are_distinct_specialists() -> None:
    llm = good_llm()
    decision = await resolve("majority-vote:3").decide(QUESTIONS[0], context(llm))
    systems = [m[0].content for m, _ in provider(llm).requests]
    assert len(set(systems)) == 3
    assert decision.details["agents"] == ["general internist", "cardiologist", "pulmonologist"]




async def test_medagents_revises_the_report_until_the_experts_agree() -> None:
    from mdagents.llm.mock import step_reply

    question = QUESTIONS[3]
    truth = (question.answer_idx, question.answer)
    revisions = []

    def respond(messages: Any, params: Any) -> str:
        text = last_user(messages)
        if "Agree: yes" in text:  # the vote: the Cardiologist disagrees until the report was revised twice
            return "Agree: yes" if "Cardiologist" not in messages[0].content or len(revisions) >= 2 else \
                "Agree: no\nThe report forgets the exophthalmos."
        if "Revise the report" in text:
            revisions.append(text)
            assert "[Cardiologist] Agree: no" in text and "exophthalmos" in text
            return f"Revised report {len(revisions)}."
        return step_reply(text, truth, "basic")

    llm = scripted_llm(respond)
    ctx = context(llm)
    decision = await resolve("medagents").decide(question, ctx)
    assert decision.details["votes_in_favour"] == [4, 4, 5] and decision.details["consensus"] is True
    assert roles(ctx)["question_expert"] == 5 + 3 * 5 and roles(ctx)["report_assistant"] == 1 + 2
    assert "Revised report 2." in last_user(provider(llm).requests[-1][0])  # the decision reads the last report
    assert answer_letter(decision.text, question.options) == question.answer_idx
    assert (len(provider(llm).requests),) == resolve("medagents").calls[1:]  # the most: 3 votes, 2 revisions


async def test_medagents_stops_after_its_last_vote_and_falls_back_on_unreadable_fields() -> None:
    from mdagents.llm.mock import step_reply
    from mdagents.methods.medagents import parse_fields

    def respond(messages: Any, params: Any) -> str:
        text = last_user(messages)
        if "distinct fields of medicine" in text:
            return "I would ask a cardiologist."
        if "Agree: yes" in text:
            return "**Agree: No** -- still wrong."
        return step_reply(text, ("B", QUESTIONS[3].options["B"]), "basic")

    ctx = context(scripted_llm(respond))
    decision = await resolve("medagents:2:1:2").decide(QUESTIONS[3], ctx)
    assert decision.details["fields_fallback"] is True
    assert decision.details["question_experts"] == ["Internal Medicine", "Emergency Medicine"]
    assert decision.details["votes_in_favour"] == [0, 0] and decision.details["consensus"] is False
    assert roles(ctx)["report_assistant"] == 2  # one summary, one revision: no revision after the last vote
    assert parse_fields("1. **Cardiology**\n2) Neurology.\n- cardiology\nText\n3. Nephrology", 5) == [
        "Cardiology", "Neurology", "Nephrology"]
