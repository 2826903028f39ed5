"""Model names, keys and prices: what a user types on --model must resolve predictably."""

from __future__ import annotations

import pytest

from mdagents.errors import ConfigError, MissingKeyError
from mdagents.llm.models import cost_usd, load_prices, parse_model, resolve_key


@pytest.mark.parametrize(
    ("text", "provider", "model"),
    [
        ("openai/gpt-4o-mini", "openai", "gpt-4o-mini"),
        ("gemini/gemini-2.5-flash", "gemini", "gemini-2.5-flash"),
        ("anthropic/claude-haiku-4-5", "anthropic", "claude-haiku-4-5"),
        ("gpt-4o-mini", "openai", "gpt-4o-mini"),
        ("gpt-4.1-mini", "openai", "gpt-4.1-mini"),
        ("gemini-2.0-flash", "gemini", "gemini-2.0-flash"),
        ("gemini-2.5-flash", "gemini", "gemini-2.5-flash"),
        ("local/smollm2-135m", "local", "smollm2-135m"),
        ("local//tmp/x.gguf", "local", "/tmp/x.gguf"),
        (None, "local", "smollm2-135m"),
    ],
)
def test_parse_model(text: str | None, provider: str, model: str) -> None:
    spec = parse_model(text)
    assert (spec.provider, spec.model) == (provider, model)


def test_unknown_bare_name_needs_provider_or_base_url() -> None:
    with pytest.raises(ConfigError, match="provider/model"):
        parse_model("mistral-7b")
    assert parse_model("mistral-7b", base_url="http://127.0.0.1:8000/v1").provider == "openai"


def test_unknown_provider() -> None:
    with pytest.raises(ConfigError, match="unknown provider"):
        parse_model("azure/gpt-4o")


def test_safe_name_is_filesystem_safe() -> None:
    assert parse_model("local//tmp/my model.gguf").safe_name == "local_my-model"
    assert parse_model("openai/org/model:v1").safe_name == "openai_org-model-v1"
    assert parse_model("openai/gpt-4o-mini").safe_name == "openai_gpt-4o-mini"


def test_missing_key_names_the_variable_and_never_a_value() -> None:
    with pytest.raises(MissingKeyError) as info:
        resolve_key(parse_model("gemini/gemini-2.5-flash"), {})
    assert "GEMINI_API_KEY" in str(info.value)


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"openai_api_key": "sk-lower"}, "sk-lower"),
        ({"OPENAI_API_KEY": "sk-upper", "openai_api_key": "sk-lower"}, "sk-upper"),
    ],
)
def test_original_lowercase_key_names(env: dict[str, str], expected: str) -> None:
    assert resolve_key(parse_model("gpt-4o-mini"), env) == expected


def test_genai_key_for_gemini() -> None:
    assert resolve_key(parse_model("gemini-2.0-flash"), {"genai_api_key": "AIza-x"}) == "AIza-x"


def test_base_url_makes_key_optional() -> None:
    assert resolve_key(parse_model("openai/llama3", "http://127.0.0.1:1/v1"), {}) is None


def test_prices_and_override(tmp_path) -> None:  # type: ignore[no-untyped-def]
    assert cost_usd("openai/gpt-4o-mini", 1_000_000, 1_000_000) == pytest.approx(0.75)
    assert cost_usd("openai/gpt-4o-mini-2024-07-18", 1_000_000, 0) == pytest.approx(0.15)
    assert cost_usd("openai/some-new-model", 10, 10) is None
    assert cost_usd("local/smollm2-135m", 10**6, 10**6) == 0.0
    path = tmp_path / "prices.json"
    path.write_text('{"openai/gpt-4o-mini": [1.0, 2.0], "my/x": {"input": 1, "output": 1}}')
    with pytest.raises(ConfigError):
        load_prices(path)
    path.write_text('{"openai/gpt-4o-mini": [1.0, 2.0]}')
    assert cost_usd("openai/gpt-4o-mini", 10**6, 10**6, load_prices(path)) == pytest.approx(3.0)
