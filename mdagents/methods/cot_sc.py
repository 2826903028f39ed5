"""cot-sc[:k]: chain-of-thought self-consistency -- k sampled CoT answers, the majority wins (k calls).

Wang et al. 2023, "Self-Consistency Improves Chain of Thought Reasoning in Language Models" (ICLR);
the "CoT-SC" baseline of the MDAgents paper (Table 1), which samples at temperature 0.7 -- as here.
Default k = 5. The samples are independent calls (seeds 1..k), run concurrently; the vote rule
(ties, unreadable answers) is the one in mdagents/methods/vote.py.
"""

from __future__ import annotations

import asyncio

from mdagents.data.datasets import Question
from mdagents.methods.common import answerer, prompt, sampled
from mdagents.methods.vote import vote_decision
from mdagents.pipelines.base import Decision, PipelineContext

NAME = "cot-sc"
PARAMS = ("k",)
DEFAULTS = (5,)


async def solve(question: Question, ctx: PipelineContext, k: int = 5) -> Decision:
    agent = answerer(ctx, "cot_sample")
    text = prompt("cot", question)
    replies = await asyncio.gather(*(sampled(agent, text, question, i) for i in range(1, k + 1)))
    return vote_decision(f"{NAME}:{k}", question, replies, samples=k)


def calls(k: int = 5) -> int:
    return k
