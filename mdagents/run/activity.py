"""What a run's model calls are doing right now, for progress that moves before any question finishes."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import reduce

from mdagents.llm.client import LLM
from mdagents.llm.prices import plus_known


@dataclass(frozen=True)
class CallActivity:
    """Calls made by this process over every model of a run: answered (`done`, replies from the cache included),
    sent and waiting (`in_flight`), retried, throttled (HTTP 429), the role of the latest call, and what
    the answered calls cost (replies replayed from the cache cost nothing now)."""

    done: int = 0
    in_flight: int = 0
    retries: int = 0
    throttled: int = 0
    step: str | None = None
    paid: float | None = 0.0  # USD paid for the calls answered so far, None when a model is unpriced

    def describe(self) -> str:
        """`calls 12 done, 3 in flight, 1 retried, 0 throttled · step expert`."""
        text = (f"calls {self.done} done, {self.in_flight} in flight, {self.retries} retried, "
                f"{self.throttled} throttled")
        return f"{text} · step {self.step}" if self.step else text


def call_activity(models: Iterable[LLM]) -> CallActivity:
    """The activity of `models` (each counted once, however many roles share it)."""
    unique = list({id(model): model for model in models}.values())
    latest = max(unique, key=lambda m: m.ledger.last_call_at, default=None)
    return CallActivity(
        done=sum(m.ledger.successes + m.ledger.cache_hits for m in unique),
        in_flight=sum(m.ledger.in_flight for m in unique),
        retries=sum(m.ledger.retries for m in unique),
        throttled=sum(m.ledger.throttled for m in unique),
        step=latest.ledger.last_role if latest is not None else None,
        paid=reduce(plus_known, (m.ledger.spent_usd for m in unique), 0.0))
