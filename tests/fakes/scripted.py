"""An in-process scripted provider: the fake LLM of unit tests.

Give it a function (messages, params) -> reply text, or a list of replies served in order.
It records every request so tests can assert on the call graph and on prompt contents.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from mdagents.errors import ContextOverflow, ProviderError
from mdagents.llm.client import LLM, RetryPolicy
from mdagents.llm.types import Completion, GenerationParams, Message, Usage

Responder = Callable[[list[Message], GenerationParams], str]


@dataclass
class ScriptedProvider:
    responder: Responder | Sequence[str]
    name: str = "scripted"
    model: str = "fake"
    base_url: str | None = None
    delay: float = 0.0
    context_tokens: int | None = None  # a context window (in words): longer prompts are refused, like a server would
    requests: list[tuple[list[Message], GenerationParams]] = field(default_factory=list)
    refused: list[list[Message]] = field(default_factory=list)  # prompts longer than context_tokens
    _index: int = 0

    async def complete(self, messages: Sequence[Message], params: GenerationParams, *, timeout: float) -> Completion:
        messages = list(messages)
        prompt_tokens = sum(len(m.content.split()) for m in messages)
        if self.context_tokens is not None and prompt_tokens + (params.max_tokens or 0) > self.context_tokens:
            self.refused.append(messages)
            raise ContextOverflow(f"prompt of {prompt_tokens} tokens exceeds the context window",
                                  prompt_tokens=prompt_tokens, limit_tokens=self.context_tokens - (params.max_tokens or 0))
        self.requests.append((messages, params))
        if self.delay:
            await asyncio.sleep(self.delay)
        if callable(self.responder):
            text = self.responder(messages, params)
        else:
            if self._index >= len(self.responder):
                raise ProviderError("scripted provider ran out of replies", status=400)
            text = self.responder[self._index]
            self._index += 1
        return Completion(text=text, usage=Usage(prompt_tokens, len(text.split()), calls=1), model=self.model)

    async def aclose(self) -> None:
        return None


def scripted_llm(responder: Responder | Sequence[str], *, context_tokens: int | None = None, **kwargs: object) -> LLM:
    """An LLM client over a ScriptedProvider (no cache, no retry sleeps); `context_tokens` gives it a
    context window (counted in words) that refuses longer prompts."""
    provider = ScriptedProvider(responder, context_tokens=context_tokens)
    return LLM(provider, retry=RetryPolicy(max_retries=0, timeout=30), **kwargs)  # type: ignore[arg-type]


def last_user(messages: Sequence[Message]) -> str:
    """The text of the last user message (what a responder usually keys on)."""
    return next((m.content for m in reversed(messages) if m.role == "user"), "")
