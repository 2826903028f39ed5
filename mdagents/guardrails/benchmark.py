"""The guardrail benchmark: labelled patient messages in, per-class precision/recall and critical misses out.

File format (JSONL): {"text", "expected": emergency|mental_health_crisis|out_of_scope|none} per line,
optionally "response" (a model reply) with "expected_violations" (types) and "citations" for the
output check. A check that fails in llm mode counts as a wrong answer and is reported under `errors`.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mdagents.errors import DatasetError
from mdagents.guardrails.checker import Guardrails
from mdagents.guardrails.verdicts import (
    CRITICAL_INTERVENTIONS,
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
    response: str | None = None
    expected_violations: list[str] | None = None
    citations: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Outcome:
    sample: Sample
    predicted: str
    violations: list[str] | None = None
    error: str | None = None


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
        samples.append(Sample(row["text"], row["expected"], number, row.get("response"), wanted,
                              list(row.get("citations") or [])))
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
            return Outcome(sample, predicted, found)
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
        "accuracy": round(sum(o.predicted == o.sample.expected for o in outcomes) / len(outcomes), 4),
        "errors": sum(o.error is not None for o in outcomes),
        "fallbacks": fallbacks,
        "missed": [{"line": o.sample.line, "text": o.sample.text, "expected": o.sample.expected,
                    "predicted": o.predicted} for o in outcomes if o.predicted != o.sample.expected],
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
