"""The assistant's fixed messages (prompts/guardrail_messages.yaml), in the patient's language and region."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from itertools import groupby
from pathlib import Path
from string import Template
from typing import Any

import yaml

from mdagents.errors import ConfigError
from mdagents.prompts import PROMPT_DIR

MESSAGES_FILE = PROMPT_DIR / "guardrail_messages.yaml"
REGIONS_FILE = PROMPT_DIR / "guardrail_regions.yaml"
DEFAULT_LANGUAGE = "en"
# The supported languages' names, as a prompt to a model names them.
LANGUAGE_NAMES = {"en": "English", "fr": "French", "es": "Spanish", "zh": "Chinese", "ar": "Arabic", "hi": "Hindi",
                  "pt": "Portuguese"}

# Script ranges decide zh/ar/hi outright; Latin-script languages are told apart by common words.
_SCRIPTS = (("zh", re.compile(r"[\u4e00-\u9fff]")), ("ar", re.compile(r"[\u0600-\u06ff]")),
            ("hi", re.compile(r"[\u0900-\u097f]")))
_LATIN_WORDS = {
    "fr": {"je", "j'ai", "mon", "ma", "mes", "est", "les", "des", "une", "pas", "que", "qu'est-ce", "avec",
           "suis", "dans", "poitrine", "mourir", "respirer", "douleur", "quels", "comment", "pour", "le", "la",
           "et", "ne", "du", "très", "mal", "envie", "veux", "suicider", "tuer", "aide", "peux"},
    "es": {"yo", "mi", "mis", "es", "los", "las", "una", "que", "qué", "con", "estoy", "tengo", "pecho",
           "morir", "quiero", "cuáles", "cómo", "para", "dolor", "puedo", "por", "el", "la", "y", "no", "vida",
           "quitarme", "muy", "tiene", "está", "matarme", "ayuda"},
    "pt": {"eu", "meu", "minha", "é", "os", "uma", "que", "com", "estou", "tenho", "peito", "morrer",
           "quero", "quais", "como", "para", "dor", "não", "consigo", "você", "o", "a", "e", "matar", "muito",
           "está", "ajuda", "vida"},
}


@dataclass(frozen=True)
class Line:
    """One number of a region: an emergency number or a crisis line."""

    number: str
    service: str = ""  # a proper name, shown as is in every language ("SAMU", "Samaritans")
    kind: str = ""  # a common noun, said in the message's language (a key of resource_phrases' `kinds`)
    text: bool = False  # the line also takes text messages


@dataclass(frozen=True)
class Region:
    code: str
    name: str
    emergency: tuple[Line, ...]  # the first is the one to put in place of another region's number
    crisis: tuple[Line, ...]  # empty: the messages send people to the emergency numbers
    systems: tuple[str, ...]

    @property
    def numbers(self) -> tuple[str, ...]:
        """Every number of the region, emergency numbers first."""
        return tuple(line.number for line in (*self.emergency, *self.crisis))


def _read_yaml(path: Path) -> dict[str, Any]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise ConfigError(f"cannot read {path}: {exc}") from exc
    if not isinstance(data, dict):
        raise ConfigError(f"{path} must hold a mapping")
    return data


@cache
def catalogue() -> dict[str, Any]:
    return _read_yaml(MESSAGES_FILE)


_LINE_KEYS = {"number", "service", "kind", "text"}


def _lines(code: str, field: str, items: Any) -> tuple[Line, ...]:
    """A region's numbers: each a bare number or a mapping {number, service?, kind?, text?}."""
    if not isinstance(items, list):
        raise ConfigError(f"region {code}: {field} must be a list in {REGIONS_FILE}")
    lines = []
    for item in items:
        entry = {"number": item} if isinstance(item, str | int) else item
        if not isinstance(entry, dict) or not entry.get("number") or set(entry) - _LINE_KEYS:
            raise ConfigError(f"region {code}: bad {field} entry {item!r} in {REGIONS_FILE} "
                              f"(a number, or a mapping with keys {', '.join(sorted(_LINE_KEYS))})")
        lines.append(Line(str(entry["number"]), str(entry.get("service") or ""), str(entry.get("kind") or ""),
                          bool(entry.get("text", False))))
    return tuple(lines)


@cache
def regions() -> dict[str, Region]:
    data = _read_yaml(REGIONS_FILE)
    table = {}
    for code, r in data["regions"].items():
        key = str(code).upper()
        emergency = _lines(key, "emergency", r.get("emergency"))
        if not emergency:
            raise ConfigError(f"region {key} has no emergency number in {REGIONS_FILE}")
        table[key] = Region(key, str(r["name"]), emergency, _lines(key, "crisis", r.get("crisis") or []),
                            tuple(r.get("systems") or ()))
    kinds = set(_phrases(DEFAULT_LANGUAGE).get("kinds") or {})
    for place in table.values():
        unknown = {line.kind for line in (*place.emergency, *place.crisis) if line.kind} - kinds
        if unknown:
            raise ConfigError(f"region {place.code}: kind {sorted(unknown)[0]!r} has no words in "
                              f"resource_phrases of {MESSAGES_FILE}")
    return table


def default_region() -> str:
    return str(_read_yaml(REGIONS_FILE).get("default", "US")).upper()


def region(code: str | None) -> Region:
    """The region for a code (case-insensitive); unknown codes are a usage error naming the known ones."""
    table = regions()
    key = (code or default_region()).upper()
    if key == "UK":
        key = "GB"
    if key not in table:
        raise ConfigError(f"unknown region {code!r}; known: {', '.join(sorted(table))}")
    return table[key]


def languages() -> tuple[str, ...]:
    return tuple(catalogue().get("languages", [DEFAULT_LANGUAGE]))


def detect_language(text: str) -> str:
    """A best guess at the patient's language among the supported ones (English when unsure)."""
    for code, script in _SCRIPTS:
        if script.search(text):
            return code
    words = set(re.findall(r"[\wà-ÿ'-]+", text.lower()))
    scores = {code: len(words & vocab) for code, vocab in _LATIN_WORDS.items()}
    english = len(words & {"i", "my", "the", "is", "and", "what", "have", "how", "me", "it", "of", "a"})
    best = max(scores, key=lambda c: scores[c])
    return best if scores[best] >= 2 and scores[best] > english else DEFAULT_LANGUAGE


def resolve_language(language: str | None, text: str) -> str:
    """`auto` (or None) detects from the text; an explicit code must be a supported language."""
    if not language or language == "auto":
        return detect_language(text)
    if language not in languages():
        raise ConfigError(f"unsupported language {language!r}; use auto or one of {', '.join(languages())}")
    return language


def _phrases(language: str) -> dict[str, Any]:
    """The words a language says resources with (resource_phrases; English when it lacks them)."""
    table = catalogue().get("resource_phrases")
    if not isinstance(table, dict) or not isinstance(table.get(DEFAULT_LANGUAGE), dict):
        raise ConfigError(f"resource_phrases (with English) are missing from {MESSAGES_FILE}")
    return table.get(language) or table[DEFAULT_LANGUAGE]


def _phrase(phrases: dict[str, Any], key: str, **values: str) -> str:
    try:
        return Template(str(phrases[key])).substitute(values)
    except KeyError as exc:
        raise ConfigError(f"resource_phrases: {key!r} is missing or needs ${exc.args[0]} ({MESSAGES_FILE})") from exc


def _say_line(line: Line, phrases: dict[str, Any]) -> str:
    """One number as said: "15 (SAMU)", "108 (ambulancia)", "NHS 111" (a name holding its number), "112"."""
    label = line.service or (str((phrases.get("kinds") or {}).get(line.kind) or "") if line.kind else "")
    if not label:
        return line.number
    if line.number in label:
        return label
    return _phrase(phrases, "named", number=line.number, service=label)


def _say_numbers(lines: tuple[Line, ...], phrases: dict[str, Any]) -> str:
    return str(phrases["or"]).join(_say_line(line, phrases) for line in lines)


def emergency_numbers(code: str | None, language: str = DEFAULT_LANGUAGE) -> str:
    """The region's emergency numbers as said in `language` ("15 (SAMU) ou 112")."""
    return _say_numbers(region(code).emergency, _phrases(language))


def crisis_line(code: str | None, language: str = DEFAULT_LANGUAGE) -> str:
    """What to do to reach the region's crisis lines, in `language` ("llame o envíe un mensaje de texto
    al 988 (...)"); a region without one sends people to its emergency numbers."""
    place = region(code)
    phrases = _phrases(language)
    lines = place.crisis or place.emergency
    said = [_phrase(phrases, "call_or_text" if texts else "call", numbers=_say_numbers(tuple(group), phrases))
            for texts, group in groupby(lines, key=lambda line: line.text)]
    return str(phrases["or"]).join(said)


def format_number(value: int, language: str = DEFAULT_LANGUAGE) -> str:
    """An integer with the language's thousands separator (number_format; a comma when not given)."""
    separators = catalogue().get("number_format") or {}
    return f"{value:,}".replace(",", str(separators.get(language, ",")))


def message(kind: str, language: str = DEFAULT_LANGUAGE, region_code: str | None = None, **values: str) -> str:
    """A configured message filled for a region; falls back to English when the language lacks it.

    $emergency_number and $crisis_line are the region's numbers, said with the message language's
    resource_phrases (the language the message text is in, so the English fallback says them in English)."""
    entry = catalogue().get(kind)
    if not isinstance(entry, dict):
        raise ConfigError(f"message {kind!r} is missing from {MESSAGES_FILE}")
    text = entry.get(language)
    if not text:
        language = DEFAULT_LANGUAGE
        text = entry.get(DEFAULT_LANGUAGE)
    if not text:
        raise ConfigError(f"message {kind!r} has no English text in {MESSAGES_FILE}")
    template = Template(str(text).strip())
    filled = {"emergency_number": emergency_numbers(region_code, language),
              "crisis_line": crisis_line(region_code, language), **values}
    try:
        return template.substitute(filled)
    except KeyError as exc:
        raise ConfigError(f"message {kind!r} needs a value for ${exc.args[0]}") from exc
