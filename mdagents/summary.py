"""The end-of-run summary: accuracy with a 95% interval, by difficulty, tokens, calls, cost, time."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from mdagents.stats import wilson_interval


def _level_stats(records: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(records)
    correct = sum(1 for r in records if r.get("correct") is True)
    low, high = wilson_interval(correct, n) if n else (None, None)
    return {"n": n, "correct": correct, "accuracy": (correct / n) if n else None, "ci_low": low, "ci_high": high}


def summarize(records: Iterable[dict[str, Any]], *, wall_s: float | None = None) -> dict[str, Any]:
    rows = list(records)
    base = _level_stats(rows)
    errors = sum(1 for r in rows if r.get("error"))
    abstained = sum(1 for r in rows if r.get("abstained"))
    parse_failures = sum(1 for r in rows if not r.get("error") and r.get("parse_status") == "failed")
    answered = [r for r in rows if not r.get("error") and not r.get("abstained") and r.get("parse_status") == "ok"]
    costs = [r.get("cost_usd") for r in rows]
    by_level: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        by_level.setdefault(str(r.get("difficulty") or "unknown"), []).append(r)

    def total(field: str) -> int:
        return sum(int((r.get("usage") or {}).get("total", {}).get(field) or 0) for r in rows)

    return {
        **base,
        "accuracy_answered": (sum(1 for r in answered if r.get("correct")) / len(answered)) if answered else None,
        "answered": len(answered),
        "parse_failures": parse_failures,
        "errors": errors,
        "abstained": abstained,
        "by_difficulty": {level: _level_stats(items) for level, items in sorted(by_level.items())},
        "input_tokens": total("input_tokens"),
        "output_tokens": total("output_tokens"),
        "calls": sum(int(r.get("calls") or 0) for r in rows),
        "calls_per_question": (sum(int(r.get("calls") or 0) for r in rows) / len(rows)) if rows else None,
        "cost_usd": None if any(c is None for c in costs) else round(sum(costs), 6),  # type: ignore[arg-type]
        "latency_s_mean": (sum(float(r.get("latency_s") or 0) for r in rows) / len(rows)) if rows else None,
        "wall_s": None if wall_s is None else round(wall_s, 2),
    }
