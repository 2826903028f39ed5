"""A batch run killed while batches are out picks them up on re-run: nothing is submitted (or paid) twice."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.batch.test_batch_runs import batch_args, batch_server, graded
from tests.locations import REPO_ROOT
from tests.runs_helpers import cli_args, good_server, only_run_dir, read_records, run_cli

INTERMEDIATE = ("--difficulty", "intermediate")


def journal(run_dir: Path) -> list[dict]:
    path = run_dir / "batches.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()] if path.exists() else []


def submitted(tmp_path: Path) -> list[dict]:
    out = tmp_path / "out"
    dirs = [p for p in out.iterdir() if p.is_dir()] if out.exists() else []
    return [e for d in dirs for e in journal(d) if e["event"] == "submitted"]


def test_killed_mid_wave_the_rerun_pays_for_nothing_twice(tmp_path: Path) -> None:
    with batch_server("intermediate") as server:
        server.hold_after = 2  # waves 1 and 2 come back; wave 3 stays out until the process is killed
        args = batch_args(server, tmp_path, *INTERMEDIATE, n=6)
        process = subprocess.Popen([sys.executable, str(REPO_ROOT / "main.py"), *args], cwd=REPO_ROOT,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 60
            while len(submitted(tmp_path)) < 3 and time.monotonic() < deadline and process.poll() is None:
                time.sleep(0.05)
            assert len(submitted(tmp_path)) == 3, "the run never had its third wave out"
            process.send_signal(signal.SIGKILL)
            process.wait(timeout=10)
        finally:
            if process.poll() is None:
                process.kill()
        assert len(server.batches) == 3
        in_flight = set(server.submitted_ids[-server.batches["batch_fake3"]["request_counts"]["total"]:])
        server.finish_all()

        assert run_cli(args) == 0
        ids = server.submitted_ids

    run_dir = only_run_dir(tmp_path)
    assert len(ids) == len(set(ids)), "a request was submitted twice"
    entries = journal(run_dir)
    recorded = [e["batch_id"] for e in entries if e["event"] == "submitted"]
    assert recorded == list(server.batches) and len(recorded) == len(set(recorded))
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["batch"]["requests_resumed"] >= len(in_flight)
    records = read_records(run_dir)
    assert len(records) == 6 and all(r["error"] is None for r in records)

    with good_server("intermediate") as live:  # and the answers are those of a live run
        assert run_cli(cli_args(live, tmp_path / "live", *INTERMEDIATE, n=6)) == 0
    assert graded(records) == graded(read_records(only_run_dir(tmp_path / "live")))
