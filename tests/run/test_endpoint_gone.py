"""A server that dies mid-run: the run stops within seconds, exit 1, nothing recorded for the
questions it could not answer, and the same command later finishes them."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from mdagents.analysis.summary import summarize
from mdagents.cli import main
from tests.fakes.servers import FakeServer
from tests.pipelines.responders import good_responder
from tests.runs_helpers import cli_args, only_run_dir, read_records, sample_lookup

ONE_CALL = ("--difficulty", "basic", "--num-exemplars", "0")


def dying_server(after: int) -> FakeServer:
    """A good server that dies (drops connections, refuses new ones) once it has answered `after` requests."""
    respond = good_responder(sample_lookup(), "basic")
    holder: dict[str, FakeServer] = {}

    def reply(messages: Sequence[Any], params: Any) -> str:
        server = holder["server"]
        if len(server.requests) >= after:
            server.kill()
        return respond(messages, params)

    holder["server"] = FakeServer("openai", reply)
    return holder["server"]


def test_a_server_that_dies_mid_run_stops_it_and_a_rerun_finishes(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    server = dying_server(after=4)
    args = cli_args(server, tmp_path, *ONE_CALL, "--concurrency", "2", n=10)
    started = time.monotonic()
    try:
        code = main(args)
    finally:
        server.close()
    elapsed = time.monotonic() - started
    err = capsys.readouterr().err
    assert code == 1
    assert elapsed < 15  # not every remaining question retrying its whole budget in turn
    assert "stopped answering" in err and "re-run the same command" in err
    assert len([line for line in err.splitlines() if "stopped answering" in line]) == 1
    records = read_records(only_run_dir(tmp_path))
    assert 1 <= len(records) <= 5
    assert not [r for r in records if r["error"]]  # the unanswered questions are not recorded as failures
    summary = json.loads((only_run_dir(tmp_path) / "summary.json").read_text())
    assert summary["status"] == "failed" and summary["errors"] == 0 and summary["accuracy"] == 1.0

    # The server is back where it was: the same command does the rest.
    with FakeServer("openai", good_responder(sample_lookup(), "basic"), port=server.port) as again:
        assert main(args) == 0
        assert len(again.requests) == 10 - len(records)
    done = read_records(only_run_dir(tmp_path))
    assert len(done) == 10 and len({r["id"] for r in done}) == 10 and not any(r["error"] for r in done)


def test_errors_are_counted_apart_never_as_wrong_answers() -> None:
    right = {"correct": True, "parse_status": "ok", "difficulty": "basic", "error": None}
    wrong = {"correct": False, "parse_status": "ok", "difficulty": "basic", "error": None}
    failed = {"correct": None, "parse_status": "failed", "difficulty": "basic", "error": "LLMCallError: HTTP 500"}
    summary = summarize([right, right, right, wrong] + [failed] * 16)
    assert (summary["n"], summary["correct"], summary["errors"], summary["samples"]) == (4, 3, 16, 20)
    assert summary["accuracy"] == 0.75 and summary["by_difficulty"]["basic"]["accuracy"] == 0.75
