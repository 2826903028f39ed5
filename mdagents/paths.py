"""Where the project keeps its caches, user data and the sample sets shipped inside the package.

Nothing here depends on where the source tree lives: installed in site-packages, the
package finds its own files beside this module, and everything it writes goes under the
working directory (or the directory an environment variable names). The one exception is the
embedded model's converted weights, which depend only on the installed packages and are kept once
per user (`mdagents.llm.local_weights`).
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
SAMPLES_DIR = PACKAGE_DIR / "data" / "samples"

# Run-directory layout, shared by the writer (mdagents.run) and the readers (mdagents.analysis).
RESULTS_FILE = "results.jsonl"
TRANSCRIPTS_DIR = "transcripts"


def cache_dir() -> Path:
    """Response cache, embedded Postgres data and other regenerable state: $MDAGENTS_CACHE_DIR or ./.cache."""
    return Path(os.environ.get("MDAGENTS_CACHE_DIR") or Path.cwd() / ".cache")


def data_dir() -> Path:
    """Datasets and guidelines the user fetched: $MDAGENTS_DATA_DIR or ./data."""
    return Path(os.environ.get("MDAGENTS_DATA_DIR") or Path.cwd() / "data")


def log_dir() -> Path:
    """Assistant session logs: $MDAGENTS_LOG_DIR or ./logs."""
    return Path(os.environ.get("MDAGENTS_LOG_DIR") or Path.cwd() / "logs")


_PLAIN_STEM = re.compile(r"[a-z0-9][a-z0-9._-]{0,99}")
_STEM_SLUG = 60  # characters of a hashed id's readable part


def transcript_stem(sample_id: str) -> str:
    """A sample id as a file name that no other id shares, of bounded length.

    A short id of lower-case letters, digits, `-`, `_` and `.` is its own name; any other id becomes
    a readable slug and a hash of the whole id (`a/b` -> `a_b~<16 hex>`): ids that differ only in
    characters a file name cannot hold, or only in case (on case-insensitive file systems), never
    share a file, and a long id never exceeds the file system's limit on a name."""
    if _PLAIN_STEM.fullmatch(sample_id):
        return sample_id
    slug = re.sub(r"[^A-Za-z0-9._-]", "_", sample_id)[:_STEM_SLUG].lstrip(".")
    digest = hashlib.sha256(sample_id.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return f"{slug}~{digest}"


def legacy_transcript_stem(sample_id: str) -> str:
    """The name earlier versions gave a sample's files (kept to read their run directories)."""
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in sample_id)
