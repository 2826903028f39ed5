"""Model arguments: generation parameters the harness does not name (top_p, reasoning effort, vLLM's
extra_body, Gemini's thinking budget...), given as `-M key=value` or `--model-args JSON` and passed
to the provider's SDK call as they are.

They change replies, so they are part of the response cache key, the run's manifest and its
fingerprint. Parameters the harness sets itself are refused with the flag that sets them; an
argument a provider's SDK does not take is refused before the run, one a server rejects is named
in the error of the call.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from mdagents.errors import ConfigError, ProviderError

# Parameters the harness owns: the flag that sets them, or None when a pipeline sets them per call.
HARNESS_OWNED: dict[str, str | None] = {
    "model": "--model", "temperature": "--temperature", "max_tokens": "--max-tokens",
    "max_completion_tokens": "--max-tokens", "max_output_tokens": "--max-tokens",
    "messages": None, "contents": None, "system": None, "system_instruction": None, "stop": None,
    "stop_sequences": None, "stream": None, "n": None, "candidate_count": None,
}


def parse_model_args(json_text: str | None, pairs: Iterable[str] | None) -> dict[str, Any]:
    """`--model-args JSON` then each `-M key=value` on top; `a.b=1` sets {"a": {"b": 1}}."""
    args: dict[str, Any] = {}
    if json_text is not None and json_text.strip():
        try:
            loaded = json.loads(json_text)
        except ValueError as exc:
            raise ConfigError(f"--model-args is not valid JSON: {exc}") from None
        if not isinstance(loaded, dict):
            raise ConfigError('--model-args must be a JSON object, e.g. {"top_p": 0.9}')
        args = loaded
    for pair in pairs or ():
        key, sep, text = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ConfigError(f"-M takes key=value, e.g. -M top_p=0.9; got {pair!r}")
        _set(args, key.split("."), _value(text))
    for key in args:
        if key in HARNESS_OWNED:
            flag = HARNESS_OWNED[key]
            how = f"use {flag}" if flag else "the harness sets it for each call"
            raise ConfigError(f"model argument '{key}' cannot be given with -M/--model-args: {how}")
    return args


def _value(text: str) -> Any:
    """JSON when it parses (numbers, true/false, null, objects, lists), else the text itself."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def _set(target: dict[str, Any], path: list[str], value: Any) -> None:
    for part in path[:-1]:
        child = target.get(part)
        if not isinstance(child, dict):
            child = target[part] = {}
        target = child
    target[path[-1]] = value


def check_keywords(args: Mapping[str, Any], function: Callable[..., Any], where: str) -> None:
    """Refuse, before any call, an argument that `function` (an SDK call) does not take."""
    parameters = inspect.signature(function).parameters
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values()):
        return
    for key in args:
        if key not in parameters:
            raise ConfigError(f"model argument '{key}' is not a parameter of {where}"
                              + (" (send it with -M extra_body.KEY=VALUE)" if "extra_body" in parameters else ""))


def openai_body(body: dict[str, Any], args: Mapping[str, Any]) -> dict[str, Any]:
    """The chat-completions body with the model arguments; `extra_body` is merged into the body,
    as the OpenAI SDK does (vLLM's guided decoding, top_k, repetition_penalty...)."""
    extra = args.get("extra_body") or {}
    if not isinstance(extra, dict):
        raise ConfigError("model argument 'extra_body' must be a JSON object")
    return body | {k: v for k, v in args.items() if k != "extra_body"} | extra


def naming_rejected(exc: ProviderError, args: Mapping[str, Any] | None) -> ProviderError:
    """A server's refusal (HTTP 400/422) that mentions one of the model arguments, said in those words."""
    if not args or exc.status not in (400, 422):
        return exc
    text = str(exc)
    names = [*args, *(args.get("extra_body") or {} if isinstance(args.get("extra_body"), dict) else {})]
    for name in names:
        if name in text:
            return ProviderError(f"model argument '{name}' was rejected: {text}", status=exc.status)
    return exc
