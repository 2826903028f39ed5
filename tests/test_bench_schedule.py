"""The benchmark's zero-overhead schedule: the bound it reports must be right, or its verdicts are."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

# bench/ is not a package: load the module by path, without putting bench/ on sys.path.
_SPEC = importlib.util.spec_from_file_location(
    "bench_schedule", Path(__file__).resolve().parent.parent / "bench" / "schedule.py")
assert _SPEC is not None and _SPEC.loader is not None
schedule = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(schedule)
stage_widths, zero_overhead_makespan = schedule.stage_widths, schedule.zero_overhead_makespan
stages_of_calls, makespan_with_rejections = schedule.stages_of_calls, schedule.makespan_with_rejections

INTERMEDIATE = [1, 5, 5, 5, 1]  # recruiter, opinions, debate decisions, final answers, moderator


def test_one_question_takes_its_chain() -> None:
    assert zero_overhead_makespan([INTERMEDIATE], concurrency=1, max_connections=32, latency=0.1) == pytest.approx(0.5)


def test_a_narrow_cap_splits_stages() -> None:
    # 5-wide stages through 2 connections take 3 steps each: 1 + 1 + 3 + 3 + 3.
    assert zero_overhead_makespan([INTERMEDIATE], concurrency=1, max_connections=2, latency=1.0) == 11.0
    # One connection: one call at a time.
    assert zero_overhead_makespan([INTERMEDIATE] * 3, concurrency=3, max_connections=1, latency=1.0) == 51.0


def test_questions_in_slots_without_a_binding_cap() -> None:
    # 50 questions of chain 5 on 16 slots: ceil(50 / 16) = 4 rounds of 5 steps.
    assert zero_overhead_makespan([INTERMEDIATE] * 50, concurrency=16, max_connections=80,
                                  latency=0.1) == pytest.approx(2.0)


def test_binding_cap_costs_more_than_the_fluid_bound() -> None:
    makespan = zero_overhead_makespan([INTERMEDIATE] * 50, concurrency=16, max_connections=32, latency=0.1)
    fluid = 50 * sum(INTERMEDIATE) * 0.1 / 32
    assert makespan >= fluid
    assert makespan == pytest.approx(2.9)  # the ramp-up and the tail leave connections idle


def test_stage_widths_from_start_times() -> None:
    starts = [0.001, 1.003, 2.004, 2.005, 2.006, 3.010, 3.012]
    assert stage_widths(starts, 1.0) == [1, 1, 3, 2]


def test_stages_from_call_times_ignore_the_harness_time_between_them() -> None:
    # A recruiter, two experts started 1 ms apart, then a moderator that waited for both.
    calls = [(0.0, 0.1), (0.13, 0.23), (0.131, 0.24), (0.26, 0.36)]
    assert stages_of_calls(calls) == [1, 2, 1]


def test_without_rejections_the_schedule_is_the_zero_overhead_one() -> None:
    questions = [INTERMEDIATE] * 50
    assert makespan_with_rejections(questions, concurrency=16, step=0.1, reject_every=0, retry_after=1.0) == \
        pytest.approx(zero_overhead_makespan(questions, concurrency=16, max_connections=1000, latency=0.1))


def test_a_rejected_call_costs_its_question_the_retry_after_and_lends_its_place() -> None:
    # Two one-call questions on one place; the first request (number 3) is rejected: it is sent again 1 s after
    # its 429 (0.1 + 1 + 0.1) while the second question runs in the lent place.
    assert makespan_with_rejections([[1], [1]], concurrency=1, step=0.1, reject_every=3, retry_after=1.0,
                                    first=2) == pytest.approx(1.2)
    # No rejection: one after the other.
    assert makespan_with_rejections([[1], [1]], concurrency=1, step=0.1, reject_every=0,
                                    retry_after=1.0) == pytest.approx(0.2)
