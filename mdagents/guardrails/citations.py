"""Citations for the assistant: the guideline store when it is populated, links from web answers.

A retriever is any async callable query -> [{source, section, content, similarity}]; the store
is opened only when a database is configured or the embedded one already exists, so `ask` never
starts PostgreSQL just to find it empty.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from typing import Any

from mdagents.guardrails.output_patterns import URL
from mdagents.guardrails.trusted import STORE_SOURCE, is_trusted_url

Retriever = Callable[[str], Awaitable[list[dict[str, Any]]]]
_URL = re.compile(URL, re.IGNORECASE)


def store_citations(chunks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Retriever results as citations (trusted by construction: they come from the store)."""
    return [{"source": str(c.get("source", "")), "section": str(c.get("section", "")),
             "similarity": c.get("similarity"), "content": str(c.get("content", "")), "origin": STORE_SOURCE}
            for c in chunks]


def web_citations(text: str, raw: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The pages a web-enabled answer cites, as tools returned them: the provider's citations of
    search or fetch results (with their titles), then links written in the text that are among the
    pages the tools returned. A link no tool returned is not a citation (the output check removes it)."""
    raw = raw or {}
    titles: dict[str, str] = {}
    for item in raw.get("citations", []) or []:
        if isinstance(item, dict) and item.get("url"):
            titles.setdefault(str(item["url"]), str(item.get("title") or ""))
    returned = {u.rstrip("/"): u for u in map(str, raw.get("tool_results", []) or [])}
    for url in _URL.findall(text):
        page = returned.get(url.rstrip(".,;:!?").rstrip("/"))
        if page is not None:
            titles.setdefault(page, "")
    return [{"source": u, "url": u, "section": title, "similarity": None, "origin": "web",
             "trusted": is_trusted_url(u)} for u, title in titles.items()]


def web_search_performed(raw: dict[str, Any] | None) -> bool:
    """Whether a web search or fetch tool ran for an answer (from the provider's raw record)."""
    return bool((raw or {}).get("server_tools"))


def open_guideline_retriever(db_url: str | None = None, k: int = 4) -> tuple[Retriever | None, Callable[[], None]]:
    """(retriever, close) over the guideline store, or (None, no-op) when it is absent or empty."""
    def nothing() -> None:
        return None

    try:
        from mdagents.guidelines.database import resolve_db_url
        from mdagents.guidelines.embedders import get_embedder
        from mdagents.guidelines.retriever import StoreRetriever
        from mdagents.guidelines.store import GuidelineStore
        from mdagents.paths import cache_dir

        url = resolve_db_url(db_url)
        if url is None:
            if not (cache_dir() / "pgdata").exists():
                return None, nothing
            from mdagents.guidelines.database import embedded_db_url

            url = embedded_db_url()
        store = GuidelineStore(url)
        model = store.stored_model()
        if not model or store.count() == 0:
            store.close()
            return None, nothing
        searcher = StoreRetriever(store, get_embedder(model))
    except Exception:  # an optional feature: any failure means "no citations", never a failed answer
        return None, nothing

    async def retrieve(query: str) -> list[dict[str, Any]]:
        chunks = await searcher.search(query, "", k)
        return [c.to_dict() for c in chunks]

    def close() -> None:
        store.close()

    return retrieve, close


async def retrieve_safely(retriever: Retriever | None, query: str, timeout: float = 30.0) -> list[dict[str, Any]] | None:
    """Retriever results, or None when there is no retriever or it failed (the answer goes on without)."""
    if retriever is None:
        return None
    try:
        return await asyncio.wait_for(retriever(query), timeout)
    except Exception:
        return None
