"""Prices: --price-in/--price-out, a user's price file, the maintained `genai-prices` package, or a dated
table shipped with this package as the fallback.

A cost is only ever computed from a price someone wrote down: a model without one (any model
behind --base-url unless the user gives its price, or a name the table does not know) has an
unknown cost, `None`, never a guess. Prices are USD per million tokens; cached input tokens
(a provider's prompt cache) are billed at `cached_input` where the provider discounts them.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from mdagents.errors import ConfigError
from mdagents.llm.maintained_prices import at_own_endpoint, maintained_rates, package_version
from mdagents.llm.models import ModelSpec, parse_model
from mdagents.llm.types import Usage
from mdagents.redact import redact_url

FREE_PROVIDERS = ("local", "mock")  # run on this machine: nothing to pay
# A dated or numbered snapshot of a listed model: gpt-4o-2024-08-06, claude-haiku-4-5-20251001, gemini-2.0-flash-001.
_SNAPSHOT = re.compile(r"-(\d{4}-\d{2}-\d{2}|\d{8}|\d{3}|latest)$")


@dataclass(frozen=True)
class Price:
    """USD per million tokens. `cached_input` None: cached tokens cost what other input tokens cost."""

    input: float
    output: float
    cached_input: float | None = None
    source: str = ""

    def cost(self, usage: Usage) -> float:
        cached = min(usage.cached_tokens or 0, usage.input_tokens)
        cached_rate = self.input if self.cached_input is None else self.cached_input
        fresh = usage.input_tokens - cached
        return (fresh * self.input + cached * cached_rate + usage.output_tokens * self.output) / 1_000_000

    def to_dict(self) -> dict[str, Any]:
        return {"input": self.input, "cached_input": self.cached_input, "output": self.output, "source": self.source}


@dataclass(frozen=True)
class PriceTable:
    """Prices by canonical model name, with the date they were read."""

    prices: dict[str, Price] = field(default_factory=dict)
    as_of: str | None = None

    def lookup(self, name: str) -> Price | None:
        """The price of `name`; a dated snapshot ("gpt-4o-mini-2024-07-18") costs what its family costs."""
        if name in self.prices:
            return self.prices[name]
        family = _SNAPSHOT.sub("", name)
        return self.prices.get(family) if family != name else None


def checked_rate(value: Any, what: str) -> float:
    """A price in USD per million tokens: a finite number, zero or more (NaN or infinity would slip past
    --max-cost and into every JSON file)."""
    if isinstance(value, bool):
        raise ValueError(f"{what} must be a number of USD per million tokens, not {value!r}")
    rate = float(value)
    if not math.isfinite(rate) or rate < 0:
        raise ValueError(f"{what} must be a finite number of USD per million tokens, 0 or more; got {value!r}")
    return rate


def _price(name: str, value: Any, source: str) -> Price:
    if isinstance(value, dict):
        cached = value.get("cached_input")
        return Price(checked_rate(value["input"], f"{name} input"), checked_rate(value["output"], f"{name} output"),
                     None if cached is None else checked_rate(cached, f"{name} cached_input"), source)
    inp, out = value  # [input, output]
    return Price(checked_rate(inp, f"{name} input"), checked_rate(out, f"{name} output"), None, source)


def parse_price_table(data: Any, source: str) -> PriceTable:
    """`{"as_of", "models": {name: {input, cached_input, output}}}`, or a flat `{name: [input, output]}`."""
    if not isinstance(data, dict):
        raise ValueError("expected a JSON object")
    models = data.get("models", data) if isinstance(data.get("models"), dict) else data
    as_of = data.get("as_of") if "models" in data else None
    label = f"{source} ({as_of})" if as_of else source
    prices = {parse_model(name).name: _price(name, value, label) for name, value in models.items()}
    return PriceTable(prices, as_of)


@lru_cache(maxsize=1)
def shipped_prices() -> PriceTable:
    """The table shipped with the package (mdagents/llm/prices.json)."""
    text = resources.files("mdagents.llm").joinpath("prices.json").read_text(encoding="utf-8")
    return parse_price_table(json.loads(text), "mdagents price table")


def read_price_file(path: str | Path) -> PriceTable:
    try:
        return parse_price_table(json.loads(Path(path).read_text(encoding="utf-8")), f"price file {path}")
    except (OSError, ValueError, KeyError, TypeError, RecursionError, ConfigError) as exc:
        raise ConfigError(f"cannot read price file {path}: {exc}") from exc


def resolve_price(spec: ModelSpec, *, price_file: str | Path | None = None,
                  price_in: float | None = None, price_out: float | None = None) -> Price | None:
    """The price a run uses for `spec`, or None when nobody wrote one down.

    In order: --price-in/--price-out, the user's price file, then (only for a provider's own
    endpoint) the maintained genai-prices package, then the shipped table for a model the package
    does not list. A model behind --base-url is whatever that server runs, so the list price of a
    same-named model says nothing about it.
    """
    if (price_in is None) != (price_out is None):
        raise ConfigError("give --price-in and --price-out together (USD per million input / output tokens)")
    if price_in is not None and price_out is not None:
        try:
            rates = checked_rate(price_in, "--price-in"), checked_rate(price_out, "--price-out")
        except ValueError as exc:
            raise ConfigError(str(exc)) from None
        return Price(*rates, None, "--price-in/--price-out")
    if price_file is not None and (price := read_price_file(price_file).lookup(spec.name)) is not None:
        return price
    if spec.provider in FREE_PROVIDERS:
        return Price(0.0, 0.0, None, f"{spec.provider} model")
    if not at_own_endpoint(spec):
        return None
    if (rates := maintained_rates(spec)) is not None:
        return Price(*rates, f"genai-prices {package_version()}")
    return None if spec.base_url else shipped_prices().lookup(spec.name)


def cost_usd(name: str, input_tokens: int, output_tokens: int, *, base_url: str | None = None,
             price_file: str | Path | None = None) -> float | None:
    """What `input_tokens` + `output_tokens` of model `name` cost, None when its price is unknown."""
    price = resolve_price(parse_model(name, base_url), price_file=price_file)
    return None if price is None else price.cost(Usage(input_tokens, output_tokens))


def no_price_fix(spec: ModelSpec) -> str:
    """How to give a price, for messages about an unknown one."""
    where = f"{spec.name} behind {redact_url(spec.base_url)}" if spec.base_url else spec.name
    return (f"no price is known for {where}: give --price-in and --price-out (USD per million tokens) "
            f'or --price-file with {{"{spec.name}": {{"input": ..., "output": ...}}}}')


@dataclass
class Costs:
    """A question's costs at the run's prices: `total` of every call, the part `paid` (calls made now)
    and the part `replayed` from the response cache (nothing paid), and the total by agent role.
    All None when a call's price is unknown: an unknown part makes every sum unknown."""

    total: float | None = 0.0
    paid: float | None = 0.0
    replayed: float | None = 0.0
    by_role: dict[str, float | None] = field(default_factory=dict)


def plus_known(total: float | None, cost: float | None) -> float | None:
    """total + cost, unknown (None) when either is."""
    return None if total is None or cost is None else total + cost


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 8)


def call_costs(calls: Iterable[Any], cost_of: Callable[[str, Usage], float | None]) -> Costs:
    """Costs of transcript calls (`role`, `model`, `usage`, `cached`); `cost_of(model, usage)` prices one."""
    calls = list(calls)
    costs = Costs()
    for call in calls:
        cost = cost_of(call.model, call.usage)
        if cost is None:
            return Costs(None, None, None, dict.fromkeys((c.role for c in calls), None))
        costs.total = plus_known(costs.total, cost)
        if call.cached:
            costs.replayed = plus_known(costs.replayed, cost)
        else:
            costs.paid = plus_known(costs.paid, cost)
        costs.by_role[call.role] = plus_known(costs.by_role.get(call.role, 0.0), cost)
    return Costs(_rounded(costs.total), _rounded(costs.paid), _rounded(costs.replayed),
                 {k: _rounded(v) for k, v in costs.by_role.items()})
