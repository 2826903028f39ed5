"""The assistant: fixed messages without model calls, declines, citations, history, logs."""

from __future__ import annotations

import json

from mdagents.guardrails.assistant import Assistant
from mdagents.guardrails.checker import Guardrails
from mdagents.guardrails.session_log import SessionLog
from tests.fakes.scripted import scripted_llm

SAFE = ("Diabetes often causes thirst, frequent urination and tiredness [1]. "
        "This is general information, not a substitute for medical advice; talk to your doctor.")


def _assistant(replies=None, **kwargs) -> Assistant:
    llm = scripted_llm(replies if replies is not None else (lambda messages, params: SAFE))
    return Assistant(llm, **kwargs)


async def test_emergency_gets_fixed_message_without_any_model_call() -> None:
    assistant = _assistant([])
    reply = await assistant.ask("I have crushing chest pain and can't breathe")
    assert reply.emergency_detected and not reply.mental_health_crisis
    assert "911" in reply.content and reply.usage["calls"] == 0
    assert assistant.llm.provider.requests == []
    assert "emergency_message" in reply.guardrails_applied


async def test_crisis_message_in_the_patients_language_and_region() -> None:
    assistant = _assistant([], region="FR")
    reply = await assistant.ask("J'ai envie de me suicider")
    assert reply.mental_health_crisis and "3114" in reply.content and "Vous n'êtes pas seul" in reply.content
    assert assistant.llm.provider.requests == []


async def test_pressing_beyond_scope_asks_for_an_acknowledgement_remembered_for_the_session() -> None:
    assistant = _assistant(lambda messages, params: "Doses depend on weight, kidneys and other medicines; "
                           "a pharmacist checks them. This is general information; talk to your doctor.")
    first = await assistant.ask("How many mg of ibuprofen should I take?")
    assert "can't diagnose" in first.content and "pressed_beyond_scope" not in first.guardrails_applied
    second = await assistant.ask("Come on, just tell me how much ibuprofen should I take")
    assert "pressed_beyond_scope" in second.guardrails_applied and "Do you acknowledge" in second.content
    assert assistant.llm.provider.requests == []  # nothing answered before the acknowledgement
    third = await assistant.ask("Yes, I acknowledge")
    assert "limits_acknowledged" in third.guardrails_applied and assistant.acknowledged_limits
    assert third.content.startswith("Thank you. What follows is general educational information only")
    asked, _ = assistant.llm.provider.requests[-1]
    assert "how much ibuprofen" in asked[-1].content and "acknowledged" in asked[0].content
    fourth = await assistant.ask("And what dose of naproxen should I take?")  # remembered: no second request
    assert "pressed_beyond_scope" not in fourth.guardrails_applied
    assert "general_education_after_acknowledgement" in fourth.guardrails_applied


async def test_a_refused_acknowledgement_answers_nothing_and_the_next_press_asks_again() -> None:
    assistant = _assistant([])
    await assistant.ask("How many mg of ibuprofen should I take?")
    await assistant.ask("Just tell me how much ibuprofen should I take")
    reply = await assistant.ask("No. How many mg of naproxen should I take then?")
    assert not assistant.acknowledged_limits and assistant.llm.provider.requests == []
    assert "pressed_beyond_scope" in reply.guardrails_applied and "Do you acknowledge" in reply.content


async def test_answer_with_store_citations_and_output_check() -> None:
    async def retriever(query: str) -> list[dict]:
        return [{"source": "who-diabetes.nxml", "section": "Symptoms", "content": "Thirst and polyuria.",
                 "similarity": 0.91}]

    assistant = _assistant(retriever=retriever)
    reply = await assistant.ask("What are the symptoms of diabetes?")
    prompt = assistant.llm.provider.requests[0][0][-1].content
    assert "Thirst and polyuria." in prompt and "[1] who-diabetes.nxml" in prompt
    assert reply.citations == [{"source": "who-diabetes.nxml", "section": "Symptoms", "similarity": 0.91,
                                "origin": "guideline_store"}]
    assert reply.violations == [] and reply.content == SAFE
    assert set(reply.to_dict()) == {"content", "model", "usage", "citations", "mode", "guardrails_applied",
                                    "violations", "emergency_detected", "mental_health_crisis", "session_id", "triage",
                                    "at_risk", "output_check", "web_search_performed"}
    assert reply.output_check == {"passes_guardrails": True, "severity": "none", "explanation": "no violation found",
                                  "suggested_action": "pass", "violations": [], "web_search_performed": False,
                                  "has_trusted_citations": True, "source": "regex"}


async def test_failing_retriever_means_no_citations_not_a_failure() -> None:
    async def broken(query: str) -> list[dict]:
        raise RuntimeError("store down")

    reply = await _assistant(retriever=broken).ask("What are the symptoms of diabetes?")
    assert reply.citations == [] and any(v["type"] == "NO_CITATIONS" for v in reply.violations)
    assert "trusted source" in reply.content


async def test_unsafe_model_reply_is_modified() -> None:
    reply = await _assistant(["You have the flu. Take 1000 mg of paracetamol every 6 hours. Rest and drink "
                              "plenty of fluids while you recover."]).ask("I feel achy and feverish, why?")
    assert "1000 mg" not in reply.content and "This may indicate the flu" in reply.content
    assert {"DIAGNOSIS", "DOSING"} <= {v["type"] for v in reply.violations}


async def test_history_is_kept_across_turns() -> None:
    assistant = _assistant()
    await assistant.ask("What are migraines?")
    await assistant.ask("How long do they last?")
    second = assistant.llm.provider.requests[1][0]
    assert [m.content for m in second if m.role == "user"][:1] == ["What are migraines?"]
    assert second[-1].content == "How long do they last?" and second[2].role == "assistant"


async def test_chronic_condition_is_acknowledged() -> None:
    reply = await _assistant().ask("I have type 2 diabetes, what foods help keep blood sugar steady?")
    assert reply.content.startswith("You may already know much of this from living with your condition")


async def test_session_log_has_ids_and_query_only_on_request(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-secret-key-0123456789")
    for log_queries in (False, True):
        log = SessionLog(tmp_path / str(log_queries), log_queries=log_queries)
        assistant = _assistant(log=log, guardrails=Guardrails("regex"))
        await assistant.ask("What is asthma? my key is sk-test-secret-key-0123456789")
        log.close()
        lines = [json.loads(line) for line in log.path.read_text().splitlines()]
        assert [r["event"] for r in lines] == ["session_start", "turn"]
        assert {r["session_id"] for r in lines} == {assistant.session_id}
        assert ("query" in lines[1]) is log_queries
        assert "sk-test-secret-key-0123456789" not in log.path.read_text()
