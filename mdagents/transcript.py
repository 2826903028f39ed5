"""Per-sample record of every LLM call (role, messages, reply, usage, latency), for audit and accounting."""

from __future__ import annotations

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

    def to_dict(self) -> dict[str, Any]:
        return {
            "role": self.role,
            "model": self.model,
            "messages": self.messages,
            "reply": self.reply,
            "usage": self.usage.to_dict(),
            "latency_s": round(self.latency_s, 4),
            "cached": self.cached,
            "params": self.params,
            "error": self.error,
        }


class Transcript:
    """Calls in the order they completed; concurrent calls from one sample append here too."""

    def __init__(self) -> None:
        self.calls: list[CallRecord] = []

    def add(self, role: str, messages: Sequence[Message], reply: str, usage: Usage, latency_s: float,
            model: str, *, cached: bool = False, params: dict[str, Any] | None = None,
            error: str | None = None) -> None:
        self.calls.append(CallRecord(role, [m.to_dict() for m in messages], reply, usage, latency_s, model,
                                     cached, params or {}, error))

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
