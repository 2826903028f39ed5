"""cot: zero-shot chain of thought -- "Let's think step by step", then the answer (1 call).

Kojima et al. 2022, "Large Language Models are Zero-Shot Reasoners" (NeurIPS); the "CoT" baseline
of the MDAgents paper (Table 1, after Wei et al. 2022). Temperature 0, as every final decision here.
"""

from __future__ import annotations

from mdagents.data.datasets import Question
from mdagents.methods.common import one_answer
from mdagents.pipelines.base import Decision, PipelineContext

NAME = "cot"
ONE_FINAL_CALL = True


async def solve(question: Question, ctx: PipelineContext) -> Decision:
    return await one_answer(question, ctx, method=NAME, kind="cot_agent", template="cot")
