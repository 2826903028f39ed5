"""majority-vote[:n]: n independent agents answer, the majority wins (n calls).

The "Majority Voting" multi-agent baseline of the MDAgents paper (Kim et al., NeurIPS 2024, Table 1):
several agents answer on their own and the most frequent answer is taken. Default n = 5, the size
of the MDAgents expert panel. Here the agents are clinicians of different specialties (a fixed list,
so no recruitment call; cycled when n exceeds it), each reasoning step by step at the run's agent
temperature; seeds 1..n keep them distinct calls. They answer concurrently and never see each
other. Ties and unreadable answers: mdagents/methods/vote.py.
"""

from __future__ import annotations

import asyncio

from mdagents.data.datasets import Question
from mdagents.methods.common import answerer, prompt
from mdagents.methods.vote import vote_decision
from mdagents.pipelines.answers import answer_params
from mdagents.pipelines.base import Decision, PipelineContext
from mdagents.prompts import render

NAME = "majority-vote"
PARAMS = ("n",)
DEFAULTS = (5,)
SPECIALTIES = ("general internist", "cardiologist", "pulmonologist", "neurologist", "clinical pharmacologist",
               "infectious disease specialist", "pediatrician", "general surgeon", "obstetrician", "psychiatrist")


def specialty(index: int) -> str:
    return SPECIALTIES[index % len(SPECIALTIES)]


async def solve(question: Question, ctx: PipelineContext, n: int = 5) -> Decision:
    text = prompt("cot", question)
    agents = [answerer(ctx, "voter", role=specialty(i), instruction=render("method_persona_system", role=specialty(i)))
              for i in range(n)]
    replies = await asyncio.gather(*(agent.ask(text, seed=i, **answer_params(question))
                                     for i, agent in enumerate(agents, 1)))
    return vote_decision(f"{NAME}:{n}", question, replies, agents=[a.role for a in agents])


def calls(n: int = 5) -> int:
    return n
