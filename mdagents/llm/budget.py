"""A spending cap shared by every model of a run: checked before each call is launched.

Calls that are already in flight when the cap is reached finish (their replies are paid for
either way); no new call starts, so the overshoot is at most what those calls cost.
"""

from __future__ import annotations

from dataclasses import dataclass

from mdagents.errors import BudgetExceeded


@dataclass
class Budget:
    """`limit` USD (None: no cap); `spent` starts at what earlier sessions of the run spent."""

    limit: float | None = None
    spent: float = 0.0
    unpriced: bool = False  # some call had no price: what was spent is unknown (a cap needs every price)

    @property
    def exhausted(self) -> bool:
        return self.limit is not None and self.spent >= self.limit

    @property
    def spent_usd(self) -> float | None:
        """What the run paid, or None when a call's price is unknown."""
        return None if self.unpriced else self.spent

    def add(self, usd: float | None) -> None:
        if usd is None:
            self.unpriced = True
        else:
            self.spent += usd

    def check(self, model: str) -> None:
        """Raise BudgetExceeded instead of launching a call once the cap is reached."""
        if self.exhausted:
            raise BudgetExceeded(f"--max-cost ${self.limit:g} reached (${self.spent:.6f} spent): "
                                 f"no new call to {model} was started")
