"""Search by "condition + clinical findings": the condition finds the guideline, the findings the section."""

from __future__ import annotations

import asyncio
from typing import Protocol, runtime_checkable

from mdagents.errors import StoreError
from mdagents.guidelines.database import connection_url
from mdagents.guidelines.embedders import Embedder, close_embedder, get_embedder
from mdagents.guidelines.records import Chunk
from mdagents.guidelines.store import DEFAULT_LIMIT, GuidelineStore


@runtime_checkable
class Retriever(Protocol):
    async def search(self, condition: str, findings: str = "", k: int = DEFAULT_LIMIT) -> list[Chunk]: ...


def query_text(condition: str, findings: str = "") -> str:
    """The text embedded for a search: the condition first, then the patient's findings."""
    condition = " ".join(condition.split())
    findings = " ".join(findings.split())
    if condition and findings:
        return f"{condition}: {findings}"
    return condition or findings


class StoreRetriever:
    """A Retriever over the pgvector store with one embedding model (checked against the stored one)."""

    def __init__(self, store: GuidelineStore, embedder: Embedder) -> None:
        self.store = store
        self.embedder = embedder

    async def search(self, condition: str, findings: str = "", k: int = DEFAULT_LIMIT) -> list[Chunk]:
        # Refuse a model mismatch before paying for a query embedding.
        await asyncio.to_thread(self.store.check_model, self.embedder.name)
        vector = await self.embedder.embed_query(query_text(condition, findings))
        return await asyncio.to_thread(self.store.search, vector, self.embedder.name, k)

    async def aclose(self) -> None:
        await close_embedder(self.embedder)
        self.store.close()


def open_store_retriever(db_url: str | None = None, embedding_model: str | None = None, *,
                         base_url: str | None = None) -> StoreRetriever:
    """The retriever a run's `--rag` uses: the configured store, with the model it was embedded with
    unless one is named (a different one is refused at the first search)."""
    store = GuidelineStore(connection_url(db_url))
    try:
        model = embedding_model or store.stored_model()
        if model is None:
            raise StoreError("the guideline store is empty: run `guidelines parse` and `guidelines embed` first")
        return StoreRetriever(store, get_embedder(model, base_url=base_url))
    except BaseException:
        store.close()
        raise
