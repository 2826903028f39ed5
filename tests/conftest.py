"""Shared test setup: never let a test read real keys or reach a real provider."""

from __future__ import annotations

import pytest

from mdagents.llm.models import KEY_VARIABLES


@pytest.fixture(autouse=True)
def _no_real_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for names in KEY_VARIABLES.values():
        for name in names:
            monkeypatch.delenv(name, raising=False)
