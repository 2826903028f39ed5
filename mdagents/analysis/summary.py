"""The end-of-run summary: accuracy with a 95% interval, by difficulty, tokens, calls, cost, time.

One pass over the records with running totals, so a sweep of any size is summarised in flat memory.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from mdagents.analysis.stats import wilson_interval

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
class _Tally:
    n: int = 0
    correct: int = 0

    def add(self, record: dict[str, Any]) -> None:
        self.n += 1
        self.correct += record.get("correct") is True

    def to_dict(self) -> dict[str, Any]:
        low, high = wilson_interval(self.correct, self.n) if self.n else (None, None)
        return {"n": self.n, "correct": self.correct, "accuracy": (self.correct / self.n) if self.n else None,
                "ci_low": low, "ci_high": high}


@dataclass
class _Totals:
    all: _Tally = field(default_factory=_Tally)
    answered: _Tally = field(default_factory=_Tally)
    levels: dict[str, _Tally] = field(default_factory=dict)
    errors: int = 0
    abstained: int = 0
    parse_failures: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cached_tokens: int = 0
    cache_write_tokens: int = 0
    calls: int = 0
    talk_unparsed: int = 0
    cost: float | None = 0.0
    cached_cost: float | None = 0.0
    latency: float = 0.0
    repeats: dict[int, _Tally] = field(default_factory=dict)
    votes: dict[str, tuple[str | None, list[str | None]]] = field(default_factory=dict)
    critic: dict[str, int] = field(default_factory=dict)

    def add(self, r: dict[str, Any]) -> None:
        self.all.add(r)
        self.levels.setdefault(str(r.get("difficulty") or "unknown"), _Tally()).add(r)
        failed, abstained = bool(r.get("error")), bool(r.get("abstained"))
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
        cost, cached = r.get("cost_usd"), r.get("cached_cost_usd", 0.0)
        self.cost = None if self.cost is None or cost is None else self.cost + cost
        self.cached_cost = None if self.cached_cost is None or cached is None else self.cached_cost + cached
        self.latency += float(r.get("latency_s") or 0)
        if r.get("repeat") is not None:
            self.repeats.setdefault(int(r["repeat"]), _Tally()).add(r)
            _, predictions = self.votes.setdefault(str(r.get("question_id")), (r.get("answer_idx"), []))
            predictions.append(None if failed else r.get("prediction"))
        reviewed = critic_outcome(r)
        if reviewed is not None:
            self.critic[reviewed] = self.critic.get(reviewed, 0) + 1

    def repeat_block(self) -> dict[str, Any] | None:
        """Mean ± sample sd of the accuracy of each repeat, and the accuracy of the majority vote."""
        if not self.repeats:
            return None
        accuracies = [t.correct / t.n for _, t in sorted(self.repeats.items()) if t.n]
        mean = sum(accuracies) / len(accuracies) if accuracies else None
        sd = (statistics.stdev(accuracies) if len(accuracies) > 1 else 0.0) if accuracies else None
        majority_correct = sum(majority(predictions) == truth for truth, predictions in self.votes.values())
        return {"repeats": len(self.repeats), "questions": len(self.votes),
                "accuracy_mean": mean, "accuracy_sd": sd, "accuracy_by_repeat": accuracies,
                "majority_vote_accuracy": majority_correct / len(self.votes) if self.votes else None}


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
    n = t.all.n
    summary = {
        **t.all.to_dict(),
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
        "calls_per_question": (t.calls / n) if n else None,
        "cost_usd": None if t.cost is None else round(t.cost, 6),
        "cached_cost_usd": None if t.cached_cost is None else round(t.cached_cost, 6),
        "latency_s_mean": (t.latency / n) if n else None,
        "wall_s": None if wall_s is None else round(wall_s, 2),
        **({"repeats": block} if (block := t.repeat_block()) else {}),
    }
    if t.critic:  # runs with --critic: decisions that passed, failed, or could not be checked
        summary["critic"] = {"reviewed": sum(t.critic.values()), **{k: t.critic.get(k, 0) for k in CRITIC_OUTCOMES}}
    return summary
