"""Shared test setup: never let a test read real keys or reach a real provider."""

from __future__ import annotations

import pytest

from mdagents.keys import KEY_VARIABLES
from mdagents.llm.endpoint import BASE_URL_VARIABLES
from tests.fakes.servers import fake_server  # noqa: F401 - the shared loopback-server fixture


@pytest.fixture(autouse=True)
def _no_real_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for names in KEY_VARIABLES.values():
        for name in names:
            monkeypatch.delenv(name, raising=False)
    for name in BASE_URL_VARIABLES.values():  # a developer's own endpoint must not redirect the tests
        monkeypatch.delenv(name, raising=False)
