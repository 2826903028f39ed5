"""Per-sample record of every LLM call (role, messages, reply, usage, timing), for audit and accounting."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from mdagents.llm.types import Message, Usage


@dataclass
class CallRecord:
    role: str
    messages: list[dict[str, str]]
    reply: str
    usage: Usage
    latency_s: float
    model: str
    cached: bool = False
    params: dict[str, Any] = field(default_factory=dict)
    error: str | None = None
    start_s: float = 0.0  # when the call started, seconds after the sample (transcript) began
    finish_reason: str | None = None  # the provider's stop reason ("length": cut off by the token limit)

    def to_dict(self) -> dict[str, Any]:
        return {
            "role": self.role,
            "model": self.model,
            "messages": self.messages,
            "reply": self.reply,
            "usage": self.usage.to_dict(),
            "start_s": round(self.start_s, 4),
            "latency_s": round(self.latency_s, 4),
            "cached": self.cached,
            "params": self.params,
            "error": self.error,
            "finish_reason": self.finish_reason,
        }


class Transcript:
    """Calls in the order they completed; concurrent calls from one sample append here too.

    Each call keeps its start time relative to the transcript's creation, so which calls ran
    together (and the chain of calls that had to wait for each other) can be read back."""

    def __init__(self) -> None:
        self.calls: list[CallRecord] = []
        self.began = time.perf_counter()

    def add(self, role: str, messages: Sequence[Message], reply: str, usage: Usage, latency_s: float,
            model: str, *, cached: bool = False, params: dict[str, Any] | None = None,
            error: str | None = None, started: float | None = None, finish_reason: str | None = None) -> None:
        """`started`: the call's time.perf_counter() at its start (default: `latency_s` before now)."""
        start = (time.perf_counter() - latency_s if started is None else started) - self.began
        self.calls.append(CallRecord(role, [m.to_dict() for m in messages], reply, usage, latency_s, model,
                                     cached, params or {}, error, max(0.0, start), finish_reason))

    def finish_reason_of(self, reply: str) -> str | None:
        """The stop reason of the last call that returned `reply` (a pipeline's final answer)."""
        return next((call.finish_reason for call in reversed(self.calls) if call.reply == reply), None)

    def total(self) -> Usage:
        total = Usage()
        for call in self.calls:
            total = total + call.usage
        return total

    def by_role(self) -> dict[str, Usage]:
        roles: dict[str, Usage] = {}
        for call in self.calls:
            roles[call.role] = roles.get(call.role, Usage()) + call.usage
        return roles

    def to_list(self) -> list[dict[str, Any]]:
        return [c.to_dict() for c in self.calls]
