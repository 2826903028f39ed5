"""Cost against accuracy: one point per method/model (per dataset), the Pareto front, a table and a plot.

The question it answers: is a method worth its tokens on this model and data? A point is on the
Pareto front when no other point of its dataset is at least as accurate for no more cost (tokens
when a cost is unknown) and better in one of the two. Accuracy carries its 95% Wilson interval.
The paper's published figure for the same method and dataset is shown beside the run's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mdagents.analysis.published import Published, published

FRONT_COLOUR = "#c4453c"
PAPER_COLOUR = "#7a7a7a"


@dataclass(frozen=True)
class Point:
    label: str  # what tells the point apart: method, model (and the cell's other settings)
    method: str
    model: str
    dataset: str
    n: int
    accuracy: float | None
    ci_low: float | None
    ci_high: float | None
    calls: float | None  # per question
    tokens: float | None  # input + output per question
    cost: float | None  # USD per question

    @property
    def paper(self) -> Published | None:
        return published(self.method, self.dataset)


def _tokens(input_mean: Any, output_mean: Any) -> float | None:
    return None if input_mean is None and output_mean is None else float(input_mean or 0) + float(output_mean or 0)


def from_report(report: dict[str, Any], label: str) -> Point:
    """A point from `analysis.report.summarize_run`'s dict."""
    datasets = list(report.get("by_dataset") or {})
    return Point(label, str(report.get("method") or "mdagents"), ", ".join(report.get("models") or []) or "?",
                 datasets[0] if len(datasets) == 1 else "mixed", int(report["n"]), report["accuracy"],
                 report["ci_low"], report["ci_high"], report["calls_per_question"],
                 _tokens(report["input_tokens_mean"], report["output_tokens_mean"]), report["cost_per_question"])


def from_sweep_row(row: dict[str, Any], label: str) -> Point:
    """A point from a sweep table row (`analysis.sweep_table.cell_row`)."""
    n = int(row.get("n") or 0)
    cost = row.get("cost_usd")
    return Point(label, str(row.get("method") or "mdagents"), str(row.get("model")), str(row.get("dataset")), n,
                 row.get("accuracy"), row.get("ci_low"), row.get("ci_high"), row.get("calls_per_question"),
                 _tokens(row.get("input_tokens_per_question"), row.get("output_tokens_per_question")),
                 cost / n if cost is not None and n else None)


def x_axis(points: Sequence[Point]) -> tuple[list[float | None], str]:
    """Cost per question when every measured point has a non-zero cost, else tokens per question."""
    measured = [p for p in points if p.accuracy is not None]
    if measured and all(p.cost for p in measured):
        return [p.cost for p in points], "cost per question (USD)"
    return [p.tokens for p in points], "tokens per question (input + output)"


def pareto_front(points: Sequence[Point], xs: Sequence[float | None]) -> list[bool]:
    """Whether each point is on its dataset's cost-accuracy front (points without numbers never are)."""
    def dominates(j: int, i: int) -> bool:
        a, b = points[j], points[i]
        xj, xi = xs[j], xs[i]
        assert a.accuracy is not None and b.accuracy is not None and xj is not None and xi is not None
        return a.accuracy >= b.accuracy and xj <= xi and (a.accuracy > b.accuracy or xj < xi)

    usable = [p.accuracy is not None and x is not None for p, x in zip(points, xs, strict=True)]
    return [usable[i] and not any(usable[j] and j != i and points[j].dataset == points[i].dataset
                                  and dominates(j, i) for j in range(len(points)))
            for i in range(len(points))]


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}%"


def table_rows(points: Sequence[Point]) -> tuple[list[str], list[list[str]]]:
    xs, _ = x_axis(points)
    front = pareto_front(points, xs)
    header = ["method / model", "dataset", "n", "accuracy", "95% Wilson", "calls/q", "tokens/q", "cost/q",
              "Pareto", "published (paper)"]
    rows = []
    for point, on_front in zip(points, front, strict=True):
        ci = "–" if point.ci_low is None else f"[{100 * point.ci_low:.1f}, {100 * point.ci_high:.1f}]"  # type: ignore[operator]
        paper = point.paper
        rows.append([point.label, point.dataset, str(point.n), _pct(point.accuracy), ci,
                     "–" if point.calls is None else f"{point.calls:.1f}",
                     "–" if point.tokens is None else f"{point.tokens:,.0f}",
                     "–" if point.cost is None else f"${point.cost:.5f}", "*" if on_front else "",
                     paper.short if paper else "–"])
    return header, rows


def render_table(points: Sequence[Point], *, markdown: bool = False) -> str:
    from mdagents.analysis.published import source
    from mdagents.analysis.report import _table

    header, rows = table_rows(points)
    text = _table(header, rows, markdown)
    notes = ["* on the cost-accuracy Pareto front of its dataset (nothing else is as accurate for less)."]
    if any(p.paper for p in points):
        notes.append(f"published: {source()}")
        notes += sorted({f"note: {p.paper.method}: {p.paper.note}" for p in points if p.paper and p.paper.note})
    return text + "\n" + "\n".join(notes)


def plot(points: Sequence[Point], out: str | Path, *, title: str = "Cost against accuracy") -> Path:
    """One panel per dataset: accuracy (95% Wilson) against cost or tokens per question, each point
    numbered and named in the key beside the panel, the Pareto front joined in red, the paper's
    figure for the same method as a hollow grey diamond (± its sd)."""
    from mdagents.analysis.plots import POINT_COLOUR, _pyplot

    plt = _pyplot()
    out = Path(out)
    xs, x_label = x_axis(points)
    front = pareto_front(points, xs)
    datasets = list(dict.fromkeys(p.dataset for p in points)) or ["(no runs)"]
    fig, panels = plt.subplots(1, len(datasets), figsize=(10.5 * len(datasets), 5.8), squeeze=False)
    paper_drawn = False
    for panel, dataset in zip(panels[0], datasets, strict=True):
        mine = [(p, x, f) for p, x, f in zip(points, xs, front, strict=True)
                if p.dataset == dataset and p.accuracy is not None and x is not None]
        key = []
        for number, (point, x, on_front) in enumerate(mine, 1):
            accuracy = 100 * point.accuracy  # type: ignore[operator]
            low, high = 100 * (point.ci_low or 0), 100 * (point.ci_high or 0)
            colour = FRONT_COLOUR if on_front else POINT_COLOUR
            panel.errorbar([x], [accuracy], yerr=[[accuracy - low], [high - accuracy]], fmt="o", color=colour,
                           capsize=4, markersize=7, zorder=4 if on_front else 3, alpha=0.9)
            panel.annotate(str(number), (x, accuracy), textcoords="offset points",
                           xytext=(6, 5 + 9 * (number % 3)), fontsize=8, color=colour)
            paper = point.paper
            if paper is not None:
                paper_drawn = True
                panel.errorbar([x], [100 * paper.accuracy], yerr=[[100 * paper.sd], [100 * paper.sd]], fmt="D",
                               mfc="none", color=PAPER_COLOUR, capsize=3, markersize=6, zorder=2)
            key.append(f"{number:>2}{'*' if on_front else ' '} {point.label}: {accuracy:.1f}% (n={point.n})"
                       + (f", paper {100 * paper.accuracy:.1f}" if paper else ""))
        on = sorted((x, 100 * p.accuracy) for p, x, f in mine if f)  # type: ignore[operator]
        if len(on) > 1:
            panel.step([x for x, _ in on], [y for _, y in on], where="post", color=FRONT_COLOUR, alpha=0.6,
                       linestyle="--", zorder=1)
        values = [x for _, x, _ in mine]
        if values and min(values) > 0 and max(values) / min(values) > 20:
            panel.set_xscale("log")
        elif values:
            pad = (max(values) - min(values)) * 0.1 or max(values) * 0.25 or 1.0
            panel.set_xlim(max(0.0, min(values) - pad), max(values) + pad)
        panel.text(1.02, 1.0, "\n".join(key) + "\n\n* on the Pareto front", transform=panel.transAxes,
                   va="top", ha="left", fontsize=8, family="monospace")
        panel.set_ylim(0, 110)
        panel.set_xlabel(x_label)
        panel.set_ylabel("accuracy, % (95% Wilson interval)")
        panel.set_title(dataset, fontsize=10)
        panel.grid(alpha=0.3)
    from matplotlib.lines import Line2D

    handles = [Line2D([], [], marker="o", linestyle="", color=POINT_COLOUR, label="run"),
               Line2D([], [], marker="o", linestyle="--", color=FRONT_COLOUR, label="on the Pareto front")]
    if paper_drawn:
        handles.append(Line2D([], [], marker="D", linestyle="", mfc="none", color=PAPER_COLOUR,
                              label="published (MDAgents paper, GPT-4; ± sd)"))
    panels[0][-1].legend(handles=handles, fontsize=8, loc="lower left", bbox_to_anchor=(1.01, 0.0), frameon=False)
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=120)
    plt.close(fig)
    return out


def point_labels(methods: Sequence[str], models: Sequence[str], extra: Sequence[str] | None = None) -> list[str]:
    """`method · model`, leaving out a part every point shares (but never both)."""
    same_method, same_model = len(set(methods)) == 1, len(set(models)) == 1
    labels = []
    for i, (method, model) in enumerate(zip(methods, models, strict=True)):
        parts = ([] if same_method and not same_model else [method]) + ([] if same_model else [model])
        if extra and extra[i]:
            parts.append(extra[i])
        labels.append(" · ".join(parts) or method)
    return labels


def report_points(reports: Sequence[dict[str, Any]], run_labels: Sequence[str]) -> list[Point]:
    """One point per run, labelled `method · model` (the run's short name where those do not tell runs apart)."""
    labels = point_labels([str(r.get("method") or "mdagents") for r in reports],
                          [", ".join(r.get("models") or []) or "?" for r in reports])
    if len(set(labels)) < len(labels):
        labels = list(run_labels)
    return [from_report(r, label) for r, label in zip(reports, labels, strict=True)]


def sweep_points(axes: Sequence[str], rows: Sequence[dict[str, Any]]) -> list[Point]:
    """One point per sweep cell, labelled by the coordinates that vary between cells (dataset is the panel)."""
    varying = sorted((a for a in axes if a != "dataset" and len({str(r.get(a)) for r in rows}) > 1),
                     key=lambda a: a != "method")  # the method first
    labels = [" · ".join(str(r.get(a)) if a in ("model", "method", "difficulty") else f"{a}={r.get(a)}"
                         for a in varying if r.get(a) not in (None, "-"))  # "-": a baseline has no difficulty
              or str(r.get("method") or "mdagents") for r in rows]
    return [from_sweep_row(r, label) for r, label in zip(rows, labels, strict=True)]
