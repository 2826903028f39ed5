"""Anthropic Messages API translator.

System messages go to `system`; consecutive same-role turns are merged because the API
requires user/assistant alternation. Sampling parameters (temperature, seed) are not sent:
the SDK no longer accepts them and API version 2026-10-21 rejects them with HTTP 400.
SDK retries are off; the `LLM` client is the only retry layer.

Prompt caching: the system prompt and the conversation before the last user message are the
stable prefix of an agent's calls (the pipelines only ever append), so both end with a
`cache_control` breakpoint; the last message (the new question or control prompt) is not
cached. Usage reports cache reads and writes apart; both are counted in `input_tokens`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import anthropic

from mdagents.errors import ProviderError
from mdagents.llm.model_args import check_keywords, naming_rejected
from mdagents.llm.sdk_errors import aiohttp_transport, translate_sdk_error
from mdagents.llm.structured import JSON, TOOL_NAME, answer_schema, as_text
from mdagents.llm.types import Completion, GenerationParams, Message, Usage

PLACEHOLDER_KEY = "not-needed"  # for self-hosted Anthropic-compatible servers
# The API requires max_tokens: room for a full expert opinion with its reasoning.
DEFAULT_MAX_TOKENS = 4096
_EPHEMERAL = {"type": "ephemeral"}


def to_anthropic(messages: Sequence[Message]) -> tuple[str | None, list[dict[str, str]]]:
    """(system text, alternating turns): system messages joined, same-role neighbours merged."""
    system = [m.content for m in messages if m.role == "system"]
    turns: list[dict[str, str]] = []
    for m in messages:
        if m.role == "system":
            continue
        if turns and turns[-1]["role"] == m.role:
            turns[-1]["content"] += "\n\n" + m.content
        else:
            turns.append({"role": m.role, "content": m.content})
    return ("\n\n".join(system) if system else None), turns


class AnthropicProvider:
    name = "anthropic"

    def __init__(self, model: str, *, api_key: str | None, base_url: str | None,
                 tools: list[dict] | None = None, model_args: dict[str, Any] | None = None) -> None:
        self.model = model
        self.base_url = base_url
        self.tools = tools
        self._api_key = api_key
        self._client = anthropic.AsyncAnthropic(api_key=api_key or PLACEHOLDER_KEY, base_url=base_url,
                                                max_retries=0, http_client=aiohttp_transport(anthropic))
        if model_args:
            check_keywords(model_args, self._client.messages.create, "Anthropic's messages.create")

    def request_params(self, messages: Sequence[Message], params: GenerationParams) -> dict[str, Any]:
        """The keyword arguments of `messages.create`; a structured answer is a forced tool call."""
        system, turns = to_anthropic(messages)
        kwargs: dict[str, Any] = {
            "model": self.model,
            "messages": turns,
            "max_tokens": params.max_tokens if params.max_tokens is not None else DEFAULT_MAX_TOKENS,
        }
        if system is not None:
            kwargs["system"] = [{"type": "text", "text": system, "cache_control": _EPHEMERAL}]
        kwargs["messages"] = _with_cached_prefix(turns)
        if params.stop:
            kwargs["stop_sequences"] = list(params.stop)
        if self.tools:
            kwargs["tools"] = self.tools
        if params.answer_format == JSON:
            kwargs["tools"] = [*(self.tools or []), {
                "name": TOOL_NAME, "description": "Record the final answer to the question.",
                "input_schema": answer_schema(params.answer_letters or ())}]
            kwargs["tool_choice"] = {"type": "tool", "name": TOOL_NAME}
        return kwargs | (params.model_args or {})

    async def complete(self, messages: Sequence[Message], params: GenerationParams, *, timeout: float) -> Completion:
        try:
            response = await self._client.messages.create(**self.request_params(messages, params), timeout=timeout)
        except anthropic.AnthropicError as exc:
            raise naming_rejected(self._translate(exc), params.model_args) from None
        return self.parse_reply(response)

    def parse_reply(self, response: Any) -> Completion:
        """A Message (a live reply, or one result of a message batch) -> Completion."""
        # With tools the answer comes as several text blocks around tool calls and citations.
        text = "".join(block.text for block in response.content if getattr(block, "type", None) == "text")
        forced = [block for block in response.content
                  if getattr(block, "type", None) == "tool_use" and getattr(block, "name", None) == TOOL_NAME]
        if forced:
            text = as_text(dict(forced[0].input))
        raw: dict[str, object] = {"id": response.id}
        if cited := cited_pages(response.content):
            raw["citations"] = cited
        raw.update(server_tool_use(response.content))
        return Completion(
            text=text,
            usage=_usage(response.usage),
            model=response.model or self.model,
            finish_reason=response.stop_reason,
            raw=raw,
        )

    def _translate(self, exc: Exception) -> ProviderError:
        """SDK error -> ProviderError; the message never contains the key."""
        return translate_sdk_error(exc, sdk=anthropic, where=f"anthropic/{self.model}", api_key=self._api_key)

    async def aclose(self) -> None:
        await self._client.close()


def cited_pages(blocks: Sequence[object]) -> list[dict[str, str]]:
    """Web pages the answer's text cites (server web search/fetch), in order, once each."""
    pages: dict[str, dict[str, str]] = {}
    for block in blocks:
        if getattr(block, "type", None) != "text":
            continue
        for citation in getattr(block, "citations", None) or []:
            url = getattr(citation, "url", None)
            if isinstance(url, str) and url and url not in pages:
                pages[url] = {"url": url, "title": str(getattr(citation, "title", None) or "")}
    return list(pages.values())


def _field(obj: object, name: str) -> object:
    return obj.get(name) if isinstance(obj, dict) else getattr(obj, name, None)


def server_tool_use(blocks: Sequence[object]) -> dict[str, list[str]]:
    """Which server tools ran (`server_tools`: web_search, web_fetch…) and the page URLs their results
    returned (`tool_results`); empty when none ran."""
    tools: list[str] = []
    urls: list[str] = []
    for block in blocks:
        kind = _field(block, "type")
        if kind == "server_tool_use":
            tools.append(str(_field(block, "name") or ""))
        elif kind in ("web_search_tool_result", "web_fetch_tool_result"):
            content = _field(block, "content")
            for item in content if isinstance(content, list) else [content]:
                url = _field(item, "url")
                if isinstance(url, str) and url and url not in urls:
                    urls.append(url)
    return {"server_tools": tools, "tool_results": urls} if tools or urls else {}


def _with_cached_prefix(turns: list[dict[str, str]]) -> list[dict[str, Any]]:
    """Turns as content blocks, with a cache breakpoint at the end of the conversation before the last turn."""
    blocks: list[dict[str, Any]] = [{"role": t["role"], "content": [{"type": "text", "text": t["content"]}]}
                                    for t in turns]
    if len(blocks) >= 2:
        blocks[-2]["content"][-1]["cache_control"] = _EPHEMERAL
    return blocks


def _usage(usage: Any) -> Usage:
    """Normalised like the other providers: input includes cache reads/writes, output includes thinking."""
    cache_read = getattr(usage, "cache_read_input_tokens", None)
    cache_write = getattr(usage, "cache_creation_input_tokens", None) or 0
    details = getattr(usage, "output_tokens_details", None)
    return Usage(
        input_tokens=(usage.input_tokens or 0) + (cache_read or 0) + cache_write,
        output_tokens=usage.output_tokens or 0,
        cached_tokens=cache_read,
        reasoning_tokens=getattr(details, "thinking_tokens", None),
        calls=1,
        cache_write_tokens=getattr(usage, "cache_creation_input_tokens", None),
    )
