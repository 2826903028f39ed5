"""Several servers of one model (several `--base-url`s, e.g. vLLM replicas) sharing the load.

Each call goes to the server with the fewest calls in flight; of those, the one that has served the
fewest calls so far, so that calls that never overlap are shared evenly too. A server whose
call failed for a reason another attempt may fix (unreachable, 5xx, 429) is set aside for a
few seconds, so the `LLM` client's retry goes to another one. It is one provider to the
client: one cache key, one in-flight cap, one ledger.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from mdagents.errors import ProviderError
from mdagents.llm.openai import OpenAIProvider
from mdagents.llm.types import Completion, EmbeddingResult, GenerationParams, Message

SET_ASIDE_S = 5.0


class EndpointPool:
    def __init__(self, members: Sequence[OpenAIProvider], *, base_url: str) -> None:
        if not members:
            raise ValueError("an endpoint pool needs at least one server")
        self.members = list(members)
        self.name = members[0].name
        self.model = members[0].model
        self.base_url = base_url
        self.in_flight = [0] * len(self.members)
        self.calls = [0] * len(self.members)
        self._set_aside_until = [0.0] * len(self.members)

    def _pick(self) -> int:
        now = time.monotonic()
        healthy = [i for i in range(len(self.members)) if self._set_aside_until[i] <= now]
        candidates = healthy or list(range(len(self.members)))
        fewest = min(self.in_flight[i] for i in candidates)
        return min((i for i in candidates if self.in_flight[i] == fewest), key=lambda i: self.calls[i])

    async def complete(self, messages: Sequence[Message], params: GenerationParams, *, timeout: float) -> Completion:
        index = self._pick()
        self.in_flight[index] += 1
        self.calls[index] += 1
        try:
            return await self.members[index].complete(messages, params, timeout=timeout)
        except ProviderError as exc:
            if exc.retryable or exc.unreachable:
                self._set_aside_until[index] = time.monotonic() + SET_ASIDE_S
            raise
        finally:
            self.in_flight[index] -= 1

    async def embed(self, texts: Sequence[str], *, model: str, timeout: float) -> EmbeddingResult:
        return await self.members[self._pick()].embed(texts, model=model, timeout=timeout)

    async def aclose(self) -> None:
        for member in self.members:
            await member.aclose()
