"""`python main.py report RUN_DIR [RUN_DIR ...]`: accuracy with intervals, breakdowns, costs, comparisons."""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

from mdagents.analysis.report import FORMATS, all_comparisons, build_report, render
from mdagents.analysis.runs import load_runs
from mdagents.analysis.sweep_table import is_sweep_directory
from mdagents.errors import UsageError


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("runs", nargs="+", metavar="RUN_DIR",
                        help="run directories, results .jsonl files, globs (quoted is fine), a folder of runs, "
                             "or a sweep's output directory (prints its table)")
    parser.add_argument("--format", choices=FORMATS, default="table", help="output format (default: table)")
    parser.add_argument("--plot", metavar="OUT.png", default=None,
                        help="also draw accuracy vs cost and the difficulty mix (needs matplotlib)")
    parser.add_argument("--compare", action="store_true",
                        help="require a paired comparison and list the ids that changed between runs")
    parser.add_argument("--bootstrap", type=int, default=2000, metavar="N",
                        help="bootstrap resamples for intervals (default 2000; 0 turns bootstrap off)")
    parser.add_argument("--seed", type=int, default=0, help="bootstrap seed (default 0)")


def execute(args: argparse.Namespace) -> int:
    if args.bootstrap < 0:
        raise UsageError("--bootstrap must be 0 or more")
    if len(args.runs) == 1 and is_sweep_directory(args.runs[0]) and not args.compare:
        return _sweep_report(args)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the notes are printed with the report instead
        runs = load_runs(args.runs)
    reports = build_report(runs, bootstrap=args.bootstrap, seed=args.seed)
    if args.compare and not all_comparisons(reports):
        raise UsageError("--compare needs at least two runs that share question ids")
    print(render(reports, args.format, list_changed=args.compare))
    if args.plot:
        from mdagents.analysis.plots import plot_runs

        path = plot_runs(reports, args.plot)
        print(f"plot written to {path}", file=sys.stderr)
        if len(reports) > 1:
            from mdagents.analysis.cost_accuracy import plot, report_points
            from mdagents.analysis.report import short_labels

            cost_path = plot(report_points(reports, short_labels([r["run"] for r in reports])[0]),
                             cost_plot_path(args.plot))
            print(f"cost-accuracy plot written to {cost_path}", file=sys.stderr)
    return 0


def _sweep_report(args: argparse.Namespace) -> int:
    """A sweep directory: one row per cell, from what the cells hold now."""
    from mdagents.analysis.cost_accuracy import plot, render_table, sweep_points
    from mdagents.analysis.sweep_table import render, sweep_rows

    axes, rows = sweep_rows(args.runs[0])
    print(render(axes, rows, args.format))
    if args.format in ("table", "markdown"):
        print("\nCost against accuracy:\n" + render_table(sweep_points(axes, rows), markdown=args.format == "markdown"))
    if args.plot:
        from mdagents.analysis.plots import plot_sweep

        print(f"plot written to {plot_sweep(axes, rows, args.plot)}", file=sys.stderr)
        cost_path = plot(sweep_points(axes, rows), cost_plot_path(args.plot), title="Sweep: cost against accuracy")
        print(f"cost-accuracy plot written to {cost_path}", file=sys.stderr)
    return 0


def cost_plot_path(plot: str) -> Path:
    """`out.png` -> `out.cost-accuracy.png`, beside the report's plot."""
    path = Path(plot)
    return path.with_name(f"{path.stem}.cost-accuracy{path.suffix or '.png'}")
