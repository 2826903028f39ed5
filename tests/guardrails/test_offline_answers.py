"""Without a capable model the assistant writes no health text: it quotes guideline sections or says so."""

from __future__ import annotations

import argparse
import json

from mdagents.cli import ask
from mdagents.guardrails.assistant import Assistant
from mdagents.guardrails.messages import message
from tests.fakes.scripted import scripted_llm

TINY_MODEL_TEXT = "Eczema and psoriasis are symptoms of diabetes, also called polydromia."
SECTION = {"source": "who-diabetes.nxml", "section": "Symptoms",
           "content": "Common symptoms of diabetes include increased thirst, frequent urination and tiredness. "
                      "People with these symptoms should see a health worker for a blood glucose test.",
           "similarity": 0.88}


def _offline(retriever=None, **kwargs) -> Assistant:
    return Assistant(scripted_llm(lambda messages, params: TINY_MODEL_TEXT), retriever=retriever,
                     answers="guidelines", **kwargs)


async def test_without_a_guideline_store_it_says_a_capable_model_is_needed() -> None:
    assistant = _offline()
    reply = await assistant.ask("What are the symptoms of diabetes?")
    assert reply.content == message("capable_model_needed", "en")
    assert "polydromia" not in reply.content and assistant.llm.provider.requests == []
    assert reply.usage["calls"] == 0 and "capable_model_needed" in reply.guardrails_applied


async def test_the_statement_is_in_the_patients_language_and_region() -> None:
    reply = await _offline(region="FR").ask("Quels sont les symptômes du diabète ?")
    assert reply.content == message("capable_model_needed", "fr", "FR") and "15" in reply.content


async def test_with_a_guideline_store_it_quotes_the_sections_with_their_sources() -> None:
    async def retriever(query: str) -> list[dict]:
        return [SECTION]

    assistant = _offline(retriever)
    reply = await assistant.ask("What are the symptoms of diabetes?")
    assert assistant.llm.provider.requests == [] and "polydromia" not in reply.content
    assert '[1] "Common symptoms of diabetes include increased thirst' in reply.content
    assert "(who-diabetes.nxml — Symptoms)" in reply.content
    assert [c["source"] for c in reply.citations] == ["who-diabetes.nxml"]
    assert "guideline_quotes" in reply.guardrails_applied
    assert not any(v["type"] == "NO_CITATIONS" for v in reply.violations)


async def test_triage_and_fixed_messages_still_work_offline() -> None:
    assistant = _offline()
    emergency = await assistant.ask("I have crushing chest pain and can't breathe")
    assert emergency.emergency_detected and "911" in emergency.content
    scope = await assistant.ask("How many mg of ibuprofen should I take?")
    assert scope.triage["intervention_type"] == "out_of_scope" and "can't diagnose" in scope.content
    assert assistant.llm.provider.requests == []


def test_ask_with_the_embedded_model_writes_no_free_text(capsys) -> None:
    parser = argparse.ArgumentParser()
    ask.configure(parser)
    args = parser.parse_args(["What are the symptoms of diabetes?", "--json", "--no-guidelines", "--mode", "regex"])
    assert ask.answer_source(args) == "guidelines"
    assert ask.execute(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["content"] == message("capable_model_needed", "en") and out["usage"]["calls"] == 0
    assert ask.answer_source(parser.parse_args(["hi", "--model", "openai/gpt-4o-mini"])) == "model"
