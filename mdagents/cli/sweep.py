"""`python main.py sweep GRID.yaml`: a grid of runs from one file, resumable, locally or on a Ray cluster."""

from __future__ import annotations

import argparse
import sys

from mdagents.cli import run as run_cli
from mdagents.errors import UsageError
from mdagents.run.config import RunConfig, Shard
from mdagents.run.config_file import env_argv, layered_argv, option_table
from mdagents.run.sweep import CellParser, UnitOutcome


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("grid", metavar="GRID.yaml",
                        help="run options by their flag names with underscores; model, dataset and difficulty may "
                             "be lists, `grid:` maps other options to lists, `repeats: N` (see docs/sweeps.md)")
    parser.add_argument("--executor", choices=("local", "ray"), default="local",
                        help="local: cells in this process (default); ray: cells as tasks on a Ray cluster")
    parser.add_argument("--ray-address", dest="ray_address", default=None,
                        help="Ray cluster to use, e.g. ray://head:10001 (default: start a local one)")
    parser.add_argument("--parallel", type=int, default=2,
                        help="local executor: cells run at once, sharing each provider's in-flight cap (default: 2)")
    parser.add_argument("--shards", type=int, default=1,
                        help="split every cell into N slices that run as separate units (default: 1)")
    parser.add_argument("--shard", default=None,
                        help="run only slice i/n of every cell (e.g. a Slurm array task: $SLURM_ARRAY_TASK_ID/N)")
    parser.add_argument("--dry-run", dest="dry_run", action="store_true",
                        help="list the cells, where they go and what is left to do; call no model")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                        help="replace a top-level key of the grid file (VALUE read as YAML: a list works), e.g. "
                             "--set model=openai/gpt-4o --set 'dataset=[medqa]'; repeatable")


def cell_parser() -> CellParser:
    """The run command's own parser and flag table, so a cell is checked exactly as `run` checks flags
    (MDAGENTS_* variables are its defaults, as for `run`)."""
    parser = run_cli.run_parser()
    options = option_table(parser)
    environment = env_argv(options)

    def parse(argv: list[str]) -> RunConfig:
        return run_cli.config_from_args(parser.parse_args(layered_argv([environment, argv], options)))

    return CellParser(options=options, parse=parse)


def execute(args: argparse.Namespace) -> int:
    from mdagents.analysis.sweep_table import render_table, sweep_rows
    from mdagents.run.config import load_dotenv_file
    from mdagents.run.executors import make_executor
    from mdagents.run.sweep import load_sweep, pending, plan_units, write_sweep_file, write_tables

    load_dotenv_file()
    if args.shards < 1:
        raise UsageError("--shards must be at least 1")
    shard = Shard.parse(args.shard) if args.shard else None
    if shard and args.shards > 1:
        raise UsageError("--shard i/n runs one slice; --shards N runs them all: give one of them")
    executor = make_executor(args.executor, parallel=args.parallel, ray_address=args.ray_address)
    sweep = load_sweep(args.grid, cell_parser(), overrides=parse_overrides(args.overrides))
    planned = plan_units(sweep, shards=args.shards, shard=shard)
    todo = list(pending(planned))
    if args.dry_run:
        for item in planned:
            left = (f"{item.remaining} of {item.total} questions left" if item.remaining
                    else "all recorded; its manifest will be closed (no call)" if item.unclosed
                    else "finished: skipped")
            print(f"{item.unit.label}: {left} -> {item.run_dir}")
        print(f"{len(sweep.cells)} cell(s), {len(todo)} unit(s) to run with --executor {executor.name}")
        return 0
    write_sweep_file(sweep, planned, executor.name)
    skipped = len(planned) - len(todo)
    say(f"sweep {args.grid}: {len(sweep.cells)} cell(s); {skipped} unit(s) already finished, "
        f"{len(todo)} to run ({executor.name})")
    counter = iter(range(1, len(todo) + 1))

    def report(outcome: UnitOutcome) -> None:
        done = next(counter)
        detail = outcome.error if outcome.error else (
            f"{outcome.failed} failed sample(s)" if outcome.failed else "ok")
        say(f"[{done}/{len(todo)}] {outcome.label}: {outcome.status} ({detail})")

    outcomes = executor.run([p.unit for p in todo], sweep.caps, report) if todo else []
    written = write_tables(sweep.output_dir)
    axes, rows = sweep_rows(sweep.output_dir)
    print(render_table(axes, rows))
    from mdagents.analysis.cost_accuracy import render_table as cost_table
    from mdagents.analysis.cost_accuracy import sweep_points

    print("\nCost against accuracy:\n" + cost_table(sweep_points(axes, rows)))
    print("written: " + ", ".join(str(p) for p in written.values()))
    return _exit_code(outcomes, expected=len(todo))


def parse_overrides(items: list[str]) -> dict[str, object]:
    """`--set key=value` pairs, each value read as YAML (`3`, `true`, `[a, b]`)."""
    import yaml

    overrides: dict[str, object] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--set takes KEY=VALUE, e.g. --set model=openai/gpt-4o; got {item!r}")
        try:
            overrides[key.strip()] = yaml.safe_load(value)
        except yaml.YAMLError:
            raise UsageError(f"--set {item}: the value is not valid YAML") from None
    return overrides


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _exit_code(outcomes: list[UnitOutcome], *, expected: int) -> int:
    """130 interrupted, 2 a cell's input was refused, 3 a budget stopped a cell, 1 failures, else 0."""
    statuses = {o.status for o in outcomes}
    if "interrupted" in statuses or len(outcomes) < expected:
        say("interrupted: run the same sweep again to resume where it stopped")
        return 130
    if any(o.exit_code == 2 for o in outcomes):
        return 2
    if "budget_exhausted" in statuses:
        return 3
    if any(o.status == "error" or o.failed for o in outcomes):
        return 1
    return 0
