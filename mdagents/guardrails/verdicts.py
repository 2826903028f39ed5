"""The records every guardrail check returns, whichever mode (regex, llm, hybrid) produced them."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from mdagents.errors import MDAgentsError

# regex: patterns only. semantic: patterns + the embedding classifier (offline). llm / hybrid: those
# two and a model's verdict, merged so that flags only go up (hybrid survives a failed model check).
MODES = ("regex", "semantic", "llm", "hybrid")

INTERVENTION_TYPES = ("emergency", "mental_health_crisis", "out_of_scope", "none")
INPUT_SEVERITIES = ("critical", "high", "medium", "low")
# Interventions that must never be missed: the benchmark counts a miss of these as critical.
CRITICAL_INTERVENTIONS = ("emergency", "mental_health_crisis")

# Output violation type -> severity class (the three tiers of the spec).
VIOLATION_SEVERITY: dict[str, str] = {
    "DIAGNOSIS": "critical",
    "TREATMENT": "critical",
    "DOSING": "critical",
    "LAB_INTERPRETATION": "critical",
    "CONTRADICTS_EMERGENCY": "critical",
    "MEDICAL_ADVICE": "moderate",
    "MISSING_DISCLAIMER": "moderate",
    "NO_CITATIONS": "moderate",
    "UNTRUSTED_SOURCES": "moderate",
    "OUTDATED_INFO": "moderate",
    "UNCLEAR_LANGUAGE": "quality",
    "SPECULATION": "quality",
    "INCOMPLETE_SAFETY": "quality",
    "REGIONAL_ASSUMPTION": "quality",
}
VIOLATION_TYPES = tuple(VIOLATION_SEVERITY)

# Suggested actions, strongest first: the output check suggests the strongest one any violation needs.
ACTIONS = ("block", "remove_content", "add_disclaimer", "enhance_citations", "pass")


class GuardrailCheckError(MDAgentsError):
    """An llm-mode check failed (call error or a verdict that is not the strict JSON asked for)."""


@dataclass
class InputCheck:
    """Triage of a patient message before the main model sees it."""

    requires_intervention: bool
    intervention_type: str
    severity: str
    should_block: bool
    explanation: str
    source: str = "regex"
    matched: list[str] = field(default_factory=list)
    # Every layer's own verdict: {"layer", "intervention_type", "severity", "why", "matched"}.
    layers: list[dict[str, Any]] = field(default_factory=list)
    # Another intervention the message calls for too (an overdose taken in a crisis: emergency + crisis).
    also: list[str] = field(default_factory=list)

    @classmethod
    def none(cls, explanation: str = "no safety concern found", source: str = "regex") -> InputCheck:
        return cls(False, "none", "low", False, explanation, source)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Violation:
    type: str
    evidence: str = ""
    fixed: bool = False

    @property
    def severity(self) -> str:
        return VIOLATION_SEVERITY[self.type]

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "severity": self.severity, "evidence": self.evidence, "fixed": self.fixed}


@dataclass
class OutputCheck:
    """What the output check found in a model reply and the reply it suggests sending instead."""

    violations: list[Violation]
    suggested_action: str
    fixes: list[str]
    modified_response: str
    source: str = "regex"
    web_search_performed: bool = False  # a web search or fetch tool ran for this reply
    has_trusted_citations: bool = False  # a tool (search, fetch, guideline store) returned a trusted source

    @property
    def types(self) -> list[str]:
        return sorted({v.type for v in self.violations})

    @property
    def passes_guardrails(self) -> bool:
        """False when any critical violation was found (the reply was then fixed or replaced)."""
        return not any(v.severity == "critical" for v in self.violations)

    @property
    def severity(self) -> str:
        """The worst violation's tier, in the spec's words: critical, moderate, minor or none."""
        tiers = {v.severity for v in self.violations}
        return next((name for tier, name in (("critical", "critical"), ("moderate", "moderate"), ("quality", "minor"))
                     if tier in tiers), "none")

    @property
    def explanation(self) -> str:
        if not self.violations:
            return "no violation found"
        return "; ".join(f"{v.type}" + (f": {v.evidence}" if v.evidence else "") for v in self.violations)

    def summary(self) -> dict[str, Any]:
        """The spec's verdict fields, without the reply itself."""
        return {"passes_guardrails": self.passes_guardrails, "severity": self.severity,
                "explanation": self.explanation, "suggested_action": self.suggested_action,
                "violations": self.types, "web_search_performed": self.web_search_performed,
                "has_trusted_citations": self.has_trusted_citations, "source": self.source}

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.summary(),
            "violations": [v.to_dict() for v in self.violations],
            "fixes": list(self.fixes),
            "modified_response": self.modified_response,
        }
