"""A 429 delays only what it must: the rejected call's question, not the run, and not the cap."""

from __future__ import annotations

from pathlib import Path

from mdagents.cli import main
from mdagents.llm.limiter import AdaptiveLimiter
from mdagents.run.runner import QuestionsWaiting
from tests.runs_helpers import cli_args, good_server, only_run_dir, read_records

ONE_CALL = ("--difficulty", "basic", "--num-exemplars", "0")


def test_a_question_waiting_out_retry_after_lends_its_place(tmp_path: Path) -> None:
    with good_server(difficulty="basic") as server:
        server.fail_next(429, headers={"Retry-After": "1.5"})  # the first question's only call
        assert main(cli_args(server, tmp_path, *ONE_CALL, "--concurrency", "1", n=4)) == 0
    records = read_records(only_run_dir(tmp_path))
    assert len(records) == 4 and all(r["correct"] for r in records)
    first = min(records, key=lambda r: r["id"])
    # The three other questions ran (one at a time) while the first waited out its Retry-After,
    # so it finished last.
    assert records[-1]["id"] == first["id"]
    assert first["latency_s"] >= 1.5
    assert sum(r["latency_s"] for r in records[:-1]) < 1.5


def test_a_stray_429_leaves_the_cap_alone_and_a_storm_halves_it() -> None:
    limiter = AdaptiveLimiter(32, window_s=0.0)
    for _ in range(19):
        limiter.in_flight += 1
        limiter.release(success=True)
    limiter.throttle()  # 1 in 20: the rejected call waits its Retry-After, the other calls go on
    assert limiter.limit == 32
    for _ in range(5):  # 6 of the last 20 responses were 429s: the endpoint is saturated
        limiter.throttle()
    assert limiter.limit < 32


def test_lending_counts_a_question_once_and_stops_at_twice_the_concurrency() -> None:
    waiting = QuestionsWaiting()
    first, second = waiting.hook(), waiting.hook()
    first(True)
    first(True)  # two calls of one question sleeping: one question waiting
    assert waiting.count == 1
    assert not waiting.full(2, concurrency=2)  # two in flight, one of them waiting: room for one more
    second(True)
    assert waiting.full(4, concurrency=2)  # every question may be waiting: never more than twice in flight
    first(False)
    assert waiting.count == 2  # its other call still sleeps
    first(False)
    assert waiting.count == 1 and waiting.full(3, concurrency=2)
