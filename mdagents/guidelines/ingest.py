"""Embed chunks in batches and write them to the store, replacing what their sources had before."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from mdagents.guidelines.embedders import Embedder
from mdagents.guidelines.errors import EmbeddingError
from mdagents.guidelines.records import Chunk
from mdagents.guidelines.store import GuidelineStore

DEFAULT_BATCH_SIZE = 32


@dataclass(frozen=True)
class IngestReport:
    chunks: int
    sources: int
    model: str
    embed_seconds: float
    store_seconds: float

    @property
    def chunks_per_second(self) -> float:
        total = self.embed_seconds + self.store_seconds
        return self.chunks / total if total > 0 else 0.0


async def ingest(
    chunks: Sequence[Chunk],
    embedder: Embedder,
    store: GuidelineStore,
    *,
    batch_size: int = DEFAULT_BATCH_SIZE,
    reset: bool = False,
    on_progress: Callable[[int], None] | None = None,
) -> IngestReport:
    """Store `chunks` with their embeddings. Idempotent: the chunks' sources are replaced, not appended.

    Atomic: every chunk is embedded first (the slow part), then the sources' old rows are replaced
    in one transaction. A crash or an embedding error leaves the store as it was, and searches
    running meanwhile see the old rows until the new ones are all in.
    Refuses (StoreError) before embedding anything when the store holds another model's vectors,
    unless `reset` drops the table first. `on_progress(n)` is called after each batch of n chunks.
    """
    if reset:
        store.drop()
    else:
        store.check_model(embedder.name)
    sources = sorted({c.source for c in chunks})
    vectors: list[np.ndarray] = []  # float32: a large corpus waits in memory until the one transaction
    began = time.perf_counter()
    for start in range(0, len(chunks), max(1, batch_size)):
        batch = chunks[start:start + batch_size]
        embedded = await embedder.embed_documents([c.content for c in batch])
        if len(embedded) != len(batch) or not embedded[0]:
            raise EmbeddingError(f"{embedder.name} returned {len(embedded)} vectors for {len(batch)} chunks")
        vectors.extend(np.asarray(v, dtype=np.float32) for v in embedded)
        if on_progress is not None:
            on_progress(len(batch))
    embed_seconds = time.perf_counter() - began
    began = time.perf_counter()
    store.replace_sources(sources, chunks, vectors, embedder.name)  # nothing to store: a no-op
    store_seconds = time.perf_counter() - began
    return IngestReport(len(chunks), len(sources), embedder.name, embed_seconds, store_seconds)
