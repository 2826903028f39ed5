"""The response cache is an optimisation: when it cannot be written or opened the run goes on without
it, with one warning, and no reply already received is lost."""

from __future__ import annotations

import asyncio
import errno
import sqlite3
from pathlib import Path

import pytest

from mdagents.cli import main
from mdagents.llm.cache import ResponseCache
from mdagents.llm.client import LLM, RetryPolicy
from mdagents.llm.openai import OpenAIProvider
from mdagents.llm.types import Message
from tests.fakes.servers import Start
from tests.runs_helpers import cli_args, good_server, only_run_dir, read_records

ONE_CALL = ("--difficulty", "basic", "--num-exemplars", "0")


def _warnings(err: str) -> list[str]:
    return [line for line in err.splitlines() if "response cache" in line]


@pytest.mark.parametrize("failure", [OSError(errno.ENOSPC, "No space left on device"),
                                     sqlite3.OperationalError("database or disk is full")])
def test_a_failing_cache_write_loses_no_reply(failure: Exception, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    def put(self: ResponseCache, key: str, completion: object) -> None:
        raise failure

    monkeypatch.setattr(ResponseCache, "put", put)
    with good_server("basic") as server:
        assert main(cli_args(server, tmp_path, *ONE_CALL, "--concurrency", "3", n=8)) == 0
        assert len(server.requests) == 8
    records = read_records(only_run_dir(tmp_path))
    assert len(records) == 8 and not any(r["error"] for r in records) and all(r["correct"] for r in records)
    warnings = _warnings(capsys.readouterr().err)
    assert len(warnings) == 1 and "going on without it" in warnings[0]


def test_an_unusable_cache_path_is_one_warning_and_the_run_goes_on(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("a file where the cache directory should be")
    with good_server("basic") as server:
        args = cli_args(server, tmp_path, *ONE_CALL, n=3)
        args[args.index("--cache-path") + 1] = str(blocker / "cache" / "responses.sqlite")
        assert main(args) == 0
    err = capsys.readouterr().err
    assert len(_warnings(err)) == 1 and "Traceback" not in err
    assert len(read_records(only_run_dir(tmp_path))) == 3


def test_a_key_echoed_in_a_reply_is_redacted_before_it_is_cached(fake_server: Start, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    key = "sk-live-Zq8v3LmN0pR7sT2uW5xY9aB4cD6e"
    monkeypatch.setenv("OPENAI_API_KEY", key)
    server = fake_server("openai", lambda messages, request: f"Your key is {key}.\nAnswer: (A)")
    cache = ResponseCache(tmp_path / "cache.sqlite")
    llm = LLM(OpenAIProvider("gpt-4o-mini", api_key=key, base_url=server.base_url), cache=cache,
              retry=RetryPolicy(max_retries=0, timeout=5))

    async def ask() -> str:
        try:
            return (await llm.complete([Message("user", "What is my key?")])).text
        finally:
            await llm.aclose()

    reply = asyncio.run(ask())
    cache.close()
    assert key not in reply and "***" in reply
    stored = sqlite3.connect(tmp_path / "cache.sqlite").execute("SELECT text FROM responses").fetchall()
    assert stored and all(key not in text for (text,) in stored)
