"""The wave scheduler through the real OpenAI SDK: one request per distinct call, size limits, waves."""

from __future__ import annotations

import asyncio
from pathlib import Path

from mdagents.llm.batch.journal import BatchJournal
from mdagents.llm.batch.provider import enable_batch
from mdagents.llm.batch.scheduler import BatchOptions, BatchScheduler
from mdagents.llm.cache import cache_key
from mdagents.llm.client import LLM
from mdagents.llm.openai import OpenAIProvider
from mdagents.llm.types import GenerationParams, Message
from tests.fakes.batches import FakeBatchServer

FAST = BatchOptions(quiet_s=0.02, poll_s=0.02)


def echo(messages: list[Message], body: dict) -> str:
    return f"Answer: (A) {messages[-1].content}"


async def batch_llm(server: FakeBatchServer, tmp_path: Path, options: BatchOptions = FAST
                    ) -> tuple[LLM, BatchScheduler]:
    scheduler = BatchScheduler(tmp_path / "batches.jsonl", options=options)
    llm = LLM(OpenAIProvider("gpt-4o-mini", api_key="sk-test", base_url=server.base_url))
    enable_batch(llm, scheduler)
    return llm, scheduler


async def test_chains_advance_one_step_per_wave(tmp_path: Path) -> None:
    with FakeBatchServer(echo) as server:
        llm, scheduler = await batch_llm(server, tmp_path)

        async def chain(i: int) -> list[str]:
            return [(await llm.complete([Message("user", f"q{i} step {s}")])).text for s in range(3)]

        replies = await asyncio.gather(*(chain(i) for i in range(8)))
        await scheduler.aclose()
        await llm.aclose()
    assert replies[5] == [f"Answer: (A) q5 step {s}" for s in range(3)]
    assert len(server.batches) == scheduler.stats.waves == 3
    assert [b["request_counts"]["total"] for b in server.batches.values()] == [8, 8, 8]


async def test_the_same_call_twice_in_a_wave_is_one_request_and_two_replies(tmp_path: Path) -> None:
    with FakeBatchServer(echo) as server:
        llm, scheduler = await batch_llm(server, tmp_path)
        first, second = await asyncio.gather(*(llm.complete([Message("user", "same")]) for _ in range(2)))
        await scheduler.aclose()
        await llm.aclose()
    assert len(server.submitted_ids) == 1
    assert first.text == second.text and first is not second and first.usage is not second.usage
    assert llm.ledger.usage.calls == 2


async def test_a_wave_larger_than_the_batch_limit_is_split(tmp_path: Path) -> None:
    with FakeBatchServer(echo) as server:
        llm, scheduler = await batch_llm(server, tmp_path, BatchOptions(quiet_s=0.02, poll_s=0.02, max_requests=4))
        await asyncio.gather(*(llm.complete([Message("user", f"q{i}")]) for i in range(10)))
        await scheduler.aclose()
        await llm.aclose()
    assert sorted(b["request_counts"]["total"] for b in server.batches.values()) == [2, 4, 4]
    assert scheduler.stats.waves == 1


async def test_a_recorded_batch_the_provider_no_longer_has_is_sent_again(tmp_path: Path) -> None:
    messages = [Message("user", "q1")]
    with FakeBatchServer(echo) as server:
        custom_id = cache_key("openai", "gpt-4o-mini", server.base_url, messages, GenerationParams())
        BatchJournal(tmp_path / "batches.jsonl").submitted("batch_gone", "openai/gpt-4o-mini", [custom_id], 1)
        llm, scheduler = await batch_llm(server, tmp_path)
        reply = await llm.complete(messages)
        await scheduler.aclose()
        await llm.aclose()
    assert reply.text == "Answer: (A) q1"
    assert server.submitted_ids == [custom_id]  # after the recorded batch came back 404
    assert scheduler.stats.requests_resumed == 1 and llm.ledger.retries == 1
