"""An in-flight cap that halves on rate limiting (429) and creeps back up on success.

Single-threaded asyncio needs no lock: the check and the increment happen between awaits.
Waiters are served first come, first served. The limiter follows the running event loop, so
one process can run several `asyncio.run` sweeps (notebooks, tests, benchmarks).
"""

from __future__ import annotations

import asyncio
from collections import deque


class AdaptiveLimiter:
    def __init__(self, max_in_flight: int, *, recover_after: int = 20) -> None:
        if max_in_flight < 1:
            raise ValueError("max_in_flight must be >= 1")
        self.max_in_flight = max_in_flight
        self.limit = max_in_flight
        self.in_flight = 0
        self.recover_after = recover_after
        self._successes = 0
        self._waiters: deque[asyncio.Future[None]] = deque()
        self._loop: asyncio.AbstractEventLoop | None = None

    def _bind(self) -> asyncio.AbstractEventLoop:
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # a new event loop: nothing of the old one is still in flight
            self._loop, self.in_flight, self._waiters = loop, 0, deque()
        return loop

    async def acquire(self) -> None:
        loop = self._bind()
        if self.in_flight < self.limit and not self._waiters:
            self.in_flight += 1
            return
        waiter: asyncio.Future[None] = loop.create_future()
        self._waiters.append(waiter)
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self.release(success=False)  # the slot was handed over just as we were cancelled
            else:
                self._waiters.remove(waiter)
            raise

    def release(self, *, success: bool) -> None:
        self.in_flight -= 1
        if success:
            self._successes += 1
            if self.limit < self.max_in_flight and self._successes >= self.recover_after:
                self.limit += 1
                self._successes = 0
        self._wake()

    def _wake(self) -> None:
        while self._waiters and self.in_flight < self.limit:
            waiter = self._waiters.popleft()
            if not waiter.done():
                self.in_flight += 1
                waiter.set_result(None)

    def throttle(self) -> None:
        """Called on a 429: halve the cap (never below 1)."""
        self.limit = max(1, self.limit // 2)
        self._successes = 0

    async def __aenter__(self) -> AdaptiveLimiter:
        await self.acquire()
        return self

    async def __aexit__(self, exc_type, exc, tb) -> None:  # type: ignore[no-untyped-def]
        self.release(success=exc_type is None)
