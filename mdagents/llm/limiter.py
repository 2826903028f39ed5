"""An in-flight cap that halves on rate limiting (429) and creeps back up on success."""

from __future__ import annotations

import asyncio


class AdaptiveLimiter:
    def __init__(self, max_in_flight: int, *, recover_after: int = 20) -> None:
        if max_in_flight < 1:
            raise ValueError("max_in_flight must be >= 1")
        self.max_in_flight = max_in_flight
        self.limit = max_in_flight
        self.in_flight = 0
        self.recover_after = recover_after
        self._successes = 0
        self._cond: asyncio.Condition | None = None

    def _condition(self) -> asyncio.Condition:
        if self._cond is None:
            self._cond = asyncio.Condition()
        return self._cond

    async def __aenter__(self) -> AdaptiveLimiter:
        cond = self._condition()
        async with cond:
            await cond.wait_for(lambda: self.in_flight < self.limit)
            self.in_flight += 1
        return self

    async def __aexit__(self, exc_type, exc, tb) -> None:  # type: ignore[no-untyped-def]
        cond = self._condition()
        async with cond:
            self.in_flight -= 1
            if exc_type is None:
                self._successes += 1
                if self.limit < self.max_in_flight and self._successes >= self.recover_after:
                    self.limit += 1
                    self._successes = 0
            cond.notify_all()

    def throttle(self) -> None:
        """Called on a 429: halve the cap (never below 1)."""
        self.limit = max(1, self.limit // 2)
        self._successes = 0
