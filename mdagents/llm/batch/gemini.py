"""Gemini batch mode through google-genai: `aio.batches.create` with inline requests (each carrying its
custom_id as metadata `key`), `aio.batches.get` to poll, the inlined responses read from the finished job."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from google.genai import errors, types

from mdagents.errors import ProviderError
from mdagents.llm.base import is_retryable_status
from mdagents.llm.batch.backend import CANCELLED, ENDED, EXPIRED, FAILED, BatchState, Result
from mdagents.llm.gemini import GeminiProvider
from mdagents.llm.types import GenerationParams, Message

_TERMINAL = {"JOB_STATE_SUCCEEDED": ENDED, "JOB_STATE_EXPIRED": EXPIRED, "JOB_STATE_CANCELLED": CANCELLED,
             "JOB_STATE_FAILED": FAILED}


class GeminiBatches:
    def __init__(self, provider: GeminiProvider) -> None:
        self.provider = provider
        self.key = f"gemini/{provider.model}"

    def request(self, custom_id: str, messages: Sequence[Message], params: GenerationParams) -> dict[str, Any]:
        contents, config = self.provider.config(messages, params, timeout=60.0)
        config.http_options = None  # per-request transport options do not travel inside a batch
        return {"contents": contents, "config": config, "metadata": {"key": custom_id}}

    async def submit(self, requests: Sequence[dict[str, Any]]) -> str:
        try:
            job = await self.provider._client.aio.batches.create(
                model=self.provider.model, src=[types.InlinedRequest(**r) for r in requests],
                config=types.CreateBatchJobConfig(display_name="mdagents"))
        except errors.APIError as exc:
            raise self.provider._translate_api(exc) from None
        if not job.name:
            raise ProviderError(f"{self.key}: the batch job came back without a name", retryable=True)
        return job.name

    async def poll(self, batch_id: str) -> BatchState:
        try:
            job = await self.provider._client.aio.batches.get(name=batch_id)
        except errors.APIError as exc:
            raise self.provider._translate_api(exc) from None
        state = str(getattr(job.state, "value", job.state))
        detail = job.error.message or "" if job.error else ""
        return BatchState(_TERMINAL.get(state, state), state in _TERMINAL, job, detail)

    async def results(self, state: BatchState) -> dict[str, Result]:
        results: dict[str, Result] = {}
        dest = state.handle.dest
        for item in (dest.inlined_responses if dest else None) or []:
            key = (item.metadata or {}).get("key")
            if not key:
                continue
            if item.error is not None:
                code = item.error.code
                results[key] = ProviderError(f"{self.key} (batch): {code} {item.error.message or ''}".rstrip(),
                                             status=code, retryable=code is None or is_retryable_status(code))
            elif item.response is not None:
                results[key] = self.provider.parse_reply(item.response)
        return results

    async def cancel(self, batch_id: str) -> None:
        try:
            await self.provider._client.aio.batches.cancel(name=batch_id)
        except errors.APIError as exc:
            raise self.provider._translate_api(exc) from None
