"""llm and hybrid modes: strict JSON verdicts, fallback to regex, through the fake and a loopback server."""

from __future__ import annotations

import json

import pytest

from mdagents.errors import ConfigError
from mdagents.guardrails.checker import Guardrails
from mdagents.guardrails.llm_check import parse_input_verdict, parse_output_verdict
from mdagents.guardrails.verdicts import GuardrailCheckError
from mdagents.llm.factory import build_llm
from tests.fakes.scripted import last_user, scripted_llm

EMERGENCY = json.dumps({"requires_intervention": True, "intervention_type": "emergency", "severity": "critical",
                        "should_block": True, "explanation": "chest pain now"})
NONE = json.dumps({"requires_intervention": False, "intervention_type": "none", "severity": "low",
                   "should_block": False, "explanation": "education"})


def test_strict_parsing_rejects_loose_verdicts() -> None:
    assert parse_input_verdict(f"```json\n{EMERGENCY}\n```").intervention_type == "emergency"
    for bad in ("emergency", "{}", EMERGENCY.replace('"critical"', '"urgent"'),
                EMERGENCY.replace('"requires_intervention": true', '"requires_intervention": false'),
                f"Sure! {EMERGENCY}", json.dumps({**json.loads(NONE), "extra": 1})):
        with pytest.raises(GuardrailCheckError):
            parse_input_verdict(bad)
    with pytest.raises(GuardrailCheckError):
        parse_output_verdict('{"violations": [{"type": "RUDENESS", "evidence": "x"}]}')


async def test_llm_mode_uses_the_model_verdict() -> None:
    llm = scripted_llm(lambda messages, params: EMERGENCY)
    guard = Guardrails("llm", llm=llm)
    verdict = await guard.check_input("What is chest pain, in general?")  # the model's call, not the regex's
    assert (verdict.intervention_type, verdict.source) == ("emergency", "llm")
    assert llm.ledger.usage.calls == 1


async def test_llm_mode_raises_and_hybrid_falls_back_on_bad_json() -> None:
    out_of_scope = "How many mg of ibuprofen should I take?"  # flagged offline, but not at the highest level
    with pytest.raises(GuardrailCheckError):
        await Guardrails("llm", llm=scripted_llm(["not json"])).check_input(out_of_scope)
    hybrid = Guardrails("hybrid", llm=scripted_llm(["not json"]))
    verdict = await hybrid.check_input(out_of_scope)
    assert verdict.intervention_type == "out_of_scope" and "regex" in verdict.source
    assert verdict.layers[-1]["layer"] == "llm" and "check failed" in verdict.layers[-1]["why"]
    assert len(hybrid.fallbacks) == 1


async def test_hybrid_falls_back_when_the_call_fails() -> None:
    hybrid = Guardrails("hybrid", llm=scripted_llm([]))  # the provider errors on the first call
    assert (await hybrid.check_input("my dad collapsed and is unresponsive")).intervention_type == "emergency"


async def test_llm_output_check_remediates_model_found_violations() -> None:
    reply = "Take 500 mg of amoxicillin three times a day. Sore throats are often viral and improve in a week."
    verdict = json.dumps({"violations": [{"type": "DOSING", "evidence": "Take 500 mg of amoxicillin"}]})
    guard = Guardrails("llm", llm=scripted_llm([verdict]))
    result = await guard.check_output(reply, message="sore throat?")
    assert result.source == "llm" and result.suggested_action == "remove_content"
    assert "500 mg" not in result.modified_response and "NO_CITATIONS" in result.types


def test_non_regex_modes_need_a_model() -> None:
    with pytest.raises(ConfigError):
        Guardrails("llm")
    with pytest.raises(ConfigError):
        Guardrails("strict")


async def test_llm_mode_through_a_loopback_openai_server(fake_server) -> None:
    def responder(messages, request):
        return EMERGENCY if "crushing" in last_user(messages) else NONE

    server = fake_server("openai", responder)
    llm = build_llm("openai/guard-mini", base_url=server.base_url)
    try:
        guard = Guardrails("llm", llm=llm)
        assert (await guard.check_input("crushing chest pain")).intervention_type == "emergency"
        assert (await guard.check_input("what is the flu?")).intervention_type == "none"
    finally:
        await llm.aclose()
    assert len(server.requests) == 1  # the emergency was flagged offline: the model was not asked
    prompt = server.requests[0]["json"]["messages"][-1]["content"]
    assert "what is the flu?" in prompt and "JSON" in prompt


async def test_regex_reads_a_chat_message_with_the_messages_before_it() -> None:
    from mdagents.llm.types import Message

    guard = Guardrails("regex")
    fever = "my son has had a high fever since yesterday"
    worse = "it started an hour ago and now he is confused and hard to keep awake"
    assert (await guard.check_input(fever)).intervention_type == "none"
    alone = await guard.check_input("and now he is confused and hard to keep awake")
    assert alone.intervention_type == "none"
    history = [Message("user", fever), Message("assistant", "Fevers in children are common...")]
    together = await guard.check_input(worse, history)
    assert together.intervention_type == "emergency" and together.should_block
    assert "read with the previous messages" in together.explanation
    # What an earlier message said was flagged when it came: a later harmless question is answered.
    crisis = [Message("user", "I want to kill myself"), Message("assistant", "You are not alone...")]
    assert (await guard.check_input("what foods help me sleep better?", crisis)).intervention_type == "none"
