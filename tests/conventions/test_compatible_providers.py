"""vllm/, ollama/, openrouter/, together/ as OpenAI-compatible providers; several --base-url share the load."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from mdagents.cli import main
from mdagents.errors import ConfigError, MissingKeyError
from mdagents.keys import KEY_VARIABLES
from mdagents.llm.endpoint_pool import EndpointPool
from mdagents.llm.factory import build_llm
from mdagents.llm.models import OPENAI_COMPATIBLE, parse_model, resolve_key
from mdagents.llm.types import Message
from tests.locations import REPO_ROOT as ROOT
from tests.runs_helpers import good_server, only_run_dir, read_records

BASIC = ("--difficulty", "basic", "--num-exemplars", "0", "--no-cache")


@pytest.mark.parametrize(("name", "url", "needs_key"), [
    ("vllm/Qwen/Qwen2.5-7B-Instruct", "http://localhost:8000/v1", False),
    ("ollama/llama3.2", "http://localhost:11434/v1", False),
    ("openrouter/anthropic/claude-3.5-haiku", "https://openrouter.ai/api/v1", True),
    ("together/meta-llama/Llama-3.3-70B-Instruct-Turbo", "https://api.together.xyz/v1", True),
])
def test_provider_names_have_their_usual_endpoint_and_key(name: str, url: str, needs_key: bool) -> None:
    spec = parse_model(name)
    assert spec.name == name and spec.base_url == url
    assert parse_model(name, "http://gpu-box:9000/v1").base_url == "http://gpu-box:9000/v1"
    variable = KEY_VARIABLES[spec.provider][0]
    if needs_key:
        with pytest.raises(MissingKeyError, match=variable):
            resolve_key(spec, {})
    else:
        assert resolve_key(spec, {}) is None
    assert resolve_key(spec, {variable: "k-123"}) == "k-123"


def test_the_configuration_page_lists_every_service_with_its_url_and_key() -> None:
    page = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    for provider, service in OPENAI_COMPATIBLE.items():
        row = next((line for line in page.splitlines() if line.startswith(f"| `{provider}/")), None)
        assert row is not None, provider
        assert service.base_url in row and KEY_VARIABLES[provider][0] in row


def test_a_vllm_model_runs_through_the_openai_transport_and_keeps_its_name(tmp_path: Path) -> None:
    with good_server("basic") as server:
        code = main(["--model", "vllm/qwen2.5-7b", "--base-url", server.base_url, *BASIC, "--num-samples", "2",
                     "--output-dir", str(tmp_path / "out")])
        assert code == 0
        assert {r["json"]["model"] for r in server.requests} == {"qwen2.5-7b"}
    run_dir = only_run_dir(tmp_path)
    assert run_dir.name.startswith("vllm_qwen2.5-7b_")
    assert {r["model"] for r in read_records(run_dir)} == {"vllm/qwen2.5-7b"}


def test_several_base_urls_share_the_load(tmp_path: Path) -> None:
    with good_server("basic") as first, good_server("basic") as second:
        code = main(["--model", "vllm/qwen2.5-7b", "--base-url", first.base_url, "--base-url", second.base_url,
                     *BASIC, "--num-samples", "6", "--concurrency", "4", "--output-dir", str(tmp_path / "out")])
        assert code == 0
        # Both servers answer; how evenly depends on which replies come back first (the exact split of
        # concurrent calls is test_pool_picks_the_least_busy_server's).
        assert first.requests and second.requests and len(first.requests) + len(second.requests) == 6
    assert len(read_records(only_run_dir(tmp_path))) == 6


def test_a_server_that_is_down_is_set_aside_and_the_others_answer(tmp_path: Path) -> None:
    with good_server("basic") as live:
        urls = f"http://127.0.0.1:9/v1,{live.base_url}"  # nothing listens on port 9
        code = main(["--model", "vllm/qwen2.5-7b", "--base-url", urls, *BASIC, "--num-samples", "3",
                     "--concurrency", "1", "--output-dir", str(tmp_path / "out")])
        assert code == 0
    records = read_records(only_run_dir(tmp_path))
    assert len(records) == 3 and not any(r.get("error") for r in records)


def test_pool_picks_the_least_busy_server() -> None:
    async def go() -> list[int]:
        with good_server("basic") as a, good_server("basic") as b:
            llm = build_llm("vllm/m", base_url=f"{a.base_url},{b.base_url}")
            assert isinstance(llm.provider, EndpointPool)
            try:
                await asyncio.gather(*(llm.complete([Message("user", f"q{i}")]) for i in range(8)))
            finally:
                await llm.aclose()
            return llm.provider.calls

    assert asyncio.run(go()) == [4, 4]


def test_several_urls_are_refused_for_a_provider_with_its_own_protocol() -> None:
    with pytest.raises(ConfigError, match=re.escape("several --base-url share the load of an OpenAI-compatible")):
        parse_model("anthropic/claude-haiku-4-5", "http://a:1,http://b:2")
