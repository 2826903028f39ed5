"""Prices from the maintained genai-prices package: newer models are priced offline, the user's prices still win."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest

import mdagents.llm.factory as factory
from mdagents.cli import main
from mdagents.llm.maintained_prices import package_version
from mdagents.llm.models import parse_model
from mdagents.llm.prices import Price, resolve_price, shipped_prices
from mdagents.llm.types import Usage
from tests.runs_helpers import good_server, only_run_dir, read_records

NEWER = "openai/gpt-5"  # listed by genai-prices, not in the dated table shipped with mdagents
ONE_CALL = ("--difficulty", "basic", "--num-exemplars", "0")


def test_a_model_missing_from_the_shipped_table_is_priced_by_the_package() -> None:
    assert shipped_prices().lookup(NEWER) is None
    price = resolve_price(parse_model(NEWER))
    assert price is not None and price.input > 0 and price.output > price.input
    assert price.source == f"genai-prices {package_version()}"


def test_flags_and_a_price_file_win_over_the_package(tmp_path: Path) -> None:
    spec = parse_model(NEWER)
    assert resolve_price(spec, price_in=7, price_out=9) == Price(7.0, 9.0, None, "--price-in/--price-out")
    path = tmp_path / "prices.json"
    path.write_text(json.dumps({NEWER: {"input": 3, "output": 4}}))
    price = resolve_price(spec, price_file=path)
    assert price is not None and (price.input, price.output) == (3, 4) and price.source == f"price file {path}"


def test_the_shipped_table_prices_what_the_package_lacks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("mdagents.llm.prices.maintained_rates", lambda spec: None)
    price = resolve_price(parse_model("openai/gpt-4o-mini"))
    assert price is not None and price.source.startswith("mdagents price table")
    assert resolve_price(parse_model(NEWER)) is None


def test_a_non_default_endpoint_stays_unpriced() -> None:
    assert resolve_price(parse_model(NEWER, "http://127.0.0.1:9/v1")) is None
    assert resolve_price(parse_model("vllm/openai/gpt-5")) is None  # a local server runs it, not OpenAI
    assert resolve_price(parse_model("openrouter/openai/gpt-4o")) is not None  # OpenRouter's own endpoint


def test_prices_are_read_without_network() -> None:
    code = """
import socket
def offline(*args, **kwargs):
    raise OSError("network is off")
socket.socket.connect = offline
socket.create_connection = offline
from mdagents.llm.models import parse_model
from mdagents.llm.prices import resolve_price
print(resolve_price(parse_model("openai/gpt-5")).source)
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          cwd=Path(__file__).resolve().parents[1])
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"genai-prices {package_version()}"


@pytest.fixture
def own_endpoint_at(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """Send an own-endpoint model's calls to a loopback server while its spec (and so its price) stays own-endpoint."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    original = factory.make_provider

    def redirect(url: str) -> None:
        monkeypatch.setattr(factory, "make_provider",
                            lambda spec, **kw: original(dataclasses.replace(spec, base_url=url), **kw))
    return redirect


def _args(tmp_path: Path, *extra: str, n: int) -> list[str]:
    return ["--dataset", "medqa", "--model", NEWER, "--num_samples", str(n), "--concurrency", "1",
            "--output-dir", str(tmp_path / "out"), "--cache-path", str(tmp_path / "cache.sqlite"), *ONE_CALL, *extra]


def test_max_cost_works_for_a_model_only_the_package_prices(tmp_path: Path, own_endpoint_at) -> None:  # type: ignore[no-untyped-def]
    price = resolve_price(parse_model(NEWER))
    assert price is not None
    with good_server() as server:
        own_endpoint_at(server.base_url)
        assert main(_args(tmp_path, "--max-cost", "5", n=2)) == 0
    run_dir = only_run_dir(tmp_path)
    for record in read_records(run_dir):
        usage = record["usage"]["total"]
        expected = price.cost(Usage(usage["input_tokens"], usage["output_tokens"], cached_tokens=usage.get("cached_tokens")))
        assert record["cost_usd"] == pytest.approx(expected, abs=1e-8) and expected > 0
    manifest = json.loads((run_dir / "manifest.json").read_text())
    assert manifest["price"]["source"] == f"genai-prices {package_version()}"


def test_a_tiny_cap_stops_a_package_priced_run(tmp_path: Path, own_endpoint_at) -> None:  # type: ignore[no-untyped-def]
    with good_server() as server:
        own_endpoint_at(server.base_url)
        assert main(_args(tmp_path, "--max-cost", "0.0000001", n=5)) == 3  # a budget stop, not "no price known"
        assert 1 <= len(server.requests) < 5


def test_a_dry_run_names_the_price_source(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    assert main(_args(tmp_path, "--dry-run", n=2)) == 0
    assert f"Prices: genai-prices {package_version()}." in capsys.readouterr().out
