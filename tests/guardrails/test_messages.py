"""Configured messages: every language has emergency and crisis texts, regions fill the numbers."""

from __future__ import annotations

import pytest

from mdagents.errors import ConfigError
from mdagents.guardrails.messages import catalogue, detect_language, languages, message, resolve_language

LANGS = ("en", "fr", "es", "zh", "ar", "hi", "pt")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", ["emergency", "mental_health_crisis"])
def test_emergency_and_crisis_messages_exist_in_every_language(kind: str, lang: str) -> None:
    text = message(kind, lang)
    assert "911" in text and "$" not in text
    assert lang == "en" or text != message(kind, "en")


def test_crisis_line_and_numbers_follow_the_region() -> None:
    assert "988" in message("mental_health_crisis", "en")
    uk = message("mental_health_crisis", "en", "GB")
    assert "116 123" in uk and "999" in uk and "911" not in uk
    assert "000" in message("emergency", "en", "AU")
    assert "112" in message("mental_health_crisis", "en", "EU")  # no crisis line: the emergency number


def test_every_fixed_message_exists_and_renders_in_all_seven_languages() -> None:
    not_messages = ("fix_suggestions", "resource_phrases", "number_format")
    kinds = [k for k, v in catalogue().items() if isinstance(v, dict) and k not in not_messages]
    assert len(kinds) >= 17
    for kind in kinds:
        texts = {lang: message(kind, lang, "IN", content="BODY", length="12,345", limit="4,000")
                 for lang in languages()}
        assert set(catalogue()[kind]) == set(languages()), kind
        assert all(t.strip() and "$" not in t for t in texts.values()), kind
        assert len(set(texts.values())) == len(texts), kind  # a translation, not a copy
    for table in ("resource_phrases", "number_format"):  # the words resources and numbers are said with
        assert set(catalogue()[table]) == set(languages()), table
    assert message("no_trusted_sources", "fr", content="BODY").endswith("BODY")
    assert "112" in message("service_error", "hi", "IN") and "14416" in message("crisis_reminder", "hi", "IN")


def test_pattern_emergencies_carry_the_specs_severity_levels() -> None:
    from mdagents.guardrails.input_check import check_input

    assert check_input("I have severe stomach pain with a fever and I keep vomiting").severity == "high"
    assert check_input("my dad collapsed and is unresponsive").severity == "critical"


def test_language_detection() -> None:
    assert [detect_language(t) for t in ("J'ai mal à la poitrine et je suis fatigué", "Tengo dolor en el pecho",
                                          "Estou com dor no peito e não consigo respirar", "我胸口痛",
                                          "ألم في الصدر", "सीने में दर्द", "I have a headache")] == \
        ["fr", "es", "pt", "zh", "ar", "hi", "en"]
    assert set(languages()) == set(LANGS)


def test_unknown_region_or_language_is_a_usage_error() -> None:
    with pytest.raises(ConfigError, match="unknown region"):
        message("emergency", "en", "XX")
    with pytest.raises(ConfigError, match="unsupported language"):
        resolve_language("de", "")
