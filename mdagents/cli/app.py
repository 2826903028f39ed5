"""Command line: `python main.py [run] --dataset medqa ...` and the other subcommands.

Only this module prints errors and picks exit codes: 0 ok, 1 run failure (also a disk that is full
or read-only where files must be written), 2 usage/input error, 3 stopped by its budget
(incomplete), 130 interrupted.
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import os
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path

from mdagents import __version__
from mdagents.cli.logs import log_to_stderr
from mdagents.errors import MDAgentsError
from mdagents.extras import install_hint
from mdagents.redact import redact

# subcommand -> (module, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "run": ("mdagents.cli.run", "run a dataset through the pipelines (the default command)"),
    "sweep": ("mdagents.cli.sweep", "a grid of runs from one YAML file, resumable, locally or on a Ray cluster"),
    "report": ("mdagents.cli.report", "accuracy, intervals, costs and comparisons of run directories"),
    "export": ("mdagents.cli.export", "a run as an inspect_ai eval log, or records as one CSV/Parquet table"),
    "view": ("mdagents.cli.view", "a static site for browsing a run's questions, debates and calls"),
    "datasets": ("mdagents.cli.datasets", "list local datasets or fetch and convert public ones"),
    "guidelines": ("mdagents.cli.guidelines", "guideline store: download, parse, embed, search"),
    "ask": ("mdagents.cli.ask", "patient-education assistant with safety guardrails"),
    "guardrails-eval": ("mdagents.cli.guardrails_eval", "benchmark the guardrails on labelled messages"),
    "guardrails-train": ("mdagents.cli.guardrails_train", "retrain the offline triage classifier (reproducible)"),
}


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage errors as one line and exit code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def program_name() -> str:
    """`mdagents` when started as the installed command, else `python main.py`."""
    return "mdagents" if Path(sys.argv[0]).name == "mdagents" else "python main.py"


def unknown_command(word: str) -> str:
    """`reprot` -> did you mean 'report'? (`run` takes no positional arguments, so a bare word is a command)."""
    close = difflib.get_close_matches(word, COMMANDS, n=1, cutoff=0.6)
    hint = f"did you mean '{close[0]}'?" if close else f"commands: {', '.join(COMMANDS)}"
    return f"unknown command '{word}': {hint}"


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line, or with `only` the flags of that one command (the others are listed
    by name): each command's module, and what it imports, loads only when that command runs."""
    parser = _Parser(prog=program_name(), description="MDAgents research harness (see README.md).")
    parser.add_argument("--version", action="version", version=f"mdagents {__version__}")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND")
    for name, (module, help_text) in COMMANDS.items():
        sub_parser = sub.add_parser(name, help=help_text, description=help_text)
        if only is not None and name != only:
            continue
        try:
            importlib.import_module(module).configure(sub_parser)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
            sub_parser.set_defaults(_unavailable=name)
    return parser


def not_utf8(args: Sequence[str]) -> str | None:
    """The first argument that is not UTF-8 text (bytes the shell passed undecoded), shown as bytes."""
    for arg in args:
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            return str(os.fsencode(arg))[2:-1]
    return None


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    bad = not_utf8(args_list)
    if bad is not None:  # paths and names end up in JSON and HTML, which hold UTF-8 text only
        print(f"{program_name()}: error: argument '{bad}' is not valid UTF-8; use a path or value "
              "that is", file=sys.stderr)
        return 2
    if args_list and not args_list[0].startswith("-") and args_list[0] not in COMMANDS:
        print(f"{program_name()}: error: {unknown_command(args_list[0])}", file=sys.stderr)
        return 2
    if not args_list or (args_list[0] not in COMMANDS and args_list[0] not in ("-h", "--help", "--version")):
        args_list = ["run", *args_list]
    parser = build_parser(only=args_list[0] if args_list[0] in COMMANDS else "")
    try:
        args = parser.parse_args(args_list)
    except SystemExit as exc:  # --help (0) or a usage error (2), already printed by argparse
        return int(exc.code or 0)
    args.argv = args_list[1:]  # the command's own arguments, for layering them over a config file
    if getattr(args, "_unavailable", None):
        print(f"error: the '{args._unavailable}' command is not available in this version", file=sys.stderr)
        return 2
    log_to_stderr()
    module = importlib.import_module(COMMANDS[args.command][0])
    try:
        return int(module.execute(args) or 0)
    except MDAgentsError as exc:
        print(f"error: {redact(str(exc))}", file=sys.stderr)
        return exc.exit_code
    except ModuleNotFoundError as exc:  # an optional extra that is not installed
        hint = install_hint(exc.name)
        if hint is None:
            raise
        print(f"error: {args.command} needs {exc.name.split('.')[0]}, from an optional extra: {hint}",
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # output piped into `head` and the like: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as exc:  # the machine refused (disk full, read-only, permissions): what and where, exit 1
        where = f" ({exc.filename})" if exc.filename else ""
        print(f"error: {exc.strerror or exc}{where}; files already written are kept", file=sys.stderr)
        return 1
    except sqlite3.Error as exc:  # the response cache's database (a read-only or damaged place)
        print(f"error: the response cache cannot be used ({exc}); pass --no-cache or another --cache-path",
              file=sys.stderr)
        return 2
    except RecursionError:  # a file nested deeper than any reader follows (JSON, YAML)
        print("error: an input file is nested too deeply to read", file=sys.stderr)
        return 2
