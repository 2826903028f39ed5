"""Published accuracies to set beside a run's: the MDAgents paper's comparison, as data with its source.

The figures live in mdagents/data/published/mdagents_neurips2024.yaml (mean ± sd over the paper's
seeds, in %); a run is matched by its method (without parameters) and dataset name.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml

PUBLISHED_FILE = Path(__file__).resolve().parents[1] / "data" / "published" / "mdagents_neurips2024.yaml"


@dataclass(frozen=True)
class Published:
    method: str  # this harness's --method
    paper_method: str  # as the paper names it
    dataset: str
    accuracy: float  # fraction, e.g. 0.887
    sd: float  # fraction, the paper's ± over seeds
    model: str
    source: str
    note: str | None = None

    @property
    def short(self) -> str:
        return f"{100 * self.accuracy:.1f} ± {100 * self.sd:.1f} ({self.model}, {self.paper_method})"


@cache
def _table() -> dict[str, Any]:
    return yaml.safe_load(PUBLISHED_FILE.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def source() -> str:
    table = _table()
    return f"{' '.join(str(table['source']).split())} {table['questions_per_dataset']} questions per dataset, " \
           f"{table['seeds']} seeds, mean ± sd."


def published(method: str, dataset: str) -> Published | None:
    """The paper's figure for `method` (e.g. `cot-sc:5`) on `dataset` (a name or a .jsonl path), if it reports one."""
    table = _table()
    base = method.split(":")[0]
    name = Path(dataset).stem.lower() if dataset.endswith(".jsonl") else dataset.lower()
    figures = table["accuracy"].get(name) or {}
    for paper_method, ours in table["methods"].items():
        if ours == base and paper_method in figures:
            mean, sd = figures[paper_method]
            return Published(base, paper_method, name, mean / 100, sd / 100, str(table["model"]),
                             str(table["source"]), (table.get("notes") or {}).get(base))
    return None
