"""Turn a reply's violations into a suggested action, the fixes made, and the reply to send instead.

Shared by every mode: the regex and llm checks only find violations; what is done about them is
decided here, deterministically, so a model never rewrites a reply unchecked.
"""

from __future__ import annotations

import re

from mdagents.guardrails import output_patterns as P
from mdagents.guardrails.medication_patterns import SENTENCE_END
from mdagents.guardrails.messages import catalogue, message
from mdagents.guardrails.messages import region as region_of
from mdagents.guardrails.trusted import is_trusted_url
from mdagents.guardrails.verdicts import ACTIONS, OutputCheck, Violation

_F = re.IGNORECASE
_SOFTEN = [(re.compile(p, _F), repl) for p, repl in P.SOFTEN]
_NOT_DIAGNOSIS_BEFORE = re.compile(P.NOT_DIAGNOSIS_BEFORE, _F)
_URL = re.compile(P.URL, _F)
_NUMBER = re.compile(P.EMERGENCY_NUMBER, _F)
_SENTENCE_END = re.compile(SENTENCE_END)
# Minimum characters of real content left after removals; less than that and the reply is blocked.
_MIN_REMAINING = 40

_ACTION_FOR = {
    "CONTRADICTS_EMERGENCY": "block",
    "DIAGNOSIS": "remove_content",
    "TREATMENT": "remove_content",
    "DOSING": "remove_content",
    "LAB_INTERPRETATION": "remove_content",
    "MEDICAL_ADVICE": "add_disclaimer",
    "MISSING_DISCLAIMER": "add_disclaimer",
    "INCOMPLETE_SAFETY": "add_disclaimer",
    "NO_CITATIONS": "enhance_citations",
    "UNTRUSTED_SOURCES": "enhance_citations",
    "OUTDATED_INFO": "enhance_citations",
}


def soften(text: str) -> tuple[str, list[str]]:
    """Replace mild diagnostic phrasing ("you have the flu") with "this may indicate the flu"."""
    changed: list[str] = []

    def _apply(pattern: re.Pattern[str], repl: str, text: str) -> str:
        out, last = [], 0
        for m in pattern.finditer(text):
            if _NOT_DIAGNOSIS_BEFORE.search(text[max(0, m.start() - 25):m.start()]):
                continue
            new = repl
            at_start = m.start() == 0 or re.search(r"[.!?\n]\s*$", text[:m.start()])
            if at_start or m.group(0)[:1].isupper():
                new = repl[:1].upper() + repl[1:]
            changed.append(m.group(0).strip())
            out.append(text[last:m.start()] + new)
            last = m.end()
        out.append(text[last:])
        return "".join(out)

    for pattern, repl in _SOFTEN:
        text = _apply(pattern, repl, text)
    return text, changed


def _sentences(text: str) -> list[str]:
    return [s for s in _SENTENCE_END.split(text) if s and s.strip()]


def _strongest(actions: list[str]) -> str:
    return min(actions, key=ACTIONS.index) if actions else "pass"


def remediate(response: str, violations: list[Violation], *, region: str | None = None,
              language: str = "en", source: str = "regex") -> OutputCheck:
    """The action the violations call for, and the reply with fixes applied."""
    fixes: list[str] = []
    text = response
    if any(v.type == "DIAGNOSIS" for v in violations):
        text, softened = soften(text)
        for phrase in softened:
            fixes.append(f"softened diagnostic phrasing {phrase!r} to 'this may indicate'")
        for v in violations:
            if v.type == "DIAGNOSIS" and any(v.evidence.lower().startswith(p.lower()) for p in softened):
                v.fixed = True

    actions = [_ACTION_FOR.get(v.type, "pass") for v in violations if not v.fixed]
    if any(v.type == "DIAGNOSIS" and v.fixed for v in violations):
        actions.append("add_disclaimer")
    action = _strongest(actions)

    to_remove = [v for v in violations if v.severity == "critical" and not v.fixed and v.type != "CONTRADICTS_EMERGENCY"]
    if action == "remove_content" or to_remove:
        kept, removed = [], 0
        for sentence in _sentences(text):
            if any(v.evidence and v.evidence.lower() in sentence.lower() for v in to_remove):
                removed += 1
                continue
            kept.append(sentence)
        located = all(any(v.evidence and v.evidence.lower() in s.lower() for s in _sentences(text)) for v in to_remove)
        text = " ".join(kept)
        if not located or len(text.strip()) < _MIN_REMAINING:
            action = "block"
        else:
            for v in to_remove:
                v.fixed = True
            fixes.append(f"removed {removed} sentence(s) with {', '.join(sorted({v.type for v in to_remove}))}")
            text = f"{text}\n\n{message('removed_content', language, region)}"

    if action == "block":
        kind = "emergency" if any(v.type == "CONTRADICTS_EMERGENCY" for v in violations) else "blocked"
        fixes.append(f"replaced the reply with the {kind} message")
        return OutputCheck(violations, "block", fixes, message(kind, language, region), source)

    flagged = {v.evidence for v in violations if v.type == "UNTRUSTED_SOURCES"}
    if flagged:
        def _drop(m: re.Match[str]) -> str:
            url = m.group(0)
            if not is_trusted_url(url):
                return message("untrusted_link", language, region)
            return message("unverified_link", language, region) if url in flagged else url

        new = _URL.sub(_drop, text)
        if new != text:
            fixes.append("removed links to untrusted sources and links no search, fetch or guideline returned")
            text = new
    local_number = region_of(region).emergency[0].number
    for v in violations:
        m = _NUMBER.fullmatch(v.evidence) if v.type == "REGIONAL_ASSUMPTION" else None
        if m and v.evidence in text:
            text = text.replace(v.evidence, v.evidence[:m.start("number")] + local_number)
            v.fixed = True
            fixes.append(f"replaced {v.evidence!r} with the local emergency number {local_number}")
    suggestions = catalogue().get("fix_suggestions", {})
    suggestions = suggestions.get(language) or suggestions.get("en") or {}
    for kind in sorted({v.type for v in violations if not v.fixed and v.type in suggestions}):
        fixes.append(f"{kind}: {suggestions[kind]}")
    if any(v.type == "NO_CITATIONS" for v in violations):
        text = message("no_trusted_sources", language, region, content=text)
        fixes.append("marked the reply as having no trusted source")
    needs_disclaimer = any(v.type in ("MISSING_DISCLAIMER", "MEDICAL_ADVICE", "INCOMPLETE_SAFETY") or
                           (v.type == "DIAGNOSIS") for v in violations)
    if needs_disclaimer:
        text = "\n\n".join([message("disclaimer_header", language, region), text,
                            message("disclaimer_footer", language, region)])
        fixes.append("added the disclaimer header and footer")
    return OutputCheck(violations, action, fixes, text, source)
