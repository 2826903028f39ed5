"""LLM-mode checks: a (cheaper) model returns a JSON verdict, parsed strictly.

Anything but the exact JSON asked for raises GuardrailCheckError (hybrid mode then falls back to
regex). Source trust (NO_CITATIONS, UNTRUSTED_SOURCES) is not asked of the model: it is a fact of
the trusted-domain list, so it is added deterministically from the citations.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from mdagents.errors import LLMCallError
from mdagents.guardrails.limits import excerpt
from mdagents.guardrails.messages import region as region_of
from mdagents.guardrails.remediation import remediate
from mdagents.guardrails.trusted import is_trusted_citation
from mdagents.guardrails.verdicts import (
    INPUT_SEVERITIES,
    INTERVENTION_TYPES,
    VIOLATION_TYPES,
    GuardrailCheckError,
    InputCheck,
    OutputCheck,
    Violation,
)
from mdagents.llm.client import LLM
from mdagents.llm.types import Message
from mdagents.prompts import render

_FENCE = re.compile(r"^```(?:json)?\s*(.*?)\s*```$", re.DOTALL)
_INPUT_KEYS = {"requires_intervention", "intervention_type", "severity", "should_block", "explanation"}
# Types the model may report; the source checks are deterministic (see module docstring).
_MODEL_TYPES = tuple(t for t in VIOLATION_TYPES if t not in ("NO_CITATIONS", "UNTRUSTED_SOURCES"))
_MAX_TOKENS = 400


def parse_json_object(text: str) -> dict[str, Any]:
    """The reply as one JSON object (a ```json fence around it is tolerated, nothing else)."""
    body = text.strip()
    fenced = _FENCE.match(body)
    if fenced:
        body = fenced.group(1)
    try:
        data = json.loads(body)
    except json.JSONDecodeError as exc:
        raise GuardrailCheckError(f"guardrail verdict is not JSON: {exc.msg}") from None
    if not isinstance(data, dict):
        raise GuardrailCheckError("guardrail verdict is not a JSON object")
    return data


def parse_input_verdict(text: str) -> InputCheck:
    data = parse_json_object(text)
    if set(data) != _INPUT_KEYS:
        raise GuardrailCheckError(f"input verdict keys {sorted(data)} != {sorted(_INPUT_KEYS)}")
    kind, severity = data["intervention_type"], data["severity"]
    if kind not in INTERVENTION_TYPES:
        raise GuardrailCheckError(f"unknown intervention_type {kind!r}")
    if severity not in INPUT_SEVERITIES:
        raise GuardrailCheckError(f"unknown severity {severity!r}")
    if not isinstance(data["requires_intervention"], bool) or not isinstance(data["should_block"], bool):
        raise GuardrailCheckError("requires_intervention and should_block must be booleans")
    if not isinstance(data["explanation"], str):
        raise GuardrailCheckError("explanation must be a string")
    if data["requires_intervention"] != (kind != "none"):
        raise GuardrailCheckError("requires_intervention contradicts intervention_type")
    return InputCheck(kind != "none", kind, severity, data["should_block"] or kind != "none",
                      data["explanation"], "llm")


def parse_output_verdict(text: str) -> list[Violation]:
    data = parse_json_object(text)
    if set(data) != {"violations"} or not isinstance(data["violations"], list):
        raise GuardrailCheckError("output verdict must be {\"violations\": [...]}")
    violations = []
    for item in data["violations"]:
        if not isinstance(item, dict) or set(item) - {"type", "evidence"} or "type" not in item:
            raise GuardrailCheckError(f"malformed violation {item!r}")
        if item["type"] not in _MODEL_TYPES:
            raise GuardrailCheckError(f"unknown violation type {item['type']!r}")
        evidence = item.get("evidence", "")
        if not isinstance(evidence, str):
            raise GuardrailCheckError("violation evidence must be a string")
        violations.append(Violation(item["type"], evidence))
    return violations


async def _ask(llm: LLM, prompt: str) -> str:
    try:
        completion = await llm.complete([Message("user", prompt)], temperature=0.0, max_tokens=_MAX_TOKENS,
                                        role="guardrail")
    except LLMCallError as exc:
        raise GuardrailCheckError(f"guardrail model call failed: {exc}") from None
    return completion.text


def _history_text(history: Sequence[Message]) -> str:
    return "\n".join(f"{m.role}: {m.content}" for m in history[-6:] if m.role != "system") or "(none)"


async def check_input(llm: LLM, text: str, history: Sequence[Message] = ()) -> InputCheck:
    """The model's verdict on a message; of a long paste it reads an excerpt (head and tail), the
    offline layers having read the whole."""
    reply = await _ask(llm, render("guardrail_input_check", message=excerpt(text),
                                   history=_history_text(history)))
    return parse_input_verdict(reply)


async def check_output(llm: LLM, response: str, *, message: str = "", citations: Sequence[dict[str, Any]] = (),
                       region: str | None = None, language: str = "en") -> OutputCheck:
    prompt = render("guardrail_output_check", message=message or "(not given)", response=response,
                    region=region_of(region).name)
    from mdagents.guardrails.output_check import medication_instructions, source_violations

    # Personal medication instructions are found by the patterns too: a model reviewer may miss them.
    violations = (parse_output_verdict(await _ask(llm, prompt)) + medication_instructions(response)
                  + source_violations(response, citations))
    result = remediate(response, violations, region=region, language=language, source="llm")
    result.has_trusted_citations = any(is_trusted_citation(c) for c in citations)
    return result
