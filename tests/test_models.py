"""Model names, keys and prices: what a user types on --model must resolve predictably."""

from __future__ import annotations

import pytest

from mdagents.errors import ConfigError, MissingKeyError
from mdagents.llm.models import parse_model, resolve_key
from mdagents.llm.prices import Price, cost_usd, resolve_price, shipped_prices
from mdagents.llm.types import Usage


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


def test_prices_come_from_the_dated_table_and_user_overrides(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr("mdagents.llm.prices.maintained_rates", lambda spec: None)  # the fallback table alone
    assert shipped_prices().as_of  # the table says when its prices were read
    assert cost_usd("openai/gpt-4o-mini", 1_000_000, 1_000_000) == pytest.approx(0.75)
    assert cost_usd("openai/gpt-4o-mini-2024-07-18", 1_000_000, 0) == pytest.approx(0.15)
    assert cost_usd("openai/gpt-4o-mini-tts", 10, 10) is None  # another model, not a dated snapshot
    assert cost_usd("openai/some-new-model", 10, 10) is None
    assert cost_usd("local/smollm2-135m", 10**6, 10**6) == 0.0
    path = tmp_path / "prices.json"
    path.write_text('{"openai/gpt-4o-mini": [1.0, 2.0], "my/x": {"input": 1, "output": 1}}')
    with pytest.raises(ConfigError, match="price file"):
        cost_usd("openai/gpt-4o-mini", 1, 1, price_file=path)
    path.write_text('{"openai/gpt-4o-mini": [1.0, 2.0]}')
    assert cost_usd("openai/gpt-4o-mini", 10**6, 10**6, price_file=path) == pytest.approx(3.0)


def test_a_model_behind_base_url_has_no_price_unless_given(tmp_path) -> None:  # type: ignore[no-untyped-def]
    spec = parse_model("openai/gpt-4o-mini", "http://127.0.0.1:8000/v1")
    assert resolve_price(spec) is None  # whatever that server runs, it is not OpenAI's list price
    assert resolve_price(spec, price_in=0.5, price_out=1.5) == Price(0.5, 1.5, None, "--price-in/--price-out")
    path = tmp_path / "p.json"
    path.write_text('{"models": {"openai/gpt-4o-mini": {"input": 2, "cached_input": 1, "output": 4}}}')
    assert resolve_price(spec, price_file=path).cost(Usage(10**6, 10**6)) == pytest.approx(6.0)
    with pytest.raises(ConfigError, match="together"):
        resolve_price(spec, price_in=0.5)


def test_cached_input_tokens_are_billed_at_the_cached_rate() -> None:
    price = resolve_price(parse_model("anthropic/claude-haiku-4-5"))
    assert price is not None
    full = price.cost(Usage(input_tokens=1_000_000, output_tokens=0))
    mostly_cached = price.cost(Usage(input_tokens=1_000_000, output_tokens=0, cached_tokens=900_000))
    assert full == pytest.approx(1.00) and mostly_cached == pytest.approx(0.1 + 0.09)
