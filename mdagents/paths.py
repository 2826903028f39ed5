"""Where the project keeps its caches and default data (overridable by environment)."""

from __future__ import annotations

import os
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def cache_dir() -> Path:
    """Response cache, embedded Postgres data and other regenerable state: $MDAGENTS_CACHE_DIR or ./.cache."""
    return Path(os.environ.get("MDAGENTS_CACHE_DIR") or PROJECT_ROOT / ".cache")


def data_dir() -> Path:
    return PROJECT_ROOT / "data"
