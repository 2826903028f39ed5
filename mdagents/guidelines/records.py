"""The chunk record shared by parsing, the store and retrieval."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class Chunk:
    """One retrievable piece of a guideline.

    `source` is the NXML file (relative to the corpus directory), `section` the title path
    below the book, and `content` starts with the full title path so the text stands alone.
    `similarity` is set only on search results (cosine similarity, 1 = identical).
    """

    id: str
    source: str
    section: str
    content: str
    similarity: float | None = None

    @property
    def tokens(self) -> int:
        return estimate_tokens(self.content)

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v is not None}


def estimate_tokens(text: str) -> int:
    """Token estimate used for chunk limits: characters / 4, rounded up (model-independent)."""
    return -(-len(text) // 4)
