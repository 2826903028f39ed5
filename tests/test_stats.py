"""Statistics against values computed by hand (and published tables)."""

from __future__ import annotations

import math

import pytest

from mdagents.analysis.stats import (
    binomial_cdf,
    bootstrap_interval,
    cluster_bootstrap_interval,
    clustered_interval,
    effective_size,
    mcnemar_exact,
    paired_bootstrap_difference,
    percentile,
    wilson_interval,
)


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [
        # centre = (p + z²/2n) / (1 + z²/n), half = z·sqrt(p(1-p)/n + z²/4n²) / (1 + z²/n), z = 1.95996
        (7, 10, 0.39676, 0.89220),
        (6, 10, 0.31267, 0.83182),
        (50, 100, 0.40383, 0.59617),
        (0, 10, 0.0, 0.27754),  # upper = z² / (n + z²)
        (10, 10, 0.72246, 1.0),
        (1, 1, 0.20654, 1.0),
    ],
)
def test_wilson_interval_matches_hand_computed_bounds(k: int, n: int, low: float, high: float) -> None:
    got_low, got_high = wilson_interval(k, n)
    assert got_low == pytest.approx(low, abs=5e-5)
    assert got_high == pytest.approx(high, abs=5e-5)


def test_wilson_interval_edge_cases() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson_interval(11, 10)
    narrow, wide = wilson_interval(5, 10, confidence=0.5), wilson_interval(5, 10, confidence=0.99)
    assert wide[0] < narrow[0] < 0.5 < narrow[1] < wide[1]


@pytest.mark.parametrize(
    ("only_a", "only_b", "expected"),
    [
        (1, 9, 2 * (1 + 10) / 2**10),  # 2·P(X ≤ 1), X ~ Bin(10, ½)
        (9, 1, 2 * (1 + 10) / 2**10),  # symmetric
        (0, 5, 2 / 2**5),
        (2, 8, 2 * (1 + 10 + 45) / 2**10),
        (3, 3, 1.0),  # 2·42/64 > 1 is capped
        (0, 0, 1.0),
        (0, 1, 1.0),
        (10, 30, 2 * sum(math.comb(40, i) for i in range(11)) / 2**40),
    ],
)
def test_mcnemar_exact_equals_the_exact_binomial_value(only_a: int, only_b: int, expected: float) -> None:
    assert mcnemar_exact(only_a, only_b) == pytest.approx(expected, rel=1e-12)


def test_mcnemar_agrees_with_scipy_binomtest() -> None:
    from scipy import stats  # a dev requirement: the reference implementation, never skipped

    for a, b in [(4, 11), (12, 5), (0, 7), (25, 40)]:
        assert mcnemar_exact(a, b) == pytest.approx(stats.binomtest(a, a + b, 0.5).pvalue, rel=1e-9)


def test_binomial_cdf_is_exact_for_large_n() -> None:
    assert binomial_cdf(1500, 3000) == pytest.approx(0.5 + math.comb(3000, 1500) / 2**3001, rel=1e-12)
    assert binomial_cdf(-1, 5) == 0.0 and binomial_cdf(5, 5) == 1.0


def test_bootstrap_is_reproducible_with_a_seed_and_brackets_the_mean() -> None:
    values = [1.0] * 14 + [0.0] * 6
    first = bootstrap_interval(values, n_resamples=1000, seed=7)
    assert first == bootstrap_interval(values, n_resamples=1000, seed=7)
    continuous = [(i * 0.37) % 1 for i in range(40)]
    assert bootstrap_interval(continuous, seed=7) != bootstrap_interval(continuous, seed=8)
    assert first[0] < 0.7 < first[1]
    # The bootstrap interval of a proportion is close to the Wilson one at moderate n.
    low, high = wilson_interval(14, 20)
    assert abs(first[0] - low) < 0.1 and abs(first[1] - high) < 0.1


def test_bootstrap_degenerate_inputs() -> None:
    assert bootstrap_interval([1.0, 1.0, 1.0], seed=0) == (1.0, 1.0)
    assert all(math.isnan(x) for x in bootstrap_interval([], seed=0))


def test_paired_bootstrap_difference() -> None:
    a = [1] * 8 + [0] * 2
    b = [0] * 8 + [1] * 2
    low, high = paired_bootstrap_difference(a, b, n_resamples=500, seed=1)
    assert low < 0.6 < high and low > -0.2
    assert paired_bootstrap_difference(a, a, seed=1) == (0.0, 0.0)
    with pytest.raises(ValueError):
        paired_bootstrap_difference([1], [1, 0])


def test_percentile_interpolates_like_numpy() -> None:
    assert percentile([1, 2, 3, 4], 50) == 2.5
    assert percentile([1, 2, 3, 4], 95) == pytest.approx(3.85)
    assert percentile([4, 1, 3, 2], 0) == 1 and percentile([4, 1, 3, 2], 100) == 4
    assert percentile([5], 95) == 5
    assert percentile([], 50) is None


def _repeated(correct_questions: int, questions: int, repeats: int) -> list[dict]:
    """`repeats` identical answers to each question: the first `correct_questions` right every time."""
    return [{"id": f"q{q}#{k}", "question_id": f"q{q}", "repeat": k, "answer_idx": "A", "error": None,
             "prediction": "A" if q < correct_questions else "B", "parse_status": "ok",
             "correct": q < correct_questions, "difficulty": "basic"}
            for q in range(questions) for k in range(1, repeats + 1)]


def test_identical_repeats_are_worth_their_questions_not_their_samples() -> None:
    clusters = [(3, 3)] * 13 + [(0, 3)] * 7
    assert effective_size(clusters) == pytest.approx(20)
    assert clustered_interval(clusters) == pytest.approx(wilson_interval(13, 20))
    independent = [(1, 1)] * 39 + [(0, 1)] * 21
    assert clustered_interval(independent) == pytest.approx(wilson_interval(39, 60))


def test_repeats_summary_interval_is_as_wide_as_20_questions_not_60() -> None:
    from mdagents.analysis.summary import summarize

    summary = summarize(_repeated(13, 20, 3))
    assert (summary["n"], summary["correct"], summary["reducer"]) == (60, 39, "mean")
    assert (summary["ci_low"], summary["ci_high"]) == pytest.approx(wilson_interval(13, 20))
    assert summary["ci_high"] - summary["ci_low"] > 1.5 * (wilson_interval(39, 60)[1] - wilson_interval(39, 60)[0])
    block = summary["repeats"]
    assert block["reducer"] == "mean" and block["effective_n"] == pytest.approx(20)
    assert block["majority_vote"]["accuracy"] == 0.65 and block["majority_vote"]["n"] == 20
    assert block["at_least"]["1"]["accuracy"] == 0.65 and block["at_least"]["3"]["accuracy"] == 0.65
    assert (block["majority_vote"]["ci_low"], block["majority_vote"]["ci_high"]) == wilson_interval(13, 20)


def test_at_least_k_and_majority_differ_when_repeats_disagree() -> None:
    from mdagents.analysis.summary import summarize

    records = _repeated(0, 4, 3)  # all wrong, then make q0 right once, q1 right twice, q2 right three times
    for record in records:
        q, k = int(record["question_id"][1:]), record["repeat"]
        if k <= q + 1 and q < 3:
            record.update(prediction="A", correct=True)
    block = summarize(records)["repeats"]
    assert [block["at_least"][str(k)]["correct"] for k in (1, 2, 3)] == [3, 2, 1]
    assert block["majority_vote"]["correct"] == 2


def test_report_bootstrap_resamples_questions_with_repeats() -> None:
    from mdagents.analysis.report import accuracy_block, by_question

    records = _repeated(13, 20, 3)
    assert len(by_question(records)) == 20
    assert (accuracy_block(records)["ci_low"], accuracy_block(records)["ci_high"]) == pytest.approx(
        wilson_interval(13, 20))
    low, high = cluster_bootstrap_interval(by_question(records), seed=1)
    single_low, single_high = cluster_bootstrap_interval([(r["correct"], 1) for r in records], seed=1)
    assert high - low > 1.4 * (single_high - single_low)
