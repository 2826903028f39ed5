"""The end-of-run summary: accuracy with a 95% interval, by difficulty, tokens, calls, cost, time.

Accuracy is over the graded samples: a sample whose calls failed (`error`) is counted apart, never as
a wrong answer. With --repeats the interval accounts for repeats of one question being alike.

One pass over the records with running totals, so a sweep of any size is summarised in flat memory.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from mdagents.analysis.costs import CostTotals
from mdagents.analysis.stats import clustered_interval, effective_size, wilson_interval

LEVEL_ORDER = ("basic", "intermediate", "advanced")


def level_key(level: str) -> tuple[int, str]:
    """Sort key putting levels in their natural order (basic, intermediate, advanced), others after."""
    return (LEVEL_ORDER.index(level) if level in LEVEL_ORDER else len(LEVEL_ORDER), level)


CRITIC_OUTCOMES = ("passed", "failed", "unverified")


def critic_outcome(record: dict[str, Any]) -> str | None:
    """passed | failed | unverified for a record the critic reviewed, else None.

    Only an explicit PASS counts as passed; anything else the critic could not confirm
    (UNVERIFIED, or a verdict this version does not know) is unverified."""
    critic = record.get("critic")
    if not isinstance(critic, dict):
        return None
    verdict = str(critic.get("verdict") or "").upper()
    return {"PASS": "passed", "FAIL": "failed"}.get(verdict, "unverified")


@dataclass
class Tally:
    """Graded samples and how many were correct, with per-question counts when questions repeat.

    With --repeats the samples of one question are not independent: the interval is then the
    Wilson interval over the questions' effective size (analysis/stats.py `clustered_interval`)."""

    n: int = 0
    correct: int = 0
    clusters: dict[str, list[int]] = field(default_factory=dict)  # question_id -> [correct, samples]

    def add(self, record: dict[str, Any]) -> None:
        right = record.get("correct") is True
        self.n += 1
        self.correct += right
        if record.get("question_id") is not None:
            cluster = self.clusters.setdefault(str(record["question_id"]), [0, 0])
            cluster[0] += right
            cluster[1] += 1

    def by_question(self) -> list[tuple[int, int]]:
        return [(y, m) for y, m in self.clusters.values()]

    def interval(self) -> tuple[float | None, float | None]:
        if not self.n:
            return None, None
        if self.clusters and len(self.clusters) < self.n:
            return clustered_interval(self.by_question())
        return wilson_interval(self.correct, self.n)

    def to_dict(self) -> dict[str, Any]:
        low, high = self.interval()
        return {"n": self.n, "correct": self.correct, "accuracy": (self.correct / self.n) if self.n else None,
                "ci_low": low, "ci_high": high}


@dataclass
class _Totals:
    all: Tally = field(default_factory=Tally)
    answered: Tally = field(default_factory=Tally)
    levels: dict[str, Tally] = field(default_factory=dict)
    errors: int = 0
    abstained: int = 0
    parse_failures: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cached_tokens: int = 0
    cache_write_tokens: int = 0
    calls: int = 0
    talk_unparsed: int = 0
    costs: CostTotals = field(default_factory=CostTotals)
    latency: float = 0.0
    samples: int = 0
    repeats: dict[int, Tally] = field(default_factory=dict)
    votes: dict[str, tuple[str | None, list[str | None]]] = field(default_factory=dict)
    critic: dict[str, int] = field(default_factory=dict)

    def add(self, r: dict[str, Any]) -> None:
        self.samples += 1
        failed, abstained = bool(r.get("error")), bool(r.get("abstained"))
        if not failed:  # a failed call is no answer of the method: never counted as a wrong one
            self.all.add(r)
            self.levels.setdefault(str(r.get("difficulty") or "unknown"), Tally()).add(r)
        self.errors += failed
        self.abstained += abstained
        self.parse_failures += not failed and r.get("parse_status") == "failed"
        if not failed and not abstained and r.get("parse_status") == "ok":
            self.answered.add(r)
        usage = (r.get("usage") or {}).get("total", {})
        self.input_tokens += int(usage.get("input_tokens") or 0)
        self.output_tokens += int(usage.get("output_tokens") or 0)
        self.cached_tokens += int(usage.get("cached_tokens") or 0)
        self.cache_write_tokens += int(usage.get("cache_write_tokens") or 0)
        self.talk_unparsed += len((r.get("details") or {}).get("talk_unparsed") or ())
        self.calls += int(r.get("calls") or 0)
        self.costs.add(r)
        self.latency += float(r.get("latency_s") or 0)
        if r.get("repeat") is not None:
            if not failed:
                self.repeats.setdefault(int(r["repeat"]), Tally()).add(r)
            _, predictions = self.votes.setdefault(str(r.get("question_id")), (r.get("answer_idx"), []))
            predictions.append(None if failed or abstained else r.get("prediction"))
        reviewed = critic_outcome(r)
        if reviewed is not None:
            self.critic[reviewed] = self.critic.get(reviewed, 0) + 1

    def repeat_block(self) -> dict[str, Any] | None:
        """The reducers of --repeats over questions: mean over repeats (the headline), majority vote,
        and at least k of the repeats correct (k = 1 is pass@N), each with its 95% interval over questions."""
        if not self.repeats:
            return None
        accuracies = [t.correct / t.n for _, t in sorted(self.repeats.items()) if t.n]
        sd = (statistics.stdev(accuracies) if len(accuracies) > 1 else 0.0) if accuracies else None
        questions = len(self.votes)
        majority_right = sum(majority(predictions) == truth for truth, predictions in self.votes.values())
        counts = [sum(p == truth for p in predictions) for truth, predictions in self.votes.values()]
        mean = self.all.to_dict()
        return {
            "repeats": len(self.repeats), "questions": questions, "reducer": "mean",
            "interval": "wilson over the effective number of questions (design effect)",
            "effective_n": effective_size(self.all.by_question()),
            "accuracy_mean": mean["accuracy"], "ci_low": mean["ci_low"], "ci_high": mean["ci_high"],
            "accuracy_sd": sd, "accuracy_by_repeat": accuracies,
            "majority_vote": _proportion(majority_right, questions),
            "at_least": {str(k): _proportion(sum(c >= k for c in counts), questions)
                         for k in range(1, len(self.repeats) + 1)},
            # kept for readers of earlier summaries
            "majority_vote_accuracy": majority_right / questions if questions else None,
        }


def _proportion(successes: int, n: int) -> dict[str, Any]:
    """One answer per question: accuracy and its Wilson interval over the questions."""
    low, high = wilson_interval(successes, n) if n else (None, None)
    return {"n": n, "correct": successes, "accuracy": successes / n if n else None, "ci_low": low, "ci_high": high}


def grading_health(records: Iterable[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """How the graded replies were read: counts by grading step, and the no-answers by reason
    (conflict, ambiguous, truncated, refused, none), so a run shows whether its numbers are limited
    by the model's answers or by the grader. Errors are not graded replies and are left out."""
    steps: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    for r in records:
        if r.get("error"):
            continue
        steps[str(r.get("extraction") or "none")] += 1
        if r.get("prediction") is None:
            reasons[str(r.get("no_answer_reason") or "none")] += 1
    return {"by_step": dict(steps.most_common()), "no_answer": dict(reasons.most_common())}


def grading_line(grading: dict[str, dict[str, int]]) -> str:
    """`read by contract 18 · declaration 1 · no answer: conflict 1` for terminal output."""
    steps = " · ".join(f"{step} {n}" for step, n in grading["by_step"].items() if step != "none") or "nothing"
    missing = ", ".join(f"{reason} {n}" for reason, n in grading["no_answer"].items())
    return f"read by {steps}" + (f" · no answer: {missing}" if missing else "")


def majority(predictions: list[str | None]) -> str | None:
    """The most frequent answer; a tie for first place (or no answer winning) is no answer."""
    counts = Counter(p for p in predictions if p is not None)
    ranked = counts.most_common(2)
    if not ranked or (len(ranked) == 2 and ranked[0][1] == ranked[1][1]):
        return None
    return ranked[0][0]


def summarize(records: Iterable[dict[str, Any]], *, wall_s: float | None = None) -> dict[str, Any]:
    t = _Totals()
    records = list(records)
    for record in records:
        t.add(record)
    samples = t.samples
    summary = {
        **t.all.to_dict(),
        "samples": samples,
        "reducer": "mean" if t.repeats else None,
        "accuracy_answered": t.answered.to_dict()["accuracy"],
        "answered": t.answered.n,
        "parse_failures": t.parse_failures,
        "grading": grading_health(records),
        "errors": t.errors,
        "abstained": t.abstained,
        "by_difficulty": {level: t.levels[level].to_dict() for level in sorted(t.levels, key=level_key)},
        "input_tokens": t.input_tokens,
        "output_tokens": t.output_tokens,
        # input tokens read from / written to the provider's prompt cache (where it reports them)
        "cached_tokens": t.cached_tokens,
        "cache_write_tokens": t.cache_write_tokens,
        "cached_share": (t.cached_tokens / t.input_tokens) if t.input_tokens else None,
        # debate replies that wanted to talk but named no readable expert (kept in each record's details)
        "talk_unparsed": t.talk_unparsed,
        "calls": t.calls,
        "calls_per_question": (t.calls / samples) if samples else None,
        **t.costs.to_dict(),
        "latency_s_mean": (t.latency / samples) if samples else None,
        "wall_s": None if wall_s is None else round(wall_s, 2),
        **({"repeats": block} if (block := t.repeat_block()) else {}),
    }
    if t.critic:  # runs with --critic: decisions that passed, failed, or could not be checked
        summary["critic"] = {"reviewed": sum(t.critic.values()), **{k: t.critic.get(k, 0) for k in CRITIC_OUTCOMES}}
    return summary
