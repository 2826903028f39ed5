"""`python main.py export RUN_DIR --format inspect|csv|parquet`: runs in other tools' formats."""

from __future__ import annotations

import argparse
import warnings
from pathlib import Path

from mdagents.analysis.export_table import TABLE_FORMATS
from mdagents.errors import UsageError

FORMATS = ("inspect", *TABLE_FORMATS)
INSPECT_DIR = "inspect-logs"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("runs", nargs="+", metavar="RUN_DIR",
                        help="run directories, results .jsonl files or globs (shards are merged)")
    parser.add_argument("--format", choices=FORMATS, required=True,
                        help="inspect: one inspect_ai eval log per run (`inspect view` shows them); "
                             "csv / parquet: one flat table of all records")
    parser.add_argument("-o", "--output", default=None,
                        help=f"inspect: a directory (default: {INSPECT_DIR}/) or, for one run, a .eval or .json "
                             "file; csv/parquet: the file (default: records.csv / records.parquet)")


def execute(args: argparse.Namespace) -> int:
    from mdagents.analysis.runs import load_runs

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        runs = load_runs(args.runs)
    if args.format == "inspect":
        from mdagents.analysis.export_inspect import export_inspect

        target = Path(args.output or INSPECT_DIR)
        single_file = target.suffix in (".eval", ".json")
        if single_file and len(runs) > 1:
            raise UsageError("-o names one file but several runs were given: give a directory")
        for run in runs:
            path = target if single_file else target / f"{run.name}.eval"
            print(export_inspect(run, path))
        folder = target.parent if single_file else target
        print(f"view with: inspect view --log-dir {folder}")
        return 0
    from mdagents.analysis.export_table import export_table

    path = Path(args.output or f"records.{args.format}")
    print(export_table(runs, path, args.format))
    return 0
