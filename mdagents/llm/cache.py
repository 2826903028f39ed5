"""SQLite response cache keyed by provider + model + base_url + messages + generation params.

Safe for concurrent tasks (one lock) and for several processes (WAL, busy timeout), so
shards of one sweep may share a cache file.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import sqlite3
import threading
import time
from collections.abc import Sequence
from contextvars import ContextVar
from pathlib import Path

from mdagents.llm.types import Completion, GenerationParams, Message, Usage

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    key TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    text TEXT NOT NULL,
    usage TEXT NOT NULL,
    finish_reason TEXT,
    created REAL NOT NULL
)
"""


# Which repeat of a question a call belongs to (--repeats): repeats get distinct cache keys.
cache_variant: ContextVar[int] = ContextVar("cache_variant", default=0)


def cache_key(provider: str, model: str, base_url: str | None, messages: Sequence[Message],
              params: GenerationParams, variant: int = 0, weights: str | None = None) -> str:
    """`weights`: the layout a model is computed in, when the provider chooses it (the embedded model)."""
    payload: dict[str, object] = {
        "provider": provider,
        "model": model,
        "base_url": base_url or "",
        "messages": [m.to_dict() for m in messages],
        "params": {k: v for k, v in params.to_dict().items() if k != "cache_hint"},
    }
    if variant:
        payload["repeat"] = variant
    if weights:
        payload["weights"] = weights
    return hashlib.sha256(json.dumps(payload, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


_REPORTED: set[str] = set()  # caches already reported as unusable: one warning per cache per process


def report_unusable(path: str | Path, exc: BaseException) -> None:
    """Warn, once per cache file and process, that the cache failed and calls go on without it."""
    if str(path) in _REPORTED:
        return
    _REPORTED.add(str(path))
    why = getattr(exc, "strerror", None) or str(exc).strip() or type(exc).__name__
    log.warning("the response cache %s cannot be used (%s): going on without it", path, why.splitlines()[0])


class ResponseCache:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        try:
            self._db = self._open()
        except sqlite3.OperationalError:
            raise  # cannot open or write it (permissions, a full disk): not damage, nothing to move aside
        except sqlite3.DatabaseError as exc:  # not a database, or damaged: it only holds regenerable replies
            aside = self.path.with_name(f"{self.path.name}.corrupt-{int(time.time())}")
            for suffix in ("", "-wal", "-shm"):
                with contextlib.suppress(OSError):
                    Path(f"{self.path}{suffix}").rename(f"{aside}{suffix}")
            log.warning("the response cache %s was unreadable (%s): moved it to %s and started a new one",
                        self.path, exc, aside)
            self._db = self._open()
        self.hits = 0
        self.misses = 0

    def _open(self) -> sqlite3.Connection:
        db = sqlite3.connect(str(self.path), check_same_thread=False, timeout=30.0)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA busy_timeout=30000")
            db.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: durable enough for a cache, no fsync per call
            db.execute(SCHEMA)
            db.execute("SELECT count(*) FROM responses LIMIT 1").fetchone()
            db.commit()
        except sqlite3.DatabaseError:
            db.close()
            raise
        return db

    def get(self, key: str) -> Completion | None:
        with self._lock:
            row = self._db.execute(
                "SELECT model, text, usage, finish_reason FROM responses WHERE key = ?", (key,)
            ).fetchone()
        if row is None:
            self.misses += 1
            return None
        self.hits += 1
        model, text, usage, finish = row
        return Completion(text=text, usage=Usage.from_dict(json.loads(usage)), model=model,
                          finish_reason=finish, cached=True)

    def put(self, key: str, completion: Completion) -> None:
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO responses (key, model, text, usage, finish_reason, created) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (key, completion.model, completion.text, json.dumps(completion.usage.to_dict()),
                 completion.finish_reason, time.time()),
            )
            self._db.commit()

    def close(self) -> None:
        with self._lock:
            self._db.close()
