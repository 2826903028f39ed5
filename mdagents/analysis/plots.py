"""Report plots: accuracy (with 95% intervals) against cost or tokens per question, and difficulty mix.

matplotlib is an optional extra: without it `plot_runs` raises a UsageError saying how to install it.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mdagents.analysis.report import short_labels
from mdagents.analysis.summary import LEVEL_ORDER
from mdagents.errors import UsageError

LEVEL_COLOURS = {"basic": "#4c9f70", "intermediate": "#e0a030", "advanced": "#c4453c"}
OTHER_COLOUR = "#9a9a9a"
POINT_COLOUR = "#1f3b73"


def _pyplot() -> Any:
    try:
        import matplotlib

        if not os.environ.get("MPLBACKEND"):
            matplotlib.use("Agg")  # files only: works without a display
        import matplotlib.pyplot as plt
    except ImportError:
        raise UsageError("--plot needs matplotlib (an optional extra): pip install matplotlib") from None
    return plt


def _x_axis(reports: Sequence[dict[str, Any]]) -> tuple[list[float], str]:
    """Cost per question when every run has a non-zero cost, else tokens per question."""
    costs = [r.get("cost_per_question") for r in reports]
    if all(c for c in costs):
        return [float(c) for c in costs], "cost per question (USD)"  # type: ignore[arg-type]
    tokens = [float((r.get("input_tokens_mean") or 0) + (r.get("output_tokens_mean") or 0)) for r in reports]
    return tokens, "tokens per question (input + output)"


def error_bar(value: float, low: float, high: float) -> list[list[float]]:
    """matplotlib's [[below], [above]] for an interval around `value`, never negative (rounding at 0 or 100%)."""
    return [[max(0.0, value - low)], [max(0.0, high - value)]]


def plot_runs(reports: Sequence[dict[str, Any]], out: str | Path) -> Path:
    """Write a two-panel PNG (or any format matplotlib infers from the suffix) and return its path."""
    plt = _pyplot()
    out = Path(out)
    labels, shared = short_labels([r["run"] for r in reports])
    xs, x_label = _x_axis(reports)
    height = max(4.2, 1.6 + 0.5 * len(reports))
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, height), gridspec_kw={"width_ratios": [1.1, 1]})

    for report, label, x in zip(reports, labels, xs, strict=True):
        accuracy = 100 * (report["accuracy"] or 0)
        low, high = 100 * (report["ci_low"] or 0), 100 * (report["ci_high"] or 0)
        # One neutral colour: run colours would clash with the level colours of the other panel.
        left.errorbar([x], [accuracy], yerr=error_bar(accuracy, low, high), fmt="o", color=POINT_COLOUR,
                      capsize=5, markersize=7)
        left.annotate(f"{label}: {accuracy:.0f}% (n={report['n']})", (x, accuracy), textcoords="offset points",
                      xytext=(9, 0), va="center", fontsize=9)
    left.set_xlabel(x_label)
    left.set_ylabel("accuracy, % (95% Wilson interval)")
    left.set_ylim(0, 105)
    low_x, high_x = min(xs), max(xs)
    pad = (high_x - low_x) * 0.25 or max(high_x * 0.25, 1e-6)
    left.set_xlim(max(0.0, low_x - pad), high_x + pad * 2.5)  # room for the labels on the right
    left.grid(alpha=0.3)
    left.set_title("Accuracy against " + ("cost" if x_label.startswith("cost") else "tokens"))

    levels = [lvl for lvl in LEVEL_ORDER if any(lvl in r["by_difficulty"] for r in reports)]
    levels += sorted({lvl for r in reports for lvl in r["by_difficulty"]} - set(levels))
    positions = list(range(len(reports)))
    lefts = [0.0] * len(reports)
    for level in levels:
        counts = [r["by_difficulty"].get(level, {}).get("n", 0) for r in reports]
        bars = right.barh(positions, counts, left=lefts, color=LEVEL_COLOURS.get(level, OTHER_COLOUR), label=level)
        for bar, count in zip(bars, counts, strict=True):
            if count:
                right.text(bar.get_x() + bar.get_width() / 2, bar.get_y() + bar.get_height() / 2, str(count),
                           ha="center", va="center", fontsize=9, color="white", fontweight="bold")
        lefts = [a + b for a, b in zip(lefts, counts, strict=True)]
    right.set_yticks(positions, labels)
    right.invert_yaxis()
    right.set_xlabel("questions")
    right.set_title("Questions per difficulty level")
    right.legend(fontsize=9, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=len(levels), frameon=False)

    if shared:
        fig.suptitle(f"runs named {shared}", fontsize=10)
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=120)
    plt.close(fig)
    return out


def plot_sweep(axes: Sequence[str], rows: Sequence[dict[str, Any]], out: str | Path) -> Path:
    """Accuracy with its 95% Wilson interval per cell, cells grouped by dataset (one panel each)."""
    plt = _pyplot()
    out = Path(out)
    datasets = list(dict.fromkeys(str(r.get("dataset")) for r in rows)) or ["(no cells)"]
    label_axes = [a for a in axes if a != "dataset"]
    widest = max((sum(1 for r in rows if str(r.get("dataset")) == d) for d in datasets), default=1)
    def label(row: dict[str, Any]) -> str:
        return " · ".join(str(row.get(a)) if a in ("model", "difficulty") else f"{a}={row.get(a)}" for a in label_axes)

    longest = max((len(label(r)) for r in rows), default=10)
    fig, panels = plt.subplots(1, len(datasets), figsize=(max(4.5, 1.2 + 0.45 * widest) * len(datasets),
                                                          4.0 + 0.06 * longest), squeeze=False, sharey=True)
    for panel, dataset in zip(panels[0], datasets, strict=True):
        cells = [r for r in rows if str(r.get("dataset")) == dataset]
        for x, row in enumerate(cells):
            if row.get("accuracy") is None:
                panel.plot([x], [0], marker="x", color=OTHER_COLOUR)
                continue
            accuracy, low, high = (100 * row[k] for k in ("accuracy", "ci_low", "ci_high"))
            panel.errorbar([x], [accuracy], yerr=error_bar(accuracy, low, high), fmt="o",
                           color=LEVEL_COLOURS.get(str(row.get("difficulty")), POINT_COLOUR), capsize=4)
            panel.annotate(f"n={row['n']}", (x, high), textcoords="offset points", xytext=(0, 4), ha="center",
                           fontsize=8)
        panel.set_xticks(range(len(cells)), [label(row) for row in cells], fontsize=8, rotation=40, ha="right",
                         rotation_mode="anchor")
        panel.set_xlim(-0.7, max(len(cells), 1) - 0.3)
        panel.set_title(Path(dataset).stem if dataset.endswith(".jsonl") else dataset, fontsize=10)
        panel.grid(axis="y", alpha=0.3)
    levels = [lvl for lvl in LEVEL_COLOURS if any(str(r.get("difficulty")) == lvl for r in rows)]
    if levels:
        from matplotlib.lines import Line2D

        handles = [Line2D([], [], marker="o", linestyle="", color=LEVEL_COLOURS[lvl], label=lvl) for lvl in levels]
        panels[0][-1].legend(handles=handles, fontsize=8, loc="lower right", title="difficulty", title_fontsize=8)
    panels[0][0].set_ylabel("accuracy, % (95% Wilson interval)")
    panels[0][0].set_ylim(0, 108)
    fig.suptitle("Sweep: accuracy per cell, grouped by dataset", fontsize=11)
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=120)
    plt.close(fig)
    return out
