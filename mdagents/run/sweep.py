"""A sweep: a grid of ordinary runs described by one YAML file, resumable cell by cell.

The YAML holds run options by their command-line names (`num_samples`, `base_url`, `no_cache`, ...).
`model`, `dataset` and `difficulty` may be lists; `grid:` maps any other option to a list of values;
`repeats: N` runs every cell N times with seeds seed, seed+1, ... Each cell is turned into the
argument list of the `run` command and parsed by that command's own parser (given by the CLI as
`CellParser`), so a cell accepts and rejects exactly what `run` does. All of that happens before any
model call; a bad entry is reported as `GRID.yaml: key: what is wrong`.

Each cell is an ordinary run directory: cells that differ only in model, dataset or difficulty share
`output_dir` (their run names differ); cells that differ in a `grid:` option or a repeat go to a
sub-folder named after those values. A cell with nothing left to do is skipped without building a
model client; anything unfinished resumes as `run` resumes; nothing finished is deleted.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from mdagents.analysis.sweep_table import SWEEP_FILE, render_csv, render_table, sweep_rows
from mdagents.errors import MDAgentsError, MissingKeyError
from mdagents.llm.models import resolve_key
from mdagents.llm.shared_limits import endpoint_key
from mdagents.redact import redact
from mdagents.run.config import MAX_REPEATS, RunConfig, Shard
from mdagents.run.config_file import (
    JSON_OPTIONS,
    OptionsFileError,
    OptionTable,
    canonical,
    check_known,
    read_mapping,
    to_argv,
)
from mdagents.run.session import DryRunPlan, RunHooks, execute_run
from mdagents.run.store import atomic_write_bytes, atomic_write_json, iter_records, now_iso

LIST_KEYS = ("model", "dataset", "difficulty")  # always columns of the sweep table
# Lists allowed at the top level; cells differing only in these share output_dir (their run names differ).
TOP_LEVEL_LISTS = (*LIST_KEYS, "method")
SWEEP_KEYS = ("repeats", "grid")
MAX_CELLS = 10_000  # each cell is a run directory and a process's worth of work
# Run options a grid may not set, and why.
REFUSED = {
    "fresh": "a sweep never deletes finished results (delete a cell's directory by hand to redo it)",
    "shard": "slices are chosen per sweep: use `sweep --shards N` or `sweep --shard i/n`",
    "dry_run": "use `sweep --dry-run`",
    "config": "the sweep file itself holds the run options",
    "help": "not a run option",
}


class GridError(OptionsFileError):
    """A grid file that cannot run: `GRID.yaml: key: what is wrong`."""


@dataclass(frozen=True)
class CellParser:
    """The run command's parser, lent by the CLI: which options exist and how a cell's argv becomes a RunConfig."""

    options: OptionTable
    parse: Callable[[list[str]], RunConfig]


@dataclass(frozen=True)
class Cell:
    """One point of the grid: its coordinates, the run argv that makes it, and the parsed config."""

    index: int
    axes: dict[str, Any]
    argv: tuple[str, ...]
    config: RunConfig

    @property
    def label(self) -> str:
        return " · ".join(f"{v}" if k in TOP_LEVEL_LISTS else f"{k}={v}" for k, v in self.axes.items())


@dataclass(frozen=True)
class Unit:
    """What one worker runs: a cell, or one `--shard i/n` slice of it."""

    cell: Cell
    shard: Shard | None = None

    @property
    def config(self) -> RunConfig:
        return self.cell.config if self.shard is None else replace(self.cell.config, shard=self.shard)

    @property
    def label(self) -> str:
        return self.cell.label + (f" · shard {self.shard.index}/{self.shard.count}" if self.shard else "")


@dataclass
class UnitOutcome:
    """How a unit ended: finished | interrupted | budget_exhausted | skipped | error."""

    label: str
    run_dir: str
    status: str
    remaining: int = 0
    failed: int = 0
    error: str | None = None
    exit_code: int = 0
    wall_s: float = 0.0


@dataclass
class Sweep:
    """A parsed grid: its cells and the shared in-flight caps per provider endpoint."""

    path: Path
    output_dir: Path
    cells: list[Cell]
    axes: list[str]
    caps: dict[str, int] = field(default_factory=dict)


# ---------------------------------------------------------------- reading and checking the grid


def load_sweep(path: str | Path, parser: CellParser, *, overrides: dict[str, Any] | None = None) -> Sweep:
    """Read GRID.yaml (top-level keys replaced by `overrides`, from `sweep --set`) and check every cell
    with the run command's parser; raises GridError."""
    path = Path(path)
    data = read_mapping(path)
    if overrides:
        data = {canonical(k): v for k, v in data.items()} | {canonical(k): v for k, v in overrides.items()}
    fixed, axes = _split(path, data, parser)
    repeats = _repeats(path, data.get("repeats", 1))
    size = math.prod(len(values) for values in axes.values()) * repeats
    if size > MAX_CELLS:
        shape = " x ".join([*(f"{len(v)} {k}" for k, v in axes.items()), *([f"{repeats} repeats"] if repeats > 1 else [])])
        raise GridError(path, "grid", f"{size:,} cells ({shape}) is more than the {MAX_CELLS:,} one sweep may hold; "
                                      "split it into several sweep files")
    output_dir = Path(str(fixed.get("output_dir", "output")))
    cells: list[Cell] = []
    names = list(axes)
    for values in itertools.product(*axes.values()):
        for repeat in range(1, repeats + 1):
            point = dict(zip(names, values, strict=True))
            cells.append(_cell(path, parser, len(cells), fixed, point, repeat if repeats > 1 else None, output_dir))
    shown = [k for k in names if k in TOP_LEVEL_LISTS or len(axes[k]) > 1]
    for key in LIST_KEYS:
        if key not in shown:
            shown.insert(LIST_KEYS.index(key), key)
    cells = [replace(c, axes={k: c.axes[k] for k in [*shown, "repeat"] if k in c.axes}) for c in cells]
    return Sweep(path=path, output_dir=output_dir, cells=cells, axes=[*shown, *(["repeat"] if repeats > 1 else [])],
                 caps=_caps(cells))


def _split(path: Path, data: dict[Any, Any], parser: CellParser) -> tuple[dict[str, Any], dict[str, list[Any]]]:
    """Fixed options and the grid's axes (name -> values), each key checked."""
    fixed: dict[str, Any] = {}
    axes: dict[str, list[Any]] = {}
    grid = data.get("grid", {})
    if grid is None:
        grid = {}
    if not isinstance(grid, dict):
        raise GridError(path, "grid", "must map run options to lists of values")
    for key, value in data.items():
        key = canonical(key)
        if key in SWEEP_KEYS:
            continue
        _known(path, key, parser)
        if isinstance(value, list) and not parser.options[key].repeatable:
            if key not in TOP_LEVEL_LISTS:
                raise GridError(path, key,
                                f"only {', '.join(TOP_LEVEL_LISTS)} may be lists here; put other lists under grid:")
            axes[key] = _values(path, key, value)
        else:
            fixed[key] = value
    for key, value in grid.items():
        key = canonical(key)
        where = f"grid.{key}"
        _known(path, where, parser, key)
        if key in fixed or key in axes:
            raise GridError(path, where, "is also set at the top level; set it in one place")
        if key == "output_dir":
            raise GridError(path, where, "one sweep has one output_dir")
        if not isinstance(value, list):
            raise GridError(path, where, "must be a list of values")
        axes[key] = _values(path, where, value, repeatable=parser.options[key].repeatable,
                            mapping=key in JSON_OPTIONS)
    return fixed, axes


def _known(path: Path, where: str, parser: CellParser, key: str | None = None) -> None:
    try:
        check_known(path, where, parser.options, REFUSED, key, extra_keys=SWEEP_KEYS)
    except OptionsFileError as exc:
        raise GridError(path, where, exc.what) from None


def _values(path: Path, key: str, values: list[Any], *, repeatable: bool = False, mapping: bool = False) -> list[Any]:
    """An axis: single values; a list per cell for a repeatable option, a mapping for model_args."""
    if not values:
        raise GridError(path, key, "empty list: give at least one value")
    for value in values:
        if (isinstance(value, dict) and not mapping) or (isinstance(value, list) and not repeatable):
            raise GridError(path, key, f"each value must be a single value, not {value!r}")
    if len({str(v) for v in values}) < len(values):
        raise GridError(path, key, "a value is listed twice")
    return values


def _repeats(path: Path, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_REPEATS:
        raise GridError(path, "repeats", f"must be a whole number from 1 to {MAX_REPEATS}, not {value!r}")
    return value


def _arguments(path: Path, parser: CellParser, key: str, value: Any) -> list[str]:
    try:
        return to_argv(path, parser.options, key, value)
    except OptionsFileError as exc:
        raise GridError(path, key, exc.what) from None


def _cell(path: Path, parser: CellParser, index: int, fixed: dict[str, Any], point: dict[str, Any],
          repeat: int | None, output_dir: Path) -> Cell:
    """Build one cell's argv in the file's order and parse it; blame the first key that breaks it."""
    options = {**fixed, **point}
    folder = [f"{k}={_slug(v)}" for k, v in point.items() if k not in TOP_LEVEL_LISTS]
    if repeat is not None:
        folder.append(f"repeat={repeat}")
        options["seed"] = int(options.get("seed") or 0) + repeat - 1
    if folder:
        options["output_dir"] = str(output_dir / "_".join(folder))
    argv: list[str] = []
    config: RunConfig | None = None
    for position, (key, value) in enumerate(options.items()):
        argv += _arguments(path, parser, key, value)
        if PAIRED.get(key) in list(options)[position + 1:]:
            continue  # checked once its partner is in too (a price is given in and out together)
        try:
            config = parser.parse(argv)
        except MDAgentsError as exc:
            where = f"grid.{key}" if key in point and key not in LIST_KEYS else key
            shown = f"{value}: " if key in point else ""
            raise GridError(path, where, shown + _one_line(exc)) from None
    if config is None:
        config = parser.parse(argv)
    _check_keys(path, config)
    axes = dict(point)
    for key in LIST_KEYS:
        axes.setdefault(key, getattr(config, key) if key != "model" else config.model_spec.name)
    if "model" in point:
        axes["model"] = config.model_spec.name
    if "method" in point:
        axes["method"] = config.method  # canonical: `cot-sc` is `cot-sc:5`
    if config.method != "mdagents":
        axes["difficulty"] = "-"  # a baseline has no levels
    if repeat is not None:
        axes["repeat"] = repeat
    return Cell(index=index, axes=axes, argv=tuple(argv), config=config)


PAIRED = {"price_in": "price_out", "price_out": "price_in"}  # options that are only valid together


def _check_keys(path: Path, config: RunConfig) -> None:
    """A missing API key (or a model without the batch API --batch needs) is found here, before any cell starts."""
    try:
        config.check_batch()
    except MDAgentsError as exc:
        raise GridError(path, "batch", str(exc)) from None
    models = {"model": config.model}
    if config.critic and config.critic_model:
        models["critic_model"] = config.critic_model
    for key, name in models.items():
        spec = replace(config, model=name).model_spec
        try:
            resolve_key(spec)
        except MissingKeyError as exc:
            raise GridError(path, key, f"{spec.name}: {exc}") from None


def _slug(value: Any) -> str:
    if isinstance(value, dict):  # model_args: {top_p: 0.5} -> top-p-0.5
        value = "+".join(f"{k}-{_slug(v)}" for k, v in value.items())
    return "".join(c if c.isalnum() or c in "-.+" else "-" for c in str(value))


def _one_line(exc: BaseException) -> str:
    return redact(str(exc)).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def _caps(cells: Iterable[Cell]) -> dict[str, int]:
    """Per provider endpoint, the smallest --max-connections any cell asks for."""
    caps: dict[str, int] = {}
    for cell in cells:
        config = cell.config
        models = [config.model_spec] + ([replace(config, model=config.critic_model).model_spec]
                                        if config.critic and config.critic_model else [])
        for spec in models:
            key = endpoint_key(spec.provider, spec.base_url)
            cap = config.in_flight_cap()
            caps[key] = min(caps.get(key, cap), cap)
    return caps


# ---------------------------------------------------------------- planning: what is left to do


@dataclass
class PlannedUnit:
    unit: Unit
    run_dir: Path
    total: int
    remaining: int
    unclosed: bool = False  # all recorded, but the manifest still says running

    @property
    def to_run(self) -> bool:
        return self.remaining > 0 or self.unclosed


def plan_units(sweep: Sweep, *, shards: int = 1, shard: Shard | None = None) -> list[PlannedUnit]:
    """Every unit with its run directory and how many questions it still has; no model is touched.

    A question counts as done when any results file of the run directory has it, so a cell run
    first in shards and later whole (or the reverse) is not redone."""
    planned: list[PlannedUnit] = []
    owners: dict[tuple[Path, Shard | None], Cell] = {}
    slices: list[Shard | None] = [shard] if shard else (
        [Shard(i, shards) for i in range(1, shards + 1)] if shards > 1 else [None])
    for cell in sweep.cells:
        for piece in slices:
            unit = Unit(cell, piece)
            try:
                plan = execute_run(replace(unit.config, dry_run=True, fresh=False), RunHooks())
            except MDAgentsError as exc:
                raise GridError(sweep.path, "dataset", f"{cell.axes.get('dataset')}: {_one_line(exc)}") from None
            assert isinstance(plan, DryRunPlan)
            other = owners.setdefault((plan.run_dir, piece), cell)
            if other is not cell:
                raise GridError(sweep.path, "dataset",
                                f"cells {other.label} and {cell.label} would share the run directory {plan.run_dir}")
            done = done_anywhere(plan.run_dir)
            remaining = sum(1 for q in plan.questions if q.id not in done)
            # Killed after its last record but before its manifest said so: a pass with nothing to
            # ask (no model call) writes the summary and marks it finished.
            unclosed = not plan.questions and plan.done > 0 and _status(plan.run_dir, piece) != "finished"
            planned.append(PlannedUnit(unit, plan.run_dir, total=plan.done + len(plan.questions),
                                       remaining=remaining, unclosed=unclosed))
    return planned


def _status(run_dir: Path, shard: Shard | None) -> str | None:
    path = run_dir / (f"manifest.shard-{shard}.json" if shard else "manifest.json")
    try:
        return json.loads(path.read_text(encoding="utf-8")).get("status")  # type: ignore[no-any-return]
    except (OSError, ValueError, AttributeError):
        return None


def done_anywhere(run_dir: Path) -> set[str]:
    """Ids recorded in any results file of a run directory (whole run and shards)."""
    if not run_dir.is_dir():
        return set()
    return {r["id"] for path in sorted(run_dir.glob("results*.jsonl")) for r in iter_records(path) if "id" in r}


# ---------------------------------------------------------------- running one unit (in any worker)


def run_unit(unit: Unit, manifest_extra: dict[str, Any]) -> UnitOutcome:
    """Run one unit through the ordinary run path; a failure becomes an outcome, never an exception."""
    config = unit.config
    try:
        result = execute_run(config, RunHooks(), manifest_extra=manifest_extra | {"sweep_cell": unit.cell.axes})
    except MDAgentsError as exc:
        return UnitOutcome(unit.label, "", "error", error=_one_line(exc), exit_code=exc.exit_code)
    except Exception as exc:  # a bug in one cell must not take the others down
        return UnitOutcome(unit.label, "", "error", error=f"{type(exc).__name__}: {_one_line(exc)}", exit_code=1)
    assert not isinstance(result, DryRunPlan)
    outcome = result.outcome
    return UnitOutcome(unit.label, str(result.run_dir), outcome.status, failed=outcome.failed,
                       wall_s=round(outcome.wall_s, 2))


def write_sweep_file(sweep: Sweep, planned: list[PlannedUnit], executor: str) -> Path:
    """sweep.json: the cells, their coordinates and run directories (what `report` rebuilds the table from)."""
    seen: dict[int, dict[str, Any]] = {}
    for item in planned:
        seen.setdefault(item.unit.cell.index, {
            "axes": item.unit.cell.axes, "argv": list(item.unit.cell.argv),
            "run_dir": _relative(item.run_dir, sweep.output_dir),
        })
    path = sweep.output_dir / SWEEP_FILE
    atomic_write_json(path, {"grid": str(sweep.path.resolve()), "updated_at": now_iso(), "executor": executor,
                             "axes": sweep.axes, "cells": list(seen.values())})
    return path


def _relative(path: Path, base: Path) -> str:
    try:
        return str(path.resolve().relative_to(base.resolve()))
    except ValueError:
        return str(path.resolve())


def pending(planned: Iterable[PlannedUnit]) -> Iterator[PlannedUnit]:
    return (p for p in planned if p.to_run)


def write_tables(output_dir: Path) -> dict[str, Path]:
    """sweep.csv, sweep.md, sweep.png and the cost-accuracy table and plot beside sweep.json, from what the cells
    hold now."""
    from mdagents.analysis.plots import plot_sweep

    axes, rows = sweep_rows(output_dir)
    from mdagents.analysis.cost_accuracy import plot, sweep_points
    from mdagents.analysis.cost_accuracy import render_table as cost_table

    written = {"csv": output_dir / "sweep.csv", "md": output_dir / "sweep.md", "png": output_dir / "sweep.png",
               "cost_md": output_dir / "sweep.cost-accuracy.md", "cost_png": output_dir / "sweep.cost-accuracy.png"}
    points = sweep_points(axes, rows)
    atomic_write_bytes(written["csv"], render_csv(axes, rows).encode("utf-8"))
    atomic_write_bytes(written["md"], (render_table(axes, rows, markdown=True) + "\n").encode("utf-8"))
    atomic_write_bytes(written["cost_md"], (cost_table(points, markdown=True) + "\n").encode("utf-8"))
    plot_sweep(axes, rows, written["png"])
    plot(points, written["cost_png"], title="Sweep: cost against accuracy")
    return written
