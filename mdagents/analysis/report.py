"""Report computations: per-run accuracy with honest uncertainty, breakdowns, costs, and paired comparisons.

The computations return plain JSON-ready dicts; the render_* functions at the end turn
those dicts into table, markdown, CSV or JSON text.
Accuracy counts every graded sample (parse failures and abstentions are not correct; a sample whose
calls failed, `error`, is counted apart and never as a wrong answer); `accuracy_answered` is over the
samples that produced an answer. With --repeats, intervals are over questions, not samples.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from itertools import combinations
from pathlib import Path
from typing import Any

from mdagents.analysis.costs import CostTotals
from mdagents.analysis.runs import Run
from mdagents.analysis.stats import (
    cluster_bootstrap_interval,
    mcnemar_exact,
    paired_bootstrap_difference,
    percentile,
)
from mdagents.analysis.summary import (
    CRITIC_OUTCOMES,
    Tally,
    critic_outcome,
    grading_health,
    grading_line,
    level_key,
)
from mdagents.analysis.variants import variant_of

UNKNOWN = "unknown"


def outcome(record: dict[str, Any]) -> str:
    """error | abstained | parse_failure | correct | wrong: each sample counts in exactly one."""
    if record.get("error"):
        return "error"
    if record.get("abstained"):
        return "abstained"
    if record.get("parse_status") == "failed":
        return "parse_failure"
    return "correct" if record.get("correct") is True else "wrong"


def is_correct(record: dict[str, Any]) -> bool:
    return record.get("correct") is True


def _finite(value: float | None) -> float | None:
    return None if value is None or (isinstance(value, float) and math.isnan(value)) else value


def graded(records: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The samples accuracy counts: all but those whose calls failed (`error`)."""
    return [r for r in records if not r.get("error")]


def accuracy_block(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """n (graded samples), correct, accuracy and its 95% Wilson interval (over questions with --repeats)."""
    tally = Tally()
    for record in graded(records):
        tally.add(record)
    return tally.to_dict()


def by_question(records: Sequence[dict[str, Any]]) -> list[tuple[int, int]]:
    """(correct, samples) per question: one per record, or per `question_id` over its repeats."""
    clusters: dict[str, list[int]] = {}
    for record in records:
        cluster = clusters.setdefault(str(record.get("question_id") or record.get("id")), [0, 0])
        cluster[0] += is_correct(record)
        cluster[1] += 1
    return [(y, m) for y, m in clusters.values()]


def _grouped(records: Sequence[dict[str, Any]], key: str) -> dict[str, list[dict[str, Any]]]:
    groups: dict[str, list[dict[str, Any]]] = {}
    for record in records:
        groups.setdefault(str(record.get(key) or UNKNOWN), []).append(record)
    return dict(sorted(groups.items(), key=lambda item: level_key(item[0])))


def breakdown(records: Sequence[dict[str, Any]], key: str) -> dict[str, dict[str, Any]]:
    """Per value of `key` (difficulty, dataset): how many went there, their share and accuracy."""
    total = len(records)
    return {
        value: {**accuracy_block(items), "share": len(items) / total}
        for value, items in _grouped(records, key).items()
    }


def display_names(runs: Sequence[Run]) -> dict[Path, str]:
    """Run directory names, or their paths when two runs share a name (output1/x vs output2/x)."""
    names = [run.name for run in runs]
    unique = len(set(names)) == len(names)
    return {run.path: run.name if unique else str(run.path) for run in runs}


def run_method(run: Run) -> str:
    """The run's --method (runs made before methods existed ran the default, `mdagents`)."""
    return str((run.manifest.get("config") or {}).get("method") or run.summary.get("method") or "mdagents")


def summarize_run(run: Run, *, bootstrap: int = 2000, seed: int = 0, name: str | None = None) -> dict[str, Any]:
    """Everything the report prints about one run, as a JSON-ready dict."""
    records = run.records
    n = len(records)
    outcomes = Counter(outcome(r) for r in records)
    answered = outcomes["correct"] + outcomes["wrong"]
    boot_low, boot_high = (
        cluster_bootstrap_interval(by_question(graded(records)), n_resamples=bootstrap, seed=seed)
        if bootstrap and outcomes.total() > outcomes["error"]
        else (None, None)
    )
    input_tokens = sum(int(r["usage"]["total"].get("input_tokens") or 0) for r in records)
    output_tokens = sum(int(r["usage"]["total"].get("output_tokens") or 0) for r in records)
    calls = sum(int(r.get("calls") or 0) for r in records)
    costs = CostTotals()
    for record in records:
        costs.add(record)
    latencies = [float(r["latency_s"]) for r in records if r.get("latency_s") is not None]
    report: dict[str, Any] = {
        "run": name or run.name,
        "path": str(run.path),
        "status": run.status,
        "in_progress": run.in_progress,
        "sample_set": bool(run.manifest.get("sample_set") or run.summary.get("sample_set")),
        **accuracy_block(records),
        "bootstrap_low": _finite(boot_low),
        "bootstrap_high": _finite(boot_high),
        "answered": answered,
        "accuracy_answered": outcomes["correct"] / answered if answered else None,
        "parse_failures": outcomes["parse_failure"],
        "grading": grading_health(records),
        "errors": outcomes["error"],
        "abstained": outcomes["abstained"],
        "by_difficulty": breakdown(records, "difficulty"),
        "difficulty_source": dict(Counter(str(r.get("difficulty_source") or UNKNOWN) for r in records)),
        "by_dataset": breakdown(records, "dataset"),
        "input_tokens": input_tokens,
        "output_tokens": output_tokens,
        "input_tokens_mean": input_tokens / n if n else None,
        "output_tokens_mean": output_tokens / n if n else None,
        "calls": calls,
        "calls_per_question": calls / n if n else None,
        **costs.to_dict(),
        "cost_per_question": costs.cost / n if costs.cost is not None and n else None,
        "latency_p50_s": percentile(latencies, 50),
        "latency_p95_s": percentile(latencies, 95),
        "models": sorted({str(r["model"]) for r in records if r.get("model")}),
        "method": run_method(run),
        **run_identity(run),
        "warnings": list(run.warnings),
    }
    critic = critic_section(records)
    if critic:
        report["critic"] = critic
    rag = rag_section(records)
    if rag:
        report["rag"] = rag
    return report


def run_identity(run: Run) -> dict[str, Any]:
    """Model, dataset, split and difficulty mode of a run (from its manifest, else its records), and for a
    `<name>-2` directory the run it is a variant of and the fields that differ."""
    config = run.manifest.get("config") or {}

    def either(key: str, record_key: str) -> Any:
        return config.get(key) or ", ".join(sorted({str(r[record_key]) for r in run.records if r.get(record_key)})) \
            or None

    variant = variant_of(run.path, run.manifest)
    return {"model": either("model", "model"), "dataset": either("dataset", "dataset"),
            "split": either("split", "split"), "difficulty_mode": config.get("difficulty"),
            "variant_of": variant.get("variant_of"), "differs_in": variant.get("differs_in") or []}


def critic_section(records: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    """How the critic behaved: passed / failed / unverified, which layers failed how often, decisions
    reviewed per question, answers changed, abstentions."""
    reviewed = [r for r in records if critic_outcome(r) is not None]
    if not reviewed:
        return None
    layer_failures: Counter[str] = Counter()
    outcomes = Counter(critic_outcome(r) for r in reviewed)
    decisions = 0
    for record in reviewed:
        attempts = [a for a in record["critic"].get("attempts") or [] if isinstance(a, dict)]
        decisions += int(record["critic"].get("decisions") or sum(1 for a in attempts if a.get("decision")))
        for attempt in attempts:
            if attempt.get("verdict") == "FAIL":
                layer_failures[str(attempt.get("layer") or UNKNOWN)] += 1
    return {
        "n": len(reviewed),
        **{outcome: outcomes[outcome] for outcome in CRITIC_OUTCOMES},
        "layer_failures": dict(layer_failures.most_common()),
        "decisions_per_question": decisions / len(reviewed),
        "changed_answer": sum(1 for r in reviewed if r["critic"].get("changed_answer")),
        "abstained": sum(1 for r in reviewed if r.get("abstained")),
    }


def rag_section(records: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    """How often retrieval changed the answer, and how much it retrieved."""
    retrieved = [r for r in records if isinstance(r.get("rag"), dict)]
    if not retrieved:
        return None
    chunks = [len(r["rag"].get("chunks") or []) for r in retrieved]
    return {
        "n": len(retrieved),
        "changed_answer": sum(1 for r in retrieved if r["rag"].get("changed_answer")),
        "chunks_per_question": sum(chunks) / len(chunks),
    }


def _uses(run: Run, key: str) -> bool:
    return any(isinstance(r.get(key), dict) for r in run.records)


def _oriented(a: Run, b: Run) -> tuple[Run, Run, str | None]:
    """Put the run with the critic (or RAG) first, so the difference reads "with minus without"."""
    for key in ("critic", "rag"):
        if _uses(a, key) != _uses(b, key):
            return (a, b, key) if _uses(a, key) else (b, a, key)
    return a, b, None


def _level_source(a: Run, b: Run) -> Run:
    """Group the per-level view by the run whose levels were classified (adaptive), else by the first."""
    for run in (a, b):
        if any(r.get("difficulty_source") == "classified" for r in run.records):
            return run
    return a


def compare_runs(
    first: Run, second: Run, *, bootstrap: int = 2000, seed: int = 0, names: dict[Path, str] | None = None
) -> dict[str, Any] | None:
    """Paired comparison on the ids both runs share; None when they share none.

    Parse failures and abstentions count as not correct, as in the accuracy; an id whose sample
    failed (`error`) in either run is left out, as it is left out of the accuracy.
    """
    names = names or {}
    a, b, feature = _oriented(first, second)
    a_by_id, b_by_id = a.by_id(), b.by_id()
    shared = [sample_id for sample_id, record in a_by_id.items()
              if sample_id in b_by_id and not record.get("error") and not b_by_id[sample_id].get("error")]
    if not shared:
        return None
    a_right = [is_correct(a_by_id[i]) for i in shared]
    b_right = [is_correct(b_by_id[i]) for i in shared]
    only_a = [i for i, x, y in zip(shared, a_right, b_right, strict=True) if x and not y]
    only_b = [i for i, x, y in zip(shared, a_right, b_right, strict=True) if y and not x]
    n = len(shared)
    low, high = (
        paired_bootstrap_difference(a_right, b_right, n_resamples=bootstrap, seed=seed) if bootstrap else (None, None)
    )
    levels_from = _level_source(a, b).by_id()
    by_level: dict[str, dict[str, Any]] = {}
    for sample_id in shared:
        level = str(levels_from[sample_id].get("difficulty") or UNKNOWN)
        row = by_level.setdefault(level, {"n": 0, "a_correct": 0, "b_correct": 0})
        row["n"] += 1
        row["a_correct"] += is_correct(a_by_id[sample_id])
        row["b_correct"] += is_correct(b_by_id[sample_id])
    for row in by_level.values():
        row["a_accuracy"] = row["a_correct"] / row["n"]
        row["b_accuracy"] = row["b_correct"] / row["n"]
    return {
        "a": names.get(a.path, a.name),
        "b": names.get(b.path, b.name),
        "feature": feature,
        "n_shared": n,
        "a_accuracy": sum(a_right) / n,
        "b_accuracy": sum(b_right) / n,
        "difference": (sum(a_right) - sum(b_right)) / n,
        "diff_ci_low": _finite(low),
        "diff_ci_high": _finite(high),
        "only_a_correct": only_a,
        "only_b_correct": only_b,
        "mcnemar_p": mcnemar_exact(len(only_a), len(only_b)),
        "changed_prediction": [i for i in shared if a_by_id[i].get("prediction") != b_by_id[i].get("prediction")],
        "levels_from": names.get(_level_source(a, b).path, _level_source(a, b).name),
        "by_difficulty": dict(sorted(by_level.items(), key=lambda kv: level_key(kv[0]))),
    }


def build_report(runs: Sequence[Run], *, bootstrap: int = 2000, seed: int = 0) -> list[dict[str, Any]]:
    """One dict per run; each pair of runs sharing ids adds a comparison to the earlier run's `comparisons`."""
    names = display_names(runs)
    reports = [summarize_run(run, bootstrap=bootstrap, seed=seed, name=names[run.path]) for run in runs]
    for (i, first), (_, second) in combinations(enumerate(runs), 2):
        comparison = compare_runs(first, second, bootstrap=bootstrap, seed=seed, names=names)
        if comparison is not None:
            reports[i].setdefault("comparisons", []).append(comparison)
    return reports


def all_comparisons(reports: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    return [c for report in reports for c in report.get("comparisons", [])]


# ---- rendering -------------------------------------------------------------------------------

def short_labels(names: Sequence[str]) -> tuple[list[str], str]:
    """Drop the `_`-separated parts all run names share; return (labels, the shared part for a title)."""
    parts = [name.split("_") for name in names]
    if len(parts) < 2:
        return list(names), ""
    prefix = 0
    while all(len(p) > prefix + 1 for p in parts) and len({p[prefix] for p in parts}) == 1:
        prefix += 1
    suffix = 0
    while all(len(p) > prefix + suffix + 1 for p in parts) and len({p[-1 - suffix] for p in parts}) == 1:
        suffix += 1
    labels = ["_".join(p[prefix:len(p) - suffix]) for p in parts]
    shared = "_".join(parts[0][:prefix] + ["<label>"] + (parts[0][len(parts[0]) - suffix:] if suffix else []))
    if len(set(labels)) < len(labels):
        return list(names), ""
    return labels, shared if prefix or suffix else ""


FORMATS = ("table", "markdown", "csv", "json")


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}%"


def _interval(low: float | None, high: float | None) -> str:
    return "–" if low is None or high is None else f"[{100 * low:.1f}, {100 * high:.1f}]"


def _num(value: float | None, digits: int = 1) -> str:
    return "–" if value is None else f"{value:,.{digits}f}"


def _cost(value: float | None) -> str:
    return "unknown" if value is None else f"${value:,.4f}"


def _counts(counter: dict[str, int]) -> str:
    return ", ".join(f"{key} {value}" for key, value in counter.items()) or "–"


def _table(header: Sequence[str], rows: Sequence[Sequence[Any]], markdown: bool) -> str:
    from prettytable import PrettyTable

    table = PrettyTable(list(header))
    for row in rows:
        table.add_row(list(row))
    table.align = "l"
    if markdown:
        from prettytable import TableStyle

        table.set_style(TableStyle.MARKDOWN)
    return table.get_string()


def _overview_rows(reports: Sequence[dict[str, Any]]) -> list[list[str]]:
    def row(label: str, cell: Any) -> list[str]:
        return [label, *(str(cell(r)) for r in reports)]

    sample_rows = [row("data", lambda r: "SAMPLE SET (not the public benchmark)" if r["sample_set"] else "")
                   ] if any(r["sample_set"] for r in reports) else []
    method_rows = [row("method", lambda r: r["method"])] if any(r["method"] != "mdagents" for r in reports) else []
    variant_rows = [row("differs from", lambda r: f"{r['variant_of']} in {len(r['differs_in'])} field(s)"
                        if r.get("variant_of") else "")] if any(r.get("variant_of") for r in reports) else []
    return [
        row("status", lambda r: r["status"]),
        *method_rows,
        *sample_rows,
        *variant_rows,
        row("n", lambda r: r["n"]),
        row("accuracy (graded samples)", lambda r: _pct(r["accuracy"])),
        row("  95% Wilson interval", lambda r: _interval(r["ci_low"], r["ci_high"])),
        row("  95% bootstrap interval", lambda r: _interval(r["bootstrap_low"], r["bootstrap_high"])),
        row("accuracy (answered only)", lambda r: f"{_pct(r['accuracy_answered'])} of {r['answered']}"),
        row("parse failures", lambda r: r["parse_failures"]),
        row("  grading", lambda r: grading_line(r["grading"])),
        row("errors", lambda r: r["errors"]),
        row("abstained", lambda r: r["abstained"]),
        row("input tokens (mean / total)", lambda r: f"{_num(r['input_tokens_mean'], 0)} / {r['input_tokens']:,}"),
        row("output tokens (mean / total)", lambda r: f"{_num(r['output_tokens_mean'], 0)} / {r['output_tokens']:,}"),
        row("calls per question", lambda r: _num(r["calls_per_question"])),
        row("cost at the run's prices", lambda r: _cost(r["cost_usd"])),
        row("  paid / replayed from the cache", lambda r: f"{_cost(r['paid_usd'])} / {_cost(r['replayed_usd'])}"),
        row("latency p50 / p95 (s)", lambda r: f"{_num(r['latency_p50_s'])} / {_num(r['latency_p95_s'])}"),
    ]


def _breakdown_rows(reports: Sequence[dict[str, Any]], key: str, label: dict[str, str]) -> list[list[str]]:
    return [
        [label[r["run"]], value, f"{b['n']} ({_pct(b['share'])})", _pct(b["accuracy"]),
         _interval(b["ci_low"], b["ci_high"])]
        for r in reports
        for value, b in r[key].items()
    ]


def render_text(reports: Sequence[dict[str, Any]], *, markdown: bool = False, list_changed: bool = False) -> str:
    """Human-readable report: overview, breakdowns, critic/RAG sections, comparisons.

    Run names are shortened to the part that differs (`basic`, `adaptive`); the heading says
    what the full names look like.
    """
    heading = (lambda title: f"### {title}") if markdown else (lambda title: f"{title}:")
    labels, shared = short_labels([r["run"] for r in reports])
    label = dict(zip((r["run"] for r in reports), labels, strict=True))
    title = f"Runs (named {shared})" if shared else "Runs"
    parts = [heading(title), _table(["", *labels], _overview_rows(reports), markdown)]
    breakdown_header = ["run", "{}", "n (share)", "accuracy", "95% Wilson"]
    for key, name in (("by_difficulty", "difficulty"), ("by_dataset", "dataset")):
        header = [h.format(name) for h in breakdown_header]
        parts += [heading(f"By {name}"), _table(header, _breakdown_rows(reports, key, label), markdown)]
    critic_rows = [
        [label[r["run"]], c["n"], c["passed"], c["failed"], c["unverified"], _counts(c["layer_failures"]),
         _num(c["decisions_per_question"]), c["changed_answer"], c["abstained"]]
        for r in reports if (c := r.get("critic"))
    ]
    if critic_rows:
        header = ["run", "reviewed", "passed", "failed", "unverified", "failures by layer", "decisions per question",
                  "answers changed", "abstained"]
        parts += [heading("Critic"), _table(header, critic_rows, markdown)]
    rag_rows = [
        [label[r["run"]], g["n"], g["changed_answer"], _num(g["chunks_per_question"])]
        for r in reports if (g := r.get("rag"))
    ]
    if rag_rows:
        parts += [heading("Guideline retrieval (RAG)"),
                  _table(["run", "with retrieval", "answers changed", "chunks per question"], rag_rows, markdown)]
    if len(reports) > 1:
        from mdagents.analysis.cost_accuracy import render_table, report_points

        parts += [heading("Cost against accuracy"), render_table(report_points(reports, labels), markdown=markdown)]
    comparisons = all_comparisons(reports)
    if comparisons:
        parts += [heading("Paired comparisons on shared ids (a minus b)"),
                  _comparison_table(comparisons, label, markdown)]
        levels = _comparison_levels(comparisons, label, markdown)
        if levels:
            parts += [heading("Paired comparisons by difficulty"), levels]
        if list_changed:
            parts += [heading("Ids that changed"), _changed_ids(comparisons, label, markdown)]
    notes = [f"note: {r['run']}: {w}" for r in reports for w in r["warnings"]]
    notes += [f"note: {r['run']} is a separate run beside {r['variant_of']}; it differs in "
              f"{'; '.join(r['differs_in']) or 'nothing recorded'}" for r in reports if r.get("variant_of")]
    notes += [f"note: {r['run']} is still in progress: numbers are partial" for r in reports if r["in_progress"]]
    return "\n\n".join(parts + (["\n".join(notes)] if notes else []))


def _comparison_table(comparisons: Sequence[dict[str, Any]], label: dict[str, str], markdown: bool) -> str:
    rows = [
        [
            label[c["a"]] + (f" (with {c['feature']})" if c["feature"] else ""),
            label[c["b"]],
            c["n_shared"],
            _pct(c["a_accuracy"]),
            _pct(c["b_accuracy"]),
            f"{100 * c['difference']:+.1f} pts {_interval(c['diff_ci_low'], c['diff_ci_high'])}",
            f"{len(c['only_a_correct'])} / {len(c['only_b_correct'])}",
            f"{c['mcnemar_p']:.3g}",
        ]
        for c in comparisons
    ]
    header = ["a", "b", "shared ids", "acc a", "acc b", "difference [95% bootstrap]", "only a / only b right",
              "McNemar exact p"]
    return _table(header, rows, markdown)


def _comparison_levels(comparisons: Sequence[dict[str, Any]], label: dict[str, str], markdown: bool) -> str:
    """Accuracy of both runs within each level (levels as the adaptive run classified them)."""
    rows = [
        [label[c["a"]], label[c["b"]], label[c["levels_from"]], level, row["n"], _pct(row["a_accuracy"]),
         _pct(row["b_accuracy"])]
        for c in comparisons if len(c["by_difficulty"]) > 1
        for level, row in c["by_difficulty"].items()
    ]
    return _table(["a", "b", "levels of", "difficulty", "n", "acc a", "acc b"], rows, markdown) if rows else ""


def _changed_ids(comparisons: Sequence[dict[str, Any]], label: dict[str, str], markdown: bool) -> str:
    """One wrapped line per (pair, kind): ids are for reading, not for a table cell."""
    import textwrap

    bullet = "- " if markdown else ""
    lines = []
    for c in comparisons:
        a, b = label[c["a"]], label[c["b"]]
        for what, ids in ((f"only {a} right", c["only_a_correct"]), (f"only {b} right", c["only_b_correct"]),
                          ("prediction changed", c["changed_prediction"])):
            text = f"{bullet}{a} vs {b}, {what} ({len(ids)}): {', '.join(ids) or '–'}"
            lines.append(textwrap.fill(text, width=110, subsequent_indent="    ", break_on_hyphens=False))
    return "\n".join(lines)


CSV_FIELDS = (
    "run", "model", "dataset", "split", "difficulty_mode", "status", "sample_set", "n", "correct", "accuracy", "ci_low", "ci_high", "bootstrap_low", "bootstrap_high",
    "answered", "accuracy_answered", "parse_failures", "errors", "abstained", "input_tokens", "output_tokens",
    "input_tokens_mean", "output_tokens_mean", "calls", "calls_per_question", "cost_usd", "paid_usd", "replayed_usd",
    "cost_per_question",
    "latency_p50_s", "latency_p95_s", "variant_of", "differs_in",
)


def render_csv(reports: Sequence[dict[str, Any]]) -> str:
    """One row per run; per-difficulty counts and accuracies as n_<level>, accuracy_<level> columns."""
    import csv
    import io

    levels = list(dict.fromkeys(level for r in reports for level in r["by_difficulty"]))
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([*CSV_FIELDS, *(f"{k}_{level}" for level in levels for k in ("n", "accuracy"))])
    for r in reports:
        per_level = []
        for level in levels:
            block = r["by_difficulty"].get(level, {"n": 0, "accuracy": None})
            per_level += [block["n"], block["accuracy"]]
        writer.writerow([_csv_cell(r[f]) for f in CSV_FIELDS] + [_csv_cell(v) for v in per_level])
    return buffer.getvalue().rstrip("\n")


def _csv_cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, list):
        return "; ".join(str(v) for v in value)
    return round(value, 6) if isinstance(value, float) else value


def render_json(reports: Sequence[dict[str, Any]]) -> str:
    import json

    return json.dumps(list(reports), indent=2, allow_nan=False)


def render(reports: Sequence[dict[str, Any]], fmt: str, *, list_changed: bool = False) -> str:
    if fmt == "json":
        return render_json(reports)
    if fmt == "csv":
        return render_csv(reports)
    return render_text(reports, markdown=fmt == "markdown", list_changed=list_changed)
