"""The effective endpoint: --base-url, else the SDK's own variable (OPENAI_BASE_URL, ...), used for the
provider, the manifest, the fingerprint, the cache key and the price; credentials never written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mdagents.cli import main
from mdagents.llm.cache import cache_key
from mdagents.llm.endpoint import effective_base_url
from mdagents.llm.factory import build_llm
from mdagents.llm.models import parse_model
from mdagents.llm.types import GenerationParams, Message
from mdagents.redact import redact_url
from tests.runs_helpers import good_server, only_run_dir, read_records

ONE_CALL = ("--difficulty", "basic", "--num-exemplars", "0")


@pytest.mark.parametrize(("provider", "variable"), [("openai", "OPENAI_BASE_URL"),
                                                     ("anthropic", "ANTHROPIC_BASE_URL"),
                                                     ("gemini", "GOOGLE_GEMINI_BASE_URL")])
def test_each_sdk_variable_is_the_endpoint_unless_the_flag_is_given(provider: str, variable: str) -> None:
    env = {variable: "http://127.0.0.1:9/v1"}
    assert effective_base_url(provider, None, env) == "http://127.0.0.1:9/v1"
    assert effective_base_url(provider, "http://flag:1", env) == "http://flag:1"
    assert effective_base_url(provider, None, {}) is None
    assert effective_base_url("local", None, env) is None


def test_the_provider_default_url_in_the_variable_is_the_default_endpoint() -> None:
    assert effective_base_url("openai", None, {"OPENAI_BASE_URL": "https://api.openai.com/v1/"}) is None


def test_credentials_in_a_url_are_hidden() -> None:
    assert redact_url("http://alice:s3cret@host:8000/v1?key=abc&api_key=def&x=1") == \
        "http://***@host:8000/v1?key=***&api_key=***&x=1"
    assert redact_url("https://host/v1") == "https://host/v1"


def test_the_variable_changes_the_cache_key_and_removes_the_list_price(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-Zq8v3LmN0pR7sT2uW5xY9aB4")
    default = build_llm("openai/gpt-4o-mini")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    mocked = build_llm("openai/gpt-4o-mini")
    assert (default.provider.base_url, mocked.provider.base_url) == (None, "http://127.0.0.1:9/v1")
    assert default.price is not None and mocked.price is None
    assert parse_model("openai/gpt-4o-mini").base_url == "http://127.0.0.1:9/v1"
    messages, params = [Message("user", "q")], GenerationParams()
    keys = {cache_key(m.provider.name, m.provider.model, m.provider.base_url, messages, params)
            for m in (default, mocked)}
    assert len(keys) == 2


def _args(tmp_path: Path, *extra: str) -> list[str]:
    return ["--dataset", "medqa", "--model", "openai/gpt-4o-mini", "--num_samples", "3", *ONE_CALL,
            "--output-dir", str(tmp_path / "out"), "--cache-path", str(tmp_path / "cache.sqlite"), *extra]


def test_a_run_behind_openai_base_url_records_it_is_unpriced_and_shares_no_cache(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with good_server("basic") as first, good_server("basic") as second:
        monkeypatch.setenv("OPENAI_BASE_URL", first.base_url)
        assert main(_args(tmp_path / "a")) == 0
        assert len(first.requests) == 3
        run = only_run_dir(tmp_path / "a")
        manifest = json.loads((run / "manifest.json").read_text())
        summary = json.loads((run / "summary.json").read_text())
        assert manifest["config"]["base_url"] == first.base_url
        assert manifest["fingerprint_fields"]["base_url"] == first.base_url
        assert manifest["price"] is None and summary["cost_usd"] is None  # not OpenAI's list price
        assert all(r["cost_usd"] is None for r in read_records(run))

        # Another endpoint with the same cache file: nothing replayed from the first one.
        monkeypatch.setenv("OPENAI_BASE_URL", second.base_url)
        assert main([*_args(tmp_path / "a")[:-2], "--cache-path", str(tmp_path / "a" / "cache.sqlite"),
                     "--new-run"]) == 0
        assert len(second.requests) == 3


def test_credentials_in_base_url_never_reach_the_manifest(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with good_server("basic") as server:
        url = server.base_url.replace("http://", "http://alice:s3cretpass@")
        main(_args(tmp_path, "--base-url", url))  # the SDK may refuse such a URL: the records then say why
    run = only_run_dir(tmp_path)
    text = "".join(p.read_text() for p in [*run.glob("*.json"), *run.glob("*.jsonl")])
    assert "s3cretpass" not in text and "s3cretpass" not in "".join(capsys.readouterr())
    assert json.loads((run / "manifest.json").read_text())["config"]["base_url"].startswith("http://***@127.0.0.1")


def test_a_malformed_variable_is_one_line_naming_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "localhost:8000")
    assert main(_args(tmp_path)) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "OPENAI_BASE_URL" in err[0]
