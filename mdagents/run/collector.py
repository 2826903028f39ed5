"""Garbage collection tuned for the span of a run.

A run allocates thousands of short-lived objects per model call (the SDK's request and reply, the
prompt, the transcript entry), so CPython's default young-generation threshold (700 allocations)
collects after nearly every call, and each full collection walks every object alive since start-up
(imported modules, the questions, the exemplars). Against a fast server both sit on the critical
path: about a tenth of the harness's CPU per call (bench/throughput.py). For the run, the objects
alive at its start are frozen (never walked again) and the young generation is collected less
often; both are undone when the last run in progress ends (a sweep runs cells in threads), so a
notebook's interpreter is left as it was.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

YOUNG_THRESHOLD = 10_000

_lock = threading.Lock()
_runs = 0
_saved: tuple[int, ...] = ()


@contextmanager
def run_collection() -> Iterator[None]:
    """Freeze what is alive now and collect the young generation every YOUNG_THRESHOLD allocations."""
    global _runs, _saved
    with _lock:
        if _runs == 0:
            _saved = gc.get_threshold()
            gc.set_threshold(max(_saved[0], YOUNG_THRESHOLD), *_saved[1:])
        _runs += 1
        gc.freeze()
    try:
        yield
    finally:
        with _lock:
            _runs -= 1
            if _runs == 0:
                gc.set_threshold(*_saved)
                gc.unfreeze()
