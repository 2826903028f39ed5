"""An example method plugin: answer step by step, then check the answer once (2 calls per question).

Run it on any dataset and model like a built-in method:

    python main.py --method docs/examples/my_method.py:solve --dataset medqa --num_samples 20

Its calls go through the run's LLM client (cache, retries, limits, budget, accounting), its records,
summary and report look like every other method's, and the file's sha256 is part of the run's
fingerprint: editing it starts a new configuration instead of mixing two in one run directory.
The API is described in docs/methods.md.
"""

from __future__ import annotations

from mdagents.methods.api import (
    Decision,
    MethodContext,
    Question,
    answer_letter,
    answer_params,
    question_text,
)

INSTRUCTION = "You are a careful physician who answers multiple choice exam questions."
ANSWER_LINE = "End with one line in exactly this format:\nAnswer: (X) option text"


async def solve(question: Question, ctx: MethodContext) -> Decision:
    agent = ctx.agent(role="physician", instruction=INSTRUCTION, kind="answerer")
    first = await agent.chat(f"{question_text(question)}\n\nThink step by step. {ANSWER_LINE}",
                             **answer_params(question))
    check = (f"Check your reasoning for errors once more, then give your final answer to the question.\n\n"
             f"{question_text(question)}\n\n{ANSWER_LINE}")
    final = await agent.chat(check, temperature=0.0, **answer_params(question))
    changed = answer_letter(first, question.options) != answer_letter(final, question.options)
    return Decision(text=final, level="answer-and-check", details={"changed_on_check": changed})
