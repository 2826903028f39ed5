"""OpenAI (and any OpenAI-compatible server: vLLM, Ollama, llama.cpp server) chat and embeddings.

Only translates: harness messages/params -> `chat.completions.create`, the reply -> `Completion`,
SDK errors -> `ProviderError`. SDK retries are off; the `LLM` client is the only retry layer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import openai
from openai.types.chat import ChatCompletion

from mdagents.errors import ProviderError
from mdagents.llm.sdk_errors import translate_sdk_error
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

    def __init__(self, model: str, *, api_key: str | None, base_url: str | None) -> None:
        self.model = model
        self.base_url = base_url
        self._api_key = api_key
        self._client = openai.AsyncOpenAI(api_key=api_key or PLACEHOLDER_KEY, base_url=base_url, max_retries=0)

    def request_params(self, messages: Sequence[Message], params: GenerationParams) -> dict[str, Any]:
        """The keyword arguments of `chat.completions.create` (answer_format hints are ignored)."""
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
        return kwargs

    async def complete(self, messages: Sequence[Message], params: GenerationParams, *, timeout: float) -> Completion:
        try:
            # The SDK's own `chat.completions.create` re-walks every message dict to "transform"
            # it (a no-op for plain text) and costs milliseconds of CPU per call at sweep scale;
            # posting the same body through the SDK client keeps its transport, auth and errors.
            response = await self._client.post(
                "/chat/completions", body=self.request_params(messages, params), cast_to=ChatCompletion,
                options={"timeout": timeout})
        except openai.OpenAIError as exc:
            raise self._translate(exc) from None
        if not response.choices:
            raise ProviderError(f"openai/{self.model} returned no choices")
        choice = response.choices[0]
        return Completion(
            text=choice.message.content or "",
            usage=_usage(response.usage),
            model=response.model or self.model,
            finish_reason=choice.finish_reason,
            raw={"id": response.id, "system_fingerprint": getattr(response, "system_fingerprint", None)},
        )

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
                raise ProviderError(f"openai/{model} returned {len(ordered)} embeddings for {len(batch)} texts")
            vectors.extend([float(x) for x in item.embedding] for item in ordered)
            used = response.usage.prompt_tokens if response.usage else 0
            usage = usage + Usage(input_tokens=used, calls=1)
        return EmbeddingResult(vectors=vectors, usage=usage, model=model)

    def _translate(self, exc: Exception) -> ProviderError:
        """SDK error -> ProviderError; the message never contains the key."""
        return translate_sdk_error(exc, sdk=openai, where=f"openai/{self.model}", api_key=self._api_key)

    async def aclose(self) -> None:
        await self._client.close()


def _usage(usage: Any) -> Usage:
    if usage is None:
        return Usage(calls=1)
    prompt_details = getattr(usage, "prompt_tokens_details", None)
    completion_details = getattr(usage, "completion_tokens_details", None)
    return Usage(
        input_tokens=usage.prompt_tokens or 0,
        output_tokens=usage.completion_tokens or 0,
        cached_tokens=getattr(prompt_details, "cached_tokens", None),
        reasoning_tokens=getattr(completion_details, "reasoning_tokens", None),
        calls=1,
    )
