"""Google Gemini translator (google-genai, async API).

System messages become `system_instruction`, assistant turns role "model". SDK retries are
switched off explicitly (one attempt, which also disables its implicit connection retries);
the `LLM` client is the only retry layer.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from google import genai
from google.genai import errors, types

from mdagents.errors import ConfigError, ContextOverflow, ProviderError
from mdagents.llm.base import is_retryable_status
from mdagents.llm.model_args import naming_rejected
from mdagents.llm.sdk_errors import header_retry_after, is_context_overflow, scrub
from mdagents.llm.structured import JSON, gemini_schema
from mdagents.llm.types import Completion, GenerationParams, Message, Usage

PLACEHOLDER_KEY = "not-needed"  # for self-hosted Gemini-compatible servers
_NO_RETRY = types.HttpRetryOptions(attempts=1)


def _transport_errors() -> tuple[tuple[type[BaseException], ...], tuple[type[BaseException], ...]]:
    """(timeout, connection) exception classes of whichever HTTP stack the SDK runs on
    (httpx, httpx2, or aiohttp, which google-genai prefers for async calls when installed)."""
    timeouts: list[type[BaseException]] = [TimeoutError]
    connection: list[type[BaseException]] = []
    for module_name in ("httpx2", "httpx"):
        try:
            module = __import__(module_name)
        except ImportError:
            continue
        timeouts.append(module.TimeoutException)
        connection.append(module.TransportError)
    try:
        import aiohttp

        connection.append(aiohttp.ClientError)
    except ImportError:
        pass
    return tuple(timeouts), tuple(connection)


_TIMEOUT_ERRORS, _CONNECTION_ERRORS = _transport_errors()


def retry_after_seconds(headers: Mapping[str, str] | None, details: Any = None) -> float | None:
    """Wait hint from retry-after-ms / Retry-After headers, else the body's google.rpc.RetryInfo."""
    seconds = header_retry_after(headers)
    if seconds is not None:
        return seconds
    error = details.get("error", details) if isinstance(details, dict) else None
    for item in (error or {}).get("details") or []:
        delay = item.get("retryDelay") if isinstance(item, dict) else None
        if isinstance(delay, str) and (match := re.fullmatch(r"\s*([0-9.]+)s\s*", delay)):
            return float(match.group(1))
    return None


def check_config_fields(model_args: dict[str, Any]) -> None:
    """Model arguments are fields of `GenerateContentConfig` (thinking_config, top_p...): refuse others now."""
    import pydantic

    try:
        types.GenerateContentConfig(**model_args)
    except pydantic.ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(part) for part in first.get("loc", ())) or "?"
        raise ConfigError(f"model argument '{field}' is not accepted by Gemini's GenerateContentConfig: "
                          f"{first.get('msg', 'invalid')}") from None


def to_gemini(messages: Sequence[Message]) -> tuple[str | None, list[types.Content]]:
    """(system instruction, contents) with assistant turns as role "model"."""
    system = [m.content for m in messages if m.role == "system"]
    contents = [
        types.Content(role="model" if m.role == "assistant" else "user", parts=[types.Part(text=m.content)])
        for m in messages
        if m.role != "system"
    ]
    return ("\n\n".join(system) if system else None), contents


class GeminiProvider:
    name = "gemini"

    def __init__(self, model: str, *, api_key: str | None, base_url: str | None,
                 model_args: dict[str, Any] | None = None) -> None:
        if model_args:
            check_config_fields(model_args)
        self.model = model
        self.base_url = base_url
        self._api_key = api_key
        options = types.HttpOptions(base_url=base_url, retry_options=_NO_RETRY) if base_url else \
            types.HttpOptions(retry_options=_NO_RETRY)
        self._client = genai.Client(api_key=api_key or PLACEHOLDER_KEY, http_options=options)

    def config(self, messages: Sequence[Message], params: GenerationParams, timeout: float
               ) -> tuple[list[types.Content], types.GenerateContentConfig]:
        """Contents and config of `generate_content`; a structured answer sets its response schema."""
        system, contents = to_gemini(messages)
        config = types.GenerateContentConfig(**{
            "system_instruction": system,
            "temperature": params.temperature,
            "max_output_tokens": params.max_tokens,
            "seed": params.seed,
            "stop_sequences": list(params.stop) if params.stop else None,
            "http_options": types.HttpOptions(timeout=max(1, int(timeout * 1000)), retry_options=_NO_RETRY),
        } | (params.model_args or {}))
        if params.answer_format == JSON:
            config.response_mime_type = "application/json"
            config.response_schema = gemini_schema(params.answer_letters or ())
        return contents, config

    async def complete(self, messages: Sequence[Message], params: GenerationParams, *, timeout: float) -> Completion:
        contents, config = self.config(messages, params, timeout)
        try:
            response = await self._client.aio.models.generate_content(
                model=self.model, contents=contents, config=config)  # type: ignore[arg-type]
        except errors.APIError as exc:
            raise naming_rejected(self._translate_api(exc), params.model_args) from None
        except _TIMEOUT_ERRORS:
            raise ProviderError(f"gemini/{self.model}: request timed out", retryable=True) from None
        except _CONNECTION_ERRORS as exc:
            raise ProviderError(self._clean(f"gemini/{self.model}: connection error: {exc}"),
                                retryable=True, unreachable=True) from None
        return self.parse_reply(response)

    def parse_reply(self, response: types.GenerateContentResponse) -> Completion:
        """A GenerateContentResponse (a live reply, or one inlined response of a batch job) -> Completion."""
        candidate = response.candidates[0] if response.candidates else None
        finish = getattr(candidate, "finish_reason", None) if candidate else None
        return Completion(
            text=_text(candidate),
            usage=_usage(response.usage_metadata),
            model=response.model_version or self.model,
            finish_reason=str(getattr(finish, "value", finish)) if finish is not None else None,
            raw={"id": response.response_id},
        )

    def _translate_api(self, exc: errors.APIError) -> ProviderError:
        """SDK error -> ProviderError; the message never contains the key."""
        status = exc.code if isinstance(exc.code, int) else None
        if is_context_overflow(status, exc.message or ""):
            return ContextOverflow(self._clean(f"gemini/{self.model}: {exc.message}"))
        headers = getattr(exc.response, "headers", None)
        return ProviderError(
            self._clean(f"gemini/{self.model}: {exc.status or ''} {exc.message or ''}".rstrip()),
            status=status,
            retryable=is_retryable_status(status),
            retry_after=retry_after_seconds(headers, exc.details),
        )

    def _clean(self, text: str) -> str:
        return scrub(text, self._api_key)

    async def aclose(self) -> None:
        await self._client.aio.aclose()
        self._client.close()


def _text(candidate: Any) -> str:
    """The visible answer: text parts of the first candidate, thought summaries left out."""
    content = getattr(candidate, "content", None)
    parts = getattr(content, "parts", None) or []
    return "".join(p.text for p in parts if getattr(p, "text", None) and not getattr(p, "thought", False))


def _usage(meta: Any) -> Usage:
    """Normalised like the other providers: output includes thinking tokens."""
    if meta is None:
        return Usage(calls=1)
    thoughts = meta.thoughts_token_count
    return Usage(
        input_tokens=meta.prompt_token_count or 0,
        output_tokens=(meta.candidates_token_count or 0) + (thoughts or 0),
        cached_tokens=meta.cached_content_token_count,
        reasoning_tokens=thoughts,
        calls=1,
    )
