"""The run directory's record of submitted batches (`batches.jsonl`), written before waiting on them.

A run killed while batches are in flight finds them here on re-run: each request's custom_id
(the response-cache key of its call) names the batch that already holds it, so nothing is paid twice.
"""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mdagents.jsonl import has_torn_tail, read_objects, write_line


@dataclass
class Recorded:
    """A batch an earlier session submitted: where it went and which requests it holds."""

    batch_id: str
    backend: str
    custom_ids: list[str]
    status: str | None = None  # its last known terminal state, if it reached one


class BatchJournal:
    def __init__(self, path: Path) -> None:
        self.path = path

    def recorded(self) -> dict[str, Recorded]:
        """Batches of earlier sessions by id, in submission order."""
        batches: dict[str, Recorded] = {}
        if not self.path.exists():
            return batches
        for line in read_objects(self.path):
            batch_id = str(line.get("batch_id") or "")
            if line.get("event") == "submitted" and batch_id:
                batches[batch_id] = Recorded(batch_id, str(line.get("backend", "")),
                                             [str(c) for c in line.get("custom_ids", [])])
            elif batch_id in batches and line.get("event") == "ended":
                batches[batch_id].status = str(line.get("status"))
        return batches

    def submitted(self, batch_id: str, backend: str, custom_ids: list[str], wave: int) -> None:
        self._append({"event": "submitted", "batch_id": batch_id, "backend": backend, "wave": wave,
                      "requests": len(custom_ids), "custom_ids": custom_ids, "at": _now()})

    def ended(self, batch_id: str, status: str, counts: dict[str, int]) -> None:
        self._append({"event": "ended", "batch_id": batch_id, "status": status, "counts": counts, "at": _now()})

    def _append(self, line: dict[str, Any]) -> None:
        """One line, fsync'd: the record must survive a kill right after a batch was paid for."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        torn = self.path.exists() and has_torn_tail(self.path)
        with self.path.open("a", encoding="utf-8") as fh:
            if torn:
                fh.write("\n")  # a line cut by a kill is left as a damaged line, skipped on reading
            write_line(fh, line)
            fh.flush()
            os.fsync(fh.fileno())


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
