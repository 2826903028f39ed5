"""Progress of a run: a bar on a terminal; elsewhere (CI, nohup, a redirected stderr) log lines.

The lines go through `logging` (logger `mdagents.progress`, to stderr), one every few seconds
and at every tenth of the run: done/total, errors, accuracy so far, spend, rate, ETA and the model
calls (done, in flight, retried, throttled, and the role of the latest call). A watcher thread keeps
both moving while no question finishes (a slow server, a long local question). `-q` silences both.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tqdm import tqdm

from mdagents.analysis.costs import record_costs
from mdagents.cli.logs import log_to_stderr
from mdagents.llm.prices import plus_known

if TYPE_CHECKING:
    from mdagents.run.activity import CallActivity
    from mdagents.run.session import RunHooks
logger = logging.getLogger("mdagents.progress")
BAR_REFRESH_S = 1.0  # how often the bar's call counts move between questions


def _duration(value: float) -> str:
    seconds = round(value)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}h{minutes:02d}m" if hours else f"{minutes}m{secs:02d}s" if minutes else f"{secs}s"


class Progress:
    """Follows a run through its hooks. `every`: seconds between lines when stderr is not a terminal."""

    def __init__(self, *, quiet: bool = False, every: float = 10.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.quiet = quiet
        self.every = every
        self.clock = clock
        self.bar: tqdm | None = None
        self.total = 0
        self.done = self.correct = self.failed = 0
        self.spent: float | None = 0.0
        self.started = self.last_line = 0.0
        self.lines = False
        self.activity: Callable[[], CallActivity] | None = None
        self._lock = threading.Lock()  # the watcher thread and the run both write lines and the bar
        self._stop = threading.Event()
        self._watcher: threading.Thread | None = None

    def hooks(self) -> RunHooks:
        from mdagents.run.session import RunHooks

        return RunHooks(note=lambda text: print(text, file=sys.stderr), start=self.start, record=self.record,
                        log=self.write, finish=self.finish, watch=self.watch)

    def watch(self, poll: Callable[[], CallActivity]) -> None:
        self.activity = poll

    def write(self, text: str) -> None:
        if self.bar is not None:
            tqdm.write(text)
        else:
            print(text)

    def start(self, total: int, label: str) -> None:
        self.total, self.started = total, self.clock()
        self.last_line = self.started
        if self.quiet or not total:  # nothing to run: the run has said it is complete
            return
        if sys.stderr.isatty():
            self.bar = tqdm(total=total, desc=label, unit="q", dynamic_ncols=True)
        else:
            log_to_stderr()
            self.lines = True
            logger.info("started: %d question(s) to run · %s", total, label)
        if self.activity is not None and (self.bar is not None or self.every > 0):  # 0: a line per question only
            self._watcher = threading.Thread(target=self._tick, name="mdagents-progress", daemon=True)
            self._watcher.start()

    def _tick(self) -> None:
        """Between questions: a line once `every` seconds passed without one, or the bar's call counts."""
        period = min(self.every, BAR_REFRESH_S) if self.every > 0 else BAR_REFRESH_S
        while not self._stop.wait(period):
            with self._lock:
                if self.bar is not None:
                    self._postfix()
                elif self.lines and self.clock() - self.last_line >= self.every:
                    self._line()

    def record(self, record: dict[str, Any]) -> None:
        self.done += 1
        self.correct += record.get("correct") is True
        self.failed += bool(record.get("error"))
        self.spent = plus_known(self.spent, record_costs(record)[1])  # paid, not replayed from the cache
        with self._lock:
            if self.bar is not None:
                self.bar.update(1)
                self._postfix()
            elif self.lines and self._due():
                self._line()

    def _postfix(self) -> None:
        assert self.bar is not None
        graded = self.done - self.failed
        fields: dict[str, Any] = {"acc": f"{self.correct / graded:.0%}" if graded else "-", "failed": self.failed}
        if self.activity is not None:
            calls = self.activity()
            fields |= {"calls": calls.done, "in_flight": calls.in_flight, "retried": calls.retries,
                       "throttled": calls.throttled}
            if calls.step:
                fields["step"] = calls.step
        self.bar.set_postfix(fields)

    def _due(self) -> bool:
        step = max(1, self.total // 10)
        return self.clock() - self.last_line >= self.every or self.done % step == 0 or self.done == self.total

    def _line(self) -> None:
        now = self.clock()
        self.last_line = now
        elapsed = max(now - self.started, 1e-9)
        rate = self.done / elapsed
        left = max(self.total - self.done, 0)
        share = f" ({self.done / self.total:.0%})" if self.total else ""
        activity = self.activity() if self.activity is not None else None
        paid = self.spent if activity is None else activity.paid  # the calls' own count moves between questions
        spent = "unknown" if paid is None else f"${paid:.4f}"
        eta = _duration(left / rate) if rate > 0 else "?"
        graded = self.done - self.failed
        accuracy = f"{100 * self.correct / graded:.0f}%" if graded else "-"
        calls = f" · {activity.describe()}" if activity is not None else ""
        logger.info("progress: %d/%d%s · errors %d · accuracy %s · paid %s · %.2f q/s · ETA %s%s",
                    self.done, self.total, share, self.failed, accuracy, spent, rate, eta, calls)

    def finish(self) -> None:
        self._stop.set()
        if self._watcher is not None:
            self._watcher.join()
        if self.bar is not None:
            self.bar.close()
