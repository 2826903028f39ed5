"""Small, exact statistics for accuracy reports: Wilson and bootstrap intervals (also over questions asked
several times), exact McNemar, percentiles.

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
    return _wilson(successes / n, n, confidence)


def _wilson(p: float, n: float, confidence: float) -> tuple[float, float]:
    """Wilson score interval of proportion `p` observed over `n` (possibly effective, fractional) trials."""
    z = z_value(confidence)
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    # At p = 0 or 1 the bound is exactly 0 or 1: rounding must not put it inside (1 - 1e-16).
    low = 0.0 if p <= 0 else max(0.0, centre - half)
    high = 1.0 if p >= 1 else min(1.0, centre + half)
    return low, high


Cluster = tuple[int, int]  # (successes, trials) of one question over its repeats


def effective_size(clusters: Sequence[Cluster]) -> float:
    """How many independent trials `clusters` are worth: total trials over the design effect.

    Repeats of one question are correlated (the same question is easy or hard every time), so the
    variance of the pooled proportion is estimated between questions (the cluster-robust ratio
    estimator) and the sample size shrunk to match. Twenty questions asked three times with the
    same outcome are worth twenty trials, not sixty; fully independent repeats keep their count.
    With every outcome alike (accuracy 0 or 1) nothing measures the correlation: the questions count.
    """
    trials = sum(m for _, m in clusters)
    if trials == 0:
        return 0.0
    p = sum(y for y, _ in clusters) / trials
    if p in (0.0, 1.0):
        return float(sum(1 for _, m in clusters if m))
    variance = sum((y - p * m) ** 2 for y, m in clusters) / trials**2
    if variance == 0:
        return float(trials)
    return round(min(float(trials), max(1.0, p * (1 - p) / variance)), 9)


def clustered_interval(clusters: Sequence[Cluster], confidence: float = 0.95) -> tuple[float, float]:
    """Wilson interval of the pooled proportion of `clusters`, over their effective size (see above)."""
    trials = sum(m for _, m in clusters)
    if trials <= 0:
        return 0.0, 1.0
    return _wilson(sum(y for y, _ in clusters) / trials, effective_size(clusters), confidence)


def cluster_bootstrap_interval(clusters: Sequence[Cluster], n_resamples: int = 2000, confidence: float = 0.95,
                               seed: int = 0) -> tuple[float, float]:
    """Percentile bootstrap of the pooled proportion, resampling whole questions (all their repeats)."""
    import numpy as np  # here, not at the top: a run's summary needs only the Wilson interval

    data = np.asarray([c for c in clusters if c[1]], dtype=float).reshape(-1, 2)
    if data.shape[0] == 0 or n_resamples <= 0:
        return math.nan, math.nan
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, data.shape[0], size=(n_resamples, data.shape[0]))
    ratios = data[idx, 0].sum(axis=1) / data[idx, 1].sum(axis=1)
    alpha = (1 - confidence) / 2
    return float(np.quantile(ratios, alpha)), float(np.quantile(ratios, 1 - alpha))


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
