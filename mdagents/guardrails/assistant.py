"""The patient-education assistant: input triage, then (only if safe) the model, then the output check.

Emergencies and crises get fixed resource messages without any model call; out-of-scope requests
get the decline (with an acknowledgement when the patient presses). History is kept across turns,
so follow-ups such as "how long do they last?" reach the model with their context.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import asdict, dataclass, field
from typing import Any

from mdagents.guardrails.checker import Guardrails
from mdagents.guardrails.citations import Retriever, retrieve_safely, store_citations, web_citations
from mdagents.guardrails.input_check import mentions_chronic_condition
from mdagents.guardrails.messages import message, resolve_language
from mdagents.guardrails.session_log import SessionLog
from mdagents.llm.client import LLM
from mdagents.llm.types import Message, Usage
from mdagents.prompts import load, render

_FIXED_MESSAGE = {"emergency": "emergency", "mental_health_crisis": "mental_health_crisis",
                  "out_of_scope": "out_of_scope"}
# Turns of history sent to the model (user + assistant messages).
_HISTORY_TURNS = 12


@dataclass
class AssistantReply:
    content: str
    model: str
    usage: dict[str, Any]
    citations: list[dict[str, Any]]
    mode: str
    guardrails_applied: list[str]
    violations: list[dict[str, Any]]
    emergency_detected: bool
    mental_health_crisis: bool
    session_id: str
    details: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("details")
        return data


def _ledger_usage(*llms: LLM | None) -> Usage:
    total, seen = Usage(), set()
    for llm in llms:
        if llm is not None and id(llm) not in seen:
            seen.add(id(llm))
            total = total + llm.ledger.usage
    return total


def _minus(after: Usage, before: Usage) -> Usage:
    return Usage(after.input_tokens - before.input_tokens, after.output_tokens - before.output_tokens,
                 None if after.cached_tokens is None else after.cached_tokens - (before.cached_tokens or 0),
                 None if after.reasoning_tokens is None else after.reasoning_tokens - (before.reasoning_tokens or 0),
                 after.calls - before.calls)


class Assistant:
    def __init__(self, llm: LLM, *, guardrails: Guardrails | None = None, retriever: Retriever | None = None,
                 language: str = "auto", region: str | None = None, web: bool = False,
                 log: SessionLog | None = None, session_id: str | None = None, max_tokens: int = 700) -> None:
        self.llm = llm
        self.guardrails = guardrails or Guardrails("regex", region=region)
        self.retriever = retriever
        self.language = language
        self.region = region
        self.web = web
        self.log = log
        self.max_tokens = max_tokens
        self.session_id = session_id or uuid.uuid4().hex[:12]
        self.history: list[Message] = []
        self._last_intervention = "none"
        self._turn = 0
        if log is not None:
            log.event(self.session_id, "session_start", model=llm.name, mode=self.guardrails.mode,
                      region=region, web=web, retriever=retriever is not None)

    async def ask(self, query: str) -> AssistantReply:
        """One turn of the conversation."""
        started = time.perf_counter()
        before = _ledger_usage(self.llm, self.guardrails.llm)
        self._turn += 1
        language = resolve_language(self.language, query)
        verdict = await self.guardrails.check_input(query, self.history)
        applied = [f"input_check:{verdict.source}"]
        citations: list[dict[str, Any]] = []
        violations: list[dict[str, Any]] = []
        action = None
        kind = verdict.intervention_type
        if kind in _FIXED_MESSAGE:
            content = message(_FIXED_MESSAGE[kind], language, self.region)
            applied.append(f"{kind}_message")
            if kind == "out_of_scope" and self._last_intervention == "out_of_scope":
                content = message("pressed_beyond_scope", language, self.region) + "\n\n" + content
                applied.append("pressed_beyond_scope")
        else:
            content, citations, violations, action = await self._answer(query, language, kind, applied)
        self._last_intervention = kind
        self.history += [Message("user", query), Message("assistant", content)]
        usage = _minus(_ledger_usage(self.llm, self.guardrails.llm), before)
        reply = AssistantReply(
            content=content, model=self.llm.name, usage=usage.to_dict(),
            citations=[{k: v for k, v in c.items() if k != "content"} for c in citations],
            mode=self.guardrails.mode, guardrails_applied=applied, violations=violations,
            emergency_detected=kind == "emergency", mental_health_crisis=kind == "mental_health_crisis",
            session_id=self.session_id, details={"input_check": verdict.to_dict(), "action": action})
        if self.log is not None:
            self.log.event(self.session_id, "turn", query=query, turn=self._turn, language=language,
                           intervention_type=kind, severity=verdict.severity, check_source=verdict.source,
                           guardrails_applied=applied, violations=sorted({v["type"] for v in violations}),
                           action=action, citations=len(citations), usage=usage.to_dict(),
                           latency_s=round(time.perf_counter() - started, 3))
        return reply

    async def _answer(self, query: str, language: str, kind: str,
                      applied: list[str]) -> tuple[str, list[dict[str, Any]], list[dict[str, Any]], str]:
        found = await retrieve_safely(self.retriever, query)
        citations = store_citations(found or [])
        if citations:
            applied.append("guideline_citations")
            sources = "\n".join(f"[{i}] {c['source']} — {c['section']}: {c['content']}"
                                for i, c in enumerate(citations, 1))
            user = render("guardrail_assistant_context", sources=sources, question=query)
        else:
            user = query
        system = load("guardrail_assistant_system")
        if self.web:
            system += "\n" + load("guardrail_assistant_web")
        messages = [Message("system", system), *self.history[-_HISTORY_TURNS:], Message("user", user)]
        completion = await self.llm.complete(messages, max_tokens=self.max_tokens, temperature=0.2,
                                             role="assistant")
        if self.web:
            citations += web_citations(completion.text, completion.raw)
        checked = await self.guardrails.check_output(completion.text, message=query, citations=citations,
                                                     input_type=kind, language=language)
        applied.append(f"output_check:{checked.source}:{checked.suggested_action}")
        content = checked.modified_response
        if checked.suggested_action != "block" and mentions_chronic_condition(query):
            content = message("chronic_condition", language, self.region) + "\n\n" + content
            applied.append("chronic_condition_acknowledgement")
        return content, citations, [v.to_dict() for v in checked.violations], checked.suggested_action
