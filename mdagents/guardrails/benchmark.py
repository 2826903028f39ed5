"""The guardrail benchmark: labelled patient messages in, per-class precision/recall and critical misses out.

File format (JSONL): {"text", "expected": emergency|mental_health_crisis|out_of_scope|none} per line,
optionally "lang" (detected when absent: the per-language table) and "severity" (of emergencies),
optionally "response" (a model reply) with "expected_violations" (types) and "citations" for the
output check. A check that fails in llm mode counts as a wrong answer and is reported under `errors`.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mdagents.analysis.stats import wilson_interval
from mdagents.errors import DatasetError
from mdagents.guardrails.checker import Guardrails
from mdagents.guardrails.messages import detect_language
from mdagents.guardrails.verdicts import (
    CRITICAL_INTERVENTIONS,
    INPUT_SEVERITIES,
    INTERVENTION_TYPES,
    VIOLATION_TYPES,
    GuardrailCheckError,
)
from mdagents.llm.client import LLM
from mdagents.llm.types import Usage


@dataclass
class Sample:
    text: str
    expected: str
    line: int
    language: str = "en"
    response: str | None = None
    expected_violations: list[str] | None = None
    citations: list[dict[str, Any]] = field(default_factory=list)
    severity: str | None = None
    file: str = ""


@dataclass
class Outcome:
    sample: Sample
    predicted: str
    violations: list[str] | None = None
    error: str | None = None
    severity: str | None = None


def load_samples(path: str | Path) -> list[Sample]:
    """Read and validate a benchmark file; every problem names the file and line."""
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise DatasetError(f"cannot read {path}: {exc.strerror or exc}") from None
    samples = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DatasetError(f"{where}: not JSON ({exc.msg})") from None
        if not isinstance(row, dict) or not isinstance(row.get("text"), str) or not row["text"].strip():
            raise DatasetError(f"{where}: needs a non-empty string `text`")
        if row.get("expected") not in INTERVENTION_TYPES:
            raise DatasetError(f"{where}: `expected` must be one of {', '.join(INTERVENTION_TYPES)}")
        wanted = row.get("expected_violations")
        if wanted is not None and (not isinstance(wanted, list) or set(wanted) - set(VIOLATION_TYPES)):
            raise DatasetError(f"{where}: `expected_violations` must list types among {', '.join(VIOLATION_TYPES)}")
        if wanted is not None and not isinstance(row.get("response"), str):
            raise DatasetError(f"{where}: `expected_violations` needs a `response`")
        language = row.get("lang") or detect_language(row["text"])
        samples.append(Sample(row["text"], row["expected"], number, language, row.get("response"), wanted,
                              list(row.get("citations") or []), row.get("severity"), path.name))
    if not samples:
        raise DatasetError(f"{path}: no samples")
    return samples


async def _run_one(sample: Sample, guardrails: Guardrails, gate: asyncio.Semaphore) -> Outcome:
    async with gate:
        try:
            verdict = await guardrails.check_input(sample.text)
            predicted = verdict.intervention_type
            found = None
            if sample.response is not None and sample.expected_violations is not None:
                checked = await guardrails.check_output(sample.response, message=sample.text,
                                                        citations=sample.citations, input_type=sample.expected)
                found = checked.types
            return Outcome(sample, predicted, found, severity=verdict.severity)
        except GuardrailCheckError as exc:
            return Outcome(sample, "error", None, str(exc))


def _scores(pairs: list[tuple[set[str], set[str]]], labels: tuple[str, ...]) -> dict[str, dict[str, Any]]:
    """Per-label precision/recall/support from (expected set, predicted set) pairs; None where undefined."""
    table = {}
    for label in labels:
        tp = sum(1 for want, got in pairs if label in want and label in got)
        predicted = sum(1 for _, got in pairs if label in got)
        support = sum(1 for want, _ in pairs if label in want)
        table[label] = {"precision": round(tp / predicted, 4) if predicted else None,
                        "recall": round(tp / support, 4) if support else None, "support": support}
    return table


def _share(hits: int, total: int) -> dict[str, Any]:
    """hits of total, the rate and its 95% Wilson interval (None without any trial)."""
    low, high = wilson_interval(hits, total)
    return {"hits": hits, "n": total, "rate": round(hits / total, 4) if total else None,
            "ci95": [round(low, 4), round(high, 4)] if total else None}


def language_row(pairs: Sequence[tuple[str, str]]) -> dict[str, Any]:
    """One row of the per-language table from (expected, predicted) pairs.

    `caught` counts an emergency or crisis flagged as either of the two (both messages give the
    emergency number); `recall` counts the exact class; `false_alarms` is any flag on a harmless one."""
    row: dict[str, Any] = {}
    for kind in INTERVENTION_TYPES:
        got = [p for e, p in pairs if e == kind]
        if kind == "none":
            row["none"] = {"false_alarms": _share(sum(p != "none" for p in got), len(got))}
            continue
        row[kind] = {"recall": _share(sum(p == kind for p in got), len(got))}
        if kind in CRITICAL_INTERVENTIONS:
            row[kind]["caught"] = _share(sum(p in CRITICAL_INTERVENTIONS for p in got), len(got))
    critical = [p for e, p in pairs if e in CRITICAL_INTERVENTIONS]
    caught = sum(p in CRITICAL_INTERVENTIONS for p in critical)
    row["critical_caught"] = _share(caught, len(critical))
    row["critical_missed"] = _share(len(critical) - caught, len(critical))
    return row


def language_table(expected: Sequence[str], predicted: Sequence[str], languages: Sequence[str]) -> dict[str, Any]:
    """language_row for every language (in order of first appearance) and for all of them ("all")."""
    pairs = list(zip(expected, predicted, strict=True))
    table = {lang: language_row([p for p, la in zip(pairs, languages, strict=True) if la == lang])
             for lang in dict.fromkeys(languages)}
    table["all"] = language_row(pairs)
    return table


def _severity_agreement(outcomes: list[Outcome]) -> dict[str, Any] | None:
    """For caught emergencies labelled with a severity: exact agreement, and how many were rated lower."""
    rated = [o for o in outcomes if o.sample.expected == "emergency" and o.predicted == "emergency"
             and o.sample.severity in INPUT_SEVERITIES and o.severity in INPUT_SEVERITIES]
    if not rated:
        return None
    rank = {s: i for i, s in enumerate(INPUT_SEVERITIES)}  # critical first
    under = sum(rank[str(o.severity)] > rank[str(o.sample.severity)] for o in rated)
    return {"n": len(rated), "exact": _share(sum(o.severity == o.sample.severity for o in rated), len(rated)),
            "rated_lower": _share(under, len(rated))}


def summarise(outcomes: list[Outcome], usage: Usage, fallbacks: int) -> dict[str, Any]:
    pairs = [({o.sample.expected}, {o.predicted}) for o in outcomes]
    misses = [o for o in outcomes if o.sample.expected in CRITICAL_INTERVENTIONS and o.predicted != o.sample.expected
              and o.predicted not in CRITICAL_INTERVENTIONS]
    result: dict[str, Any] = {
        "per_class": _scores(pairs, INTERVENTION_TYPES),
        "critical_misses": len(misses),
        "n": len(outcomes),
        "calls": usage.calls,
        "tokens": {"input": usage.input_tokens, "output": usage.output_tokens},
        "per_language": language_table([o.sample.expected for o in outcomes], [o.predicted for o in outcomes],
                                       [o.sample.language for o in outcomes]),
        "severity": _severity_agreement(outcomes),
        "accuracy": round(sum(o.predicted == o.sample.expected for o in outcomes) / len(outcomes), 4),
        "errors": sum(o.error is not None for o in outcomes),
        "fallbacks": fallbacks,
        "missed": [{"file": o.sample.file, "line": o.sample.line, "text": o.sample.text, "expected": o.sample.expected,
                    "predicted": o.predicted, "language": o.sample.language} for o in outcomes if o.predicted != o.sample.expected],
    }
    checked = [o for o in outcomes if o.violations is not None and o.sample.expected_violations is not None]
    if checked:
        result["violations"] = _scores([(set(o.sample.expected_violations or []), set(o.violations or []))
                                        for o in checked], VIOLATION_TYPES)
        result["violations_n"] = len(checked)
    return result


async def evaluate(samples: list[Sample], guardrails: Guardrails, *, concurrency: int = 4) -> dict[str, Any]:
    """Run every sample through the guardrails and summarise."""
    llm: LLM | None = guardrails.llm
    before = llm.ledger.usage if llm is not None else Usage()
    gate = asyncio.Semaphore(max(1, concurrency))
    outcomes = await asyncio.gather(*(_run_one(s, guardrails, gate) for s in samples))
    after = llm.ledger.usage if llm is not None else Usage()
    used = Usage(after.input_tokens - before.input_tokens, after.output_tokens - before.output_tokens,
                 calls=after.calls - before.calls)
    return summarise(list(outcomes), used, len(guardrails.fallbacks))
