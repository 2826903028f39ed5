"""OpenAI's Batch API through the official SDK: a JSONL of chat requests uploaded with
`files.create(purpose="batch")`, `batches.create` over it, `batches.retrieve` to poll, the output
and error files read with `files.content`."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import openai

from mdagents.errors import ProviderError
from mdagents.llm.base import is_retryable_status
from mdagents.llm.batch.backend import CANCELLED, ENDED, EXPIRED, FAILED, BatchState, Result
from mdagents.llm.openai import OpenAIProvider
from mdagents.llm.types import GenerationParams, Message

ENDPOINT = "/v1/chat/completions"
_TERMINAL = {"completed": ENDED, "expired": EXPIRED, "cancelled": CANCELLED, "failed": FAILED}


class OpenAIBatches:
    def __init__(self, provider: OpenAIProvider) -> None:
        self.provider = provider
        self.key = f"openai/{provider.model}"

    def request(self, custom_id: str, messages: Sequence[Message], params: GenerationParams) -> dict[str, Any]:
        return {"custom_id": custom_id, "method": "POST", "url": ENDPOINT,
                "body": self.provider.request_params(messages, params)}

    async def submit(self, requests: Sequence[dict[str, Any]]) -> str:
        data = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in requests).encode()
        client = self.provider._client
        try:
            upload = await client.files.create(file=("requests.jsonl", data, "application/jsonl"), purpose="batch")
            batch = await client.batches.create(input_file_id=upload.id, endpoint=ENDPOINT, completion_window="24h",
                                                metadata={"client": "mdagents"})
        except openai.OpenAIError as exc:
            raise self.provider._translate(exc) from None
        return batch.id

    async def poll(self, batch_id: str) -> BatchState:
        try:
            batch = await self.provider._client.batches.retrieve(batch_id)
        except openai.OpenAIError as exc:
            raise self.provider._translate(exc) from None
        counts = batch.request_counts.model_dump() if batch.request_counts else {}
        detail = "; ".join(e.message or e.code or "" for e in (batch.errors.data or [])) if batch.errors else ""
        status = _TERMINAL.get(batch.status, batch.status)
        return BatchState(status, batch.status in _TERMINAL, batch, detail, counts)

    async def results(self, state: BatchState) -> dict[str, Result]:
        """Replies from the output file, failures (including requests a closing window left undone) from the error file."""
        results: dict[str, Result] = {}
        for file_id in (state.handle.output_file_id, state.handle.error_file_id):
            if not file_id:
                continue
            try:
                content = await self.provider._client.files.content(file_id)
            except openai.OpenAIError as exc:
                raise self.provider._translate(exc) from None
            for line in content.text.splitlines():
                if line.strip():
                    item = json.loads(line)
                    results[str(item.get("custom_id"))] = self._result(item)
        return results

    def _result(self, item: dict[str, Any]) -> Result:
        where = f"openai/{self.provider.model} (batch)"
        response = item.get("response") or {}
        status = response.get("status_code")
        body = response.get("body") or {}
        if status == 200 and not item.get("error"):
            try:
                return self.provider.parse_reply(body)
            except ProviderError as exc:
                return exc
        error = item.get("error") or body.get("error") or {}
        message = f"{where}: {error.get('code') or ''} {error.get('message') or ''}".strip()
        # A request the window closed on (batch_expired) or a server error is worth another wave.
        retryable = status is None or is_retryable_status(status)
        return ProviderError(message, status=status, retryable=retryable)

    async def cancel(self, batch_id: str) -> None:
        try:
            await self.provider._client.batches.cancel(batch_id)
        except openai.OpenAIError as exc:
            raise self.provider._translate(exc) from None
