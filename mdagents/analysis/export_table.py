"""Records of one or more runs as one flat table (CSV or Parquet) for other tools.

One row per sample, as `to_dataframe` builds it (run-level columns first, total usage flattened);
values that stay nested (options, details, usage by role) are written as JSON text, so every
column has one plain type.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from mdagents.analysis.runs import Run, to_dataframe
from mdagents.errors import UsageError

TABLE_FORMATS = ("csv", "parquet")


def flat_frame(runs: Iterable[Run]) -> Any:
    frame = to_dataframe(list(runs))
    for column in frame.columns:
        if frame[column].map(lambda v: isinstance(v, dict | list | tuple)).any():
            frame[column] = frame[column].map(
                lambda v: json.dumps(v, ensure_ascii=False, default=str) if isinstance(v, dict | list | tuple)
                else v)
    return frame


def export_table(runs: Iterable[Run], path: Path, fmt: str) -> Path:
    """Write the runs' records to `path` as csv or parquet."""
    frame = flat_frame(runs)
    path.parent.mkdir(parents=True, exist_ok=True)
    if fmt == "csv":
        frame.to_csv(path, index=False)
    elif fmt == "parquet":
        try:
            frame.to_parquet(path, index=False)
        except ImportError:
            raise UsageError("--format parquet needs pyarrow: pip install pyarrow") from None
    else:
        raise UsageError(f"unknown table format {fmt!r}; use one of {', '.join(TABLE_FORMATS)}")
    return path
