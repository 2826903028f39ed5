"""Agent: a persona (role + instruction) with its own message history, talking through the LLM client."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from mdagents.llm.client import LLM
from mdagents.llm.transcript import Transcript
from mdagents.llm.types import Message, Usage


def persona_after_first_message(messages: Sequence[Message]) -> list[Message]:
    """[system, user, *rest] -> [user, system, *rest]; any other conversation unchanged.

    Agents that differ only by persona but get the same first message then send prompts with a
    common prefix (that message), which a model's prompt cache reads once for all of them.
    """
    if len(messages) >= 2 and messages[0].role == "system" and messages[1].role == "user":
        return [messages[1], messages[0], *messages[2:]]
    return list(messages)


class Agent:
    """One participant of a pipeline.

    `role` is the persona ("Cardiologist"); `kind` is the accounting role the usage is
    booked under ("expert", "recruiter", "moderator", ...). `persona_after_first`: the
    instruction is sent after the agent's first message instead of before it (see
    `persona_after_first_message`); the history itself keeps the usual order.
    """

    def __init__(
        self,
        llm: LLM,
        *,
        role: str,
        instruction: str,
        kind: str,
        transcript: Transcript | None = None,
        examples: Sequence[Message] = (),
        temperature: float | None = None,
        cache_hint: str | None = None,
        persona_after_first: bool = False,
    ) -> None:
        self.llm = llm
        self.role = role
        self.kind = kind
        self.instruction = instruction
        self.transcript = transcript
        self.history: list[Message] = [Message("system", instruction), *examples]
        self.usage = Usage()
        self.temperature = temperature  # used by every call that does not set its own
        self.cache_hint = cache_hint  # groups this agent's calls for provider prompt caches
        self.persona_after_first = persona_after_first

    async def _complete(self, messages: Sequence[Message], **params: object) -> str:
        if self.temperature is not None:
            params.setdefault("temperature", self.temperature)
        if self.cache_hint is not None:
            params.setdefault("cache_hint", self.cache_hint)
        if self.persona_after_first:
            messages = persona_after_first_message(messages)
        completion = await self.llm.complete(messages, role=self.kind, transcript=self.transcript, **params)  # type: ignore[arg-type]
        self.usage = self.usage + completion.usage
        return completion.text

    async def chat(self, message: str, **params: object) -> str:
        """Send a message in the running conversation; both turns join the history."""
        self.history.append(Message("user", message))
        reply = await self._complete(self.history, **params)
        self.history.append(Message("assistant", reply))
        return reply

    async def ask(self, message: str, **params: object) -> str:
        """A one-off question on top of the history, which it leaves unchanged.

        Control prompts (participation, addressing) are asked this way: the agent answers with its
        whole context, the call is in the transcript, but neither turn is re-sent on later calls.
        """
        return await self._complete([*self.history, Message("user", message)], **params)

    async def temp_responses(self, message: str, temperatures: Sequence[float] = (0.0,),
                             **params: object) -> dict[float, str]:
        """Answers at several temperatures (as the original); the first joins the history."""
        base = [*self.history, Message("user", message)]
        replies = await asyncio.gather(*(self._complete(base, temperature=t, **params) for t in temperatures))
        self.history.extend([Message("user", message), Message("assistant", replies[0])])
        return dict(zip(temperatures, replies, strict=True))
