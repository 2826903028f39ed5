"""Small, exact statistics for accuracy reports: Wilson and bootstrap intervals, exact McNemar, percentiles.

Pure Python plus numpy (already a runtime dependency) so reports never need scipy.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist


def z_value(confidence: float = 0.95) -> float:
    """Two-sided standard normal quantile (1.95996... for 95%)."""
    return NormalDist().inv_cdf(1 - (1 - confidence) / 2)


def wilson_interval(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a proportion; (0, 1) when there are no trials (nothing is known)."""
    if n <= 0:
        return 0.0, 1.0
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be between 0 and n ({successes} of {n})")
    z = z_value(confidence)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def bootstrap_interval(
    values: Sequence[float], n_resamples: int = 2000, confidence: float = 0.95, seed: int = 0
) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean; the same seed gives the same interval."""
    import numpy as np  # here, not at the top: a run's summary needs only the Wilson interval

    data = np.asarray(values, dtype=float)
    if data.size == 0 or n_resamples <= 0:
        return math.nan, math.nan
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, data.size, size=(n_resamples, data.size))
    means = data[idx].mean(axis=1)
    alpha = (1 - confidence) / 2
    return float(np.quantile(means, alpha)), float(np.quantile(means, 1 - alpha))


def paired_bootstrap_difference(
    a: Sequence[float], b: Sequence[float], n_resamples: int = 2000, confidence: float = 0.95, seed: int = 0
) -> tuple[float, float]:
    """Interval of mean(a) - mean(b) resampling the paired items together (same questions in both runs)."""
    if len(a) != len(b):
        raise ValueError("paired samples must have the same length")
    differences = [float(x) - float(y) for x, y in zip(a, b, strict=True)]
    return bootstrap_interval(differences, n_resamples=n_resamples, confidence=confidence, seed=seed)


def binomial_cdf(k: int, n: int) -> float:
    """P(X <= k) for X ~ Binomial(n, 1/2), computed exactly with integers."""
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    return sum(math.comb(n, i) for i in range(k + 1)) / 2**n


def mcnemar_exact(only_a_correct: int, only_b_correct: int) -> float:
    """Two-sided exact McNemar p-value from the discordant pair counts (1.0 with none)."""
    n = only_a_correct + only_b_correct
    if n == 0:
        return 1.0
    return min(1.0, 2 * binomial_cdf(min(only_a_correct, only_b_correct), n))


def percentile(values: Sequence[float], q: float) -> float | None:
    """The q-th percentile (0-100) with linear interpolation, as numpy's default; None when empty."""
    data = sorted(float(v) for v in values)
    if not data:
        return None
    position = (len(data) - 1) * q / 100
    low = math.floor(position)
    high = min(low + 1, len(data) - 1)
    return data[low] + (data[high] - data[low]) * (position - low)
