"""Waves: queued calls of every question in flight, gathered into one batch per model and sent together.

A call waits in the queue; once no new call has been queued for a short quiet spell (every
question in flight is waiting on a reply) and no batch is out, the queue is flushed: one batch
per provider+model, submitted, recorded in the run directory, polled with backoff, and each
waiting call woken with its result. A multi-agent debate then advances one step per wave for
all questions at once, so the number of waves is the longest chain of dependent calls.

A call whose request an earlier session already submitted (same custom_id, in the journal)
joins that batch instead of being sent again.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mdagents.errors import BudgetExceeded, ProviderError
from mdagents.llm.batch.backend import CANCELLED, EXPIRED, FAILED, BatchBackend, BatchState, Result
from mdagents.llm.batch.journal import BatchJournal, Recorded
from mdagents.llm.budget import Budget
from mdagents.llm.types import Completion


@dataclass(frozen=True)
class BatchOptions:
    """How long to gather calls, and how to poll."""

    quiet_s: float = 0.2  # no new call for this long: every question in flight is waiting
    poll_s: float = 5.0  # first poll this long after submitting
    max_poll_s: float = 60.0  # polls back off (x1.5) up to this interval
    max_requests: int = 50_000  # a batch never holds more (OpenAI's limit per batch)
    max_wait_s: float = 3600.0  # a queued call waits at most this long for the batches out to finish


@dataclass
class _Request:
    custom_id: str
    backend: BatchBackend
    body: dict[str, Any]
    estimate: float  # USD at the batch price, for --max-cost before submitting
    waiters: list[asyncio.Future[Completion]] = field(default_factory=list)
    queued_at: float = field(default_factory=time.monotonic)


@dataclass
class BatchStats:
    waves: int = 0
    batches_submitted: int = 0
    batches_done: int = 0
    requests_submitted: int = 0
    requests_resumed: int = 0  # calls answered by a batch an earlier session submitted
    requests_failed: int = 0  # requests that came back with an error (retried in a later wave)
    expired: int = 0
    cancelled: int = 0

    def to_dict(self) -> dict[str, int]:
        return dict(self.__dict__)


class BatchScheduler:
    def __init__(self, journal_path: Path, *, options: BatchOptions | None = None, budget: Budget | None = None,
                 log: Callable[[str], None] = lambda text: None) -> None:
        self.options = options or BatchOptions()
        self.budget = budget
        self.log = log
        self.journal = BatchJournal(journal_path)
        self.stats = BatchStats()
        self._recorded: dict[str, Recorded] = self.journal.recorded()
        self._recorded_ids = {cid: r.batch_id for r in self._recorded.values() for cid in r.custom_ids}
        self._queue: dict[str, _Request] = {}
        self._waiting: dict[str, _Request] = {}  # submitted (or adopted), reply not yet back
        self._ready: dict[str, Completion] = {}  # replies of adopted batches no call has asked for yet
        self._out: dict[str, asyncio.Task[None]] = {}  # batch id -> its polling task
        self._backends: dict[str, BatchBackend] = {}  # batch id -> where it was sent
        self._submitting: set[asyncio.Task[None]] = set()
        self._reserved = 0.0  # estimated cost of requests submitted and not yet paid
        self._last_activity = time.monotonic()
        self._flusher: asyncio.Task[None] | None = None

    async def complete(self, backend: BatchBackend, custom_id: str, body: dict[str, Any],
                       estimate: float = 0.0) -> Completion:
        """The reply to one request, once the wave that carries it has come back."""
        if custom_id in self._ready:
            self.stats.requests_resumed += 1
            return self._ready.pop(custom_id)
        future: asyncio.Future[Completion] = asyncio.get_running_loop().create_future()
        known = self._queue.get(custom_id) or self._waiting.get(custom_id)
        if known is not None:  # the same request twice at once: one request, two replies
            known.waiters.append(future)
        elif (batch_id := self._recorded_ids.get(custom_id)) is not None:
            self._waiting[custom_id] = _Request(custom_id, backend, body, 0.0, [future])
            self.stats.requests_resumed += 1
            self._adopt(backend, self._recorded[batch_id])
        else:
            self._queue[custom_id] = _Request(custom_id, backend, body, estimate, [future])
            self._touch()
            if self._flusher is None or self._flusher.done():
                self._flusher = asyncio.create_task(self._flush_when_quiet())
        return await future

    # -- gathering and submitting ---------------------------------------------------------

    def _touch(self) -> None:
        self._last_activity = time.monotonic()

    def _ready_to_flush(self) -> bool:
        if not self._queue:
            return False
        now = time.monotonic()
        if now - self._last_activity < self.options.quiet_s:
            return False
        oldest = min(r.queued_at for r in self._queue.values())
        return not (self._out or self._submitting) or len(self._queue) >= self.options.max_requests or \
            now - oldest >= self.options.max_wait_s

    async def _flush_when_quiet(self) -> None:
        while self._queue:
            await asyncio.sleep(self.options.quiet_s)
            if self._ready_to_flush():
                self._flush()

    def _flush(self) -> None:
        """One wave: the queue split by model (and by the batch size limit), each part submitted."""
        self.stats.waves += 1
        groups: dict[str, list[_Request]] = {}
        for request in self._queue.values():
            groups.setdefault(request.backend.key, []).append(request)
        self._queue = {}
        for requests in groups.values():
            for start in range(0, len(requests), self.options.max_requests):
                part = self._affordable(requests[start:start + self.options.max_requests])
                if part:
                    task = asyncio.create_task(self._submit_and_collect(part, self.stats.waves))
                    self._submitting.add(task)
                    task.add_done_callback(self._submitting.discard)

    def _affordable(self, requests: list[_Request]) -> list[_Request]:
        """The requests --max-cost still allows, counting what is already out; the rest stop the run's budget."""
        if self.budget is None or self.budget.limit is None:
            return requests
        room = self.budget.limit - self.budget.spent - self._reserved
        kept: list[_Request] = []
        for request in requests:
            if request.estimate <= room:
                kept.append(request)
                room -= request.estimate
            else:
                _fail(request, BudgetExceeded(
                    f"--max-cost ${self.budget.limit:g}: the queued calls would exceed it "
                    f"(${self.budget.spent:.6f} spent, ${self._reserved:.6f} in batches out): not submitted"))
        self._reserved += sum(r.estimate for r in kept)
        return kept

    async def _submit_and_collect(self, requests: list[_Request], wave: int) -> None:
        task = asyncio.current_task()
        backend = requests[0].backend
        ids = [r.custom_id for r in requests]
        try:
            try:
                batch_id = await backend.submit([r.body for r in requests])
            except ProviderError as exc:
                for request in requests:
                    _fail(request, exc)
                return
            self.journal.submitted(batch_id, backend.key, ids, wave)
            self._recorded_ids.update(dict.fromkeys(ids, batch_id))
            if task is not None:
                self._out[batch_id] = task
                self._submitting.discard(task)
            self._backends[batch_id] = backend
            self._waiting.update({r.custom_id: r for r in requests})
            self.stats.batches_submitted += 1
            self.stats.requests_submitted += len(requests)
            self.log(f"batch wave {wave}: submitted {batch_id} to {backend.key} ({len(requests)} requests) · "
                     f"{self._progress()}")
            await self._collect(backend, batch_id, ids)
        finally:
            self._reserved = max(0.0, self._reserved - sum(r.estimate for r in requests))

    def _adopt(self, backend: BatchBackend, recorded: Recorded) -> None:
        """Follow a batch an earlier session submitted (once), instead of sending its requests again."""
        if recorded.batch_id in self._out:
            return
        self._backends[recorded.batch_id] = backend
        self.log(f"batch: resuming {recorded.batch_id} ({len(recorded.custom_ids)} requests, submitted earlier)")
        self._out[recorded.batch_id] = asyncio.create_task(
            self._collect(backend, recorded.batch_id, recorded.custom_ids))

    # -- waiting and waking ---------------------------------------------------------------

    async def _collect(self, backend: BatchBackend, batch_id: str, ids: list[str]) -> None:
        """Poll with backoff until the batch ends, then hand each request its reply (or its error)."""
        results: dict[str, Result] = {}
        state: BatchState | None = None
        try:
            state = await self._wait(backend, batch_id)
            if state.status != FAILED:
                results = await backend.results(state)
        except ProviderError as exc:  # the batch cannot be read (e.g. gone): its requests go out again
            results = dict.fromkeys(ids, ProviderError(str(exc), status=exc.status, retryable=True,
                                                       unreachable=exc.unreachable))
        finally:
            self._out.pop(batch_id, None)
        status = state.status if state else FAILED
        self.journal.ended(batch_id, status, state.counts if state else {})
        self.stats.batches_done += 1
        self.stats.expired += status == EXPIRED
        self.stats.cancelled += status == CANCELLED
        why = {EXPIRED: "the batch expired before this request ran",
               CANCELLED: "the batch was cancelled before this request ran",
               FAILED: f"the batch failed{': ' + state.detail if state and state.detail else ''}"}
        for cid in ids:
            if self._recorded_ids.get(cid) == batch_id:
                del self._recorded_ids[cid]  # a request without a reply is sent again, in a new batch
            result = results.get(cid) or ProviderError(
                f"{backend.key}: {why.get(status, 'no result for this request')}", retryable=status != FAILED)
            request = self._waiting.pop(cid, None)
            if isinstance(result, ProviderError):
                self.stats.requests_failed += 1
                if request is not None:
                    _fail(request, result)
            elif request is not None:
                _resolve(request, result)
            else:
                self._ready[cid] = result  # paid in an earlier session: the call that needs it gets it
        self._touch()
        self.log(f"batch {batch_id} {status}: {sum(not isinstance(r, ProviderError) for r in results.values())} "
                 f"replies · {self._progress()}")

    async def _wait(self, backend: BatchBackend, batch_id: str) -> BatchState:
        delay = self.options.poll_s
        while True:
            await asyncio.sleep(delay)
            try:
                state = await backend.poll(batch_id)
            except ProviderError as exc:
                if not exc.retryable:
                    raise
            else:
                if state.done:
                    return state
            delay = min(delay * 1.5, self.options.max_poll_s)

    def _progress(self) -> str:
        out = len(self._out)
        return (f"wave {self.stats.waves} · batches: {self.stats.batches_submitted} submitted, {out} in progress, "
                f"{self.stats.batches_done} done")

    async def aclose(self) -> None:
        """Cancel the batches still out (a stopped run); their finished requests stay readable on re-run."""
        if self._flusher is not None:
            self._flusher.cancel()
        tasks = [*self._out.values(), *self._submitting]
        out = list(self._out)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for batch_id in out:
            with contextlib.suppress(ProviderError):
                await self._backends[batch_id].cancel(batch_id)
            self.log(f"batch {batch_id}: cancelled (the run stopped)")


def _resolve(request: _Request, completion: Completion) -> None:
    for waiter in request.waiters:  # each caller gets its own copy (the client stamps latency and calls on it)
        if not waiter.done():
            waiter.set_result(dataclasses.replace(completion, usage=dataclasses.replace(completion.usage),
                                                  raw=dict(completion.raw)))


def _fail(request: _Request, error: BaseException) -> None:
    for waiter in request.waiters:
        if not waiter.done():
            waiter.set_exception(error)

