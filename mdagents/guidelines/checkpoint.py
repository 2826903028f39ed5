"""The JSON checkpoint between `guidelines parse` and `guidelines embed`, and its size histogram.

File shape: {"max_tokens": N, "histogram": {...}, "chunks": [{id, source, section, content}]}.
A bare list of {source, section, content} objects is accepted too (ids are then derived).
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mdagents.guidelines.errors import GuidelineInputError
from mdagents.guidelines.records import Chunk


def size_histogram(chunks: Sequence[Chunk], max_tokens: int) -> dict[str, Any]:
    """Chunk sizes (estimated tokens) in quarters of the limit, plus an 'over limit' bucket."""
    edges = [max_tokens * q // 4 for q in (1, 2, 3, 4)]
    labels = [f"<={edge}" for edge in edges] + [f">{max_tokens}"]
    counts = dict.fromkeys(labels, 0)
    sizes = [c.tokens for c in chunks]
    for size in sizes:
        label = next((lab for lab, edge in zip(labels, edges, strict=False) if size <= edge), labels[-1])
        counts[label] += 1
    return {
        "chunks": len(sizes),
        "buckets": counts,
        "min": min(sizes, default=0),
        "median": int(statistics.median(sizes)) if sizes else 0,
        "max": max(sizes, default=0),
        "over_limit": counts[labels[-1]],
    }


def write_checkpoint(path: Path, chunks: Sequence[Chunk], max_tokens: int) -> dict[str, Any]:
    """Write the checkpoint atomically; returns the histogram it contains."""
    histogram = size_histogram(chunks, max_tokens)
    payload = {"max_tokens": max_tokens, "histogram": histogram,
               "chunks": [{"id": c.id, "source": c.source, "section": c.section, "content": c.content}
                          for c in chunks]}
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(payload, ensure_ascii=False, indent=1), encoding="utf-8")
    tmp.replace(path)
    return histogram


def read_checkpoint(path: Path) -> list[Chunk]:
    """Chunks from a checkpoint file; a missing or malformed file is an input error naming it."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise GuidelineInputError(f"cannot read chunks file {path}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise GuidelineInputError(f"{path} is not JSON (line {exc.lineno}): run `guidelines parse` first") from None
    items = data.get("chunks") if isinstance(data, dict) else data
    if not isinstance(items, list):
        raise GuidelineInputError(f"{path}: expected a list of chunks or an object with 'chunks'")
    chunks: list[Chunk] = []
    per_source: dict[str, int] = {}
    for n, item in enumerate(items):
        if not isinstance(item, dict) or not all(isinstance(item.get(k), str) for k in ("source", "section", "content")):
            raise GuidelineInputError(f"{path}: chunk {n} needs string fields source, section and content")
        index = per_source.get(item["source"], 0)
        per_source[item["source"]] = index + 1
        chunk_id = item.get("id") if isinstance(item.get("id"), str) else f"{item['source']}#{index}"
        chunks.append(Chunk(id=chunk_id, source=item["source"], section=item["section"], content=item["content"]))
    ids = [c.id for c in chunks]
    if len(set(ids)) != len(ids):
        raise GuidelineInputError(f"{path}: duplicate chunk ids")
    return chunks
