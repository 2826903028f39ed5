"""Regex output check: find the 14 violation types in a model reply, then remediate it."""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Sequence
from typing import Any

from mdagents.guardrails import medication_patterns as M
from mdagents.guardrails import output_patterns as P
from mdagents.guardrails.messages import region as region_of
from mdagents.guardrails.messages import regions
from mdagents.guardrails.remediation import remediate
from mdagents.guardrails.trusted import is_trusted_citation, is_trusted_url, max_source_age_years
from mdagents.guardrails.verdicts import OutputCheck, Violation

_F = re.IGNORECASE
_PATTERNS = {kind: [re.compile(p, _F) for p in ps] for kind, ps in P.VIOLATIONS.items()}
_SOFTEN = [re.compile(p, _F) for p, _ in P.SOFTEN]
_NOT_DIAGNOSIS_BEFORE = re.compile(P.NOT_DIAGNOSIS_BEFORE, _F)
_SERIOUS, _SEEK_CARE, _DISCLAIMER = (re.compile(p, _F) for p in (P.SERIOUS_TOPIC, P.SEEK_CARE, P.DISCLAIMER))
_MEDICAL = re.compile(P.MEDICAL_CONTENT + r"|\b" + P.CONDITION + r"\b", _F)
_BY_LANGUAGE = {lang: {kind: [re.compile(p, _F) for p in ps] for kind, ps in table.items()}
                for lang, table in P.BY_LANGUAGE.items()}
_SEEK_CARE_IN = {lang: re.compile(p, _F) for lang, p in P.SEEK_CARE_BY_LANGUAGE.items()}
_DISCLAIMER_IN = {lang: re.compile(p, _F) for lang, p in P.DISCLAIMER_BY_LANGUAGE.items()}


def _found(patterns: dict[str, re.Pattern[str]], english: re.Pattern[str], text: str, language: str) -> bool:
    """English or the patient's language."""
    own = patterns.get(language)
    return bool(english.search(text) or (own is not None and own.search(text)))
_NUMBER, _URL = re.compile(P.EMERGENCY_NUMBER, _F), re.compile(P.URL, _F)
_MEDICATION = [(kind, re.compile(p, _F | re.MULTILINE)) for table in M.PATTERNS.values()
               for kind, ps in table.items() for p in ps]
_MEDICATION_SAFE = re.compile(M.SAFE_CONTEXT, _F)
_SENTENCE_END = re.compile(M.SENTENCE_END)
# Sentences longer than this many words read as unclear to a patient.
_LONG_SENTENCE_WORDS = 45


def is_medical(response: str) -> bool:
    """Whether a reply says anything about health (a greeting or "what would you like to know?" does not)."""
    return _MEDICAL.search(response) is not None


def _link(url: str) -> str:
    return url.rstrip(".,;:!?").rstrip("/").lower()


def source_violations(response: str, citations: Sequence[dict[str, Any]]) -> list[Violation]:
    """Source checks, the same in every mode. A citation counts only if a tool returned it (a web search
    or fetch result, a guideline store section): `citations` are those. A link written in the reply that
    no tool returned is unverified, even on a trusted domain (a model can make one up), and is removed;
    a reply with health content and no trusted citation has NO_CITATIONS."""
    returned = {_link(str(c["url"])) for c in citations if c.get("url")}
    found = [Violation("UNTRUSTED_SOURCES", str(c.get("url") or c.get("source") or ""))
             for c in citations if not is_trusted_citation(c)]
    found += [Violation("UNTRUSTED_SOURCES", url) for url in dict.fromkeys(_URL.findall(response))
              if _link(url) not in returned]
    if is_medical(response) and not any(is_trusted_citation(c) for c in citations):
        found.insert(0, Violation("NO_CITATIONS"))
    return found


def medication_instructions(response: str) -> list[Violation]:
    """Personal instructions to take, stop, skip, double or change a medicine, or not to ask a doctor,
    in any supported language (see medication_patterns); the evidence lies within one sentence."""
    found = []
    for sentence in _SENTENCE_END.split(response):
        if not sentence or _MEDICATION_SAFE.search(sentence):
            continue
        found += [Violation(kind, m.group(0).strip()) for kind, pattern in _MEDICATION
                  for m in pattern.finditer(sentence)]
    return found


def _mild_diagnoses(text: str) -> list[str]:
    found = []
    for pattern in _SOFTEN:
        for m in pattern.finditer(text):
            if not _NOT_DIAGNOSIS_BEFORE.search(text[max(0, m.start() - 25):m.start()]):
                found.append(m.group(0).strip())
    return found


def _outdated(text: str, citations: Sequence[dict[str, Any]], year_now: int) -> list[str]:
    oldest_ok = year_now - max_source_age_years()
    hits = []
    for pattern in _PATTERNS["OUTDATED_INFO"]:
        for m in pattern.finditer(text):
            year = int(m.groupdict().get("year") or m.groupdict().get("year2") or 0)
            if 1900 < year < oldest_ok:
                hits.append(m.group(0))
    for c in citations:
        year = c.get("year")
        if isinstance(year, int | str) and str(year).isdigit() and int(year) < oldest_ok:
            hits.append(f"{c.get('source', 'citation')} ({year})")
    return hits


def _regional(text: str, region: str | None) -> list[str]:
    place = region_of(region)
    own = {digits for number in place.numbers for digits in re.findall(r"\d+", number)}  # GB's NHS 111 is GB's
    hits = [m.group(0) for m in _NUMBER.finditer(text) if m.group("number") not in own]
    others = {s for r in regions().values() if r.code != place.code for s in r.systems} - set(place.systems)
    hits += [s for s in sorted(others) if re.search(rf"\b{re.escape(s)}\b", text)]
    return hits


def find_violations(response: str, *, citations: Sequence[dict[str, Any]] = (), input_type: str = "none",
                    region: str | None = None, year_now: int | None = None, language: str = "en") -> list[Violation]:
    """Every violation the patterns find, in English and in the patient's language; evidence is the
    matched text (used to locate what to fix)."""
    year_now = year_now or _dt.date.today().year
    violations: list[Violation] = [Violation("DIAGNOSIS", phrase) for phrase in _mild_diagnoses(response)]
    violations += medication_instructions(response)
    for kind in ("DIAGNOSIS", "TREATMENT", "DOSING", "LAB_INTERPRETATION", "CONTRADICTS_EMERGENCY",
                 "MEDICAL_ADVICE", "SPECULATION"):
        for pattern in _PATTERNS[kind]:
            violations += [Violation(kind, m.group(0)) for m in pattern.finditer(response)]
        for pattern in _BY_LANGUAGE.get(language, {}).get(kind, []):
            violations += [Violation(kind, m.group(0)) for m in pattern.finditer(response)]
    seeks_care = _found(_SEEK_CARE_IN, _SEEK_CARE, response, language)
    if input_type == "emergency" and not seeks_care:
        violations.append(Violation("CONTRADICTS_EMERGENCY", "emergency described but the reply does not send to care"))
    if is_medical(response) and not _found(_DISCLAIMER_IN, _DISCLAIMER, response, language):
        violations.append(Violation("MISSING_DISCLAIMER"))
    violations += [v for v in source_violations(response, citations) if v.type == "NO_CITATIONS" or v.evidence]
    violations += [Violation("OUTDATED_INFO", hit) for hit in _outdated(response, citations, year_now)]
    jargon = [m.group(0) for m in _PATTERNS["UNCLEAR_LANGUAGE"][0].finditer(response)]
    long_sentences = [s for s in re.split(r"(?<=[.!?])\s+", response) if len(s.split()) > _LONG_SENTENCE_WORDS]
    if len(jargon) >= 2 or long_sentences:
        violations.append(Violation("UNCLEAR_LANGUAGE", ", ".join(jargon) or long_sentences[0][:80]))
    serious = _SERIOUS.search(response)
    if serious and not seeks_care:
        violations.append(Violation("INCOMPLETE_SAFETY", serious.group(0)))
    violations += [Violation("REGIONAL_ASSUMPTION", hit) for hit in _regional(response, region)]
    return _dedupe(violations)


def _dedupe(violations: list[Violation]) -> list[Violation]:
    seen: set[tuple[str, str]] = set()
    out = []
    for v in violations:
        key = (v.type, v.evidence.lower())
        if key not in seen:
            seen.add(key)
            out.append(v)
    return out


def check_output(response: str, *, citations: Sequence[dict[str, Any]] = (), input_type: str = "none",
                 region: str | None = None, language: str = "en", year_now: int | None = None) -> OutputCheck:
    """The regex verdict on one reply, remediated."""
    violations = find_violations(response, citations=citations, input_type=input_type, region=region,
                                 year_now=year_now, language=language)
    result = remediate(response, violations, region=region, language=language, source="regex")
    result.has_trusted_citations = any(is_trusted_citation(c) for c in citations)
    return result


__all__ = ["check_output", "find_violations", "is_trusted_url"]
