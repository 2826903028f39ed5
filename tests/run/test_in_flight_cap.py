"""The default in-flight cap leaves room for every question's widest stage of calls."""

from __future__ import annotations

from mdagents.pipelines.base import PipelineSettings
from mdagents.run.config import RunConfig
from mdagents.run.session import make_llm


def _cap(config: RunConfig) -> int:
    return make_llm(config).limiter.max_in_flight  # type: ignore[attr-defined, no-any-return]


def test_a_debate_at_the_default_concurrency_is_not_throttled() -> None:
    config = RunConfig(model="mock/oracle")
    assert _cap(config) >= config.concurrency * config.settings.num_experts  # every expert's opinion at once
    assert _cap(config) >= config.concurrency * config.settings.num_teams * config.settings.team_size


def test_the_default_grows_with_concurrency_and_panel_size() -> None:
    wide = RunConfig(model="mock/oracle", concurrency=16, settings=PipelineSettings(num_experts=12))
    assert _cap(wide) == 16 * 12


def test_an_explicit_cap_wins() -> None:
    assert _cap(RunConfig(model="mock/oracle", concurrency=16, max_connections=4)) == 4
