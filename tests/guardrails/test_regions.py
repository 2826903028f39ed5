"""Region resources in the patient's language: every region x language keeps the region's numbers and
says them with the message language's own words (service proper names are the only words kept as is)."""

from __future__ import annotations

import re

import pytest

from mdagents.guardrails.assistant import Assistant
from mdagents.guardrails.messages import message, regions
from mdagents.guardrails.output_check import check_output
from tests.fakes.scripted import scripted_llm

LANGS = ("en", "fr", "es", "zh", "ar", "hi", "pt")

# What each region's messages must carry: emergency numbers, crisis-line numbers (a region without a
# crisis line sends people to its emergency numbers), and the proper names of its services.
REGIONS: dict[str, tuple[list[str], list[str], list[str]]] = {
    "US": (["911"], ["988"], ["Suicide & Crisis Lifeline"]),
    "CA": (["911"], ["9-8-8"], ["Suicide Crisis Helpline"]),
    "GB": (["999"], ["116 123", "111"], ["Samaritans", "NHS 111"]),
    "IE": (["112", "999"], ["116 123"], ["Samaritans"]),
    "FR": (["15", "112"], ["3114"], ["SAMU"]),
    "ES": (["112"], ["024"], []),
    "PT": (["112"], ["808 24 24 24"], ["SNS 24"]),
    "BR": (["192"], ["188"], ["SAMU", "CVV"]),
    "MX": (["911"], ["800 911 2000"], ["Línea de la Vida"]),
    "DE": (["112"], ["0800 111 0 111"], ["TelefonSeelsorge"]),
    "EU": (["112"], [], []),
    "AU": (["000"], ["13 11 14"], ["Lifeline"]),
    "NZ": (["111"], ["1737"], []),
    "IN": (["112", "108"], ["14416"], ["Tele-MANAS"]),
    "CN": (["120"], [], []),
    "AE": (["998", "999"], [], []),
    "EG": (["123"], [], []),
}

# Words that give a language away in a resource phrase ("call", "llame", "ligue"...). A message in one
# language must contain none of the others' (its own are allowed: "ou" is French and Portuguese,
# "o" is the Spanish "or" and the Portuguese "the").
MARKERS = {
    "en": {"call", "text", "or", "dial", "ambulance"},
    "fr": {"appelez", "envoyez", "ou", "ambulance"},
    "es": {"llame", "envíe", "al", "o", "ambulancia", "línea"},
    "pt": {"ligue", "envie", "ou", "o", "ambulância"},
}
_SCRIPTS = {"zh": re.compile(r"[\u4e00-\u9fff]"), "ar": re.compile(r"[\u0600-\u06ff]"),
            "hi": re.compile(r"[\u0900-\u097f]"), "latin": re.compile(r"[A-Za-zÀ-ÿ]")}

# Every message that carries the region's resources, and which numbers it must show.
CRISIS_KINDS = ("mental_health_crisis", "crisis_reminder", "service_error")
EMERGENCY_KINDS = ("emergency", "emergency_reminder", "disclaimer_footer", *CRISIS_KINDS)


def _has_number(text: str, number: str) -> bool:
    return re.search(rf"(?<![\d-]){re.escape(number)}(?![\d-])", text) is not None


def _foreign(text: str, lang: str, names: list[str]) -> list[str]:
    """Words or scripts of another language in a message written in `lang` (proper names removed)."""
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    found = []
    own_scripts = {"zh": "zh", "ar": "ar", "hi": "hi"}.get(lang, "latin")
    found += [script for script, pattern in _SCRIPTS.items() if script != own_scripts and pattern.search(text)]
    if own_scripts == "latin":
        words = set(re.findall(r"[\wà-ÿ]+", text.lower()))
        others = set().union(*(m for code, m in MARKERS.items() if code != lang)) - MARKERS.get(lang, set())
        found += sorted(words & others)
    return found


def test_the_table_covers_every_configured_region() -> None:
    assert set(REGIONS) == set(regions())


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("code", sorted(REGIONS))
def test_resource_messages_carry_the_regions_numbers_in_the_messages_language(code: str, lang: str) -> None:
    emergency, crisis, names = REGIONS[code]
    for kind in EMERGENCY_KINDS:
        text = message(kind, lang, code)
        numbers = emergency + (crisis if kind in CRISIS_KINDS else [])
        missing = [n for n in numbers if not _has_number(text, n)]
        assert not missing, f"{kind}/{lang}/{code} lacks {missing}: {text}"
        assert "$" not in text
        assert not _foreign(text, lang, names), f"{kind}/{lang}/{code}: {_foreign(text, lang, names)} in {text}"


def test_the_foreign_word_check_can_fail() -> None:
    assert _foreign("Busque ayuda ahora mismo: call or text 988.", "es", []) == ["call", "or", "text"]
    assert _foreign("Contactez dès maintenant : llame al 024.", "fr", []) == ["al", "llame"]
    assert _foreign("请现在就寻求帮助：call 988。", "zh", []) == ["latin"]
    assert _foreign("请拨打 988（Suicide & Crisis Lifeline）。", "zh", ["Suicide & Crisis Lifeline"]) == []


def test_examples_read_naturally() -> None:
    assert "call or text 988 (Suicide & Crisis Lifeline)" in message("mental_health_crisis", "en", "US")
    assert "llame o envíe un mensaje de texto al 988" in message("mental_health_crisis", "es", "US")
    assert "appelez le 024" in message("mental_health_crisis", "fr", "ES")
    assert "15 (SAMU) or 112" in message("emergency", "en", "FR")
    assert "112 o 108 (ambulancia)" in message("emergency", "es", "IN")
    assert "998 (إسعاف) أو 999" in message("emergency", "ar", "AE")
    assert "call 112" in message("mental_health_crisis", "en", "EU")  # no crisis line: the emergency number


async def test_a_flagged_conversations_later_reminder_is_in_spanish_for_region_us() -> None:
    assistant = Assistant(scripted_llm(lambda messages, params: "La diabetes causa sed. Consulte a su médico."),
                          region="US", language="es")
    first = await assistant.ask("Quiero quitarme la vida")
    assert first.mental_health_crisis and "988" in first.content and "call" not in first.content
    later = await assistant.ask("¿Cuáles son los síntomas de la diabetes?")
    assert later.at_risk and "risk_resources" in later.guardrails_applied
    reminder = later.content.split("\n\n")[-1]
    assert reminder == message("crisis_reminder", "es", "US")
    assert "llame o envíe un mensaje de texto al 988" in reminder and "911" in reminder
    assert not _foreign(reminder, "es", REGIONS["US"][2])


def test_the_output_check_accepts_the_regions_own_numbers_and_puts_its_first_one_instead_of_others() -> None:
    cited = [{"source": "https://www.nhs.uk/x", "url": "https://www.nhs.uk/x"}]
    ok = " This is general information, not a substitute for medical advice; talk to your doctor."
    gb = check_output("If you feel low, call 111 or call 999 if you are in danger." + ok, citations=cited,
                      region="GB")
    assert "REGIONAL_ASSUMPTION" not in gb.types  # NHS 111 is GB's own line, not New Zealand's 111
    fr = check_output("If it gets worse, call 911." + ok, citations=cited, region="FR")
    assert "REGIONAL_ASSUMPTION" in fr.types and "call 15." in fr.modified_response
    india = check_output("If it gets worse, call 108 or call 112." + ok, citations=cited, region="IN")
    assert "REGIONAL_ASSUMPTION" not in india.types


@pytest.mark.parametrize(("entry", "error"), [
    ('emergency: ["112", {number: "108", kind: helicopter}]', "kind 'helicopter' has no words"),
    ('emergency: [{service: SAMU}]', "bad emergency entry"),
    ('emergency: [{number: "112", label: "or 999"}]', "bad emergency entry"),
    ("emergency: []", "has no emergency number"),
])
def test_a_region_file_with_words_or_bad_entries_is_a_config_error(tmp_path, monkeypatch, entry, error) -> None:
    from mdagents.errors import ConfigError
    from mdagents.guardrails import messages

    path = tmp_path / "regions.yaml"
    path.write_text(f"default: XX\nregions:\n  XX: {{name: Nowhere, {entry}, crisis: [], systems: []}}\n")
    monkeypatch.setattr(messages, "REGIONS_FILE", path)
    messages.regions.cache_clear()
    try:
        with pytest.raises(ConfigError, match=error):
            messages.regions()
    finally:
        messages.regions.cache_clear()
