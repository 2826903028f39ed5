"""What a run has used over all its sessions: first start, wall time and money spent.

Kept in the run directory and rewritten after every record, so a resumed run knows what
earlier sessions spent (a --max-cost cap covers the whole run, not each session) and the
manifest and summary describe the whole run, not only its last stretch.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mdagents.llm.budget import Budget
from mdagents.run.store import atomic_write_json, now_iso


@dataclass
class RunTotals:
    path: Path
    started_at: str = field(default_factory=now_iso)
    wall_s_before: float = 0.0
    budget: Budget = field(default_factory=Budget)
    _session_start: float = field(default_factory=time.perf_counter)

    @classmethod
    def open(cls, path: Path, budget: Budget) -> RunTotals:
        """Continue the totals at `path` (absent after --fresh or for a new run); earlier spend joins `budget`."""
        earlier = _read(path)
        if "spent_usd" in earlier and earlier["spent_usd"] is None:
            budget.unpriced = True
        budget.spent += float(earlier.get("spent_usd") or 0.0)
        return cls(path, str(earlier.get("started_at") or now_iso()), float(earlier.get("wall_s") or 0.0), budget)

    @property
    def wall_s(self) -> float:
        return self.wall_s_before + time.perf_counter() - self._session_start

    def to_dict(self) -> dict[str, Any]:
        return {"started_at": self.started_at, "wall_s": round(self.wall_s, 2),
                "spent_usd": None if self.budget.unpriced else round(self.budget.spent, 8)}

    def save(self) -> None:
        atomic_write_json(self.path, self.to_dict())


def _read(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}
