"""Basic (low complexity): a single agent answers, few-shot, step by step (paper §3.2).

1. Exemplars from the training split, each with a 1-2 sentence rationale written by the model.
2. The exemplars become the agent's prior conversation (question -> answer + rationale).
3. The agent answers the question step by step at temperature 0: the final decision.
"""

from __future__ import annotations

from mdagents.data.datasets import Question
from mdagents.pipelines import exemplars
from mdagents.pipelines.base import Decision, PipelineContext
from mdagents.pipelines.final import FinalStep
from mdagents.pipelines.question_text import question_text
from mdagents.prompts import load, render


async def solve(question: Question, ctx: PipelineContext) -> Decision:
    shots = await exemplars.rationales(ctx)
    agent = ctx.agent(role="medical expert", instruction=load("basic_system"), kind="basic_agent",
                      examples=exemplars.as_messages(shots))
    ctx.say(f"[basic] answering with {len(shots)} exemplar(s)")
    attempt = FinalStep(agent, render("basic_answer", question=question_text(question)), question,
                        structured=ctx.settings.answer_format == "json")
    text = await ctx.finalize(question, attempt, ctx)
    return Decision(text=text, level="basic", details={"exemplars": len(shots)})
