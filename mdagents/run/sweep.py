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

import difflib
import itertools
import json
import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml

from mdagents.analysis.sweep_table import SWEEP_FILE, render_csv, render_table, sweep_rows
from mdagents.errors import MDAgentsError, MissingKeyError, UsageError
from mdagents.llm.models import resolve_key
from mdagents.llm.shared_limits import endpoint_key
from mdagents.redact import redact
from mdagents.run.config import MAX_REPEATS, RunConfig, Shard
from mdagents.run.session import DryRunPlan, RunHooks, execute_run
from mdagents.run.store import atomic_write_bytes, atomic_write_json, iter_records, now_iso

LIST_KEYS = ("model", "dataset", "difficulty")
SWEEP_KEYS = ("repeats", "grid")
MAX_CELLS = 10_000  # each cell is a run directory and a process's worth of work
# Run options a grid may not set, and why.
REFUSED = {
    "fresh": "a sweep never deletes finished results (delete a cell's directory by hand to redo it)",
    "shard": "slices are chosen per sweep: use `sweep --shards N` or `sweep --shard i/n`",
    "dry_run": "use `sweep --dry-run`",
    "help": "not a run option",
}


class GridError(UsageError):
    """A grid file that cannot run: `GRID.yaml: key: what is wrong`."""

    def __init__(self, path: Path | str, key: str, what: str) -> None:
        super().__init__(f"{path}: {key}: {what}")


@dataclass(frozen=True)
class CellParser:
    """The run command's parser, lent by the CLI: which options exist and how a cell's argv becomes a RunConfig.

    `options` maps every spelling of an option without its dashes (`num_samples`, `num-samples`)
    to (the flag, whether it takes a value)."""

    options: dict[str, tuple[str, bool]]
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
        return " · ".join(f"{v}" if k in LIST_KEYS else f"{k}={v}" for k, v in self.axes.items())


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


def load_sweep(path: str | Path, parser: CellParser) -> Sweep:
    """Read GRID.yaml and check every cell with the run command's parser; raises GridError."""
    path = Path(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise UsageError(f"cannot read grid file {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        line = exc.object[:exc.start].count(b"\n") + 1
        raise UsageError(f"{path}: not UTF-8 text (line {line}); save it as UTF-8") from None
    except yaml.YAMLError as exc:
        raise UsageError(f"{path}: not valid YAML ({exc})") from None
    except RecursionError:
        raise UsageError(f"{path}: nested too deeply to be a grid of run options") from None
    if not isinstance(data, dict) or not data:
        raise UsageError(f"{path}: expected a mapping of run options (model: ..., dataset: ...)")
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
    shown = [k for k in names if k in LIST_KEYS or len(axes[k]) > 1]
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
        key = _canonical(key)
        if key in SWEEP_KEYS:
            continue
        _known(path, key, parser)
        if isinstance(value, list):
            if key not in LIST_KEYS:
                raise GridError(path, key, f"only {', '.join(LIST_KEYS)} may be lists here; put other lists under grid:")
            axes[key] = _values(path, key, value)
        else:
            fixed[key] = value
    for key, value in grid.items():
        key = _canonical(key)
        where = f"grid.{key}"
        _known(path, where, parser, key)
        if key in fixed or key in axes:
            raise GridError(path, where, "is also set at the top level; set it in one place")
        if key == "output_dir":
            raise GridError(path, where, "one sweep has one output_dir")
        if not isinstance(value, list):
            raise GridError(path, where, "must be a list of values")
        axes[key] = _values(path, where, value)
    return fixed, axes


def _canonical(key: Any) -> str:
    """`num-samples` and `num_samples` are one option: keep the underscore spelling."""
    return str(key).replace("-", "_")


def _known(path: Path, where: str, parser: CellParser, key: str | None = None) -> None:
    key = key or where
    if key in REFUSED:
        raise GridError(path, where, REFUSED[key])
    if key not in parser.options:
        close = difflib.get_close_matches(key, [k for k in parser.options if "-" not in k] + list(SWEEP_KEYS), n=1)
        hint = f" (did you mean {close[0]}?)" if close else ""
        raise GridError(path, where, f"unknown option{hint}; options are the `run` flags with underscores")


def _values(path: Path, key: str, values: list[Any]) -> list[Any]:
    if not values:
        raise GridError(path, key, "empty list: give at least one value")
    for value in values:
        if isinstance(value, dict | list):
            raise GridError(path, key, f"each value must be a single value, not {value!r}")
    if len({str(v) for v in values}) < len(values):
        raise GridError(path, key, "a value is listed twice")
    return values


def _repeats(path: Path, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_REPEATS:
        raise GridError(path, "repeats", f"must be a whole number from 1 to {MAX_REPEATS}, not {value!r}")
    return value


def _arguments(path: Path, parser: CellParser, key: str, value: Any) -> list[str]:
    flag, takes_value = parser.options[key]
    if value is None:
        return []
    if not takes_value:
        if not isinstance(value, bool):
            raise GridError(path, key, f"is a switch: true or false, not {value!r}")
        return [flag] if value else []
    if isinstance(value, dict | list):
        raise GridError(path, key, f"must be a single value, not {value!r}")
    return [flag, str(value).lower() if isinstance(value, bool) else str(value)]


def _cell(path: Path, parser: CellParser, index: int, fixed: dict[str, Any], point: dict[str, Any],
          repeat: int | None, output_dir: Path) -> Cell:
    """Build one cell's argv in the file's order and parse it; blame the first key that breaks it."""
    options = {**fixed, **point}
    folder = [f"{k}={_slug(v)}" for k, v in point.items() if k not in LIST_KEYS]
    if repeat is not None:
        folder.append(f"repeat={repeat}")
        options["seed"] = int(options.get("seed") or 0) + repeat - 1
    if folder:
        options["output_dir"] = str(output_dir / "_".join(folder))
    argv: list[str] = []
    config: RunConfig | None = None
    for key, value in options.items():
        argv += _arguments(path, parser, key, value)
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
    if repeat is not None:
        axes["repeat"] = repeat
    return Cell(index=index, axes=axes, argv=tuple(argv), config=config)


def _check_keys(path: Path, config: RunConfig) -> None:
    """A missing API key is found here, before any cell starts."""
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
            caps[key] = min(caps.get(key, config.max_connections), config.max_connections)
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
    """sweep.csv, sweep.md and sweep.png beside sweep.json, from what the cells hold now."""
    from mdagents.analysis.plots import plot_sweep

    axes, rows = sweep_rows(output_dir)
    written = {"csv": output_dir / "sweep.csv", "md": output_dir / "sweep.md", "png": output_dir / "sweep.png"}
    atomic_write_bytes(written["csv"], render_csv(axes, rows).encode("utf-8"))
    atomic_write_bytes(written["md"], (render_table(axes, rows, markdown=True) + "\n").encode("utf-8"))
    plot_sweep(axes, rows, written["png"])
    return written
