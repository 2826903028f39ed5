"""`run --batch` against a loopback OpenAI Batch API: same graded results as live, in waves, at half the cost."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.fakes.batches import FakeBatchServer
from tests.fakes.servers import FakeServer, Wire
from tests.pipelines.responders import good_responder
from tests.runs_helpers import cli_args, good_server, only_run_dir, read_records, run_cli, sample_lookup

PRICE = ("--price-in", "1", "--price-out", "2")
GRADED = ("prediction", "correct", "parse_status", "response", "difficulty")


MODELS = {"openai": "openai/gpt-4o-mini", "anthropic": "anthropic/claude-haiku-4-5",
          "gemini": "gemini/gemini-2.0-flash"}


@contextmanager
def batch_server(difficulty: str, turnaround: float = 0.05, wire: Wire = "openai") -> Iterator[FakeBatchServer]:
    with FakeBatchServer(good_responder(sample_lookup(), difficulty), wire=wire, turnaround=turnaround) as server:
        yield server


def batch_args(server: FakeBatchServer, tmp_path: Path, *extra: str, n: int = 10) -> list[str]:
    return cli_args(server, tmp_path, "--model", MODELS[server.wire], "--batch", "--batch-poll", "0.05", *PRICE,
                    *extra, n=n)


def graded(records: list[dict[str, Any]]) -> dict[str, tuple[Any, ...]]:
    return {r["id"]: tuple(r[k] for k in GRADED) for r in records}


@pytest.mark.parametrize("difficulty", ["basic", "intermediate"])
def test_batch_run_grades_like_live_in_waves_at_half_the_cost(tmp_path: Path, difficulty: str,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    with good_server(difficulty) as live:
        assert run_cli(cli_args(live, tmp_path / "live", "--difficulty", difficulty, *PRICE)) == 0
    live_records = read_records(only_run_dir(tmp_path / "live"))
    live_spent = json.loads((only_run_dir(tmp_path / "live") / "summary.json").read_text())["spent_usd"]

    with batch_server(difficulty) as server:
        assert run_cli(batch_args(server, tmp_path / "batch", "--difficulty", difficulty)) == 0
        chat_calls = [r for r in server.requests if r["path"].endswith("/chat/completions")]
    run_dir = only_run_dir(tmp_path / "batch")
    records = read_records(run_dir)
    out = capsys.readouterr().out
    assert "batch mode: " in out and "costs at the batch price" in out
    assert "batch wave 1: submitted batch_fake1 to openai/gpt-4o-mini" in out  # progress lines name the waves

    assert graded(records) == graded(live_records)
    assert all(r["error"] is None for r in records)
    assert not chat_calls  # nothing went live
    summary = json.loads((run_dir / "summary.json").read_text())
    stats = summary["batch"]
    calls = sum(r["calls"] for r in records)
    longest = max(r["calls"] for r in records)
    assert stats["batches_submitted"] == stats["waves"] == len(server.batches)
    # One batch per step of the longest question, not one per call.
    assert stats["waves"] <= longest + 1 < calls
    assert stats["requests_submitted"] == len(server.submitted_ids) == len(set(server.submitted_ids))
    live_cost = sum(r["cost_usd"] for r in live_records)
    assert sum(r["cost_usd"] for r in records) == pytest.approx(live_cost / 2, rel=1e-6)
    assert summary["spent_usd"] == pytest.approx(live_spent / 2, rel=1e-3)
    journal = [json.loads(line) for line in (run_dir / "batches.jsonl").read_text().splitlines()]
    assert {j["batch_id"] for j in journal if j["event"] == "submitted"} == set(server.batches)


@pytest.mark.parametrize("wire", ["anthropic", "gemini"])
def test_adaptive_batch_run_on_other_providers_grades_like_live_at_half_the_cost(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, wire: Wire) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    monkeypatch.setenv("GEMINI_API_KEY", "gm-test")
    responder = good_responder(sample_lookup(), "mixed")

    def args(server: FakeServer, where: str, *extra: str) -> list[str]:
        return [*cli_args(server, tmp_path / where, "--model", MODELS[wire], *PRICE, *extra)]

    with FakeServer(wire, responder) as live:
        assert run_cli(args(live, "live")) == 0
    with FakeBatchServer(responder, wire=wire, turnaround=0.05) as server:
        assert run_cli(args(server, "batch", "--batch", "--batch-poll", "0.05")) == 0
        live_paths = ("/v1/messages", ":generateContent")
        assert not [r for r in server.requests if r["path"].split("?")[0].endswith(live_paths)]  # nothing live
        assert len(server.submitted_ids) == len(set(server.submitted_ids))
    live_records = read_records(only_run_dir(tmp_path / "live"))
    records = read_records(only_run_dir(tmp_path / "batch"))
    assert graded(records) == graded(live_records)
    assert {r["difficulty"] for r in records} == {"basic", "intermediate", "advanced"}
    stats = json.loads((only_run_dir(tmp_path / "batch") / "summary.json").read_text())["batch"]
    assert stats["waves"] == len(server.batches) < sum(r["calls"] for r in records) / 5
    assert sum(r["cost_usd"] for r in records) == pytest.approx(sum(r["cost_usd"] for r in live_records) / 2,
                                                                rel=1e-6)


def test_dry_run_prices_a_batch_run_at_half(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def estimate(*extra: str) -> str:
        base = ["--dataset", "medqa", "--model", "openai/gpt-4o-mini", "--num_samples", "10", "--dry-run",
                "--output-dir", str(tmp_path), "--difficulty", "basic", *extra]
        assert run_cli(base) == 0
        row = next(line for line in capsys.readouterr().out.splitlines() if re.match(r"\|\s+basic \|", line))
        return float(row.strip("| ").rsplit("|", 1)[-1])

    live, batch = estimate(), estimate("--batch")
    assert live > 0 and batch == pytest.approx(live / 2, rel=0.05)


def test_batch_needs_a_provider_with_a_batch_api(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(["--model", "local/smollm2-135m", "--batch", "--output-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert "--batch works with openai/..., anthropic/..., gemini/... models" in err and len(err.splitlines()) == 1
