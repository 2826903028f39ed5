"""Build the `LLM` client for a model name: resolve the key, pick the provider, share caches and limiters."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from mdagents.llm.base import Provider
from mdagents.llm.budget import Budget
from mdagents.llm.cache import ResponseCache, report_unusable
from mdagents.llm.client import LLM, RetryPolicy
from mdagents.llm.limiter import AdaptiveLimiter, InFlightLimit
from mdagents.llm.models import ModelSpec, parse_model, resolve_key, speaks_openai, split_urls
from mdagents.llm.prices import resolve_price

# One in-flight cap per provider endpoint, shared by every LLM of this process (e.g. the
# decider and a critic model on the same provider).
_LIMITERS: dict[tuple[str, str | None], AdaptiveLimiter] = {}
# Set while a sweep runs cells at once: (provider, base_url, max_connections) -> the shared limiter.
LimiterSource = Callable[[str, str | None, int], InFlightLimit]
_SOURCE: LimiterSource | None = None


@contextmanager
def limiters_from(source: LimiterSource) -> Iterator[None]:
    """Within this block every LLM built takes its in-flight limiter from `source` (caps shared across runs)."""
    global _SOURCE
    previous, _SOURCE = _SOURCE, source
    try:
        yield
    finally:
        _SOURCE = previous


def shared_limiter(spec: ModelSpec, max_connections: int) -> InFlightLimit:
    if _SOURCE is not None:
        return _SOURCE(spec.provider, spec.base_url, max_connections)
    key = (spec.provider, spec.base_url)
    limiter = _LIMITERS.get(key)
    if limiter is None or limiter.max_in_flight != max_connections:
        limiter = _LIMITERS[key] = AdaptiveLimiter(max_connections)
    return limiter


def make_provider(spec: ModelSpec, *, api_key: str | None, request_timeout: float | None = None,
                  seed: int | None = None, model_args: dict[str, Any] | None = None) -> Provider:
    """The provider translator for a spec; SDKs are imported only when their provider is used.

    `model_args` are checked against the provider's SDK call here, before any call."""
    if spec.provider == "mock":
        from mdagents.llm.mock import MockProvider

        return MockProvider(spec.model, seed=seed or 0)
    if speaks_openai(spec.provider):
        from mdagents.llm.openai import OpenAIProvider

        urls = split_urls(spec.base_url)
        if len(urls) > 1:
            from mdagents.llm.endpoint_pool import EndpointPool

            return EndpointPool([OpenAIProvider(spec.model, api_key=api_key, base_url=url, name=spec.provider)
                                 for url in urls], base_url=spec.base_url or "")
        return OpenAIProvider(spec.model, api_key=api_key, base_url=spec.base_url, name=spec.provider)
    if spec.provider == "anthropic":
        from mdagents.llm.anthropic import AnthropicProvider

        return AnthropicProvider(spec.model, api_key=api_key, base_url=spec.base_url, model_args=model_args)
    if spec.provider == "gemini":
        from mdagents.llm.gemini import GeminiProvider

        return GeminiProvider(spec.model, api_key=api_key, base_url=spec.base_url, model_args=model_args)
    from mdagents.llm.local import LocalProvider

    return LocalProvider(spec.model, model_args=model_args)


def prompt_layout_of(spec: ModelSpec) -> str | None:
    """The prompt layout a spec's provider asks for (`LLM.prompt_layout`), known without building it."""
    if spec.provider != "local":
        return None
    from mdagents.llm.local import prompt_layout_for

    return prompt_layout_for(spec.model)


def weights_of(spec: ModelSpec) -> str | None:
    """The layout a spec's provider computes its model in, when it chooses one, known without building it."""
    if spec.provider != "local":
        return None
    from mdagents.llm.local import weights_for

    return weights_for(spec.model)


def open_cache(path: str | Path) -> ResponseCache | None:
    """The response cache at `path`, or None with one warning when it cannot be opened (the run goes on)."""
    try:
        return ResponseCache(path)
    except (OSError, sqlite3.Error) as exc:
        report_unusable(path, exc)
        return None


def build_llm(
    model: str | ModelSpec | None,
    *,
    base_url: str | None = None,
    cache_path: str | Path | None = None,
    retry: RetryPolicy | None = None,
    max_connections: int = 32,
    price_file: str | Path | None = None,
    price_in: float | None = None,
    price_out: float | None = None,
    budget: Budget | None = None,
    seed: int | None = None,
    max_tokens: int | None = None,
    model_args: dict[str, Any] | None = None,
) -> LLM:
    """Everything a caller needs to talk to one model. Raises MissingKeyError before any network use.

    The price comes from `resolve_price` (unknown for a --base-url model unless given)."""
    spec = model if isinstance(model, ModelSpec) else parse_model(model, base_url)
    key = resolve_key(spec)
    provider = make_provider(spec, api_key=key, seed=seed, model_args=model_args)
    if retry is None and spec.provider == "local":
        retry = RetryPolicy(max_retries=0, timeout=900.0)
    cache = open_cache(cache_path) if cache_path else None
    return LLM(provider, cache=cache, retry=retry, limiter=shared_limiter(spec, max_connections),
               price=resolve_price(spec, price_file=price_file, price_in=price_in, price_out=price_out),
               budget=budget, seed=seed, max_tokens=max_tokens, model_args=model_args)
