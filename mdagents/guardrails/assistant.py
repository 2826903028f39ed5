"""The patient-education assistant: input triage, then (only if safe) the model, then the output check.

Emergencies and crises get fixed resource messages without any model call. Once a conversation has
been flagged at risk, every later reply carries the emergency or crisis resources of the region, in
the patient's language. Out-of-scope requests get the decline; when the patient presses, the
assistant asks for an explicit acknowledgement of its limits, and once given (remembered for the
session) answers such requests with general education only, still output-checked. A failed model
call gives a safe message with emergency contacts and the chat goes on. History is kept across
turns, so follow-ups such as "how long do they last?" reach the model with their context.

A model too small to be trusted with health text (`answers="guidelines"`: the embedded smoke-test
model) never writes to the patient: the assistant quotes the guideline sections closest to the
question, with their sources, or says plainly that a capable model is needed. Triage and the fixed
messages work the same either way.

A message longer than limits.MAX_MESSAGE_CHARS is triaged whole; unless it is an emergency or a
crisis, it gets `message_too_long` instead of an answer, and later turns carry only an excerpt of
it. A prompt the answering model still cannot take (ContextOverflowError) is tried again without
the guideline sources, then without the earlier turns, then answered with the same message.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import asdict, dataclass, field
from typing import Any

from mdagents.errors import ContextOverflowError, LLMCallError
from mdagents.guardrails import output_check
from mdagents.guardrails.checker import Guardrails
from mdagents.guardrails.citations import (
    Retriever,
    retrieve_safely,
    store_citations,
    web_citations,
    web_search_performed,
)
from mdagents.guardrails.input_check import is_acknowledgement, mentions_chronic_condition
from mdagents.guardrails.limits import MAX_MESSAGE_CHARS, excerpt
from mdagents.guardrails.messages import LANGUAGE_NAMES, format_number, message, resolve_language
from mdagents.guardrails.messages import region as region_of
from mdagents.guardrails.session_log import SessionLog
from mdagents.guardrails.verdicts import CRITICAL_INTERVENTIONS, GuardrailCheckError, InputCheck, OutputCheck
from mdagents.llm.client import LLM
from mdagents.llm.types import Completion, Message, Usage
from mdagents.prompts import load, render

_FIXED_MESSAGE = {"emergency": "emergency", "mental_health_crisis": "mental_health_crisis",
                  "out_of_scope": "out_of_scope"}
# Who writes an answer: the model, or nobody (guideline sections are quoted instead).
ANSWER_SOURCES = ("model", "guidelines")
# Guideline sections quoted when no model writes, and how much of each.
_QUOTES, _QUOTE_CHARS = 3, 700
# Turns of history sent to the model (user + assistant messages).
_HISTORY_TURNS = 12
_REMINDER = {"emergency": "emergency_reminder", "mental_health_crisis": "crisis_reminder"}


def clean_text(text: str) -> str:
    """The message as valid Unicode: bytes that were not UTF-8 (surrogate escapes) become U+FFFD."""
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    except UnicodeEncodeError:
        return text.encode("utf-8", "replace").decode("utf-8")


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
    triage: dict[str, Any] = field(default_factory=dict)  # which layers fired and why
    # The output check's verdict on the answer (passes_guardrails, severity, explanation, suggested_action,
    # violations, web_search_performed, has_trusted_citations); empty when no answer was checked.
    output_check: dict[str, Any] = field(default_factory=dict)
    web_search_performed: bool = False
    at_risk: bool = False  # an emergency or crisis was flagged in this conversation
    details: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("details")
        return data


def _triage_record(verdict: InputCheck) -> dict[str, Any]:
    return {"intervention_type": verdict.intervention_type, "severity": verdict.severity, "source": verdict.source,
            "explanation": verdict.explanation, "layers": verdict.layers, "also": verdict.also}


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
                 log: SessionLog | None = None, session_id: str | None = None, max_tokens: int = 700,
                 answers: str = "model") -> None:
        if answers not in ANSWER_SOURCES:
            raise ValueError(f"answers must be one of {ANSWER_SOURCES}")
        self.llm = llm
        self.answers = answers
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
        # Emergency / crisis kinds flagged in any turn so far: every later reply carries their resources.
        self.risks: list[str] = []
        self.acknowledged_limits = False
        self._awaiting_acknowledgement: str | None = None  # the pressed request, while asking
        if log is not None:
            log.event(self.session_id, "session_start", model=llm.name, mode=self.guardrails.mode,
                      region=region, web=web, retriever=retriever is not None, answers=answers)

    async def ask(self, query: str) -> AssistantReply:
        """One turn of the conversation."""
        started = time.perf_counter()
        before = _ledger_usage(self.llm, self.guardrails.llm)
        self._turn += 1
        query = clean_text(query)
        language = resolve_language(self.language, query)
        citations: list[dict[str, Any]] = []
        violations: list[dict[str, Any]] = []
        action = None
        self._checked: OutputCheck | None = None  # this turn's output check, when an answer was checked
        if not query.strip():
            verdict = InputCheck.none("empty message", "none")
            content, applied = message("empty_message", language, self.region), ["empty_message"]
        else:
            try:
                verdict = await self.guardrails.check_input(query, self.history)
            except GuardrailCheckError as exc:
                verdict = InputCheck.none(f"input check failed: {exc}", "error")
            applied = [f"input_check:{verdict.source}"]
            too_long = len(query) > MAX_MESSAGE_CHARS and verdict.intervention_type not in CRITICAL_INTERVENTIONS
            if verdict.source == "error":
                content = message("service_error", language, self.region)
                applied.append("service_error")
            elif too_long:  # triaged in full, not answered: ask for the part that matters
                self._awaiting_acknowledgement = None
                content = self._too_long(len(query), MAX_MESSAGE_CHARS, language)
                applied.append("message_too_long")
            else:
                content, citations, violations, action = await self._respond(query, language, verdict, applied)
            self._last_intervention = "none" if too_long else verdict.intervention_type
            # Models only ever see an excerpt of a long message (this one is triaged already).
            self.history += [Message("user", excerpt(query)), Message("assistant", content)]
        kind = verdict.intervention_type
        kinds = [kind, *verdict.also]
        content = self._with_risk_resources(content, kinds, language, applied)
        usage = _minus(_ledger_usage(self.llm, self.guardrails.llm), before)
        reply = AssistantReply(
            content=content, model=self.llm.name, usage=usage.to_dict(),
            citations=[{k: v for k, v in c.items() if k != "content"} for c in citations],
            mode=self.guardrails.mode, guardrails_applied=applied, violations=violations,
            emergency_detected="emergency" in kinds, mental_health_crisis="mental_health_crisis" in kinds,
            session_id=self.session_id, triage=_triage_record(verdict), at_risk=bool(self.risks),
            output_check=self._checked.summary() if self._checked else {},
            web_search_performed=bool(self._checked and self._checked.web_search_performed),
            details={"input_check": verdict.to_dict(), "action": action})
        if self.log is not None:
            self.log.event(self.session_id, "turn", query=query, turn=self._turn, language=language,
                           intervention_type=kind, severity=verdict.severity, check_source=verdict.source,
                           guardrails_applied=applied, violations=sorted({v["type"] for v in violations}),
                           action=action, citations=len(citations), usage=usage.to_dict(),
                           at_risk=bool(self.risks), latency_s=round(time.perf_counter() - started, 3))
        return reply

    async def _respond(self, query: str, language: str, verdict: InputCheck,
                       applied: list[str]) -> tuple[str, list[dict[str, Any]], list[dict[str, Any]], str | None]:
        """The reply to a triaged message: a fixed message, the acknowledgement step, or a checked answer."""
        kind = verdict.intervention_type
        pending, self._awaiting_acknowledgement = self._awaiting_acknowledgement, None
        if kind in CRITICAL_INTERVENTIONS:
            applied.append(f"{kind}_message")
            content = message(_FIXED_MESSAGE[kind], language, self.region)
            for other in (k for k in verdict.also if k in _REMINDER):  # an overdose taken in a crisis
                applied.append(f"{other}_resources")
                content += "\n\n" + message(_REMINDER[other], language, self.region)
            return content, [], [], None
        if pending is not None and is_acknowledgement(query):
            self.acknowledged_limits = True
            applied.append("limits_acknowledged")
            return await self._general_answer(pending, language, applied)
        if kind == "out_of_scope":
            if self.acknowledged_limits:
                return await self._general_answer(query, language, applied)
            if self._last_intervention == "out_of_scope":
                self._awaiting_acknowledgement = query
                applied.append("pressed_beyond_scope")
                return message("pressed_beyond_scope", language, self.region), [], [], None
            applied.append("out_of_scope_message")
            return message("out_of_scope", language, self.region), [], [], None
        return await self._answer(query, language, kind, applied)

    async def _general_answer(self, query: str, language: str,
                              applied: list[str]) -> tuple[str, list[dict[str, Any]], list[dict[str, Any]], str | None]:
        """After the acknowledgement: general education about an out-of-scope request, output-checked."""
        applied.append("general_education_after_acknowledgement")
        content, citations, violations, action = await self._answer(
            query, language, "out_of_scope", applied, extra_system=load("guardrail_assistant_general"))
        if action in ("error", "too_long"):
            return content, citations, violations, action
        return (message("scope_acknowledged", language, self.region) + "\n\n" + content, citations, violations,
                action)

    def _too_long(self, length: int, limit: int, language: str) -> str:
        return message("message_too_long", language, self.region, length=format_number(length, language),
                       limit=format_number(limit, language))

    @staticmethod
    def _readable_limit(length: int, exc: ContextOverflowError) -> int:
        """About how many characters of this message the model can take: the share of the prompt that
        fits, with a margin, rounded down to a hundred (half the message when the provider gave no
        token counts). Under 100, the model cannot take even a short message (its window is taken by
        the answer length or the instructions): that is a service problem, not the message's."""
        share = 0.5
        if exc.prompt_tokens and exc.limit_tokens and exc.prompt_tokens > 0:
            share = exc.limit_tokens / exc.prompt_tokens
        return min(MAX_MESSAGE_CHARS, int(length * share * 0.9) // 100 * 100)

    def _with_risk_resources(self, content: str, kinds: list[str], language: str, applied: list[str]) -> str:
        """Remember an emergency or crisis (`kinds`: this turn's flags); on every later turn add its
        resources to the reply."""
        if kinds[0] in CRITICAL_INTERVENTIONS:
            self.risks += [k for k in kinds if k in CRITICAL_INTERVENTIONS and k not in self.risks]
            return content
        if not self.risks:
            return content
        applied.append("risk_resources")
        reminders = [message(_REMINDER[risk], language, self.region) for risk in self.risks]
        return "\n\n".join([content, *reminders])

    async def _complete(self, system: str, user: str, query: str, applied: list[str]) -> tuple[Completion, bool]:
        """The model's answer, and whether the guideline sources were in its prompt. A prompt the model
        cannot take is tried again without the sources, then without the earlier turns; the error of
        the last try (ContextOverflowError) is the caller's."""
        history = self.history[-_HISTORY_TURNS:]
        tries = [(user, history, "")]
        if user != query:
            tries.append((query, history, "guideline_sources_dropped"))
        if history:
            tries.append((query, [], "history_dropped"))

        overflow: ContextOverflowError | None = None
        for text, earlier, note in tries:
            if note:
                applied.append(note)
            try:
                completion = await self.llm.complete([Message("system", system), *earlier, Message("user", text)],
                                                     max_tokens=self.max_tokens, temperature=0.2, role="assistant")
            except ContextOverflowError as exc:
                overflow = exc
                continue
            return completion, text == user
        assert overflow is not None  # tries is never empty
        raise overflow

    async def _quote_guidelines(self, query: str, language: str, kind: str,
                                applied: list[str]) -> tuple[str, list[dict[str, Any]], list[dict[str, Any]], str | None]:
        """No model writes: the closest guideline sections, quoted with their sources and output-checked
        like any reply, or the plain statement that a capable model is needed."""
        citations = store_citations(await retrieve_safely(self.retriever, query) or [])[:_QUOTES]
        if not citations:
            applied.append("capable_model_needed")
            return message("capable_model_needed", language, self.region), [], [], None
        applied.append("guideline_quotes")
        quotes = []
        for i, c in enumerate(citations, 1):
            text = " ".join(c["content"].split())
            text = text if len(text) <= _QUOTE_CHARS else text[:_QUOTE_CHARS].rsplit(" ", 1)[0] + " …"
            where = " — ".join(part for part in (c["source"], c["section"]) if part)
            quotes.append(f'[{i}] "{text}"\n    ({where})')
        reply = "\n\n".join([message("guideline_quotes", language, self.region), *quotes])
        checked = self._checked = output_check.check_output(reply, citations=citations, input_type=kind,
                                                            region=self.region, language=language)
        applied.append(f"output_check:{checked.source}:{checked.suggested_action}")
        return (checked.modified_response, citations, [v.to_dict() for v in checked.violations],
                checked.suggested_action)

    async def _answer(self, query: str, language: str, kind: str, applied: list[str],
                      extra_system: str = "") -> tuple[str, list[dict[str, Any]], list[dict[str, Any]], str | None]:
        if self.answers == "guidelines":
            return await self._quote_guidelines(query, language, kind, applied)
        found = await retrieve_safely(self.retriever, query)
        citations = store_citations(found or [])
        if citations:
            applied.append("guideline_citations")
            sources = "\n".join(f"[{i}] {c['source']} — {c['section']}: {c['content']}"
                                for i, c in enumerate(citations, 1))
            user = render("guardrail_assistant_context", sources=sources, question=query)
        else:
            user = query
        system = render("guardrail_assistant_system", language=LANGUAGE_NAMES.get(language, "English"),
                        region=region_of(self.region).name)
        if self.web:
            system += "\n" + load("guardrail_assistant_web")
        if extra_system:
            system += "\n" + extra_system
        try:
            completion, sources_kept = await self._complete(system, user, query, applied)
            if not sources_kept:
                citations = []
            if self.web:
                citations += web_citations(completion.text, completion.raw)
            searched = self.web and web_search_performed(completion.raw)
            checked = self._checked = await self.guardrails.check_output(
                completion.text, message=query, citations=citations, web_search_performed=searched,
                input_type=kind, language=language)
        except ContextOverflowError as exc:  # the model cannot take the message: a clear answer, not an error
            limit = self._readable_limit(len(query), exc)
            if limit < 100:
                applied.append(f"service_error:{type(exc).__name__}")
                return message("service_error", language, self.region), [], [], "error"
            applied.append("message_too_long:model_context")
            return self._too_long(len(query), limit, language), [], [], "too_long"
        except (LLMCallError, GuardrailCheckError) as exc:
            applied.append(f"service_error:{type(exc).__name__}")
            return message("service_error", language, self.region), [], [], "error"
        applied.append(f"output_check:{checked.source}:{checked.suggested_action}")
        content = checked.modified_response
        if checked.suggested_action != "block" and mentions_chronic_condition(query):
            content = message("chronic_condition", language, self.region) + "\n\n" + content
            applied.append("chronic_condition_acknowledgement")
        return content, citations, [v.to_dict() for v in checked.violations], checked.suggested_action
