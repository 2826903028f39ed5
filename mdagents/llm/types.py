"""Provider-neutral records for messages, completions and token usage."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Literal

Role = Literal["system", "user", "assistant"]

# A provider's prompt layout (`LLM.prompt_layout`): agents that share their first message send their
# persona (system message) after it, so the shared text is the common prefix of their prompts. The
# embedded model asks for it: on two cores, reading a prompt costs more than everything else.
PERSONA_AFTER_FIRST_MESSAGE = "persona-after-first-message"


@dataclass(frozen=True)
class Message:
    role: Role
    content: str

    def to_dict(self) -> dict[str, str]:
        return {"role": self.role, "content": self.content}


def _add_optional(a: int | None, b: int | None) -> int | None:
    if a is None and b is None:
        return None
    return (a or 0) + (b or 0)


@dataclass
class Usage:
    """Token counts; cached/reasoning are None where the provider does not report them.

    `input_tokens` counts the whole prompt; `cached_tokens` is the part of it read from the
    provider's prompt cache, `cache_write_tokens` the part written to it (Anthropic bills writes).
    """

    input_tokens: int = 0
    output_tokens: int = 0
    cached_tokens: int | None = None
    reasoning_tokens: int | None = None
    calls: int = 0
    cache_write_tokens: int | None = None

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            cached_tokens=_add_optional(self.cached_tokens, other.cached_tokens),
            reasoning_tokens=_add_optional(self.reasoning_tokens, other.reasoning_tokens),
            calls=self.calls + other.calls,
            cache_write_tokens=_add_optional(self.cache_write_tokens, other.cache_write_tokens),
        )

    def to_dict(self) -> dict[str, int | None]:
        # Explicit rather than dataclasses.asdict (which deep-copies): this runs for every call.
        return {"input_tokens": self.input_tokens, "output_tokens": self.output_tokens,
                "cached_tokens": self.cached_tokens, "reasoning_tokens": self.reasoning_tokens,
                "calls": self.calls, "cache_write_tokens": self.cache_write_tokens}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Usage:
        return cls(**{k: data.get(k) for k in ("input_tokens", "output_tokens", "cached_tokens", "reasoning_tokens",
                                               "cache_write_tokens")},
                   calls=int(data.get("calls", 0) or 0))


@dataclass(frozen=True)
class GenerationParams:
    """Everything besides the messages that changes a reply (and therefore the cache key).

    `answer_format` is a hint for providers that can constrain decoding (the local
    llama.cpp provider turns "letter" into a grammar forcing `Answer: (X)`); others ignore it.
    `cache_hint` names a group of calls that share a prompt prefix (one question's agents); the
    OpenAI provider sends it as `prompt_cache_key`. It does not change a reply, so the response
    cache ignores it.
    """

    temperature: float | None = None
    max_tokens: int | None = None
    seed: int | None = None
    stop: tuple[str, ...] | None = None
    answer_format: str | None = None
    answer_letters: tuple[str, ...] | None = None
    cache_hint: str | None = None
    model_args: dict[str, Any] | None = field(default=None, hash=False)  # -M/--model-args, sent as they are

    def to_dict(self) -> dict[str, Any]:
        return {f.name: (list(v) if isinstance(v, tuple) else v)
                for f in fields(self) if (v := getattr(self, f.name)) is not None}


@dataclass
class Completion:
    """One model reply as the harness sees it."""

    text: str
    usage: Usage
    model: str
    finish_reason: str | None = None
    cached: bool = False
    latency_s: float = 0.0
    raw: dict[str, Any] = field(default_factory=dict)


@dataclass
class EmbeddingResult:
    vectors: list[list[float]]
    usage: Usage
    model: str
