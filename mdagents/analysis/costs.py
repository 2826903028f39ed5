"""What records cost at their run's prices: the whole, the part paid for when a record was made, and the
part replayed from the response cache (no money spent, the same replies).

The whole does not depend on what the cache held, so two runs of one configuration cost the same
however warm the cache was. Unknown (a model without a price) stays unknown: `None`, never 0.
Records written before `paid_usd` existed kept the paid part in `cost_usd` and the replayed part
in `cached_cost_usd`; they are read the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mdagents.llm.prices import plus_known


def record_costs(record: dict[str, Any]) -> tuple[float | None, float | None, float | None]:
    """(cost, paid, replayed) of one record, in USD; None where the price is unknown."""
    if "paid_usd" in record:
        return record.get("cost_usd"), record.get("paid_usd"), record.get("replayed_usd")
    paid, replayed = record.get("cost_usd"), record.get("cached_cost_usd", 0.0)
    return plus_known(paid, replayed), paid, replayed


@dataclass
class CostTotals:
    """Running sums over records; a sum turns unknown as soon as one record's part is unknown."""

    cost: float | None = 0.0
    paid: float | None = 0.0
    replayed: float | None = 0.0
    records: int = 0

    def add(self, record: dict[str, Any]) -> None:
        cost, paid, replayed = record_costs(record)
        self.cost, self.paid, self.replayed = (plus_known(self.cost, cost), plus_known(self.paid, paid),
                                               plus_known(self.replayed, replayed))
        self.records += 1

    def to_dict(self) -> dict[str, float | None]:
        """`cost_usd` (all calls at the run's prices), `paid_usd`, `replayed_usd`, rounded to 1e-6."""
        return {"cost_usd": rounded_usd(self.cost), "paid_usd": rounded_usd(self.paid), "replayed_usd": rounded_usd(self.replayed)}


def rounded_usd(value: float | None) -> float | None:
    """USD to 1e-6 (a millionth of a dollar), None kept."""
    return None if value is None else round(value, 6)
