"""Progress that moves while no question has finished: calls done and in flight, retries, throttling, the step."""

from __future__ import annotations

from pathlib import Path

import pytest

from mdagents.cli import main
from mdagents.cli.progress import Progress
from mdagents.run.activity import CallActivity
from tests.runs_helpers import cli_args, good_server

ONE_CALL = ("--difficulty", "basic", "--num-exemplars", "0")


def progress_lines(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("progress:")]


def test_lines_show_calls_before_the_first_question_finishes(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    # An intermediate question makes several calls; each takes 0.3 s on this slow server.
    with good_server("intermediate", latency=0.3) as server:
        args = cli_args(server, tmp_path, "--difficulty", "intermediate", "--concurrency", "1",
                        "--progress-every", "0.1", "--price-in", "1000", "--price-out", "1000", n=1)
        assert main(args) == 0
    lines = progress_lines(capsys.readouterr().err)
    before = [line for line in lines if line.startswith("progress: 0/1")]
    assert before, lines  # lines came while the only question was still running
    assert any("1 in flight" in line for line in before)
    moved = [line for line in before if "calls 0 done" not in line]
    assert moved and all("step " in line and "paid $0.0000" not in line for line in moved)  # calls done and paid
    assert lines[-1].startswith("progress: 1/1") and "0 retried, 0 throttled" in lines[-1]


def test_lines_count_retries_and_throttling(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with good_server() as server:
        server.fail_next(429, headers={"Retry-After": "0"})
        assert main(cli_args(server, tmp_path, *ONE_CALL, "--progress-every", "0", n=1)) == 0
    last = progress_lines(capsys.readouterr().err)[-1]
    assert "calls 1 done, 0 in flight, 1 retried, 1 throttled" in last


def test_a_finished_command_run_again_says_it_is_complete(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with good_server() as server:
        args = cli_args(server, tmp_path, *ONE_CALL, n=2)
        assert main(args) == 0
        capsys.readouterr()
        assert main(args) == 0
        assert len(server.requests) == 2  # nothing ran again
    err = capsys.readouterr().err
    complete = [line for line in err.splitlines() if line.startswith("complete:")]
    assert len(complete) == 1 and "2 question(s)" in complete[0]
    assert "progress:" not in err and "started:" not in err


class FakeBar:
    def __init__(self) -> None:
        self.postfix: dict = {}

    def set_postfix(self, fields: dict) -> None:
        self.postfix = fields


def test_the_bar_shows_the_calls_and_step() -> None:
    progress = Progress()
    progress.watch(lambda: CallActivity(done=4, in_flight=2, retries=1, throttled=1, step="moderator"))
    progress.bar = FakeBar()  # type: ignore[assignment]
    progress._postfix()
    assert progress.bar.postfix == {"acc": "-", "failed": 0, "calls": 4, "in_flight": 2, "retried": 1,  # type: ignore[attr-defined]
                                    "throttled": 1, "step": "moderator"}
