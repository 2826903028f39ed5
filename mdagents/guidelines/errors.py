"""Typed errors of the guideline pipeline (the CLI maps them to one line and an exit code)."""

from __future__ import annotations

from mdagents.errors import MDAgentsError, UsageError


class GuidelineInputError(UsageError):
    """An input file (NXML, chunk checkpoint) is missing, unsafe or malformed: exit 2."""


class DownloadError(MDAgentsError):
    """A Bookshelf download failed or an archive was refused (bad checksum, unsafe paths)."""


class EmbeddingError(MDAgentsError):
    """An embedding model could not be loaded or failed to embed."""
