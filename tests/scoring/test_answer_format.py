"""`--answer-format json`: final decisions come as each provider's structured output, asked for through
its SDK's own mechanism (OpenAI json_schema, Anthropic a forced tool, Gemini response_schema), and are
graded from the `answer` field; the choice is part of the run's configuration."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from mdagents.cli import main
from mdagents.llm.structured import answer_schema
from mdagents.scoring import read_answer
from tests.fakes.servers import FakeServer
from tests.pipelines.responders import good_responder, last_user_text, true_option
from tests.runs_helpers import only_run_dir, read_records, sample_lookup

MODELS = {"openai": "openai/gpt-4o-mini", "anthropic": "anthropic/claude-haiku-4-5",
          "gemini": "gemini/gemini-2.5-flash"}
KEYS = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY", "gemini": "GEMINI_API_KEY"}


def asks_for_structure(wire: str, body: dict[str, Any]) -> bool:
    """Whether a request asks for the structured answer the way that provider's API does."""
    if wire == "openai":
        return (body.get("response_format") or {}).get("type") == "json_schema"
    if wire == "anthropic":
        return (body.get("tool_choice") or {}) == {"type": "tool", "name": "final_answer"}
    config = body.get("generationConfig") or {}
    return config.get("responseMimeType") == "application/json" and "responseSchema" in config


def structured_oracle(wire: str, answer: str | None = "truth") -> Any:
    lookup = sample_lookup()
    oracle = good_responder(lookup, "basic")

    def respond(messages: Sequence[Any], body: Any = None) -> str:
        if body is not None and asks_for_structure(wire, body):
            truth = true_option(last_user_text(messages), lookup)
            chosen = truth[0] if answer == "truth" and truth else answer
            return json.dumps({"reasoning": "The findings fit one option best.", "answer": chosen})
        return oracle(messages, body)

    return respond


@pytest.mark.parametrize("wire", sorted(MODELS))
def test_structured_final_answers_through_each_sdk(wire: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEYS[wire], "test-key")
    with FakeServer(wire, structured_oracle(wire)) as server:
        args = ["--dataset", "medqa", "--model", MODELS[wire], "--base-url", server.base_url, "--num_samples", "4",
                "--difficulty", "basic", "--num-exemplars", "0", "--answer-format", "json",
                "--output-dir", str(tmp_path / "out"), "--cache-path", str(tmp_path / "c.sqlite")]
        assert main(args) == 0
        structured = [r for r in server.requests if asks_for_structure(wire, r["json"])]
    assert len(structured) == 4  # the final decisions, and only they
    records = read_records(only_run_dir(tmp_path))
    assert all(r["correct"] is True and r["extraction"] == "contract" for r in records)
    assert all(json.loads(r["response"])["answer"] == r["prediction"] for r in records)
    manifest = json.loads((only_run_dir(tmp_path) / "manifest.json").read_text())
    assert manifest["config"]["settings"]["answer_format"] == "json"


def test_a_null_structured_answer_is_a_refusal(tmp_path: Path) -> None:
    with FakeServer("openai", structured_oracle("openai", answer=None)) as server:
        assert main(["--dataset", "medqa", "--model", "openai/gpt-4o-mini", "--base-url", server.base_url,
                     "--num_samples", "2", "--difficulty", "basic", "--num-exemplars", "0", "--answer-format", "json",
                     "--output-dir", str(tmp_path / "out"), "--no-cache"]) == 0
    records = read_records(only_run_dir(tmp_path))
    assert all(r["prediction"] is None and r["no_answer_reason"] == "refused" for r in records)


def test_the_answer_format_is_part_of_the_configuration(tmp_path: Path) -> None:
    common = ["--model", "mock/oracle", "--difficulty", "basic", "--limit", "3", "--output-dir", str(tmp_path / "out"),
              "--no-cache"]
    assert main(common) == 0
    assert main([*common, "--answer-format", "json"]) == 2  # same run directory, another configuration


def test_the_schema_allows_only_the_letters_or_null() -> None:
    schema = answer_schema(["A", "B", "C"])
    assert schema["properties"]["answer"]["anyOf"] == [{"type": "string", "enum": ["A", "B", "C"]}, {"type": "null"}]
    assert schema["required"] == ["reasoning", "answer"] and schema["additionalProperties"] is False
    assert read_answer('{"reasoning": "Option A is tempting, but", "answer": "C"}', {"A": "x", "B": "y", "C": "z"}
                       ).letter == "C"


def test_a_baseline_method_refuses_the_structured_format(tmp_path: Path) -> None:
    assert main(["--model", "mock/oracle", "--method", "cot", "--answer-format", "json", "--limit", "1",
                 "--output-dir", str(tmp_path / "out"), "--no-cache"]) == 2
