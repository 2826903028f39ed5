"""Question record and dataset loading (being written: see issue 2)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Question:
    """One multiple-choice medical question as presented to the model.

    `id` is stable: `<dataset>-<split>-<index or realidx>`. `options` is ordered
    letter -> text in the order shown; `answer_idx` is the letter of the true answer in
    that order. `meta` keeps the source's extra fields (and, after shuffling, the
    original order and letter).
    """

    id: str
    question: str
    options: dict[str, str]
    answer_idx: str
    answer: str
    context: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)
