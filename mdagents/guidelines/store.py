"""The guideline store: table `guideline_chunks` in PostgreSQL with pgvector.

One table holds the vectors of one embedding model (its name is stored on every row); writing
or searching with another model is refused, because vectors of different models are not
comparable. Re-ingesting a source replaces its rows, so ingest is idempotent.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from mdagents.errors import StoreError
from mdagents.guidelines.records import Chunk

TABLE = "guideline_chunks"
DEFAULT_LIMIT = 5
HNSW_MAX_DIMENSIONS = 2000  # pgvector's limit for an HNSW index on `vector`


class ModelMismatchError(StoreError):
    """The store holds vectors of another embedding model: the user must pick that model or re-embed."""

    exit_code = 2


def _psycopg() -> Any:
    try:
        import psycopg
    except ImportError:
        raise StoreError("the guideline store needs psycopg: pip install 'psycopg[binary]' pgvector") from None
    return psycopg


class GuidelineStore:
    """A connection to one PostgreSQL database holding the guideline chunks."""

    def __init__(self, url: str) -> None:
        psycopg = _psycopg()
        self._lock = threading.Lock()
        try:
            self._conn = psycopg.connect(url, autocommit=True, connect_timeout=15)
            self._conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        except psycopg.Error as exc:
            raise StoreError(f"cannot use the guideline database: {_first_line(exc)}") from None
        from pgvector.psycopg import register_vector

        register_vector(self._conn)

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> GuidelineStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- schema ------------------------------------------------------------------------------

    def table_exists(self) -> bool:
        row = self._run("SELECT to_regclass(%s) IS NOT NULL", (TABLE,)).fetchone()
        return bool(row and row[0])

    def dimensions(self) -> int | None:
        """The declared vector size of the table (None when there is no table)."""
        row = self._run(
            "SELECT format_type(atttypid, atttypmod) FROM pg_attribute "
            "WHERE attrelid = to_regclass(%s) AND attname = 'embedding'", (TABLE,)).fetchone()
        if not row or not row[0]:
            return None
        return int(str(row[0]).split("(")[1].rstrip(")"))

    def stored_model(self) -> str | None:
        """The embedding model of the stored vectors (None when the table is missing or empty)."""
        if not self.table_exists():
            return None
        row = self._run(f"SELECT model FROM {TABLE} LIMIT 1").fetchone()
        return row[0] if row else None

    def create_schema(self, dimensions: int) -> None:
        """Create the table and its HNSW cosine index if missing; refuse a table of another size."""
        if dimensions > HNSW_MAX_DIMENSIONS:
            raise StoreError(f"{dimensions}-dimensional vectors exceed pgvector's HNSW limit of "
                             f"{HNSW_MAX_DIMENSIONS}; choose a smaller embedding model")
        existing = self.dimensions()
        if existing is not None and existing != dimensions:
            raise ModelMismatchError(f"table {TABLE} holds {existing}-dimensional vectors, the model gives {dimensions}; "
                             "re-embed with --reset to start over with this model")
        self._run(f"""
            CREATE TABLE IF NOT EXISTS {TABLE} (
                id text PRIMARY KEY,
                source text NOT NULL,
                section text NOT NULL,
                content text NOT NULL,
                embedding vector({dimensions}) NOT NULL,
                model text NOT NULL,
                created_at timestamptz NOT NULL DEFAULT now()
            )""")
        self._run(f"CREATE INDEX IF NOT EXISTS {TABLE}_embedding_idx ON {TABLE} "
                  "USING hnsw (embedding vector_cosine_ops)")
        self._run(f"CREATE INDEX IF NOT EXISTS {TABLE}_source_idx ON {TABLE} (source)")

    def drop(self) -> None:
        self._run(f"DROP TABLE IF EXISTS {TABLE}")

    def check_model(self, model: str) -> None:
        """Refuse to mix or compare vectors of two models."""
        stored = self.stored_model()
        if stored is not None and stored != model:
            raise ModelMismatchError(f"the guideline store was embedded with {stored!r}, not {model!r}: "
                             f"search with --embedding-model {stored}, or re-embed with --reset")

    # -- writing -----------------------------------------------------------------------------

    def add_chunk(self, chunk: Chunk, embedding: Sequence[float], model: str) -> None:
        """Create (or replace) one chunk with its embedding."""
        self.add_chunks([chunk], [embedding], model)

    def add_chunks(self, chunks: Sequence[Chunk], embeddings: Sequence[Sequence[float]], model: str) -> None:
        """Create or replace chunks by id, in one transaction."""
        self.replace_sources([], chunks, embeddings, model)

    def replace_sources(self, sources: Sequence[str], chunks: Sequence[Chunk],
                        embeddings: Sequence[Sequence[float]] | Sequence[np.ndarray], model: str) -> None:
        """In one transaction: remove every chunk of `sources`, then create or replace `chunks` by id."""
        if len(chunks) != len(embeddings):
            raise StoreError(f"{len(chunks)} chunks but {len(embeddings)} embeddings")
        if not chunks:
            return
        self.create_schema(len(embeddings[0]))
        rows = [(c.id, c.source, c.section, c.content, np.asarray(e, dtype=np.float32), model)
                for c, e in zip(chunks, embeddings, strict=True)]
        sql = (f"INSERT INTO {TABLE} (id, source, section, content, embedding, model) "
               "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (id) DO UPDATE SET source = EXCLUDED.source, "
               "section = EXCLUDED.section, content = EXCLUDED.content, embedding = EXCLUDED.embedding, "
               "model = EXCLUDED.model, created_at = now()")
        with self._lock, self._conn.transaction(), self._conn.cursor() as cursor:
            try:
                if sources:
                    cursor.execute(f"DELETE FROM {TABLE} WHERE source = ANY(%s)", (list(sources),))
                cursor.executemany(sql, rows)
            except _psycopg().Error as exc:
                raise StoreError(f"could not store chunks: {_first_line(exc)}") from None

    def count(self) -> int:
        if not self.table_exists():
            return 0
        row = self._run(f"SELECT count(*) FROM {TABLE}").fetchone()
        return int(row[0]) if row else 0

    # -- searching ---------------------------------------------------------------------------

    def search(self, embedding: Sequence[float], model: str, limit: int = DEFAULT_LIMIT) -> list[Chunk]:
        """The `limit` chunks nearest to the embedding, most similar first (cosine, 1 = identical)."""
        if limit < 1:
            raise StoreError("search limit must be at least 1")
        if self.stored_model() is None:
            raise StoreError("the guideline store is empty: run `guidelines parse` and `guidelines embed` first")
        self.check_model(model)
        vector = np.asarray(embedding, dtype=np.float32)
        dimensions = self.dimensions()
        if dimensions != len(vector):
            raise StoreError(f"query vector has {len(vector)} dimensions, the store {dimensions}")
        with self._lock, self._conn.transaction(), self._conn.cursor() as cursor:
            # HNSW returns at most ef_search candidates; raise it for large k.
            cursor.execute(f"SET LOCAL hnsw.ef_search = {max(40, int(limit))}")
            cursor.execute(
                f"SELECT id, source, section, content, 1 - (embedding <=> %s) AS similarity FROM {TABLE} "
                "ORDER BY embedding <=> %s LIMIT %s", (vector, vector, limit))
            rows = cursor.fetchall()
        return [Chunk(id=r[0], source=r[1], section=r[2], content=r[3], similarity=float(r[4])) for r in rows]

    def _run(self, sql: str, params: Sequence[Any] | None = None) -> Any:
        with self._lock:
            try:
                return self._conn.execute(sql, params)
            except _psycopg().Error as exc:
                raise StoreError(f"guideline database error: {_first_line(exc)}") from None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
