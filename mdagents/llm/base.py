"""The contract every provider translator fulfils.

A provider only translates between harness records and one SDK: no retries, no cache,
no accounting (the `LLM` client owns those). On failure it raises `ProviderError` with
`retryable` and `retry_after` filled in from the SDK's error.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from mdagents.llm.types import Completion, EmbeddingResult, GenerationParams, Message


@runtime_checkable
class Provider(Protocol):
    name: str  # "openai", "anthropic", "gemini", "local"
    model: str  # the model id sent to the API (without the provider prefix)
    base_url: str | None

    async def complete(
        self, messages: Sequence[Message], params: GenerationParams, *, timeout: float
    ) -> Completion: ...

    async def aclose(self) -> None: ...


@runtime_checkable
class EmbeddingProvider(Protocol):
    async def embed(self, texts: Sequence[str], *, model: str, timeout: float) -> EmbeddingResult: ...


# The longest reply text accepted (characters): far beyond any answer or debate turn (a model's
# longest outputs are ~100k tokens), small enough that a runaway server cannot fill the disk.
MAX_REPLY_CHARS = 1_000_000

RETRYABLE_STATUS = frozenset({408, 409, 429}) | frozenset(range(500, 600))


def is_retryable_status(status: int | None) -> bool:
    """408/409/429/5xx may succeed on another attempt; 400/401/403/404 and other 4xx never do."""
    return status is not None and status in RETRYABLE_STATUS


def parse_retry_after(value: str | None) -> float | None:
    """Seconds from a Retry-After (or retry-after-ms) header value; None when absent or unparseable."""
    if value is None:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        from email.utils import parsedate_to_datetime

        try:
            when = parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        import datetime as _dt

        seconds = (when - _dt.datetime.now(_dt.UTC)).total_seconds()
    return max(0.0, seconds)
