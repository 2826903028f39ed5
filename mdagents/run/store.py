"""Run directories: crash-safe JSONL results, manifest, summary, transcripts, resume.

Writing side here; the reading side for notebooks lives in mdagents.analysis.runs and is
re-exported (`from mdagents.run.store import load_run, load_runs, to_dataframe`).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import gzip
import json
import os
import platform
import subprocess
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from mdagents import __version__
from mdagents.errors import ConfigError
from mdagents.jsonl import BadLine, dumps, read_objects, write_file
from mdagents.paths import RESULTS_FILE, TRANSCRIPTS_DIR, transcript_stem
from mdagents.redact import redact
from mdagents.run.config import TRANSCRIPT_FORMATS
from mdagents.run.group_commit import GroupCommitWriter


def now_iso() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def run_name(model_safe_name: str, dataset: str, difficulty: str, num_samples: int | None) -> str:
    """`<model>_<dataset>_<difficulty>_<n>samples`, as the original tool names its outputs."""
    n = "all" if num_samples is None else str(num_samples)
    return f"{model_safe_name}_{dataset}_{difficulty}_{n}samples"


def atomic_write_json(path: Path, data: Any, *, indent: int | None = 2) -> None:
    """Write JSON to a temp file and rename it into place: readers never see half a file.

    `indent=None` for large files: only compact JSON goes through the C encoder."""
    # dumps, not dump: only the one-shot encoder runs in C (dump streams through Python).
    atomic_write_bytes(path, json.dumps(data, indent=indent, ensure_ascii=False, default=str).encode("utf-8"))


def _current_umask() -> int:
    """The process umask, read without changing it where Linux allows (other threads may be creating files)."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _temp_beside(path: Path) -> tuple[int, str]:
    """A temp file beside `path` with the permissions a plain open() would give (mkstemp makes 0600)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        os.fchmod(fd, 0o666 & ~_current_umask())
    except BaseException:
        os.close(fd)
        os.unlink(tmp)
        raise
    return fd, tmp


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write bytes to a temp file, fsync, and rename it into place."""
    fd, tmp = _temp_beside(path)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_json_list(path: Path, items: Iterable[Any]) -> None:
    """A JSON array written item by item (flat memory), then renamed into place."""
    fd, tmp = _temp_beside(path)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write("[")
            for i, item in enumerate(items):
                fh.write(",\n" if i else "\n")
                fh.write(json.dumps(item, ensure_ascii=False, default=str))
            fh.write("\n]\n")
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def iter_records(path: Path, on_bad: Callable[[BadLine], None] | None = None) -> Iterator[dict[str, Any]]:
    """Complete records of a results file, streamed. A torn last line (crash mid-write) is skipped;
    other damaged lines are skipped and passed to `on_bad`."""
    if not path.exists():
        return
    yield from read_objects(path, on_bad)


def _truncate_torn_tail(path: Path) -> None:
    """Cut a partial last line left by a kill mid-write, so the next append starts clean."""
    if not path.exists() or path.stat().st_size == 0:
        return
    with path.open("rb+") as fh:
        fh.seek(0, os.SEEK_END)
        size = fh.tell()
        fh.seek(max(0, size - 1))
        if fh.read(1) == b"\n":
            return
        # Scan back to the last newline.
        pos = size
        chunk = 4096
        while pos > 0:
            start = max(0, pos - chunk)
            fh.seek(start)
            data = fh.read(pos - start)
            idx = data.rfind(b"\n")
            if idx >= 0:
                fh.truncate(start + idx + 1)
                return
            pos = start
        fh.truncate(0)


class RunDirectory:
    """One run's directory and its results file (one file per shard)."""

    def __init__(self, path: Path, *, shard: str | None = None, transcripts: str = "json") -> None:
        """`transcripts`: json (plain), gzip (`<id>.json.gz`, ~20× smaller for multi-agent levels) or none."""
        if transcripts not in TRANSCRIPT_FORMATS:
            raise ConfigError(f"--transcripts must be one of {', '.join(TRANSCRIPT_FORMATS)}; got {transcripts!r}")
        self.transcript_format = transcripts
        self.path = path
        self.results_path = path / (f"results.shard-{shard}.jsonl" if shard else RESULTS_FILE)
        self.manifest_path = path / "manifest.json"
        self.summary_path = path / "summary.json"
        self.totals_path = path / (f"totals.shard-{shard}.json" if shard else "totals.json")
        self.transcripts = path / TRANSCRIPTS_DIR
        self._fh: Any = None
        # Finished questions go to disk in a writer thread, several per fsync (`save`).
        self.writer = GroupCommitWriter(self)

    def prepare(self, *, fresh: bool, retry_failed: bool) -> None:
        if fresh and self.path.exists():
            for child in (self.results_path, self.summary_path, self.totals_path):
                child.unlink(missing_ok=True)
        self.path.mkdir(parents=True, exist_ok=True)
        if self.transcript_format != "none":
            self.transcripts.mkdir(exist_ok=True)
        _truncate_torn_tail(self.results_path)
        if retry_failed:
            self._drop_failed()

    def _drop_failed(self) -> None:
        """Rewrite the results without failed samples (atomically), so they run again."""
        if not self.results_path.exists():
            raise ConfigError(f"--retry-failed: no results to retry in {self.path}")
        kept = [r for r in iter_records(self.results_path) if not r.get("error")]
        fd, tmp = _temp_beside(self.results_path)
        os.close(fd)
        write_file(Path(tmp), kept)
        os.replace(tmp, self.results_path)

    def done_ids(self) -> set[str]:
        return {r["id"] for r in iter_records(self.results_path) if "id" in r}

    def failed_count(self) -> int:
        return sum(1 for r in iter_records(self.results_path) if r.get("error"))

    def append(self, record: dict[str, Any]) -> None:
        """Append one record as one line, flushed and fsync'd before returning."""
        self.append_many([record])

    def append_many(self, records: list[dict[str, Any]]) -> None:
        """Append records as lines in one write and one fsync. A failed write is cut back off,
        so no half line stays behind for the next append to follow."""
        if self._fh is None:
            self._fh = self.results_path.open("ab", buffering=0)  # unbuffered: a failure leaves nothing pending
        # A key a model echoed never reaches the disk.
        data = "".join(redact(dumps(record)) + "\n" for record in records).encode("utf-8")
        start = self._fh.tell()
        try:
            view = memoryview(data)
            while view:
                view = view[self._fh.write(view):]
            os.fsync(self._fh.fileno())
        except BaseException:
            with contextlib.suppress(OSError):
                self._fh.truncate(start)
            raise

    async def save(self, sample_id: str, record: dict[str, Any], transcript: list[dict[str, Any]]) -> None:
        """A finished question's transcript and record, durable when this returns (written off the
        event loop, together with the questions that finished at the same moment)."""
        await self.writer.save(sample_id, record, transcript)

    def write_transcript(self, sample_id: str, calls: list[dict[str, Any]]) -> None:
        if self.transcript_format == "none":
            return
        stem = transcript_stem(sample_id)
        text = redact(dumps({"id": sample_id, "calls": calls})).encode("utf-8")
        if self.transcript_format == "gzip":
            atomic_write_bytes(self.transcripts / f"{stem}.json.gz", gzip.compress(text, compresslevel=6, mtime=0))
        else:
            atomic_write_bytes(self.transcripts / f"{stem}.json", text)

    def close(self) -> None:
        self.writer.close()
        if self._fh is not None:
            self._fh.close()
            self._fh = None

    def records(self, on_bad: Callable[[BadLine], None] | None = None) -> Iterator[dict[str, Any]]:
        yield from iter_records(self.results_path, on_bad)


def git_commit() -> str | None:
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, timeout=5,
                             cwd=Path(__file__).resolve().parent)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


def versions() -> dict[str, str | None]:
    import importlib.metadata as md

    found: dict[str, str | None] = {"mdagents": __version__, "python": platform.python_version()}
    for dist in ("openai", "anthropic", "google-genai", "llama-cpp-python"):
        try:
            found[dist] = md.version(dist)
        except md.PackageNotFoundError:
            found[dist] = None
    return found
