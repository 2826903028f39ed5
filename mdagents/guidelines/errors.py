"""Typed errors of the guideline pipeline (the CLI maps them to one line and an exit code)."""

from __future__ import annotations

from mdagents.errors import MDAgentsError, UsageError
from mdagents.http_download import DownloadError  # noqa: F401 - downloads share one error type


class GuidelineInputError(UsageError):
    """An input file (NXML, chunk checkpoint) is missing, unsafe or malformed: exit 2."""


class EmbeddingError(MDAgentsError):
    """An embedding model could not be loaded or failed to embed."""
