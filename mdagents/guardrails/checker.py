"""Guardrails: one object that runs the input and output checks in the chosen mode.

regex: patterns only. llm: a model's strict JSON verdict (a failure is an error). hybrid: the model
first, the patterns when the model's check fails; `fallbacks` counts how often that happened.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mdagents.errors import ConfigError
from mdagents.guardrails import input_check, llm_check, output_check
from mdagents.guardrails.verdicts import MODES, GuardrailCheckError, InputCheck, OutputCheck
from mdagents.llm.client import LLM
from mdagents.llm.types import Message


class Guardrails:
    def __init__(self, mode: str = "regex", *, llm: LLM | None = None, region: str | None = None) -> None:
        if mode not in MODES:
            raise ConfigError(f"unknown guardrail mode {mode!r}; use one of {', '.join(MODES)}")
        if mode != "regex" and llm is None:
            raise ConfigError(f"guardrail mode {mode} needs a model for its checks")
        self.mode = mode
        self.llm = llm
        self.region = region
        self.fallbacks: list[str] = []

    async def check_input(self, text: str, history: Sequence[Message] = ()) -> InputCheck:
        """Triage of a patient message; `history` (the chat so far) lets a split disclosure be seen."""
        earlier = [m.content for m in history if m.role == "user"]
        if self.mode == "regex":
            return input_check.check_in_conversation(text, earlier)
        assert self.llm is not None
        try:
            return await llm_check.check_input(self.llm, text, history)
        except GuardrailCheckError as exc:
            if self.mode == "llm":
                raise
            self.fallbacks.append(str(exc))
            verdict = input_check.check_in_conversation(text, earlier)
            verdict.source = "regex-fallback"
            return verdict

    async def check_output(self, response: str, *, message: str = "", citations: Sequence[dict[str, Any]] = (),
                           input_type: str = "none", language: str = "en") -> OutputCheck:
        def regex() -> OutputCheck:
            return output_check.check_output(response, citations=citations, input_type=input_type,
                                             region=self.region, language=language)

        if self.mode == "regex":
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
