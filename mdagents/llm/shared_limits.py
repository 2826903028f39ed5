"""One in-flight cap per provider endpoint, shared by runs in other threads or other processes.

A sweep runs several cells at once; each cell has its own event loop (a thread) or its own
process (a Ray task). The caps must still be shared, so they live in one place, a `LimitsHub`
with its own event loop, and each run reaches them through a `HubLimiter`, which has the
`AdaptiveLimiter` interface the LLM client uses. The hub runs in a background thread for a local
sweep (`LocalHub`) and inside a Ray actor for a Ray sweep; only the transport (`HubCalls`) differs.

The hub's methods are coroutines so that, in a Ray actor too, they all run in the hub's loop.
Every acquire carries a token, so a caller cancelled while its grant is on the way gives the slot
back (`cancel`) instead of leaking it.
"""

from __future__ import annotations

import asyncio
import threading
import uuid
from collections.abc import Awaitable, Callable, Mapping
from typing import Protocol

from mdagents.llm.limiter import AdaptiveLimiter, StormWatch, request_priority


def endpoint_key(provider: str, base_url: str | None) -> str:
    """The name of one rate-limited endpoint: provider and base URL."""
    return f"{provider} {base_url or '(default endpoint)'}"


class LimitsHub:
    """The shared caps, each an AdaptiveLimiter living in the hub's event loop."""

    def __init__(self, caps: Mapping[str, int], default_cap: int = 32) -> None:
        self.caps = dict(caps)
        self.default_cap = default_cap
        self._limiters: dict[str, AdaptiveLimiter] = {}
        self._waiting: dict[str, asyncio.Task[None]] = {}
        self._granted: dict[str, str] = {}  # token -> key, until released
        self._cancelled_early: set[str] = set()

    def _limiter(self, key: str) -> AdaptiveLimiter:
        if key not in self._limiters:
            self._limiters[key] = AdaptiveLimiter(self.caps.get(key, self.default_cap))
        return self._limiters[key]

    async def acquire(self, key: str, token: str, priority: int = 0) -> None:
        if token in self._cancelled_early:
            self._cancelled_early.discard(token)
            return
        task = asyncio.current_task()
        assert task is not None
        self._waiting[token] = task
        request_priority.set(priority)
        try:
            await self._limiter(key).acquire()
        finally:
            self._waiting.pop(token, None)
        self._granted[token] = key

    async def cancel(self, token: str) -> None:
        """The caller gave up on `token`: stop waiting, or hand back a slot granted meanwhile."""
        if token in self._waiting:
            self._waiting[token].cancel()
        elif token in self._granted:
            self._limiter(self._granted.pop(token)).release(success=False)
        else:
            self._cancelled_early.add(token)

    async def release(self, key: str, token: str, success: bool) -> None:
        if self._granted.pop(token, None) is not None:
            self._limiter(key).release(success=success)

    async def throttle(self, key: str) -> None:
        self._limiter(key).throttle()

    def in_flight(self) -> dict[str, int]:
        return {key: limiter.in_flight for key, limiter in self._limiters.items()}


class HubCalls(Protocol):
    """How a run talks to a hub somewhere else (another thread's loop, a Ray actor)."""

    def acquire(self, key: str, token: str, priority: int) -> Awaitable[None]: ...
    def cancel(self, token: str) -> None: ...
    def release(self, key: str, token: str, success: bool) -> None: ...
    def throttle(self, key: str) -> None: ...


class HubLimiter:
    """The AdaptiveLimiter interface over a remote hub, for one endpoint."""

    def __init__(self, calls: HubCalls, key: str) -> None:
        self.calls = calls
        self.key = key
        self._held: list[str] = []
        self.storms = StormWatch()  # this run's own responses: the hub's state is in another loop

    async def acquire(self) -> None:
        token = uuid.uuid4().hex
        try:
            await self.calls.acquire(self.key, token, request_priority.get())
        except asyncio.CancelledError:
            self.calls.cancel(token)
            raise
        self._held.append(token)

    def release(self, *, success: bool) -> None:
        # Slots are interchangeable: any token this limiter holds stands for the one being released.
        if success:
            self.storms.record(False)
        if self._held:
            self.calls.release(self.key, self._held.pop(), success)

    def throttle(self) -> None:
        self.storms.record(True)
        self.calls.throttle(self.key)

    @property
    def saturated(self) -> bool:
        return self.storms.saturated


class LocalHub:
    """A LimitsHub in a background thread's event loop, for runs in other threads of this process."""

    def __init__(self, caps: Mapping[str, int]) -> None:
        self.hub = LimitsHub(caps)
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name="shared-limits", daemon=True)
        self._thread.start()

    def acquire(self, key: str, token: str, priority: int) -> Awaitable[None]:
        future = asyncio.run_coroutine_threadsafe(self.hub.acquire(key, token, priority), self.loop)
        return asyncio.wrap_future(future)

    def cancel(self, token: str) -> None:
        asyncio.run_coroutine_threadsafe(self.hub.cancel(token), self.loop)

    def release(self, key: str, token: str, success: bool) -> None:
        asyncio.run_coroutine_threadsafe(self.hub.release(key, token, success), self.loop)

    def throttle(self, key: str) -> None:
        asyncio.run_coroutine_threadsafe(self.hub.throttle(key), self.loop)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout=5)
        if not self.loop.is_running():
            self.loop.close()


def limiter_source(calls: HubCalls) -> Callable[[str, str | None, int], HubLimiter]:
    """What `factory.limiters_from` takes: (provider, base_url, max_connections) -> the endpoint's limiter."""
    return lambda provider, base_url, _max: HubLimiter(calls, endpoint_key(provider, base_url))
