"""A 429 delays only what it must: the rejected call's question, not the run, and not the cap."""

from __future__ import annotations

import json
from pathlib import Path

from mdagents.cli import main
from mdagents.llm.limiter import AdaptiveLimiter, StormWatch
from mdagents.llm.shared_limits import HubLimiter
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


def test_lending_counts_a_question_once_and_stops_at_four_times_the_concurrency() -> None:
    waiting = QuestionsWaiting()
    first, second = waiting.hook(), waiting.hook()
    first(True)
    first(True)  # two calls of one question sleeping: one question waiting
    assert waiting.count == 1
    assert not waiting.full(2, concurrency=2)  # two in flight, one of them waiting: room for one more
    second(True)
    assert waiting.full(4, concurrency=2)  # two at work, two waiting
    first(False)
    assert waiting.count == 2  # its other call still sleeps
    first(False)
    assert waiting.count == 1 and waiting.full(3, concurrency=2)


def test_a_sprinkle_of_429s_lends_beyond_twice_the_concurrency() -> None:
    # With 5% of requests answered 429 a question waits about as long as it works: at 16 places,
    # 16 at work and 20 waiting out a Retry-After is the normal state, not a storm.
    waiting = QuestionsWaiting()
    for _ in range(20):
        waiting.hook()(True)
    assert not waiting.full(35, concurrency=16)
    assert waiting.full(36, concurrency=16)  # 16 at work
    for _ in range(40):
        waiting.hook()(True)
    assert waiting.full(64, concurrency=16)  # never more than four times --concurrency in flight


def test_a_storm_of_429s_lends_nothing() -> None:
    waiting = QuestionsWaiting()
    for _ in range(10):
        waiting.hook()(True)
    assert not waiting.full(12, concurrency=4)
    assert waiting.full(12, concurrency=4, storm=True)  # waiting questions keep their places


def test_a_limiter_is_saturated_by_a_storm_not_by_a_sprinkle() -> None:
    limiter = AdaptiveLimiter(32)
    for i in range(100):  # every 20th response a 429
        limiter.in_flight += 1
        limiter.release(success=True)
        if i % 20 == 19:
            limiter.throttle()
        assert not limiter.saturated
    for _ in range(5):
        limiter.throttle()
    assert limiter.saturated
    for _ in range(20):  # the endpoint recovered: the 429s leave the window
        limiter.in_flight += 1
        limiter.release(success=True)
    assert not limiter.saturated


def test_a_run_on_a_shared_hub_sees_its_own_storms() -> None:
    class Calls:
        def throttle(self, key: str) -> None: ...
        def release(self, key: str, token: str, success: bool) -> None: ...

    limiter = HubLimiter(Calls(), "openai x")  # type: ignore[arg-type]
    limiter.release(success=True)
    assert not limiter.saturated
    for _ in range(5):
        assert not limiter.saturated  # a run's first 429s are no storm yet
        limiter.throttle()
    assert limiter.saturated  # five 429s in a window of twenty
    watch = StormWatch(share=0.5, recent=4)
    watch.record(True)
    assert watch.storm and not watch.saturated  # the first response: the cap halves, lending goes on
    for throttled in (True, False, False, False):
        watch.record(throttled)
    assert not watch.storm  # one of the two 429s left the window of the last four


def test_questions_waiting_out_retry_after_do_not_hold_back_the_others(tmp_path: Path) -> None:
    """At --concurrency 1, three questions in a row meet a 429: all three wait at once and the fourth runs
    meanwhile (at twice the concurrency, the third waited for the first to finish: about twice the wall)."""
    with good_server(difficulty="basic") as server:
        server.fail_next(429, times=3, headers={"Retry-After": "1.5"})
        assert main(cli_args(server, tmp_path, *ONE_CALL, "--concurrency", "1", n=4)) == 0
    run_dir = only_run_dir(tmp_path)
    records = read_records(run_dir)
    assert len(records) == 4 and all(r["correct"] for r in records)
    wall = json.loads((run_dir / "summary.json").read_text())["wall_s"]
    assert 1.5 <= wall < 2.6
