"""A static, self-contained site for browsing one run: `view/index.html` plus one page per question.

Pages are Jinja2 templates (templates/ beside this module) with a local stylesheet and script,
so the site opens from file:// with no network. The index is built from the records alone and
lists every question; each question page reads that question's transcript, once, when written.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape

from mdagents.analysis import question_view
from mdagents.analysis.report import compare_runs, outcome, short_labels, summarize_run
from mdagents.analysis.runs import Run, RunReadError, natural_key
from mdagents.paths import transcript_stem

VIEW_DIR = "view"
QUESTIONS_DIR = "questions"
OTHER_DIR = "other"  # pages of the compared run's questions, inside this run's view
ASSETS = ("view.css", "view.js")
LEVEL_RANK = {"basic": 0, "intermediate": 1, "advanced": 2}


@dataclass
class Site:
    """What `write_site` wrote."""

    root: Path
    index: Path
    pages: int
    compare: Path | None = None
    disagreements: int = 0
    missing_transcripts: list[str] = field(default_factory=list)


def environment() -> Environment:
    env = Environment(loader=PackageLoader("mdagents.analysis", "templates"),
                      autoescape=select_autoescape(["html"]),
                      trim_blocks=True, lstrip_blocks=True)
    env.filters.update(pct=_pct, num=_num, money=_money, secs=_secs)
    return env


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}%"


def _num(value: float | int | None) -> str:
    return "–" if value is None else f"{value:,.0f}"


def _money(value: float | None) -> str:
    if value is None:
        return "unknown"
    return f"${value:.4f}" if value < 1 else f"${value:,.2f}"


def _secs(value: float | None) -> str:
    if value is None:
        return "–"
    return f"{value * 1000:.0f} ms" if value < 1 else f"{value:.1f} s" if value < 120 else f"{value / 60:.1f} min"


def page_name(sample_id: str) -> str:
    return f"{transcript_stem(sample_id)}.html"


def _row(record: dict[str, Any]) -> dict[str, Any]:
    total = record["usage"]["total"]
    return {
        "id": record["id"],
        "href": f"{QUESTIONS_DIR}/{page_name(record['id'])}",
        "level": record.get("difficulty") or "unknown",
        "level_rank": LEVEL_RANK.get(record.get("difficulty") or "", len(LEVEL_RANK)),  # basic < ... < advanced
        "source": record.get("difficulty_source") or "",
        "prediction": record.get("prediction"),
        "truth": record.get("answer_idx"),
        "outcome": outcome(record),
        "extraction": question_view.extraction_step(record),
        "calls": int(record.get("calls") or 0),
        "tokens": int(total.get("input_tokens") or 0) + int(total.get("output_tokens") or 0),
        "cost": record.get("cost_usd"),
    }


def _time(run: Run) -> dict[str, Any]:
    manifest = run.manifest
    return {"wall_s": run.summary.get("wall_s"), "started": manifest.get("started_at"),
            "finished": manifest.get("finished_at")}


def _transcript(run: Run, sample_id: str) -> tuple[dict[str, Any] | None, str | None]:
    try:
        return run.transcript(sample_id), None
    except RunReadError as exc:
        return None, str(exc).split(": ", 1)[-1]
    except (OSError, ValueError) as exc:  # a damaged transcript still gets a page from its record
        return None, f"transcript unreadable ({exc.__class__.__name__})"


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _question_pages(env: Environment, run: Run, records: list[dict[str, Any]], folder: Path,
                    site: Site, *, run_label: str, back: tuple[str, str]) -> None:
    template = env.get_template("question.html")
    for position, record in enumerate(records):
        transcript, missing = _transcript(run, record["id"])
        if missing:
            site.missing_transcripts.append(record["id"])
        neighbours = {"previous": records[position - 1]["id"] if position else None,
                      "next": records[position + 1]["id"] if position + 1 < len(records) else None}
        _write(folder / page_name(record["id"]), template.render(
            view=question_view.build(record, transcript, missing), run_name=run_label, root="../",
            back=back, neighbours={k: (page_name(v) if v else None) for k, v in neighbours.items()},
            page_title=record["id"]))
        site.pages += 1


def _disagreements(records: list[dict[str, Any]], other: Run) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Shared questions where the runs' predictions or grades differ, in the order of `records`."""
    theirs = other.by_id()
    return [(mine, theirs[mine["id"]]) for mine in records if mine["id"] in theirs
            and (mine.get("prediction"), mine.get("correct")) != (theirs[mine["id"]].get("prediction"),
                                                                   theirs[mine["id"]].get("correct"))]


def write_site(run: Run, *, compare: Run | None = None, out: Path | None = None) -> Site:
    """Write RUN_DIR/view/ (or `out`) and return what was written; with `compare`, also compare.html."""
    root = out or run.path / VIEW_DIR
    root.mkdir(parents=True, exist_ok=True)
    for stale in (root / QUESTIONS_DIR, root / OTHER_DIR):
        shutil.rmtree(stale, ignore_errors=True)
    (root / "compare.html").unlink(missing_ok=True)
    assets = resources.files("mdagents.analysis") / "templates"
    for name in ASSETS:
        _write(root / name, (assets / name).read_text(encoding="utf-8"))
    env = environment()
    site = Site(root=root, index=root / "index.html", pages=0)
    records = sorted(run.records, key=lambda r: natural_key(r["id"]))  # by id, not in completion order
    compare_name = None
    if compare is not None:
        pairs = _disagreements(records, compare)
        compare_name = compare.name if compare.name != run.name else str(compare.path)
        _question_pages(env, compare, [theirs for _, theirs in pairs], root / OTHER_DIR, site,
                        run_label=compare_name, back=("../compare.html", "comparison"))
        site.compare, site.disagreements = root / "compare.html", len(pairs)
        (mine_label, theirs_label), _ = short_labels([run.name, compare_name])
        _write(site.compare, env.get_template("compare.html").render(
            root="", run_name=run.name, other_name=compare_name, page_title=f"{run.name} vs {compare_name}",
            labels=(mine_label, theirs_label),
            stats=compare_runs(run, compare, bootstrap=0, names={run.path: mine_label, compare.path: theirs_label}),
            rows=[{"id": mine["id"], "href": f"{QUESTIONS_DIR}/{page_name(mine['id'])}",
                   "other_href": f"{OTHER_DIR}/{page_name(mine['id'])}", "mine": _row(mine), "theirs": _row(theirs)}
                  for mine, theirs in pairs]))
    _question_pages(env, run, records, root / QUESTIONS_DIR, site, run_label=run.name, back=("../index.html", "all questions"))
    summary = summarize_run(run, bootstrap=0)
    _write(site.index, env.get_template("index.html").render(
        root="", run_name=run.name, page_title=run.name, summary=summary, time=_time(run),
        manifest=run.manifest, rows=[_row(r) for r in records],
        levels=list(summary["by_difficulty"]), has_extraction=any(question_view.extraction_step(r) for r in records),
        compare_name=compare_name, warnings=run.warnings))
    return site
