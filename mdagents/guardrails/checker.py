"""Guardrails: one object that runs the input and output checks in the chosen mode.

regex: patterns only. semantic: the patterns and the embedding classifier, offline. llm: those two
and a model's strict JSON verdict (a failed model check is an error). hybrid: the same, but a
failed model check leaves the offline layers' verdict (`fallbacks` counts how often). In every mode
the layers' verdicts are merged so that flags only go up (see triage.py); when the offline layers
already flag an emergency or a crisis, the model is not asked at all.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from mdagents.errors import ConfigError
from mdagents.guardrails import input_check, llm_check, output_check
from mdagents.guardrails.figurative import figures_of_speech, without_figures
from mdagents.guardrails.semantic import SemanticTriage, shared_triage
from mdagents.guardrails.triage import from_semantic, merge
from mdagents.guardrails.verdicts import (
    CRITICAL_INTERVENTIONS,
    MODES,
    GuardrailCheckError,
    InputCheck,
    OutputCheck,
)
from mdagents.llm.client import LLM
from mdagents.llm.types import Message


def semantic_in_conversation(triage: SemanticTriage, text: str, earlier: Sequence[str]) -> InputCheck:
    """The classifier's verdict on a chat message, read alone and with the user's previous messages; an
    emergency or a crisis it reads in a message holding a fixed figure of speech ("my mum will kill me",
    "mort de rire") stands only if the message still reads so without it (see figurative.py)."""
    verdict = _in_conversation(triage, text, earlier)
    if verdict.intervention_type == "mental_health_crisis" and input_check.denies_or_resolved(text) \
            and not input_check.crisis_signs(text):
        # "I won't do anything stupid, I'm just sad", "ten years ago I tried to kill myself; today I'm well": the
        # classifier reads the sadness or the words; the writer denies any intent or tells of a past recovered from,
        # and no pattern finds a plan, a means or a farewell.
        return InputCheck.none()
    figures = figures_of_speech(text) if verdict.intervention_type in CRITICAL_INTERVENTIONS else []
    if figures:
        literal = _in_conversation(triage, without_figures(text), earlier)
        if literal.intervention_type not in CRITICAL_INTERVENTIONS:
            literal.explanation += f" (read without its figures of speech: {'; '.join(figures)})"
            return literal
    return verdict


def _in_conversation(triage: SemanticTriage, text: str, earlier: Sequence[str]) -> InputCheck:
    """The combined reading counts only when the earlier messages alone were not an emergency or crisis
    (then the new message is what tipped it); a turn already flagged was answered when it came."""
    alone = triage.classify_message(text)
    if not earlier or alone.intervention_type in CRITICAL_INTERVENTIONS:
        return from_semantic(alone)
    before = ". ".join(earlier[-input_check.CONTEXT_MESSAGES:])
    together, before_alone = triage.classify_many([f"{before}. {text}", before])
    if together.intervention_type in CRITICAL_INTERVENTIONS and before_alone.intervention_type not in CRITICAL_INTERVENTIONS:
        verdict = from_semantic(together)
        verdict.explanation += " (read with the previous messages)"
        return verdict
    return from_semantic(alone)


class Guardrails:
    def __init__(self, mode: str = "regex", *, llm: LLM | None = None, region: str | None = None,
                 semantic: SemanticTriage | None = None) -> None:
        if mode not in MODES:
            raise ConfigError(f"unknown guardrail mode {mode!r}; use one of {', '.join(MODES)}")
        if mode in ("llm", "hybrid") and llm is None:
            raise ConfigError(f"guardrail mode {mode} needs a model for its checks")
        self.mode = mode
        self.llm = llm
        self.region = region
        self._semantic = semantic
        self.fallbacks: list[str] = []

    @property
    def semantic(self) -> SemanticTriage | None:
        """The embedding classifier (every mode but regex), loaded on first use."""
        if self.mode == "regex":
            return None
        if self._semantic is None:
            self._semantic = shared_triage()
        return self._semantic

    def check_offline(self, text: str, earlier: Sequence[str] = ()) -> InputCheck:
        """The patterns and (except in regex mode) the embedding classifier, merged. Flags only go up:
        when the patterns flag an emergency or a crisis, the classifier (which could only confirm it) is
        not run. The classifier reads a message whole, so a sign buried in a longer message about
        something else scores low there: letting it lower a pattern's flag loses real emergencies."""
        layers = [input_check.check_in_conversation(text, earlier)]
        # An overdose already taken is an emergency whatever the classifier says, but whether it was meant
        # (a crisis too, and its lines in the reply) may be only the classifier's to see.
        meant = layers[0].intervention_type == "emergency" and input_check.overdose_taken(text) is not None
        if (layers[0].intervention_type not in CRITICAL_INTERVENTIONS or meant) and self.semantic is not None:
            layers.append(semantic_in_conversation(self.semantic, text, earlier))
        return merge(layers)

    async def check_input(self, text: str, history: Sequence[Message] = ()) -> InputCheck:
        """Triage of a patient message; `history` (the chat so far) lets a split disclosure be seen."""
        earlier = [m.content for m in history if m.role == "user"]
        offline = await asyncio.to_thread(self.check_offline, text, earlier)
        if self.mode in ("regex", "semantic") or offline.intervention_type in CRITICAL_INTERVENTIONS:
            # An emergency or crisis is already the highest flag: no model could raise it, so its fixed
            # message goes out at once, without waiting for (or paying for) a model call.
            return input_check.escalate_overdose(offline, text)
        assert self.llm is not None
        try:
            model = await llm_check.check_input(self.llm, text, history)
        except GuardrailCheckError as exc:
            if self.mode == "llm":
                raise
            self.fallbacks.append(str(exc))
            offline.layers.append({"layer": "llm", "intervention_type": None, "severity": None,
                                   "why": f"check failed, offline layers only: {exc}", "matched": []})
            return input_check.escalate_overdose(offline, text)
        return input_check.escalate_overdose(merge([offline, model]), text)

    async def check_output(self, response: str, *, message: str = "", citations: Sequence[dict[str, Any]] = (),
                           input_type: str = "none", language: str = "en",
                           web_search_performed: bool = False) -> OutputCheck:
        """The reply's violations and the reply to send; `citations` are the sources tools returned."""
        verdict = await self._check_output(response, message=message, citations=citations, input_type=input_type,
                                           language=language)
        verdict.web_search_performed = web_search_performed
        return verdict

    async def _check_output(self, response: str, *, message: str, citations: Sequence[dict[str, Any]],
                            input_type: str, language: str) -> OutputCheck:
        def regex() -> OutputCheck:
            return output_check.check_output(response, citations=citations, input_type=input_type,
                                             region=self.region, language=language)

        if self.mode in ("regex", "semantic"):
            return regex()
        assert self.llm is not None
        try:
            return await llm_check.check_output(self.llm, response, message=message, citations=citations,
                                                region=self.region, language=language)
        except GuardrailCheckError as exc:
            if self.mode == "llm":
                raise
            self.fallbacks.append(str(exc))
            verdict = regex()
            verdict.source = "regex-fallback"
            return verdict
