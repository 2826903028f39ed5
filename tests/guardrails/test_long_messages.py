"""Messages longer than the assistant (or its model) can take: triaged in full, then a clear answer
(`message_too_long`), never a context-overflow error, and the chat goes on."""

from __future__ import annotations

import json

import pytest

from mdagents.errors import ContextOverflow, ContextOverflowError
from mdagents.guardrails.assistant import Assistant
from mdagents.guardrails.checker import Guardrails
from mdagents.guardrails.limits import MAX_MESSAGE_CHARS, excerpt
from mdagents.guardrails.messages import format_number, message
from tests.fakes.scripted import scripted_llm

SAFE = ("Diabetes often causes thirst, frequent urination and tiredness [1]. "
        "This is general information, not a substitute for medical advice; talk to your doctor.")
PASTE = ("Résultats 雪 مرحبا नमस्ते lab values ALT 62 U/L " * 3000)[:100_000]
LAB_PASTE = ("Patient lab report. ALT 62 U/L, AST 40 U/L, bilirubin 1.1 mg/dL, albumin 4.2 g/dL. " * 1500)[:100_000]
NONE = json.dumps({"requires_intervention": False, "intervention_type": "none", "severity": "low",
                   "should_block": False, "explanation": "education"})


def _assistant(**kwargs) -> Assistant:
    context = kwargs.pop("context_tokens", None)
    return Assistant(scripted_llm(lambda messages, params: SAFE, context_tokens=context), **kwargs)


def _longest_user_message(assistant: Assistant) -> int:
    return max(len(m.content) for messages, _ in assistant.llm.provider.requests for m in messages if m.role == "user")


def test_the_limit_is_a_few_thousand_characters_and_excerpts_keep_head_and_tail() -> None:
    assert 2_000 <= MAX_MESSAGE_CHARS <= 8_000
    clipped = excerpt("A" * 50 + "B" * 10_000 + "Z" * 50, 1_000)
    assert len(clipped) <= 1_000 and clipped.startswith("A" * 50) and clipped.endswith("Z" * 50)
    assert "10,100" in clipped  # says how long the whole was
    assert excerpt("short", 1_000) == "short"


@pytest.mark.parametrize("lang", ["en", "fr", "es", "zh", "ar", "hi", "pt"])
def test_message_too_long_says_the_length_and_the_limit_in_every_language(lang: str) -> None:
    text = message("message_too_long", lang, length=format_number(100_000, lang),
                   limit=format_number(MAX_MESSAGE_CHARS, lang))
    assert format_number(100_000, lang) in text and format_number(MAX_MESSAGE_CHARS, lang) in text
    assert lang == "en" or text != message("message_too_long", "en", length="1", limit="2")
    assert format_number(100_000, "en") == "100,000" and format_number(100_000, "fr") == "100\u202f000"


async def test_a_100000_character_paste_gets_a_clear_answer_and_the_chat_goes_on() -> None:
    assistant = _assistant(language="en")
    reply = await assistant.ask(LAB_PASTE)
    assert reply.content == message("message_too_long", "en", length="100,000", limit=f"{MAX_MESSAGE_CHARS:,}")
    assert "100,000" in reply.content and f"{MAX_MESSAGE_CHARS:,}" in reply.content
    assert "message_too_long" in reply.guardrails_applied and not reply.at_risk
    assert assistant.llm.provider.requests == []  # the model never saw it
    later = await assistant.ask("What does a high ALT mean?")
    assert SAFE in later.content
    assert _longest_user_message(assistant) <= MAX_MESSAGE_CHARS  # the paste is kept only as an excerpt


async def test_a_mixed_script_paste_is_answered_in_its_detected_language() -> None:
    reply = await _assistant().ask(PASTE)
    assert reply.content == message("message_too_long", "zh", length=format_number(100_000, "zh"),
                                    limit=format_number(MAX_MESSAGE_CHARS, "zh"))


async def test_the_limit_itself_is_answered_and_one_character_more_is_not() -> None:
    assistant = _assistant(language="en")
    at_limit = ("What is asthma? " * 1000)[:MAX_MESSAGE_CHARS]
    assert SAFE in (await assistant.ask(at_limit)).content
    assert assistant.llm.provider.requests[0][0][-1].content == at_limit
    over = await assistant.ask(at_limit + "?")
    assert "message_too_long" in over.guardrails_applied and len(assistant.llm.provider.requests) == 1


@pytest.mark.parametrize(("where", "words", "kind"), [
    ("middle", "I want to kill myself tonight", "mental_health_crisis"),
    ("end", "my husband collapsed and is not breathing", "emergency"),
])
async def test_triage_reads_the_whole_paste_first(where: str, words: str, kind: str) -> None:
    half = LAB_PASTE[:50_000]
    paste = f"{half} {words}. {half}" if where == "middle" else f"{LAB_PASTE} {words}"
    assistant = _assistant(region="GB", language="en")
    reply = await assistant.ask(paste)
    assert reply.triage["intervention_type"] == kind and reply.content == message(kind, "en", "GB")
    assert "999" in reply.content and assistant.llm.provider.requests == []
    later = await assistant.ask("What does a high ALT mean?")  # the chat goes on, with the resources
    assert later.at_risk and "999" in later.content
    assert _longest_user_message(assistant) <= MAX_MESSAGE_CHARS


async def test_llm_triage_reads_an_excerpt_so_the_check_itself_fits() -> None:
    guard = scripted_llm(lambda messages, params: NONE)
    assistant = _assistant(guardrails=Guardrails("llm", llm=guard), language="en")
    reply = await assistant.ask(LAB_PASTE)
    assert "message_too_long" in reply.guardrails_applied and "service_error" not in reply.guardrails_applied
    prompt = guard.provider.requests[0][0][-1].content
    assert len(prompt) < MAX_MESSAGE_CHARS + 3_000 and "ALT 62" in prompt


async def test_a_message_the_model_cannot_take_gets_message_too_long_not_an_error() -> None:
    # Within the character limit, but more than this model's context window (counted in words here).
    assistant = _assistant(context_tokens=1000, language="en")
    question = "What do these values mean? " + "ALT 62 AST 40 " * 250  # ~1,000 words, ~3,500 characters
    assert len(question) <= MAX_MESSAGE_CHARS
    reply = await assistant.ask(question)
    assert "message_too_long:model_context" in reply.guardrails_applied
    assert reply.content.startswith(message("message_too_long", "en", length=f"{len(question):,}",
                                            limit="X").split("X")[0])
    limit = int(reply.content.split("at most ")[1].split(" ")[0].replace(",", ""))
    assert 100 <= limit < len(question)  # an estimate of what this model can read
    assert assistant.llm.provider.requests == []  # nothing too long was ever answered
    later = await assistant.ask("What does a high ALT mean?")  # the history alone is too long now: left out
    assert SAFE in later.content and "history_dropped" in later.guardrails_applied


async def test_guideline_sources_are_dropped_before_giving_up_on_a_small_context() -> None:
    async def retriever(query: str) -> list[dict]:
        return [{"source": "who-liver.nxml", "section": "Tests", "content": "word " * 800, "similarity": 0.9}]

    assistant = _assistant(context_tokens=1000, retriever=retriever, language="en")
    reply = await assistant.ask("What does a high ALT mean?")
    assert "guideline_sources_dropped" in reply.guardrails_applied and SAFE in reply.content
    assert reply.citations == []
    assert len(assistant.llm.provider.refused) == 1 and len(assistant.llm.provider.requests) == 1


async def test_the_client_keeps_the_overflow_typed() -> None:
    llm = scripted_llm(lambda messages, params: SAFE, context_tokens=10)
    from mdagents.llm.types import Message

    with pytest.raises(ContextOverflowError) as caught:
        await llm.complete([Message("user", "word " * 50)], max_tokens=5)
    assert caught.value.prompt_tokens == 50 and caught.value.limit_tokens == 5
    assert issubclass(ContextOverflow, Exception)


@pytest.mark.slow
async def test_the_embedded_model_refuses_a_prompt_longer_than_its_window_before_reading_it() -> None:
    from mdagents.llm.local import LocalProvider
    from mdagents.llm.types import GenerationParams, Message

    provider = LocalProvider("smollm2-135m")
    with pytest.raises(ContextOverflow) as caught:  # emoji: about three tokens each
        await provider.complete([Message("user", "🩺" * 3_000)], GenerationParams(max_tokens=700), timeout=60)
    assert caught.value.limit_tokens == provider.n_ctx - 700 and caught.value.prompt_tokens > provider.n_ctx


@pytest.mark.slow
@pytest.mark.parametrize("text", [LAB_PASTE, "What do these symbols on my vitamin label mean? " + "🍊🥕🥦" * 1_300],
                         ids=["100000-characters", "within-the-limit-but-too-many-tokens"])
def test_ask_with_the_embedded_default_model_answers_clearly(text: str, capsys) -> None:
    import argparse

    from mdagents.cli import ask

    parser = argparse.ArgumentParser()
    ask.configure(parser)
    code = ask.execute(parser.parse_args([text, "--json", "--no-guidelines"]))
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["model"] == "local/smollm2-135m"
    assert "technical problem" not in out["content"]
    if len(text) > MAX_MESSAGE_CHARS:
        assert any(a.startswith("message_too_long") for a in out["guardrails_applied"])
        assert f"{len(text):,}" in out["content"]
    else:  # the embedded model never writes an answer, so its window is never the limit
        assert out["guardrails_applied"][-1] == "capable_model_needed" and out["usage"]["calls"] == 0


async def test_a_model_too_small_for_any_message_is_a_service_error_not_a_length_complaint() -> None:
    assistant = _assistant(context_tokens=720, language="en")  # 700 of them are kept for the answer
    reply = await assistant.ask("What does a high ALT mean?")
    assert "technical problem" in reply.content and "911" in reply.content
    assert "service_error:ContextOverflowError" in reply.guardrails_applied


@pytest.mark.parametrize(("wire", "error"), [
    ("openai", "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 "
               "tokens. Please reduce the length of the messages."),
    ("openai", "the request exceeds the available context size, try increasing it"),  # llama.cpp's server
    ("anthropic", "prompt is too long: 210000 tokens > 200000 maximum"),
    ("gemini", "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576)."),
])
async def test_a_servers_context_length_error_is_typed_and_answered_clearly(fake_server, wire, error) -> None:
    from mdagents.llm.factory import build_llm

    server = fake_server(wire, lambda messages, request: SAFE)
    if wire == "anthropic":
        body = {"type": "error", "error": {"type": "invalid_request_error", "message": error}}
    elif wire == "gemini":
        body = {"error": {"code": 400, "message": error, "status": "INVALID_ARGUMENT"}}
    else:
        body = {"error": {"message": error, "type": "invalid_request_error", "param": "messages",
                          "code": "context_length_exceeded"}}
    server.fail_next(400, body=body)
    llm = build_llm(f"{wire}/tiny", base_url=server.base_url)
    try:
        assistant = Assistant(llm, language="en")
        reply = await assistant.ask("What do these values mean? " + "ALT 62 AST 40 " * 200)
    finally:
        await llm.aclose()
    assert "message_too_long:model_context" in reply.guardrails_applied and "technical problem" not in reply.content
    assert len(server.requests) == 1  # not retried: the same prompt never fits
