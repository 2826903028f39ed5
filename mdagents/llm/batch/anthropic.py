"""Anthropic's Message Batches through the official SDK: `messages.batches.create` with each request's
custom_id and Messages parameters, `retrieve` to poll, `results` to stream the outcomes, `cancel`.
Prompt caching works inside batches too (the same cache breakpoints as live calls)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import anthropic

from mdagents.errors import ProviderError
from mdagents.llm.anthropic import AnthropicProvider
from mdagents.llm.batch.backend import CANCELLED, ENDED, EXPIRED, BatchState, Result
from mdagents.llm.types import GenerationParams, Message


class AnthropicBatches:
    def __init__(self, provider: AnthropicProvider) -> None:
        self.provider = provider
        self.key = f"anthropic/{provider.model}"

    def request(self, custom_id: str, messages: Sequence[Message], params: GenerationParams) -> dict[str, Any]:
        return {"custom_id": custom_id, "params": self.provider.request_params(messages, params)}

    async def submit(self, requests: Sequence[dict[str, Any]]) -> str:
        try:
            batch = await self.provider._client.messages.batches.create(requests=list(requests))  # type: ignore[arg-type]
        except anthropic.AnthropicError as exc:
            raise self.provider._translate(exc) from None
        return batch.id

    async def poll(self, batch_id: str) -> BatchState:
        try:
            batch = await self.provider._client.messages.batches.retrieve(batch_id)
        except anthropic.AnthropicError as exc:
            raise self.provider._translate(exc) from None
        counts = batch.request_counts.model_dump()
        status = (EXPIRED if counts.get("expired") else CANCELLED if counts.get("canceled") else ENDED) \
            if batch.processing_status == "ended" else batch.processing_status
        return BatchState(status, batch.processing_status == "ended", batch, "", counts)

    async def results(self, state: BatchState) -> dict[str, Result]:
        results: dict[str, Result] = {}
        try:
            async for item in await self.provider._client.messages.batches.results(state.handle.id):
                results[item.custom_id] = self._result(item.result)
        except anthropic.AnthropicError as exc:
            raise self.provider._translate(exc) from None
        return results

    def _result(self, result: Any) -> Result:
        where = f"anthropic/{self.provider.model} (batch)"
        if result.type == "succeeded":
            return self.provider.parse_reply(result.message)
        if result.type == "errored":
            error = result.error.error
            kind = getattr(error, "type", "api_error")
            # Invalid requests fail the same way every time; server-side errors are worth another wave.
            return ProviderError(f"{where}: {kind}: {getattr(error, 'message', '')}",
                                 retryable=kind not in ("invalid_request_error", "authentication_error",
                                                        "permission_error", "not_found_error"))
        return ProviderError(f"{where}: the request was {result.type} before it ran", retryable=True)

    async def cancel(self, batch_id: str) -> None:
        try:
            await self.provider._client.messages.batches.cancel(batch_id)
        except anthropic.AnthropicError as exc:
            raise self.provider._translate(exc) from None
