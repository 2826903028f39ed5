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


@pytest.fixture(autouse=True)
def _no_run_defaults_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """MDAGENTS_MODEL, MDAGENTS_CONFIG and the like of the machine running the tests do not apply."""
    from mdagents.cli.run import run_parser
    from mdagents.run.config_file import ENV_PREFIX, option_table

    for key in {*option_table(run_parser()), "config"}:
        monkeypatch.delenv(ENV_PREFIX + key.replace("-", "_").upper(), raising=False)
