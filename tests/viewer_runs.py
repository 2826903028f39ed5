"""Runs for the viewer's tests: whole CLI runs against the loopback server, then `view` on them."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bs4 import BeautifulSoup

from mdagents.analysis.runs import natural_key
from mdagents.cli import main
from tests.fakes.servers import FakeServer
from tests.pipelines.responders import debating_responder, good_responder
from tests.runs_helpers import cli_args, only_run_dir, read_records, sample_lookup

Responder = Callable[[Sequence[Any], Any], str]


def debating() -> Responder:
    return debating_responder(sample_lookup())


def good(difficulty: str = "intermediate") -> Responder:
    return good_responder(sample_lookup(), difficulty)


def make_run(base: Path, responder: Responder, *extra: str, n: int = 3) -> Path:
    """A finished run of `n` questions in base/out/<run>/, made through the CLI."""
    with FakeServer("openai", responder) as server:
        assert main(cli_args(server, base, *extra, n=n)) == 0
    return only_run_dir(base)


def make_viewed_run(base: Path, responder: Responder, *extra: str, n: int = 3) -> Path:
    """make_run, then `view` on it."""
    run_dir = make_run(base, responder, *extra, n=n)
    assert main(["view", str(run_dir)]) == 0
    return run_dir


def transcript(run_dir: Path, sample_id: str) -> dict[str, Any]:
    return json.loads((run_dir / "transcripts" / f"{sample_id}.json").read_text())


def records(run_dir: Path) -> list[dict[str, Any]]:
    """The run's records in id order, as the viewer lists them (the file holds them in completion order)."""
    return sorted(read_records(run_dir), key=lambda r: natural_key(r["id"]))


def soup(path: Path | str) -> BeautifulSoup:
    text = path.read_text(encoding="utf-8") if isinstance(path, Path) else path
    return BeautifulSoup(text, "html.parser")


def experts_named_in(calls: list[dict[str, Any]]) -> set[str]:
    """The personas the expert calls of a transcript were addressed as ("You are a Cardiologist. ...")."""
    named = set()
    for call in calls:
        if call["role"] == "expert":
            system = call["messages"][0]["content"]
            named.add(system.split("You are a ", 1)[1].split(".", 1)[0])
    return named
