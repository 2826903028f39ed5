"""few-shot: one agent answers after worked exemplars from the train split (1 call).

The "Few-shot" baseline of the MDAgents paper (Kim et al., NeurIPS 2024, Table 1; Brown et al. 2020).
The exemplars are the ones the basic level shows (`--num-exemplars`, the same train questions in the
same order), as prior turns question -> answer line. Deviation from the basic level: no model-written
rationales (those make basic a few-shot *chain-of-thought* method), so the method costs exactly
one call per question and no run overhead.
"""

from __future__ import annotations

from mdagents.data.datasets import Question
from mdagents.llm.types import Message
from mdagents.methods.common import one_answer
from mdagents.pipelines import exemplars
from mdagents.pipelines.base import Decision, PipelineContext
from mdagents.pipelines.question_text import answer_line, question_text

NAME = "few-shot"
ONE_FINAL_CALL = True


def shots(ctx: PipelineContext) -> list[Message]:
    messages: list[Message] = []
    for ex in exemplars.chosen(ctx):
        messages += [Message("user", question_text(ex)), Message("assistant", answer_line(ex))]
    return messages


async def solve(question: Question, ctx: PipelineContext) -> Decision:
    return await one_answer(question, ctx, method=NAME, kind="few_shot_agent", template="direct", examples=shots(ctx))
