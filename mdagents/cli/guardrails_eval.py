"""`guardrails-eval FILE [--mode semantic|regex|llm|hybrid]`: recall and false alarms of the triage, per class and language."""

from __future__ import annotations

import argparse
import asyncio
import json
from typing import Any

from mdagents.errors import UsageError
from mdagents.guardrails.benchmark import evaluate, load_samples
from mdagents.guardrails.checker import Guardrails
from mdagents.guardrails.verdicts import INTERVENTION_TYPES, MODES
from mdagents.llm.factory import build_llm


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="file",
                        help="JSONL of {text, expected[, response, expected_violations]}; several are pooled")
    parser.add_argument("--mode", choices=MODES, default="semantic",
                        help="which checks to run (default: semantic, the offline patterns + embedding classifier)")
    parser.add_argument("--model", default=None, help="model of the llm/hybrid checks (default: the local model)")
    parser.add_argument("--base-url", default=None, help="OpenAI-compatible server for --model")
    parser.add_argument("--region", default=None, help="region for regional checks (default: US)")
    parser.add_argument("--concurrency", type=int, default=4, help="checks in flight (default: 4)")
    parser.add_argument("--json", action="store_true", help="print the result as one JSON object")


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def print_language_table(table: dict[str, Any], title: str) -> None:
    """Rows: languages; columns: emergencies and crises caught, per-class recall, then critical misses
    and false alarms with their 95% Wilson intervals (per language the sets are small: read the interval)."""
    def cell(share: dict[str, Any]) -> str:
        # From the counts: the stored rate is rounded to 4 places, and 0.0395 would print 6/152 as 4.0%.
        return "-" if not share["n"] else f"{share['hits']}/{share['n']} {100 * share['hits'] / share['n']:.1f}%"

    def with_interval(share: dict[str, Any]) -> str:
        if not share["n"]:
            return "-"
        low, high = share["ci95"]
        return f"{cell(share)} [{100 * low:.1f}-{100 * high:.1f}]"

    print(title)
    head = ("lang", "emerg+crisis caught", "emergency", "crisis", "out_of_scope", "critical misses [95% CI]",
            "false alarms [95% CI]")
    print(f"{head[0]:<6}{head[1]:>21}{head[2]:>15}{head[3]:>15}{head[4]:>15}{head[5]:>27}{head[6]:>27}")
    for lang, row in table.items():
        print(f"{lang:<6}{cell(row['critical_caught']):>21}{cell(row['emergency']['recall']):>15}"
              f"{cell(row['mental_health_crisis']['recall']):>15}{cell(row['out_of_scope']['recall']):>15}"
              f"{with_interval(row['critical_missed']):>27}{with_interval(row['none']['false_alarms']):>27}")


def _print_table(result: dict[str, Any], mode: str) -> None:
    print(f"guardrails-eval  mode={mode}  n={result['n']}  accuracy={result['accuracy']:.3f}")
    print(f"{'class':<22}{'precision':>10}{'recall':>8}{'support':>9}")
    for name in INTERVENTION_TYPES:
        row = result["per_class"][name]
        print(f"{name:<22}{_fmt(row['precision']):>10}{_fmt(row['recall']):>8}{row['support']:>9}")
    print(f"critical misses: {result['critical_misses']}")
    print_language_table(result["per_language"], "per language (caught = flagged as emergency or crisis):")
    if result.get("severity"):
        sev = result["severity"]
        print(f"emergency severity vs label ({sev['n']} caught emergencies): exact {sev['exact']['rate']:.3f}, "
              f"rated lower {sev['rated_lower']['rate']:.3f}")
    if "violations" in result:
        print(f"output check ({result['violations_n']} replies):")
        for name, row in result["violations"].items():
            if row["support"] or row["precision"] is not None:
                print(f"  {name:<22}{_fmt(row['precision']):>10}{_fmt(row['recall']):>8}{row['support']:>9}")
    tokens = result["tokens"]
    print(f"calls: {result['calls']}  tokens: {tokens['input']} in / {tokens['output']} out  "
          f"errors: {result['errors']}  regex fallbacks: {result['fallbacks']}")
    for miss in result["missed"]:
        print(f"  {miss['file']}:{miss['line']}: expected {miss['expected']}, got {miss['predicted']}: {miss['text'][:80]}")


async def _run(args: argparse.Namespace) -> dict[str, Any]:
    samples = [sample for path in args.files for sample in load_samples(path)]
    llm = build_llm(args.model, base_url=args.base_url) if args.mode in ("llm", "hybrid") else None
    try:
        guardrails = Guardrails(args.mode, llm=llm, region=args.region)
        return await evaluate(samples, guardrails, concurrency=args.concurrency)
    finally:
        if llm is not None:
            await llm.aclose()


def execute(args: argparse.Namespace) -> int:
    if args.concurrency < 1:
        raise UsageError("--concurrency must be at least 1")
    result = asyncio.run(_run(args))
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        _print_table(result, args.mode)
    return 0
