"""zero-shot: one agent answers directly, no examples, no reasoning asked for (1 call).

The "Zero-shot" single-agent baseline of the MDAgents paper (Kim et al., NeurIPS 2024, Table 1),
as introduced for LLMs by Brown et al. 2020 ("Language Models are Few-Shot Learners").
Deviation: the reply must end with the project's answer line `Answer: (X) option text`.
"""

from __future__ import annotations

from mdagents.data.datasets import Question
from mdagents.methods.common import one_answer
from mdagents.pipelines.base import Decision, PipelineContext

NAME = "zero-shot"
ONE_FINAL_CALL = True


async def solve(question: Question, ctx: PipelineContext) -> Decision:
    return await one_answer(question, ctx, method=NAME, kind="zero_shot_agent", template="direct")
