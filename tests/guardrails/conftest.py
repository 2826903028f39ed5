"""Guardrail tests: the loopback provider servers, and logs kept out of the project tree."""

from __future__ import annotations

import pytest

from tests.fakes.servers import fake_server  # noqa: F401  (fixture)


@pytest.fixture(autouse=True)
def _logs_in_tmp(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MDAGENTS_LOG_DIR", str(tmp_path / "logs"))
    monkeypatch.setenv("MDAGENTS_DB_URL", "")
    monkeypatch.setenv("MDAGENTS_CACHE_DIR", str(tmp_path / "cache"))
