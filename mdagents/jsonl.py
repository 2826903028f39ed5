"""JSON Lines in and out, through the `jsonlines` package.

Readers come in two strictnesses. Datasets are strict: a damaged line is an input error
naming `file:line`. Results files are tolerant: a damaged line (garbage, invalid UTF-8,
a non-object) is skipped and reported, and a last line without its newline (a writer
killed mid-line) is skipped silently, since the writer cuts it before appending again.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import IO, Any

import jsonlines

dumps = partial(json.dumps, ensure_ascii=False, default=str)


@dataclass(frozen=True)
class BadLine:
    """A line that could not be read: where and why."""

    path: Path
    lineno: int
    reason: str

    def __str__(self) -> str:
        return f"{self.path}:{self.lineno}: {self.reason}"


def has_torn_tail(path: Path) -> bool:
    """Whether the file's last line lacks its newline (a writer killed, or still writing, mid-line)."""
    return not _ends_with_newline(path)


def _ends_with_newline(path: Path) -> bool:
    with path.open("rb") as fh:
        fh.seek(0, os.SEEK_END)
        if fh.tell() == 0:
            return True
        fh.seek(-1, os.SEEK_END)
        return fh.read(1) == b"\n"


def _last_lineno(path: Path) -> int:
    with path.open("rb") as fh:
        return sum(1 for _ in fh)


def numbered_objects(path: Path, on_bad: Callable[[BadLine], None], *, torn_tail_ok: bool = True
                     ) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for each JSON object line of `path`; every damaged line goes to `on_bad`.

    Blank lines are skipped. With `torn_tail_ok`, a damaged last line without its newline
    (a writer killed mid-line) is skipped without a report."""
    torn_at = None if not torn_tail_ok or _ends_with_newline(path) else _last_lineno(path)
    with path.open("rb") as fh:
        yield from numbered_stream(fh, path, on_bad, torn_at=torn_at)


def numbered_stream(fh: IO[bytes], name: Path, on_bad: Callable[[BadLine], None], *, torn_at: int | None = None
                    ) -> Iterator[tuple[int, dict[str, Any]]]:
    """As numbered_objects, over an open binary stream (a zip member, say) reported as `name`."""
    position = [0]

    def lines() -> Iterator[bytes]:
        for position[0], raw in enumerate(fh, 1):
            yield raw

    # The standard library's parser: it stops at a line nested too deeply with a RecursionError, where
    # the faster parsers jsonlines prefers when installed (orjson) may overflow the stack and crash.
    reader = jsonlines.Reader(lines(), loads=json.loads)
    while True:
        try:
            obj = reader.read(type=dict, skip_empty=True)
        except EOFError:
            return
        except jsonlines.InvalidLineError as exc:
            if exc.lineno != torn_at:
                on_bad(BadLine(name, exc.lineno, _reason(exc)))
            continue
        except RecursionError:
            if position[0] != torn_at:
                on_bad(BadLine(name, position[0], "nested too deeply to read"))
            continue
        yield position[0], obj


def _reason(exc: jsonlines.InvalidLineError) -> str:
    """jsonlines' message in the words the project's errors use."""
    text = str(exc).split(" (line ")[0]
    if text.startswith("line is not valid utf-8"):
        return "not UTF-8 text"
    if text.startswith("line contains invalid json: "):
        return f"invalid JSON ({text.removeprefix('line contains invalid json: ')})"
    if "null" in text:
        return "expected a JSON object, got null"
    return "expected a JSON object"


def read_objects(path: Path, on_bad: Callable[[BadLine], None] | None = None) -> Iterator[dict[str, Any]]:
    """Each JSON object of a JSONL file. Damaged lines go to `on_bad`, or are skipped when it is None."""
    for _, obj in numbered_objects(path, on_bad or (lambda bad: None)):
        yield obj


def write_line(fh: IO[str], obj: Any) -> None:
    """One object as one line (no fsync: the caller decides when the line must be durable)."""
    with jsonlines.Writer(fh, dumps=dumps) as writer:
        writer.write(obj)


def write_file(path: Path, objects: Any) -> None:
    """Write every object as a line of a new file at `path` (used for temp files renamed into place)."""
    with path.open("w", encoding="utf-8") as fh:
        with jsonlines.Writer(fh, dumps=dumps) as writer:
            writer.write_all(objects)
        fh.flush()
        os.fsync(fh.fileno())
