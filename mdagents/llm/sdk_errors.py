"""What the openai and anthropic provider files share: error translation and the HTTP transport.

The openai and anthropic SDKs are generated from one template and share their error
classes (APITimeoutError, APIConnectionError, APIStatusError), so one function serves both.
"""

from __future__ import annotations

import contextlib
import re
import socket
import ssl
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from mdagents.errors import ContextOverflow, ProviderError
from mdagents.llm.base import is_retryable_status, parse_retry_after
from mdagents.redact import redact


def header_retry_after(headers: Mapping[str, str] | None) -> float | None:
    """Server's wait hint: retry-after-ms (milliseconds), else Retry-After (seconds or a date), else the
    reset time of an exhausted `x-ratelimit-*` budget ("1s", "6m0s", "20ms")."""
    if not headers:
        return None
    ms = parse_retry_after(headers.get("retry-after-ms"))
    if ms is not None:
        return ms / 1000
    seconds = parse_retry_after(headers.get("retry-after"))
    if seconds is not None:
        return seconds
    waits = [parse_duration(headers.get(f"x-ratelimit-reset-{kind}"))
             for kind in ("requests", "tokens") if headers.get(f"x-ratelimit-remaining-{kind}") in ("0", 0)]
    waits = [w for w in waits if w is not None]
    return max(waits) if waits else None


_DURATION_PART = re.compile(r"(\d+(?:\.\d+)?)(ms|h|m|s)")


def parse_duration(text: str | None) -> float | None:
    """"1s", "6m0s", "1h2m", "20ms", or a plain number of seconds -> seconds."""
    if not text:
        return None
    text = text.strip()
    with contextlib.suppress(ValueError):
        return max(0.0, float(text))
    parts = _DURATION_PART.findall(text)
    if not parts or "".join(n + u for n, u in parts) != text:
        return None
    scale = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}
    return sum(float(n) * scale[u] for n, u in parts)


def scrub(text: str, api_key: str | None) -> str:
    """The text without the provider's key (whatever its shape) or anything shaped like a key."""
    if api_key:
        text = text.replace(api_key, "***")
    return redact(text)


def translate_sdk_error(exc: Exception, *, sdk: ModuleType, where: str, api_key: str | None) -> ProviderError:
    """Timeouts and connection errors are retryable; HTTP errors by status; the key never leaks.

    A TLS failure is named as one (some transports surface it as a timeout) and not retried."""
    tls = _tls_cause(exc)
    if tls is not None:
        return ProviderError(scrub(f"{where}: TLS error: {tls}", api_key), retryable=False, unreachable=True)
    refused = _connection_cause(exc)
    if refused is not None:  # some transports report a refused connection as a connect timeout
        return ProviderError(scrub(f"{where}: connection error: {refused}", api_key), retryable=True,
                             unreachable=True)
    if isinstance(exc, sdk.APITimeoutError):
        return ProviderError(f"{where}: request timed out", retryable=True)
    if isinstance(exc, sdk.APIConnectionError):
        return ProviderError(scrub(f"{where}: connection error: {_root_cause(exc)}", api_key), retryable=True,
                             unreachable=True)
    if isinstance(exc, sdk.APIStatusError):
        status = exc.status_code
        if is_context_overflow(status, str(exc.message)):
            return ContextOverflow(scrub(f"{where}: {exc.message}", api_key))
        return ProviderError(scrub(f"{where}: {exc.message}", api_key), status=status,
                             retryable=is_retryable_status(status),
                             retry_after=header_retry_after(exc.response.headers))
    return ProviderError(scrub(f"{where}: {exc}", api_key))


# How OpenAI, Anthropic, Gemini, vLLM, llama.cpp's server and Ollama word a prompt longer than the context window.
_CONTEXT_OVERFLOW = re.compile(r"context[_ ]length|context (?:window|size)|maximum context|prompt is too long|"
                               r"too many (?:input )?tokens|exceeds? the available context|"
                               r"input token count .{0,40}exceeds the maximum", re.IGNORECASE)


def is_context_overflow(status: int | None, message: str) -> bool:
    """A request refused because the prompt is longer than the model's window (never worth a retry)."""
    return status in (400, 413) and bool(_CONTEXT_OVERFLOW.search(message))


def _root_cause(exc: BaseException) -> str:
    """The innermost cause's message ("Connection refused", "Name or service not known"), else the error's."""
    current, seen = exc, set()
    while (current.__cause__ or current.__context__) is not None and id(current) not in seen:
        seen.add(id(current))
        current = current.__cause__ or current.__context__  # type: ignore[assignment]
    return str(current) or str(exc)


def _connection_cause(exc: BaseException) -> OSError | None:
    """A refused connection or a failed name lookup somewhere in the chain of causes, if any."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, ConnectionRefusedError | socket.gaierror | ConnectionResetError):
            return current
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return None


def _tls_cause(exc: BaseException) -> ssl.SSLError | None:
    """The TLS error somewhere in an exception's chain of causes, if any."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, ssl.SSLError):
            return current
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return None


def aiohttp_transport(sdk: ModuleType) -> Any:
    """The SDK's own aiohttp transport (`openai[aiohttp]`, `anthropic[aiohttp]`) when installed.

    At sweep scale the default httpx stack costs ~3 ms of CPU per call on a small machine
    (connection-pool bookkeeping dominates); aiohttp roughly halves it. None -> SDK default.
    """
    factory = getattr(sdk, "DefaultAioHttpClient", None)
    if factory is None:
        return None
    try:
        return factory()
    except (ImportError, RuntimeError):  # the extra is not installed
        return None
