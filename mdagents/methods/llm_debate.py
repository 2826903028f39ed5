"""llm-debate[:agents:rounds]: agents answer, read each other's answers and revise; majority at the end.

Du et al. 2023, "Improving Factuality and Reasoning in Language Models through Multiagent Debate"
(arXiv:2305.14325; ICML 2024). Round 1: every agent answers step by step. Each later round: every
agent is shown the other agents' latest answers (the paper's prompt: "These are the solutions to
the problem from other agents ... Using the reasoning from other agents as additional advice, can
you give an updated answer?") and answers again, in its own running conversation. After the last
round the majority of the agents' answers wins (ties: mdagents/methods/vote.py).
Defaults 3 agents and 2 rounds (round 1 included), as the paper's main setting: agents x rounds
calls per question. Deviations: sampling at temperature 0.7 with one seed per agent (the paper used
the API default), so identical agents still differ; answers end with the project's answer line.
"""

from __future__ import annotations

import asyncio

from mdagents.data.datasets import Question
from mdagents.methods.common import answerer, prompt, sampled
from mdagents.methods.vote import letters_of, vote_decision
from mdagents.pipelines.base import Decision, PipelineContext
from mdagents.pipelines.question_text import question_text
from mdagents.prompts import render

NAME = "llm-debate"
PARAMS = ("agents", "rounds")
DEFAULTS = (3, 2)


def _update(question: Question, others: list[str]) -> str:
    shown = "\n\n".join(render("method_debate_other", reply=reply.strip()) for reply in others)
    return render("method_debate_update", others=shown, question=question_text(question))


async def solve(question: Question, ctx: PipelineContext, agents: int = 3, rounds: int = 2) -> Decision:
    panel = [answerer(ctx, "debater", role=f"debater {i}") for i in range(1, agents + 1)]
    first = prompt("cot", question)
    latest = list(await asyncio.gather(*(sampled(a, first, question, i, chat=True) for i, a in enumerate(panel, 1))))
    history = [latest]
    for _ in range(2, rounds + 1):
        prompts = [_update(question, latest[:i] + latest[i + 1:]) for i in range(agents)]
        latest = list(await asyncio.gather(*(sampled(a, p, question, i, chat=True)
                                             for i, (a, p) in enumerate(zip(panel, prompts, strict=True), 1))))
        history.append(latest)
    # each round's letters (the replies themselves are in the transcript)
    return vote_decision(f"{NAME}:{agents}:{rounds}", question, latest,
                         rounds=[letters_of(replies, question) for replies in history])


def calls(agents: int = 3, rounds: int = 2) -> int:
    return agents * rounds
