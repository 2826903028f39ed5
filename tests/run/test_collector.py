"""A run tunes the garbage collector for its span only, and leaves the interpreter as it found it."""

from __future__ import annotations

import gc
import threading

from mdagents.run.collector import YOUNG_THRESHOLD, run_collection


def test_a_run_freezes_start_up_objects_and_collects_the_young_less_often() -> None:
    before, frozen_before = gc.get_threshold(), gc.get_freeze_count()
    with run_collection():
        assert gc.get_threshold()[0] == max(before[0], YOUNG_THRESHOLD)
        assert gc.get_threshold()[1:] == before[1:]
        assert gc.get_freeze_count() > frozen_before
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_the_settings_come_back_when_the_run_fails() -> None:
    before = gc.get_threshold()
    try:
        with run_collection():
            raise RuntimeError("the run stopped")
    except RuntimeError:
        pass
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


def test_overlapping_runs_in_threads_restore_the_settings_once_the_last_ends() -> None:
    """A sweep runs cells in threads: the first cell to end must not undo the tuning of the others,
    and the last must restore the thresholds found before the first began."""
    before = gc.get_threshold()
    inside, release = threading.Barrier(3), threading.Event()
    seen: list[tuple[int, ...]] = []

    def cell() -> None:
        with run_collection():
            inside.wait()
            release.wait()
            seen.append(gc.get_threshold())

    threads = [threading.Thread(target=cell) for _ in range(2)]
    for t in threads:
        t.start()
    inside.wait()
    release.set()
    for t in threads:
        t.join()
    assert len(seen) == 2 and all(s[0] == max(before[0], YOUNG_THRESHOLD) for s in seen)
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0
