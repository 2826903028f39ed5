"""Faults inside batches: failed requests retried in the next wave, expired batches re-queued,
--max-cost counted before submitting, a stopped run cancelling its batches."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.batch.test_batch_resume import submitted
from tests.batch.test_batch_runs import batch_args, batch_server
from tests.fakes.servers import Wire
from tests.locations import REPO_ROOT
from tests.runs_helpers import only_run_dir, read_records, run_cli

BASIC = ("--difficulty", "basic", "--num-exemplars", "0")


def summary_of(tmp_path: Path) -> dict:
    return json.loads((only_run_dir(tmp_path) / "summary.json").read_text())


@pytest.fixture(params=["openai", "anthropic"])
def wire(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    return str(request.param)


def test_a_request_failing_inside_a_batch_is_retried_in_the_next_wave(tmp_path: Path, wire: Wire) -> None:
    with batch_server("basic", wire=wire) as server:
        server.fail_in_batch(500, times=2)
        assert run_cli(batch_args(server, tmp_path, *BASIC, n=4)) == 0
        assert len(server.batches) == 2  # the two failures went out again together
        assert len(server.submitted_ids) == 6
    assert all(r["error"] is None and r["correct"] for r in read_records(only_run_dir(tmp_path)))
    stats = summary_of(tmp_path)["batch"]
    assert stats["requests_failed"] == 2 and stats["waves"] == 2


def test_retries_inside_batches_are_bounded(tmp_path: Path) -> None:
    with batch_server("basic") as server:
        server.fail_in_batch(500, times=100)
        assert run_cli(batch_args(server, tmp_path, *BASIC, "--max-retries", "1", n=1)) == 1
        assert len(server.batches) == 2  # the call and its one retry
    [record] = read_records(only_run_dir(tmp_path))
    assert "500" in record["error"]


def test_an_expired_batch_requeues_its_unfinished_requests(tmp_path: Path, wire: Wire) -> None:
    with batch_server("basic", wire=wire) as server:
        server.expire_next(done=1)
        assert run_cli(batch_args(server, tmp_path, *BASIC, n=4)) == 0
        first, second = server.batches.values()
        assert first["status"] == "expired" and second["request_counts"]["total"] == 3
    assert all(r["error"] is None for r in read_records(only_run_dir(tmp_path)))
    assert summary_of(tmp_path)["batch"]["expired"] == 1


def test_max_cost_counts_queued_calls_before_submitting(tmp_path: Path) -> None:
    # Each call is estimated at its prompt plus a 1,024-token reply: at the batch price ($1/M output) a little
    # over $0.001 a call, so 4 of the 6 questions' calls fit under $0.005 and the others are never submitted.
    with batch_server("basic") as server:
        assert run_cli(batch_args(server, tmp_path, *BASIC, "--max-cost", "0.005", n=6)) == 3
        assert len(server.submitted_ids) == 4
    assert summary_of(tmp_path)["spent_usd"] <= 0.005


def test_a_stopped_run_cancels_its_batches(tmp_path: Path) -> None:
    with batch_server("basic") as server:
        server.hold_after = 0
        process = subprocess.Popen([sys.executable, str(REPO_ROOT / "main.py"), *batch_args(server, tmp_path, *BASIC, n=3)],
                                   cwd=REPO_ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 60
            while not submitted(tmp_path) and time.monotonic() < deadline and process.poll() is None:
                time.sleep(0.05)
            process.send_signal(signal.SIGINT)
            assert process.wait(timeout=30) == 130
        finally:
            if process.poll() is None:
                process.kill()
        assert [b["status"] for b in server.batches.values()] == ["cancelled"]
