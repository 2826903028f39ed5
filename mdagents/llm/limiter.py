"""An in-flight cap that backs off on rate limiting (429) and creeps back up on success (AIMD).

A 429 delays only what it must. The rejected request waits what its own `retry-after` says, and
while it waits its question lends its place to another (`retry_wait`, which the runner watches).
The cap is for an endpoint that is saturated, not for a stray 429: it halves only when 429s make at
least `storm_share` of the last `recent` responses (`StormWatch`, which also tells the runner to
stop lending places once 5 of the last 20 were 429s), at most once per window (the requests
already in flight when it halved report their 429s too, and count as the same event), never below
a floor, and grows by one after every `recover_after` successes.

Single-threaded asyncio needs no lock: the check and the increment happen between awaits.
Waiters are served by priority, then first come first served. The runner gives each question
its position in the run as priority (through `request_priority`), so when the cap binds the
calls of questions that started earlier go first: those questions finish and make room,
instead of every question in flight advancing in lockstep. The limiter follows the running
event loop, so one process can run several `asyncio.run` sweeps (notebooks, tests, benchmarks).
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Protocol

# Lower goes first; tasks inherit it from the task that set it (the runner, per question).
request_priority: ContextVar[int] = ContextVar("request_priority", default=0)
# Told True when a call of this question starts sleeping out a retry delay, False when it stops
# (the runner, per question: a question that only waits on the clock does not hold back others).
retry_wait: ContextVar[Callable[[bool], None] | None] = ContextVar("retry_wait", default=None)


@contextmanager
def waiting_out_retry() -> Iterator[None]:
    """Around a retry's sleep: the question it belongs to is waiting on the clock, not working."""
    hook = retry_wait.get()
    if hook is None:
        yield
        return
    hook(True)
    try:
        yield
    finally:
        hook(False)


class InFlightLimit(Protocol):
    """What the LLM client needs of a limiter (an AdaptiveLimiter, or a proxy to a shared one)."""

    async def acquire(self) -> None: ...
    def release(self, *, success: bool) -> None: ...
    def throttle(self) -> None: ...
    @property
    def saturated(self) -> bool: ...


class StormWatch:
    """The last `recent` responses of an endpoint, and whether 429s make at least `share` of them.

    A stray 429 (a 5% sprinkle) never makes a storm. `storm` judges the responses seen so far (the
    run's very first response being a 429 is one); `saturated` waits for share × recent 429s
    (5 of the last 20), so that a run's first few 429s are not taken for a saturated endpoint."""

    def __init__(self, share: float = 0.25, recent: int = 20) -> None:
        self.share = share
        self._recent: deque[bool] = deque(maxlen=recent)  # the last responses: True for a 429
        self._throttled = 0  # 429s among them

    def record(self, throttled: bool) -> None:
        if len(self._recent) == self._recent.maxlen:
            self._throttled -= self._recent[0]
        self._recent.append(throttled)
        self._throttled += throttled

    @property
    def storm(self) -> bool:
        return self._throttled > 0 and self._throttled >= self.share * len(self._recent)

    @property
    def saturated(self) -> bool:
        return self._throttled > 0 and self._throttled >= self.share * (self._recent.maxlen or 1)


class AdaptiveLimiter:
    def __init__(self, max_in_flight: int, *, recover_after: int = 20, window_s: float = 2.0,
                 floor: int | None = None, storm_share: float = 0.25, recent: int = 20) -> None:
        if max_in_flight < 1:
            raise ValueError("max_in_flight must be >= 1")
        self.max_in_flight = max_in_flight
        self.limit = max_in_flight
        self.window_s = window_s
        self.floor = floor if floor is not None else max(1, max_in_flight // 8)
        self._last_decrease = -float("inf")
        self.in_flight = 0
        self.recover_after = recover_after
        self._successes = 0
        self.storms = StormWatch(storm_share, recent)
        self._waiters: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._loop: asyncio.AbstractEventLoop | None = None

    def _bind(self) -> asyncio.AbstractEventLoop:
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # a new event loop: nothing of the old one is still in flight
            self._loop, self.in_flight, self._waiters = loop, 0, []
        return loop

    async def acquire(self) -> None:
        loop = self._bind()
        if self.in_flight < self.limit and not self._waiters:
            self.in_flight += 1
            return
        waiter: asyncio.Future[None] = loop.create_future()
        heapq.heappush(self._waiters, (request_priority.get(), next(self._order), waiter))
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self.release(success=False)  # the slot was handed over just as we were cancelled
            # A cancelled waiter still in the heap is skipped when it comes up.
            raise

    def release(self, *, success: bool) -> None:
        self.in_flight -= 1
        if success:
            self.storms.record(False)
            self._successes += 1
            if self.limit < self.max_in_flight and self._successes >= self.recover_after:
                self.limit += 1
                self._successes = 0
        self._wake()

    def _wake(self) -> None:
        while self._waiters and self.in_flight < self.limit:
            _, _, waiter = heapq.heappop(self._waiters)
            if not waiter.done():
                self.in_flight += 1
                waiter.set_result(None)

    def throttle(self) -> None:
        """Called on a 429: halve the cap if the endpoint is saturated (a storm of 429s, not a stray
        one), at most once per window and never below the floor."""
        self.storms.record(True)
        if not self.storms.storm:
            return
        now = time.monotonic()
        if now - self._last_decrease < self.window_s:
            return
        self._last_decrease = now
        self.limit = max(self.floor, self.limit // 2)
        self._successes = 0

    @property
    def saturated(self) -> bool:
        """A storm of 429s: the runner stops lending the places of questions that wait them out."""
        return self.storms.saturated

    async def __aenter__(self) -> AdaptiveLimiter:
        await self.acquire()
        return self

    async def __aexit__(self, exc_type, exc, tb) -> None:  # type: ignore[no-untyped-def]
        self.release(success=exc_type is None)
