"""Finished questions reach the disk off the event loop, several per fsync, and count only once durable."""

from __future__ import annotations

import asyncio
import itertools
import json
import threading
import time
from pathlib import Path

import pytest

from mdagents.run import store
from mdagents.run.store import RunDirectory


class SlowDisk:
    """os.fsync that takes `delay` seconds and notes which thread called it and when it returned."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, delay: float, fail: bool = False) -> None:
        self.delay, self.fail = delay, fail
        self.calls = 0
        self.threads: set[str] = set()
        self.returned_at: list[float] = []
        monkeypatch.setattr(store.os, "fsync", self)

    def __call__(self, fd: int) -> None:
        self.calls += 1
        self.threads.add(threading.current_thread().name)
        time.sleep(self.delay)
        if self.fail:
            raise OSError(28, "No space left on device")
        self.returned_at.append(time.monotonic())


def _run(tmp_path: Path, transcripts: str = "none") -> RunDirectory:
    run = RunDirectory(tmp_path / "run", transcripts=transcripts)
    run.prepare(fresh=False, retry_failed=False)
    return run


def test_questions_finished_together_share_one_fsync_and_the_loop_keeps_running(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    disk = SlowDisk(monkeypatch, delay=0.4)
    run = _run(tmp_path)
    ticks: list[float] = []
    saved_at: dict[str, float] = {}

    async def heartbeat() -> None:
        while True:
            ticks.append(time.monotonic())
            await asyncio.sleep(0.01)

    async def finish(i: int) -> None:
        await run.save(f"q{i}", {"id": f"q{i}"}, [])
        saved_at[f"q{i}"] = time.monotonic()

    async def main() -> None:
        beat = asyncio.create_task(heartbeat())
        await asyncio.sleep(0.02)
        await asyncio.gather(*(finish(i) for i in range(8)))
        beat.cancel()

    asyncio.run(main())
    run.close()
    assert disk.calls <= 2  # the eight records went to disk in one or two batches, not one fsync each
    assert disk.threads == {"results-writer"}
    assert max(b - a for a, b in itertools.pairwise(ticks)) < 0.3  # the event loop never waited on the disk
    # Each question was reported saved only after an fsync that covered it had returned.
    assert all(t >= disk.returned_at[0] for t in saved_at.values())
    assert sorted(json.loads(line)["id"] for line in run.results_path.read_text().splitlines()) == \
        sorted(f"q{i}" for i in range(8))


def test_transcript_is_on_disk_before_the_record_counts(tmp_path: Path) -> None:
    run = _run(tmp_path, transcripts="json")

    async def main() -> None:
        await run.save("q1", {"id": "q1"}, [{"role": "expert", "reply": "A"}])
        assert (run.transcripts / "q1.json").exists()
        assert json.loads(run.results_path.read_text()) == {"id": "q1"}

    asyncio.run(main())
    run.close()


def test_a_failed_write_reaches_the_question_and_leaves_no_half_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run = _run(tmp_path)
    run.append({"id": "kept"})
    SlowDisk(monkeypatch, delay=0.0, fail=True)

    async def main() -> None:
        with pytest.raises(OSError, match="No space left"):
            await run.save("q1", {"id": "q1"}, [])

    asyncio.run(main())
    run.close()
    assert run.results_path.read_text().endswith("\n")
    assert [json.loads(x) for x in run.results_path.read_text().splitlines()] == [{"id": "kept"}]


def test_close_writes_what_is_still_queued(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run cancelled while its last question waits for the disk still leaves that question saved."""
    SlowDisk(monkeypatch, delay=0.1)
    run = _run(tmp_path)

    async def main() -> None:
        task = asyncio.create_task(run.save("q1", {"id": "q1"}, []))
        await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())
    run.close()
    assert [json.loads(x)["id"] for x in run.results_path.read_text().splitlines()] == ["q1"]


def test_a_question_does_not_hold_its_place_while_its_record_reaches_the_disk(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """At --concurrency 1 on a slow disk, the next question runs while the last one's record is written:
    the writes of several questions share an fsync instead of following one another."""
    from mdagents.cli import main
    from tests.runs_helpers import cli_args, good_server, only_run_dir, read_records

    disk = SlowDisk(monkeypatch, 0.25)
    with good_server(difficulty="basic") as server:
        args = cli_args(server, tmp_path, "--difficulty", "basic", "--num-exemplars", "0", "--concurrency", "1", n=6)
        assert main(args) == 0
    run_dir = only_run_dir(tmp_path)
    assert len(read_records(run_dir)) == 6
    wall = json.loads((run_dir / "summary.json").read_text())["wall_s"]
    # One question after another, each question's transcript, record and totals wait for their own
    # fsyncs: 3 a question, 18 (4.5 s) in the runner's wall; overlapped, they share them.
    assert disk.calls < 18 and wall < 4.5
