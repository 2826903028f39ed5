"""Whether a freshly trained triage classifier reproduces the shipped one, judged where it matters.

Weights cannot be compared across machines: numpy and BLAS builds sum floats in different orders,
the embedding model's float32 arithmetic differs with them, and Adam's normalised steps carry such
differences into weights (and a threshold grid step) that still give the same answers. So the check
is on the held-out messages that neither training nor threshold tuning saw (data/heldout_*.jsonl):
both models must decide alike on nearly all of them, and catch emergencies and crises and raise
false alarms at the same rates within a small tolerance.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mdagents.guardrails.semantic import CLASSES, DATA_DIR, TriageModel

HELDOUT_FILES = tuple(sorted(DATA_DIR.glob("heldout_*.jsonl")))
MIN_AGREEMENT = 0.99  # share of held-out messages both models put in the same class
RATE_TOLERANCE = 0.01  # emergency+crisis caught and false alarms on harmless messages, absolute
_CRITICAL = [CLASSES.index("emergency"), CLASSES.index("mental_health_crisis")]


@dataclass(frozen=True)
class Rates:
    critical_caught: float  # emergencies and crises flagged as either
    false_alarms: float  # harmless messages flagged as anything

    @classmethod
    def of(cls, decisions: list[str], labels: np.ndarray) -> Rates:
        critical = np.isin(labels, _CRITICAL)
        harmless = labels == CLASSES.index("none")
        flagged_critical = np.array([d in ("emergency", "mental_health_crisis") for d in decisions])
        flagged = np.array([d != "none" for d in decisions])
        return cls(float(flagged_critical[critical].mean()) if critical.any() else 1.0,
                   float(flagged[harmless].mean()) if harmless.any() else 0.0)


@dataclass(frozen=True)
class Comparison:
    n: int
    agreement: float
    fresh: Rates
    shipped: Rates

    @property
    def same(self) -> bool:
        return (self.agreement >= MIN_AGREEMENT
                and abs(self.fresh.critical_caught - self.shipped.critical_caught) <= RATE_TOLERANCE
                and abs(self.fresh.false_alarms - self.shipped.false_alarms) <= RATE_TOLERANCE)

    def describe(self) -> str:
        return (f"held-out ({self.n} messages): same class for {self.agreement:.1%} (at least {MIN_AGREEMENT:.0%} "
                f"needed); emergency+crisis caught {self.fresh.critical_caught:.1%} fresh vs "
                f"{self.shipped.critical_caught:.1%} shipped; false alarms {self.fresh.false_alarms:.1%} vs "
                f"{self.shipped.false_alarms:.1%} (within {RATE_TOLERANCE:.0%} needed)")


def decisions(model: TriageModel, vectors: np.ndarray) -> list[str]:
    return [model.decide(row) for row in model.probabilities(vectors)]


def compare(fresh: TriageModel, shipped: TriageModel, vectors: np.ndarray, labels: np.ndarray) -> Comparison:
    """The two models on the held-out messages' embeddings (`labels`: class index per row)."""
    a, b = decisions(fresh, vectors), decisions(shipped, vectors)
    agreement = sum(x == y for x, y in zip(a, b, strict=True)) / max(len(a), 1)
    return Comparison(len(a), agreement, Rates.of(a, labels), Rates.of(b, labels))
