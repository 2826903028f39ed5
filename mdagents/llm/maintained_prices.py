"""List prices from `genai-prices`, a maintained package that ships its price data (no network at run time).

The shipped table in prices.json goes stale as providers add models; this package is updated with each
release, so a newer model is priced (and `--max-cost` works for it) after a `pip install -U genai-prices`.
Prices are the standard tier at the time of the call; a model priced by prompt length is read at its
base tier (prompts under the first threshold, 200k tokens for Gemini), as the shipped table is.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime
from decimal import Decimal
from functools import lru_cache
from typing import Any

from mdagents.llm.models import OPENAI_COMPATIBLE, ModelSpec

# mdagents provider -> the package's provider id (a provider it does not list is never looked up).
_PROVIDER_IDS = {"openai": "openai", "anthropic": "anthropic", "gemini": "google",
                 "openrouter": "openrouter", "together": "together"}


def at_own_endpoint(spec: ModelSpec) -> bool:
    """Whether `spec` is served by its provider's own endpoint: a provider's list price says nothing
    about a model behind another server (--base-url, OPENAI_BASE_URL...)."""
    service = OPENAI_COMPATIBLE.get(spec.provider)
    return spec.base_url is None or (service is not None and spec.base_url == service.base_url)


@lru_cache(maxsize=1)
def package_version() -> str | None:
    """The installed genai-prices version, None when it is not installed."""
    try:
        import genai_prices
    except ImportError:
        return None
    return str(genai_prices.__version__)


def _rate(value: Any) -> float | None:
    """USD per million tokens of one price field: a tiered price at its base tier, None when absent."""
    if value is None:
        return None
    base = getattr(value, "base", value)
    if not isinstance(base, Decimal | int | float):
        return None
    rate = float(base)
    return rate if math.isfinite(rate) and rate >= 0 else None  # never a NaN or negative price into a cost


def maintained_rates(spec: ModelSpec) -> tuple[float, float, float | None] | None:
    """(input, output, cached_input) of `spec` from genai-prices, None when it has no input price for it."""
    provider_id = _PROVIDER_IDS.get(spec.provider)
    if provider_id is None or package_version() is None or not at_own_endpoint(spec):
        return None
    from genai_prices import data_snapshot

    try:
        _, model = data_snapshot.get_snapshot().find_provider_model(spec.model, None, provider_id, None)
    except LookupError:
        return None
    prices = model.get_prices(datetime.now(tz=UTC))
    rate_in = _rate(getattr(prices, "input_mtok", None))
    if rate_in is None:
        return None
    return rate_in, _rate(getattr(prices, "output_mtok", None)) or 0.0, _rate(getattr(prices, "cache_read_mtok", None))
