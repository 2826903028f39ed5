"""The spec where it speaks to patients: the system prompt's rules and the environment variables."""

from __future__ import annotations

import argparse

import pytest

from mdagents.cli import ask
from mdagents.errors import UsageError
from mdagents.guardrails.assistant import Assistant
from tests.fakes.scripted import scripted_llm

REPLY = "La grippe est une infection virale. Ces informations sont générales; parlez-en à votre médecin."


def _args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    ask.configure(parser)
    return parser.parse_args(argv)


async def test_the_system_prompt_names_the_patients_language_region_and_what_to_do_when_sources_disagree() -> None:
    assistant = Assistant(scripted_llm(lambda messages, params: REPLY), region="FR")
    await assistant.ask("Qu'est-ce que la grippe ?")
    system = assistant.llm.provider.requests[0][0][0].content
    assert "Answer in French" in system and "The person is in France" in system
    assert "When trusted sources disagree, say so plainly" in system and "clinician" in system


def test_primary_model_and_web_fetch_come_from_the_environment() -> None:
    args = _args(["hi"])
    ask.apply_environment(args, {"PRIMARY_MODEL": "anthropic/claude-sonnet-4-5", "ENABLE_WEB_FETCH": "true",
                                 "ASSISTANT_MODE": "patient", "ENABLE_GUARDRAILS": "true"})
    assert args.model == "anthropic/claude-sonnet-4-5" and args.web is True
    flags = _args(["hi", "--model", "openai/gpt-4o-mini"])
    ask.apply_environment(flags, {"PRIMARY_MODEL": "anthropic/claude-sonnet-4-5", "ENABLE_WEB_FETCH": "true"})
    assert flags.model == "openai/gpt-4o-mini" and flags.web is False  # web search needs an anthropic model
    off = _args(["hi", "--model", "anthropic/claude-haiku-4-5", "--no-web"])
    ask.apply_environment(off, {"ENABLE_WEB_FETCH": "true"})
    assert off.web is False
    plain = _args(["hi"])
    ask.apply_environment(plain, {})
    assert plain.model is None and plain.web is False


@pytest.mark.parametrize(("env", "error"), [
    ({"ASSISTANT_MODE": "physician"}, "only the patient assistant exists"),
    ({"ENABLE_GUARDRAILS": "false"}, "does not run without its guardrails"),
    ({"ENABLE_WEB_FETCH": "maybe"}, "use true or false"),
])
def test_settings_that_cannot_be_honoured_are_refused(env: dict[str, str], error: str) -> None:
    with pytest.raises(UsageError, match=error):
        ask.apply_environment(_args(["hi"]), env)
