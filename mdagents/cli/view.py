"""`python main.py view RUN_DIR [--compare OTHER_RUN_DIR] [--out DIR]`: a static site for browsing a run, in RUN_DIR/view/."""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

from mdagents.analysis.runs import load_run
from mdagents.errors import UsageError


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("run", metavar="RUN_DIR", help="the run directory to browse")
    parser.add_argument("--compare", metavar="OTHER_RUN_DIR", default=None,
                        help="also list the questions where this run and OTHER_RUN_DIR disagree")
    parser.add_argument("--out", metavar="DIR", default=None,
                        help="where to write the pages (default: RUN_DIR/view; use it for a run you cannot write to)")


def execute(args: argparse.Namespace) -> int:
    from mdagents.analysis.viewer import VIEW_DIR, write_site  # jinja2: the `viewer` extra

    for path in filter(None, (args.run, args.compare)):
        if Path(path).is_file():
            raise UsageError(f"{path}: view needs a run directory, not a single file")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run = load_run(args.run)
        other = load_run(args.compare) if args.compare else None
    if other is not None and other.path.resolve() == run.path.resolve():
        raise UsageError("--compare needs a different run directory")
    for warning in caught:
        print(f"note: {warning.message}", file=sys.stderr)
    out = Path(args.out) if args.out else None
    try:
        site = write_site(run, compare=other, out=out)
    except OSError as exc:
        where = out or run.path / VIEW_DIR
        hint = "" if args.out else "; write the pages elsewhere with --out DIR"
        raise UsageError(f"cannot write the pages to {where}: {exc.strerror or exc}{hint}") from None
    if site.missing_transcripts:
        print(f"note: {len(site.missing_transcripts)} question(s) have no transcript; their pages show the record only",
              file=sys.stderr)
    if site.compare is not None:
        print(f"{site.disagreements} disagreement(s) with {other.name if other else ''}: {site.compare}",
              file=sys.stderr)
    print(site.index)
    return 0
