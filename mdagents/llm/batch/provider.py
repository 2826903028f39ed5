"""The provider an `LLM` client talks to in batch mode: each call is queued, not sent.

It answers to the same name, model and base URL as the live provider it wraps, so the client's
response cache keys are the same in both modes: a reply paid live is a cache hit in batch mode
and the other way round. The request's custom_id is that cache key.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from mdagents.errors import ConfigError
from mdagents.llm.base import Provider
from mdagents.llm.batch.backend import BatchBackend
from mdagents.llm.batch.scheduler import BatchScheduler
from mdagents.llm.cache import cache_key, cache_variant
from mdagents.llm.client import LLM, RetryPolicy
from mdagents.llm.limiter import AdaptiveLimiter
from mdagents.llm.prices import Price
from mdagents.llm.types import Completion, GenerationParams, Message, Usage

# What the providers charge for a batch request, as a share of the live price (prompt-cache
# discounts apply on top).
BATCH_DISCOUNT = {"openai": 0.5, "anthropic": 0.5, "gemini": 0.5}
BATCH_PROVIDERS = ("openai", "anthropic", "gemini")  # whose batch API --batch can use
# A batch may take the provider's whole 24-hour window; a call waits that long (and a little more).
BATCH_TIMEOUT_S = 26 * 3600.0
# An estimate for --max-cost when a call sets no reply cap.
ESTIMATED_REPLY_TOKENS = 1024


class BatchProvider:
    def __init__(self, live: Provider, backend: BatchBackend, scheduler: BatchScheduler,
                 price: Price | None) -> None:
        self.live = live
        self.name = live.name
        self.model = live.model
        self.base_url = live.base_url
        self.backend = backend
        self.scheduler = scheduler
        self.price = price

    async def complete(self, messages: Sequence[Message], params: GenerationParams, *, timeout: float) -> Completion:
        custom_id = cache_key(self.name, self.model, self.base_url, messages, params, cache_variant.get())
        completion = await self.scheduler.complete(self.backend, custom_id,
                                                   self.backend.request(custom_id, messages, params),
                                                   self._estimate(messages, params))
        completion.raw["batch"] = True
        return completion

    def _estimate(self, messages: Sequence[Message], params: GenerationParams) -> float:
        """A call's cost before it is made: ~4 characters a token, the reply at its cap."""
        if self.price is None:
            return 0.0
        prompt = sum(len(m.content) for m in messages) // 4 + 1
        return self.price.cost(Usage(prompt, params.max_tokens or ESTIMATED_REPLY_TOKENS))

    def __getattr__(self, name: str) -> Any:  # embeddings and the like go live
        return getattr(self.live, name)

    async def aclose(self) -> None:
        await self.live.aclose()


def batch_price(price: Price | None, provider: str) -> Price | None:
    """The live price with the provider's batch discount (None stays unknown)."""
    if price is None:
        return None
    share = BATCH_DISCOUNT[provider]
    cached = None if price.cached_input is None else price.cached_input * share
    return dataclasses.replace(price, input=price.input * share, output=price.output * share, cached_input=cached,
                               source=f"{price.source} × {share:g} (batch)")


def backend_for(provider: Provider) -> BatchBackend:
    """The batch API of a live provider, through the same SDK client."""
    if provider.name == "openai":
        from mdagents.llm.batch.openai import OpenAIBatches

        return OpenAIBatches(provider)  # type: ignore[arg-type]
    if provider.name == "anthropic":
        from mdagents.llm.batch.anthropic import AnthropicBatches

        return AnthropicBatches(provider)  # type: ignore[arg-type]
    if provider.name == "gemini":
        from mdagents.llm.batch.gemini import GeminiBatches

        return GeminiBatches(provider)  # type: ignore[arg-type]
    raise ConfigError(f"--batch works with {', '.join(p + '/' for p in BATCH_PROVIDERS)} models; "
                      f"{provider.name}/{provider.model} has no batch API")


def enable_batch(llm: LLM, scheduler: BatchScheduler) -> None:
    """Switch a client to batch mode: calls queue for the scheduler, at the batch price.

    The client keeps its cache, ledger and retries; a request that failed inside a batch is retried
    in the next wave (no backoff: the wave is the wait), and there is no in-flight cap (a batch is
    one request however many calls it carries)."""
    if isinstance(llm.provider, BatchProvider):
        return
    llm.price = batch_price(llm.price, llm.provider.name)
    llm.provider = BatchProvider(llm.provider, backend_for(llm.provider), scheduler, llm.price)
    llm.retry = RetryPolicy(max_retries=llm.retry.max_retries, base_delay=0.0, max_delay=0.0,
                            timeout=BATCH_TIMEOUT_S)
    llm.limiter = AdaptiveLimiter(1_000_000)
