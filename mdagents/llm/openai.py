"""OpenAI (and any OpenAI-compatible server: vLLM, Ollama, llama.cpp server) chat and embeddings.

Only translates: harness messages/params -> the chat-completions request body, the reply ->
`Completion`, errors -> `ProviderError`. Every request goes through the official SDK client
(its aiohttp backend: headers, redirects, proxies and TLS as the SDK does them). SDK retries
are off; the `LLM` client is the only retry layer.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Sequence
from typing import Any

import openai

from mdagents.errors import ProviderError
from mdagents.llm.model_args import naming_rejected, openai_body
from mdagents.llm.sdk_errors import aiohttp_transport, translate_sdk_error
from mdagents.llm.structured import JSON, answer_schema
from mdagents.llm.types import Completion, EmbeddingResult, GenerationParams, Message, Usage

# A key is mandatory for the SDK; self-hosted OpenAI-compatible servers ignore it.
PLACEHOLDER_KEY = "not-needed"
EMBED_BATCH = 512

# o1/o3/o4 and gpt-5 families take max_completion_tokens and reject temperature and stop.
_REASONING = re.compile(r"^(o\d|gpt-5)", re.IGNORECASE)


def is_reasoning_model(model: str) -> bool:
    return bool(_REASONING.match(model.rsplit("/", 1)[-1]))



class OpenAIProvider:
    name = "openai"

    def __init__(self, model: str, *, api_key: str | None, base_url: str | None,
                 send_cache_key: bool | None = None, name: str = "openai") -> None:
        self.name = name  # "openai", or the OpenAI-compatible service it stands for (vllm, openrouter...)
        self.model = model
        self.base_url = base_url
        # `prompt_cache_key` routes calls sharing a prefix to the same cache; self-hosted servers may
        # reject unknown fields, so by default it is sent to OpenAI itself only.
        self.send_cache_key = base_url is None if send_cache_key is None else send_cache_key
        self._api_key = api_key
        self._clients: dict[asyncio.AbstractEventLoop, openai.AsyncOpenAI] = {}

    @property
    def _client(self) -> openai.AsyncOpenAI:
        """The SDK client of the running event loop (its HTTP sessions belong to one loop; a notebook
        runs one loop per cell). Clients of loops that have closed are dropped."""
        loop = asyncio.get_running_loop()
        client = self._clients.get(loop)
        if client is None:
            self._clients = {known: c for known, c in self._clients.items() if not known.is_closed()}
            client = self._clients[loop] = openai.AsyncOpenAI(
                api_key=self._api_key or PLACEHOLDER_KEY, base_url=self.base_url, max_retries=0,
                http_client=aiohttp_transport(openai))
        return client

    def request_params(self, messages: Sequence[Message], params: GenerationParams) -> dict[str, Any]:
        """The keyword arguments of `chat.completions.create`; a structured answer asks for its JSON schema."""
        kwargs: dict[str, Any] = {"model": self.model, "messages": [m.to_dict() for m in messages]}
        reasoning = is_reasoning_model(self.model)
        if params.max_tokens is not None:
            kwargs["max_completion_tokens" if reasoning else "max_tokens"] = params.max_tokens
        if params.temperature is not None and not reasoning:
            kwargs["temperature"] = params.temperature
        if params.seed is not None:
            kwargs["seed"] = params.seed
        if params.stop and not reasoning:
            kwargs["stop"] = list(params.stop)
        if params.cache_hint and self.send_cache_key:
            kwargs["prompt_cache_key"] = params.cache_hint
        if params.answer_format == JSON:
            kwargs["response_format"] = {"type": "json_schema", "json_schema": {
                "name": "final_answer", "strict": True, "schema": answer_schema(params.answer_letters or ())}}
        return openai_body(kwargs, params.model_args) if params.model_args else kwargs

    async def complete(self, messages: Sequence[Message], params: GenerationParams, *, timeout: float) -> Completion:
        body = self.request_params(messages, params)
        try:
            response = await self._post(body, timeout)
        except ProviderError as exc:
            raise naming_rejected(exc, params.model_args) from None
        return self.parse_reply(response)

    def parse_reply(self, response: dict[str, Any]) -> Completion:
        """A chat.completion body (a live reply, or one line of a batch's results) -> Completion."""
        choices = response.get("choices") or []
        if not choices:
            raise ProviderError(f"{self.name}/{self.model} returned no choices")
        choice = choices[0]
        return Completion(
            text=(choice.get("message") or {}).get("content") or "",
            usage=_usage(response.get("usage")),
            model=response.get("model") or self.model,
            finish_reason=choice.get("finish_reason"),
            raw={"id": response.get("id"), "system_fingerprint": response.get("system_fingerprint")},
        )

    async def _post(self, body: dict[str, Any], timeout: float) -> dict[str, Any]:
        try:
            # `chat.completions.create` re-walks every message dict to "transform" it and builds
            # pydantic models of the reply; posting the same body and reading the JSON ourselves
            # keeps the SDK's transport, auth and errors without that cost.
            reply = await self._client.post("/chat/completions", body=body, cast_to=str, options={"timeout": timeout})
        except openai.OpenAIError as exc:
            raise self._translate(exc) from None
        return json_reply(reply, f"{self.name}/{self.model}")

    async def embed(self, texts: Sequence[str], *, model: str, timeout: float) -> EmbeddingResult:
        """Vectors in input order, sent in batches; usage counts the input tokens."""
        vectors: list[list[float]] = []
        usage = Usage()
        texts = list(texts)
        for start in range(0, len(texts), EMBED_BATCH):
            batch = texts[start:start + EMBED_BATCH]
            try:
                response = await self._client.embeddings.create(input=batch, model=model, timeout=timeout)
            except openai.OpenAIError as exc:
                raise self._translate(exc) from None
            ordered = sorted(response.data, key=lambda item: item.index)
            if len(ordered) != len(batch):
                raise ProviderError(f"{self.name}/{model} returned {len(ordered)} embeddings for {len(batch)} texts")
            vectors.extend([float(x) for x in item.embedding] for item in ordered)
            used = response.usage.prompt_tokens if response.usage else 0
            usage = usage + Usage(input_tokens=used, calls=1)
        return EmbeddingResult(vectors=vectors, usage=usage, model=model)

    def _translate(self, exc: Exception) -> ProviderError:
        """SDK error -> ProviderError; the message never contains the key."""
        return translate_sdk_error(exc, sdk=openai, where=f"{self.name}/{self.model}", api_key=self._api_key)

    async def aclose(self) -> None:
        client = self._clients.pop(asyncio.get_running_loop(), None)
        if client is not None:
            await client.close()


def json_reply(raw: str | bytes, where: str) -> dict[str, Any]:
    """A 200 reply's JSON object; anything else is a retryable ProviderError (a proxy's HTML page, a cut body)."""
    try:
        reply = json.loads(raw)
    except ValueError as exc:
        raise ProviderError(f"{where} returned a reply that is not JSON: {exc}", retryable=True) from None
    if not isinstance(reply, dict):
        raise ProviderError(f"{where} returned JSON that is not an object", retryable=True)
    return reply


def _usage(usage: dict[str, Any] | None) -> Usage:
    if not usage:
        return Usage(calls=1)
    prompt_details = usage.get("prompt_tokens_details") or {}
    completion_details = usage.get("completion_tokens_details") or {}
    return Usage(
        input_tokens=usage.get("prompt_tokens") or 0,
        output_tokens=usage.get("completion_tokens") or 0,
        cached_tokens=prompt_details.get("cached_tokens"),
        reasoning_tokens=completion_details.get("reasoning_tokens"),
        calls=1,
    )
