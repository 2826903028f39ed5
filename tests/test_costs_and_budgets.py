"""Costs a researcher can trust: no guessed prices, caps that hold (also across resumes), exit 3 on a budget stop."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from mdagents.cli import main
from mdagents.errors import BudgetExceeded
from mdagents.llm.budget import Budget
from mdagents.llm.client import LLM, RetryPolicy
from mdagents.llm.limiter import AdaptiveLimiter
from mdagents.llm.prices import Price
from mdagents.llm.types import Completion, GenerationParams, Message, Usage
from tests.runs_helpers import cli_args, good_server, only_run_dir, read_records

# Basic questions without exemplars: one call per question, so calls and questions line up.
ONE_CALL = ("--difficulty", "basic", "--num-exemplars", "0")
EXPENSIVE = ("--price-in", "1000", "--price-out", "1000")  # USD per million tokens: ~$0.1-0.2 per call here


def summary_of(tmp_path: Path) -> dict:
    return json.loads((only_run_dir(tmp_path) / "summary.json").read_text())


def test_a_base_url_model_without_a_price_has_unknown_cost(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with good_server() as server:
        assert main(cli_args(server, tmp_path, *ONE_CALL, n=3)) == 0
    out = capsys.readouterr().out
    records = read_records(only_run_dir(tmp_path))
    assert all(r["cost_usd"] is None for r in records)  # not OpenAI's list price for a look-alike name
    assert summary_of(tmp_path)["cost_usd"] is None
    assert "cost unknown" in out
    manifest = json.loads((only_run_dir(tmp_path) / "manifest.json").read_text())
    assert manifest["price"] is None


def test_max_cost_without_a_price_is_refused_naming_the_fix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with good_server() as server:
        code = main(cli_args(server, tmp_path, *ONE_CALL, "--max-cost", "0.01", n=3))
        assert server.requests == []  # refused before any call
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert len(err.splitlines()) == 1 and "--price-in" in err and "--price-out" in err and "--max-cost" in err


def test_given_prices_are_used_and_recorded(tmp_path: Path) -> None:
    with good_server() as server:
        assert main(cli_args(server, tmp_path, *ONE_CALL, "--price-in", "2", "--price-out", "8", n=2)) == 0
    for record in read_records(only_run_dir(tmp_path)):
        usage = record["usage"]["total"]
        expected = (usage["input_tokens"] * 2 + usage["output_tokens"] * 8) / 1e6
        assert record["cost_usd"] == pytest.approx(expected)
        assert sum(role["cost_usd"] for role in record["usage"]["by_role"].values()) == pytest.approx(expected)
    manifest = json.loads((only_run_dir(tmp_path) / "manifest.json").read_text())
    assert manifest["price"]["input"] == 2 and manifest["price"]["source"] == "--price-in/--price-out"


def test_cost_does_not_depend_on_the_cache_and_paid_and_replayed_are_apart(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with good_server() as server:
        args = cli_args(server, tmp_path, *ONE_CALL, "--price-in", "2", "--price-out", "8", n=3)
        assert main(args) == 0
        first, first_summary = read_records(only_run_dir(tmp_path)), summary_of(tmp_path)
        assert main([*args, "--fresh"]) == 0  # same cache: every reply is replayed
        replayed = read_records(only_run_dir(tmp_path))
        assert len(server.requests) == 3
    assert all(r["cost_usd"] > 0 and r["paid_usd"] == r["cost_usd"] and r["replayed_usd"] == 0 for r in first)
    # The same calls cost the same at the run's prices, whether paid now or replayed from the cache.
    assert {r["id"]: r["cost_usd"] for r in replayed} == {r["id"]: r["cost_usd"] for r in first}
    assert all(r["paid_usd"] == 0 and r["replayed_usd"] == r["cost_usd"] for r in replayed)
    summary = summary_of(tmp_path)
    assert summary["cost_usd"] == first_summary["cost_usd"] > 0
    assert (summary["paid_usd"], summary["replayed_usd"]) == (0, summary["cost_usd"])
    assert summary["spent_usd"] == 0 and summary["this_session"]["paid_usd"] == 0
    assert summary["this_session"]["replayed_usd"] == pytest.approx(summary["cost_usd"])
    out = capsys.readouterr().out
    assert f"cost ${summary['cost_usd']:.4f} (paid now $0.0000, replayed from the cache " in out


def test_an_unpriced_model_replayed_from_the_cache_stays_unknown(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    with good_server() as server:
        args = cli_args(server, tmp_path, *ONE_CALL, n=3)
        assert main(args) == 0
        assert main([*args, "--fresh"]) == 0  # every reply replayed: nothing paid, but the cost is unknown
    records, summary = read_records(only_run_dir(tmp_path)), summary_of(tmp_path)
    assert all((r["cost_usd"], r["paid_usd"], r["replayed_usd"]) == (None, None, None) for r in records)
    assert all(role["cost_usd"] is None for r in records for role in r["usage"]["by_role"].values())
    assert (summary["cost_usd"], summary["paid_usd"], summary["replayed_usd"], summary["spent_usd"]) == (
        None, None, None, None)
    assert summary["this_session"]["paid_usd"] is None and summary["this_session"]["replayed_usd"] is None
    assert "cost unknown (paid now unknown, replayed from the cache unknown)" in capsys.readouterr().out


def test_a_budget_stop_exits_3_and_holds_across_resume(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with good_server() as server:
        args = cli_args(server, tmp_path, *ONE_CALL, *EXPENSIVE, "--concurrency", "1", "--max-cost", "0.4", n=10)
        assert main(args) == 3
        stopped = read_records(only_run_dir(tmp_path))
        calls_first = len(server.requests)
        summary = summary_of(tmp_path)
        assert summary["incomplete"] == "budget" and summary["status"] == "budget_exhausted"
        assert 1 <= len(stopped) < 10
        per_call = max(r["cost_usd"] for r in stopped)
        assert 0.4 <= summary["spent_usd"] <= 0.4 + per_call  # one call in flight at a time: one call over at most
        assert "--max-cost" in capsys.readouterr().err
        manifest = json.loads((only_run_dir(tmp_path) / "manifest.json").read_text())

        # The same command again: the run already spent its cap, so nothing more is spent.
        assert main(args) == 3
        assert len(server.requests) == calls_first
        assert len(read_records(only_run_dir(tmp_path))) == len(stopped)

        # A higher cap continues the run where it stopped, and the run's times cover both sessions.
        raised = [a if a != "0.4" else "100" for a in args]
        assert main(raised) == 0
    records = read_records(only_run_dir(tmp_path))
    assert len(records) == 10 and len({r["id"] for r in records}) == 10
    final = summary_of(tmp_path)
    assert final["incomplete"] is None and final["spent_usd"] == pytest.approx(
        summary["spent_usd"] + sum(r["cost_usd"] for r in records[len(stopped):]), rel=1e-6)
    assert final["wall_s"] >= summary["wall_s"]
    resumed = json.loads((only_run_dir(tmp_path) / "manifest.json").read_text())
    assert resumed["started_at"] == manifest["started_at"] and resumed["status"] == "finished"


class _CountingProvider:
    """Every call takes a moment and costs the same; counts the calls that really started."""

    name, model, base_url = "openai", "priced", None

    def __init__(self) -> None:
        self.started = 0

    async def complete(self, messages: list[Message], params: GenerationParams, *, timeout: float) -> Completion:
        self.started += 1
        await asyncio.sleep(0.01)
        return Completion(text="Answer: (A)", usage=Usage(input_tokens=1_000_000, output_tokens=0), model=self.model)

    async def aclose(self) -> None:
        return None


async def test_the_budget_stops_calls_not_only_questions() -> None:
    provider = _CountingProvider()
    budget = Budget(limit=2.5)  # each call costs $1: reached during the second pair of calls
    llm = LLM(provider, retry=RetryPolicy(max_retries=0, timeout=5), limiter=AdaptiveLimiter(2),
              price=Price(1.0, 0.0), budget=budget)
    results = await asyncio.gather(*(llm.complete([Message("user", f"q{i}")]) for i in range(20)),
                                   return_exceptions=True)
    refused = [r for r in results if isinstance(r, BudgetExceeded)]
    assert provider.started == 4 and len(refused) == 16  # the pair in flight at the cap finished; no more started
    assert budget.spent == 4.0 <= budget.limit + 2  # over by at most the calls in flight


@pytest.mark.parametrize("flags", [("--price-in", "nan", "--price-out", "1"), ("--price-in", "1", "--price-out", "inf"),
                                   ("--price-in", "-0.5", "--price-out", "1")])
def test_a_price_that_is_not_a_finite_non_negative_number_is_refused(
        flags: tuple[str, ...], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with good_server() as server:
        assert main(cli_args(server, tmp_path, *ONE_CALL, *flags, "--max-cost", "1", n=2)) == 2
        assert server.requests == []
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "finite number of USD per million tokens" in err[0]


@pytest.mark.parametrize("rate", ["NaN", "Infinity", "-1"])
def test_a_price_file_with_a_bad_rate_is_refused(rate: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    prices = tmp_path / "prices.json"
    prices.write_text('{"openai/gpt-4o-mini": {"input": RATE, "output": 0.6}}'.replace("RATE", rate))
    with good_server() as server:
        assert main(cli_args(server, tmp_path, *ONE_CALL, "--price-file", str(prices), n=2)) == 2
        assert server.requests == []
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(prices) in err[0] and "openai/gpt-4o-mini input" in err[0]
    assert not (tmp_path / "out").exists()
