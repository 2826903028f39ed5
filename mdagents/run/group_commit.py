"""Group commit: finished questions are made durable in a writer thread, many per fsync.

An fsync takes milliseconds (tens on a busy disk); made on the event loop, it stalls every
question in flight. Here the event loop only hands a finished question over and awaits its
future; a writer thread writes whatever has queued up meanwhile: each transcript, then all
the records as one write and one fsync, then the run's checkpoint (its totals). Only then
are the futures resolved, so a question counts as done only once it is on disk: a kill at
any moment loses nothing that was reported finished.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol


class DurableFiles(Protocol):
    """What the writer needs of a run directory."""

    def write_transcript(self, sample_id: str, calls: list[dict[str, Any]]) -> None: ...
    def append_many(self, records: list[dict[str, Any]]) -> None: ...


@dataclass
class _Finished:
    sample_id: str
    record: dict[str, Any]
    transcript: list[dict[str, Any]]
    loop: asyncio.AbstractEventLoop
    done: asyncio.Future[None]


_STOP = object()


class GroupCommitWriter:
    """A writer thread for one run directory; `save` returns once the question is durable."""

    def __init__(self, files: DurableFiles, checkpoint: Callable[[], None] | None = None) -> None:
        """`checkpoint`: called in the writer after each durable batch (e.g. to save the run's totals)."""
        self.files = files
        self.checkpoint = checkpoint
        self.batches = 0  # how many fsync'd batches were written (several questions may share one)
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    async def save(self, sample_id: str, record: dict[str, Any], transcript: list[dict[str, Any]]) -> None:
        """Queue one finished question and wait until its transcript and record are on disk.

        A task cancelled while waiting does not withdraw the question: it is still written."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        # A run that stops cancels the questions waiting here; a write that then fails must not be
        # reported as an exception nobody retrieved (the run reports the failure once, itself).
        done.add_done_callback(lambda future: future.cancelled() or future.exception())
        self._start()
        self._queue.put(_Finished(sample_id, record, transcript, loop, done))
        await asyncio.shield(done)

    def _start(self) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._work, name="results-writer", daemon=True)
                self._thread.start()

    def close(self) -> None:
        """Write what is queued, then stop the thread (a later `save` starts it again)."""
        with self._lock:
            thread, self._thread = self._thread, None
        if thread is not None:
            self._queue.put(_STOP)
            thread.join()

    def _work(self) -> None:
        while True:
            batch = [self._queue.get()]
            while not self._queue.empty():
                batch.append(self._queue.get_nowait())
            finished = [item for item in batch if item is not _STOP]
            if finished:
                self._commit(finished)
            if len(finished) < len(batch):
                return

    def _commit(self, batch: list[_Finished]) -> None:
        """Transcripts first, then the records of every question whose transcript is on disk, in one write
        and one fsync: a write that fails (disk full) fails the questions it had not yet stored, and the
        ones stored before it stay done."""
        written: list[_Finished] = []
        error: BaseException | None = None
        try:
            for item in batch:
                self.files.write_transcript(item.sample_id, item.transcript)
                written.append(item)
        except BaseException as exc:  # disk full, permissions: the questions not stored get the error
            error = exc
        try:
            if written:
                self.files.append_many([item.record for item in written])
                self.batches += 1
        except BaseException as exc:
            error, written = exc, []
        try:
            if written and self.checkpoint is not None:
                self.checkpoint()
        except OSError as exc:  # the records are stored; the totals catch up with the next batch
            error = error or exc
        for item in batch:
            try:
                item.loop.call_soon_threadsafe(_settle, item.done, None if item in written else error)
            except RuntimeError:  # the event loop is gone (the run ended): nobody is waiting
                pass


def _settle(done: asyncio.Future[None], error: BaseException | None) -> None:
    if done.done():
        return
    if error is None:
        done.set_result(None)
    else:
        done.set_exception(error)
