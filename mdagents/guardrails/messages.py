"""The assistant's fixed messages (prompts/guardrail_messages.yaml), in the patient's language and region."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from string import Template
from typing import Any

import yaml

from mdagents.errors import ConfigError
from mdagents.prompts import PROMPT_DIR

MESSAGES_FILE = PROMPT_DIR / "guardrail_messages.yaml"
REGIONS_FILE = PROMPT_DIR / "guardrail_regions.yaml"
DEFAULT_LANGUAGE = "en"

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
class Region:
    code: str
    name: str
    emergency: str
    crisis_line: str
    systems: tuple[str, ...]


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


@cache
def regions() -> dict[str, Region]:
    data = _read_yaml(REGIONS_FILE)
    return {code.upper(): Region(code.upper(), str(r["name"]), str(r["emergency"]), str(r.get("crisis_line") or ""),
                                 tuple(r.get("systems") or ())) for code, r in data["regions"].items()}


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


def message(kind: str, language: str = DEFAULT_LANGUAGE, region_code: str | None = None, **values: str) -> str:
    """A configured message filled for a region; falls back to English when the language lacks it."""
    entry = catalogue().get(kind)
    if not isinstance(entry, dict):
        raise ConfigError(f"message {kind!r} is missing from {MESSAGES_FILE}")
    text = entry.get(language) or entry.get(DEFAULT_LANGUAGE)
    if not text:
        raise ConfigError(f"message {kind!r} has no English text in {MESSAGES_FILE}")
    place = region(region_code)
    crisis = place.crisis_line or place.emergency
    try:
        return Template(str(text).strip()).substitute(
            {"emergency_number": place.emergency, "crisis_line": crisis, **values})
    except KeyError as exc:
        raise ConfigError(f"message {kind!r} needs a value for ${exc.args[0]}") from exc
