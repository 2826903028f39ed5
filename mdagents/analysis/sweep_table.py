"""The table of a sweep: one row per cell, read from the cells' run directories.

`sweep.json` (written by the sweep beside its cells) names the cells and their coordinates; each
row is computed from what the cell's run directory holds now (shards merged), so the table of an
unfinished sweep shows partial cells as such.
"""

from __future__ import annotations

import csv
import io
import json
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mdagents.analysis.report import _table, summarize_run
from mdagents.analysis.runs import is_run_directory, load_run
from mdagents.errors import UsageError

SWEEP_FILE = "sweep.json"
METRICS = (
    "n", "correct", "accuracy", "ci_low", "ci_high", "parse_failures", "errors", "calls_per_question",
    "input_tokens_per_question", "output_tokens_per_question", "cost_usd", "paid_usd", "replayed_usd", "cost_per_correct", "wall_s",
    "status", "run_dir",
)


def is_sweep_directory(path: str | Path) -> bool:
    return (Path(path) / SWEEP_FILE).is_file()


def sweep_rows(sweep_dir: str | Path) -> tuple[list[str], list[dict[str, Any]]]:
    """(coordinate columns, one row per cell) for the sweep written in `sweep_dir`."""
    sweep_dir = Path(sweep_dir)
    try:
        data = json.loads((sweep_dir / SWEEP_FILE).read_text(encoding="utf-8"))
        axes, cells = list(data["axes"]), list(data["cells"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise UsageError(f"{sweep_dir / SWEEP_FILE} is not a readable sweep file ({exc})") from None
    return axes, [cell_row(sweep_dir / cell["run_dir"], {a: cell["axes"].get(a) for a in axes}) for cell in cells]


def cell_row(run_dir: Path, axes: dict[str, Any]) -> dict[str, Any]:
    """One cell's numbers: accuracy with its 95% Wilson interval, failures, usage per question, time, and the
    cost at the run's prices with the parts paid and replayed from the cache."""
    row: dict[str, Any] = {**axes, **dict.fromkeys(METRICS), "run_dir": str(run_dir)}
    if not is_run_directory(run_dir):
        return row | {"n": 0, "status": "not started"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run = load_run(run_dir)
    report = summarize_run(run, bootstrap=0)
    cost, correct = report["cost_usd"], report["correct"]
    return row | {"method": axes.get("method") or report["method"]} | {key: report[key] for key in ("n", "correct", "accuracy", "ci_low", "ci_high", "parse_failures",
                                                "errors", "calls_per_question", "cost_usd", "paid_usd",
                                                "replayed_usd", "status")} | {
        "input_tokens_per_question": report["input_tokens_mean"],
        "output_tokens_per_question": report["output_tokens_mean"],
        "cost_per_correct": cost / correct if cost is not None and correct else None,
        "wall_s": _wall_s(run_dir),
    }


def _wall_s(run_dir: Path) -> float | None:
    """Wall time of the cell's latest session (the longest shard when it ran in slices)."""
    times = []
    for path in run_dir.glob("summary*.json"):
        try:
            value = json.loads(path.read_text(encoding="utf-8")).get("wall_s")
        except (OSError, ValueError, AttributeError):
            continue
        if isinstance(value, int | float):
            times.append(float(value))
    return max(times) if times else None


# ---------------------------------------------------------------- rendering


def _fmt(key: str, value: Any) -> str:
    if value is None:
        return "–"
    if key in ("accuracy", "ci_low", "ci_high"):
        return f"{100 * value:.1f}%"
    if key in ("cost_usd", "paid_usd", "replayed_usd", "cost_per_correct"):
        return f"${value:,.4f}"
    if isinstance(value, float):
        return f"{value:,.1f}"
    return str(value)


HEADERS = {"n": "n", "accuracy": "accuracy", "ci": "95% Wilson", "parse_failures": "parse fail",
           "errors": "errors", "calls_per_question": "calls/q", "input_tokens_per_question": "in tok/q",
           "output_tokens_per_question": "out tok/q", "cost_usd": "cost", "paid_usd": "paid",
           "replayed_usd": "replayed", "cost_per_correct": "cost/correct",
           "wall_s": "wall s", "status": "status"}


def render_table(axes: Sequence[str], rows: Sequence[dict[str, Any]], *, markdown: bool = False) -> str:
    """The sweep as a text (or Markdown) table, one line per cell."""
    header = [*axes, *HEADERS.values()]
    lines = []
    for row in rows:
        ci = "–" if row["ci_low"] is None else f"[{100 * row['ci_low']:.1f}, {100 * row['ci_high']:.1f}]"
        lines.append([*(str(row[a]) for a in axes),
                      *(ci if key == "ci" else _fmt(key, row[key]) for key in HEADERS)])
    return _table(header, lines, markdown)


def render_csv(axes: Sequence[str], rows: Sequence[dict[str, Any]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([*axes, *METRICS])
    for row in rows:
        writer.writerow([*(row[a] for a in axes),
                         *("" if row[m] is None else round(row[m], 6) if isinstance(row[m], float) else row[m]
                           for m in METRICS)])
    return buffer.getvalue()


def render(axes: Sequence[str], rows: Sequence[dict[str, Any]], fmt: str) -> str:
    if fmt == "csv":
        return render_csv(axes, rows).rstrip("\n")
    if fmt == "json":
        return json.dumps(list(rows), indent=2, allow_nan=False)
    return render_table(axes, rows, markdown=fmt == "markdown")
