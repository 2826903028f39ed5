"""The LLM client's retry layer over real providers and SDKs against loopback servers."""

from __future__ import annotations

from typing import Any

import pytest

from mdagents.errors import LLMCallError
from mdagents.llm.client import LLM, RetryPolicy
from mdagents.llm.models import parse_model
from mdagents.llm.prices import resolve_price
from mdagents.llm.transcript import Transcript
from mdagents.llm.types import Message
from tests.fakes.servers import FakeServer, Start, provider_classes, wire_of

KEY = "sk-test-Zq8v3LmN0pR7sT2uW5xY9aB4"
QUESTION = [Message("system", "You are a clinician."), Message("user", "First-line drug for anaphylaxis?")]



PROVIDERS = provider_classes()


class SleepRecorder:
    """Stands in for asyncio.sleep: records the backoff delays instead of waiting."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


def make_llm(wire: str, server: FakeServer, sleep: SleepRecorder, **policy: Any) -> LLM:
    cls, model = PROVIDERS[wire]
    provider = cls(model, api_key=KEY, base_url=server.base_url)
    return LLM(provider, retry=RetryPolicy(**{"max_retries": 4, "timeout": 5.0, **policy}), sleep=sleep, seed=0,
               price=resolve_price(parse_model(f"{wire}/{model}")))


@pytest.mark.parametrize("wire", list(PROVIDERS))
async def test_rate_limit_waits_at_least_retry_after_then_succeeds(fake_server: Start, wire: str) -> None:
    server = fake_server(wire_of(wire), lambda messages, request: "Adrenaline IM.\nAnswer: (A)")
    server.fail_next(429, headers={"retry-after": "7"})
    sleep = SleepRecorder()
    llm = make_llm(wire, server, sleep)
    completion = await llm.complete(QUESTION)
    await llm.aclose()
    assert completion.text == "Adrenaline IM.\nAnswer: (A)"
    assert len(server.requests) == 2
    assert len(sleep.delays) == 1 and sleep.delays[0] >= 7.0
    assert llm.ledger.retries == 1 and llm.ledger.failures == 0


async def test_retry_after_is_capped(fake_server: Start) -> None:
    server = fake_server("openai")
    server.fail_next(429, headers={"retry-after": "3600"})
    sleep = SleepRecorder()
    llm = make_llm("openai", server, sleep, max_retry_after=60.0)
    await llm.complete(QUESTION)
    await llm.aclose()
    assert len(sleep.delays) == 1 and 60.0 <= sleep.delays[0] <= 61.0


@pytest.mark.parametrize("wire", list(PROVIDERS))
async def test_server_error_then_success(fake_server: Start, wire: str) -> None:
    server = fake_server(wire_of(wire))
    server.fail_next(500)
    sleep = SleepRecorder()
    llm = make_llm(wire, server, sleep, base_delay=1.0)
    completion = await llm.complete(QUESTION)
    await llm.aclose()
    assert completion.text
    assert len(server.requests) == 2
    assert len(sleep.delays) == 1 and 0.5 <= sleep.delays[0] <= 1.0  # jittered first backoff


async def test_backoff_grows_between_attempts(fake_server: Start) -> None:
    server = fake_server("openai")
    server.fail_next(503, times=3)
    sleep = SleepRecorder()
    llm = make_llm("openai", server, sleep, base_delay=1.0, max_delay=30.0)
    await llm.complete(QUESTION)
    await llm.aclose()
    assert len(server.requests) == 4
    ceilings = [1.0, 2.0, 4.0]
    assert all(c / 2 <= d <= c for d, c in zip(sleep.delays, ceilings, strict=True))


@pytest.mark.parametrize("wire", list(PROVIDERS))
async def test_timeout_then_success(fake_server: Start, wire: str) -> None:
    server = fake_server(wire_of(wire))
    server.hang_next(3)
    sleep = SleepRecorder()
    llm = make_llm(wire, server, sleep, timeout=0.4)
    completion = await llm.complete(QUESTION)
    await llm.aclose()
    assert completion.text
    assert len(server.requests) == 2
    assert llm.ledger.retries == 1


async def test_timeouts_exhaust_retries(fake_server: Start) -> None:
    server = fake_server("openai")
    server.hang_next(3, times=2)
    sleep = SleepRecorder()
    llm = make_llm("openai", server, sleep, timeout=0.3, max_retries=1)
    with pytest.raises(LLMCallError, match="timed out"):
        await llm.complete(QUESTION)
    await llm.aclose()
    assert len(server.requests) == 2


@pytest.mark.parametrize("wire", list(PROVIDERS))
async def test_fatal_401_fails_after_exactly_one_request(fake_server: Start, wire: str) -> None:
    server = fake_server(wire_of(wire))
    server.fail_next(401, times=5)
    sleep = SleepRecorder()
    llm = make_llm(wire, server, sleep)
    transcript = Transcript()
    with pytest.raises(LLMCallError) as info:
        await llm.complete(QUESTION, transcript=transcript, role="decider")
    await llm.aclose()
    assert len(server.requests) == 1
    assert sleep.delays == []
    assert "401" in str(info.value) and KEY not in str(info.value)
    assert llm.ledger.failures == 1
    assert [(c.role, c.reply) for c in transcript.calls] == [("decider", "")]
    assert "401" in (transcript.calls[0].error or "")


async def test_retries_are_bounded_by_max_retries(fake_server: Start) -> None:
    server = fake_server("anthropic")
    server.fail_next(529, times=10)  # Anthropic "overloaded"
    sleep = SleepRecorder()
    llm = make_llm("anthropic", server, sleep, max_retries=2)
    with pytest.raises(LLMCallError, match="3 attempt"):
        await llm.complete(QUESTION)
    await llm.aclose()
    assert len(server.requests) == 3
    assert len(sleep.delays) == 2
    assert llm.ledger.retries == 2 and llm.ledger.failures == 1


async def test_usage_lands_in_transcript_and_ledger(fake_server: Start) -> None:
    server = fake_server("openai", lambda messages, request: "Adrenaline 0.5 mg IM.\nAnswer: (A)")
    sleep = SleepRecorder()
    llm = make_llm("openai", server, sleep)
    transcript = Transcript()
    await llm.complete(QUESTION, temperature=0.0, role="expert", transcript=transcript)
    await llm.complete(QUESTION, temperature=0.7, role="moderator", transcript=transcript)
    await llm.aclose()
    prompt = sum(len(m.content.split()) for m in QUESTION)
    first, second = transcript.calls
    assert (first.role, first.usage.input_tokens, first.usage.output_tokens) == ("expert", prompt, 6)
    assert first.usage.calls == 1 and first.usage.cached_tokens == 0
    assert second.usage.cached_tokens == prompt  # the server's prompt cache, reported through the SDK
    assert first.params == {"temperature": 0.0} and first.reply.endswith("Answer: (A)")
    assert first.latency_s > 0
    total = transcript.total()
    assert (total.input_tokens, total.output_tokens, total.calls) == (2 * prompt, 12, 2)
    assert llm.ledger.usage.input_tokens == 2 * prompt
    # the second call's prompt was cached by the provider: billed at gpt-4o-mini's cached-input rate
    assert llm.ledger.spent_usd == pytest.approx((prompt * 0.15 + prompt * 0.075 + 12 * 0.60) / 1e6)


@pytest.mark.parametrize("wire", list(PROVIDERS))
async def test_a_reply_over_the_size_cap_is_refused_at_once(fake_server: Start, wire: str) -> None:
    server = fake_server(wire_of(wire), lambda messages, request: "x" * 2_000_000 + "\nAnswer: (A)")
    sleep = SleepRecorder()
    llm = make_llm(wire, server, sleep)
    with pytest.raises(LLMCallError, match=r"reply of 2,000,012 characters refused \(the cap is 1,000,000\)"):
        await llm.complete(QUESTION)
    await llm.aclose()
    assert len(server.requests) == 1 and sleep.delays == []  # the same prompt would bring the same flood
