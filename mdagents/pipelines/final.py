"""The final decision maker's call, packaged as the `FinalAttempt` that `ctx.finalize` drives.

The first attempt sends the pipeline's final prompt (plus any `extra` text: guideline
excerpts, critic feedback). A later attempt is a fresh one-off call (Agent.ask, history
untouched) that also shows the decider its previous answer, so feedback about that answer
makes sense. Always temperature 0, as the paper's final steps.
"""

from __future__ import annotations

from mdagents.agent import Agent
from mdagents.data.datasets import Question
from mdagents.pipelines.answers import answer_params
from mdagents.prompts import render


class FinalStep:
    """Callable `attempt(extra) -> reply` for one question's final decision."""

    def __init__(self, agent: Agent, prompt: str, question: Question, *, structured: bool = False) -> None:
        self.agent = agent
        self.prompt = prompt
        self.question = question
        self.structured = structured  # --answer-format json: the provider's structured output
        self.replies: list[str] = []

    def message(self, extra: str | None) -> str:
        """The user message of the next attempt."""
        parts = [self.prompt]
        if self.replies:
            parts.append(render("final_previous_answer", previous=self.replies[-1]))
        if extra:
            parts.append(extra.strip())
        return "\n\n".join(parts)

    async def __call__(self, extra: str | None) -> str:
        reply = await self.agent.ask(self.message(extra), temperature=0.0,
                                     **answer_params(self.question, structured=self.structured))
        self.replies.append(reply)
        return reply
