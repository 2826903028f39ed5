"""LLM: the one wrapper every call goes through.

It owns, for one model: bounded retries (exponential backoff with jitter, honouring
Retry-After), a per-call timeout, the response cache, the shared in-flight limiter and the
usage ledger. Providers below it only translate; pipelines above it never see an SDK.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

from mdagents.errors import (
    ContextOverflow,
    ContextOverflowError,
    EmptyReply,
    EmptyReplyError,
    LLMCallError,
    ProviderError,
    ReplyTooLarge,
    ServerUnusable,
)
from mdagents.llm.base import MAX_REPLY_CHARS, Provider
from mdagents.llm.budget import Budget
from mdagents.llm.cache import ResponseCache, cache_key, cache_variant
from mdagents.llm.limiter import AdaptiveLimiter, InFlightLimit
from mdagents.llm.prices import Price
from mdagents.llm.transcript import Transcript
from mdagents.llm.types import Completion, EmbeddingResult, GenerationParams, Message, Usage
from mdagents.redact import redact


@dataclass(frozen=True)
class RetryPolicy:
    max_retries: int = 4
    base_delay: float = 1.0
    max_delay: float = 30.0
    max_retry_after: float = 120.0
    timeout: float = 120.0

    def backoff(self, attempt: int, retry_after: float | None, rng: random.Random) -> float:
        """Delay before attempt `attempt + 1`.

        The server's Retry-After when it sent one (capped at max_retry_after), plus a little
        jitter so that many waiting requests do not return in lockstep; otherwise jittered
        exponential backoff.
        """
        if retry_after is not None:
            wait = min(retry_after, self.max_retry_after)
            return wait + rng.uniform(0, min(1.0, 0.02 + wait * 0.05))
        ceiling = min(self.max_delay, self.base_delay * (2**attempt))
        return ceiling / 2 + rng.uniform(0, ceiling / 2)


@dataclass
class Ledger:
    """Run-wide totals for one model: `spent_usd` counts only calls actually paid (cache misses),
    `cached_usd` what the replies replayed from the cache would have cost."""

    usage: Usage = field(default_factory=Usage)
    cache_hits: int = 0
    retries: int = 0
    failures: int = 0
    successes: int = 0  # provider calls that returned (cache hits not counted)
    spent_usd: float = 0.0
    cached_usd: float = 0.0


class LLM:
    def __init__(
        self,
        provider: Provider,
        *,
        cache: ResponseCache | None = None,
        retry: RetryPolicy | None = None,
        limiter: InFlightLimit | None = None,
        price: Price | None = None,
        budget: Budget | None = None,
        seed: int | None = None,
        max_tokens: int | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        """`price` None: the cost of calls is unknown. `budget`: checked before every call is launched."""
        self.provider = provider
        self.cache = cache
        self.retry = retry or RetryPolicy()
        self.limiter: InFlightLimit = limiter or AdaptiveLimiter(32)
        self.price = price
        self.budget = budget
        self.max_tokens = max_tokens  # each call's reply cap unless the call sets its own
        self.ledger = Ledger()
        self._rng = random.Random(seed)
        self._sleep = sleep
        # Whether a reply names one of the letters it was asked for (the run sets grading's reader):
        # a reply cut off by the length limit before naming one is retried like an empty reply.
        self.names_an_answer: Callable[[str, Sequence[str]], bool] | None = None

    @property
    def name(self) -> str:
        return f"{self.provider.name}/{self.provider.model}"

    def cost(self, usage: Usage) -> float | None:
        return None if self.price is None else self.price.cost(usage)

    async def complete(
        self,
        messages: Sequence[Message],
        *,
        temperature: float | None = None,
        max_tokens: int | None = None,
        seed: int | None = None,
        stop: Sequence[str] | None = None,
        answer_format: str | None = None,
        answer_letters: Sequence[str] | None = None,
        cache_hint: str | None = None,
        role: str = "assistant",
        transcript: Transcript | None = None,
        use_cache: bool = True,
    ) -> Completion:
        """One chat completion, from the cache or the provider; recorded in `transcript` if given."""
        params = GenerationParams(
            temperature=temperature,
            max_tokens=self.max_tokens if max_tokens is None else max_tokens,
            seed=seed,
            stop=tuple(stop) if stop else None,
            answer_format=answer_format,
            answer_letters=tuple(answer_letters) if answer_letters else None,
            cache_hint=cache_hint,
        )
        messages = list(messages)
        started = time.perf_counter()
        key = None
        completion = None
        if self.cache is not None:
            key = cache_key(self.provider.name, self.provider.model, self.provider.base_url, messages, params,
                            cache_variant.get())
            completion = self.cache.get(key) if use_cache else None
        if completion is None:
            try:
                completion = await self._with_retries(lambda: self._complete_once(messages, params))
            except LLMCallError as exc:
                if transcript is not None:
                    transcript.add(role, messages, "", Usage(), time.perf_counter() - started, self.name,
                                   params=params.to_dict(), error=str(exc), started=started)
                raise
            if self.cache is not None and key is not None:
                self.cache.put(key, completion)
            paid = self.cost(completion.usage) or 0.0
            self.ledger.spent_usd += paid
            if self.budget is not None:
                self.budget.add(paid)
        else:
            self.ledger.cache_hits += 1
            self.ledger.cached_usd += self.cost(completion.usage) or 0.0
        completion.latency_s = time.perf_counter() - started
        completion.usage.calls = 1
        self.ledger.usage = self.ledger.usage + completion.usage
        if transcript is not None:
            transcript.add(role, messages, completion.text, completion.usage, completion.latency_s, self.name,
                           cached=completion.cached, params=params.to_dict(), started=started)
        return completion

    async def _complete_once(self, messages: list[Message], params: GenerationParams) -> Completion:
        """One provider call; an empty reply, or one cut off by the length limit before it named an
        option the call asked for, is a retryable failure of this call (never cached, never graded)."""
        completion = await self.provider.complete(messages, params, timeout=self.retry.timeout)
        if len(completion.text) > MAX_REPLY_CHARS:
            raise ReplyTooLarge(f"reply of {len(completion.text):,} characters refused (the cap is "
                                f"{MAX_REPLY_CHARS:,})")
        if not completion.text.strip():
            raise EmptyReply(f"{self.name} returned an empty reply (finish reason: {completion.finish_reason})")
        if (completion.finish_reason == "length" and params.answer_format == "letter" and self.names_an_answer
                and not self.names_an_answer(completion.text, params.answer_letters or ())):
            raise EmptyReply(f"{self.name} reply was cut off by the length limit before it gave an answer")
        return completion

    async def embed(self, texts: Sequence[str], *, model: str | None = None) -> EmbeddingResult:
        """Embeddings through the provider (OpenAI-compatible only), with the same retry policy."""
        embed = getattr(self.provider, "embed", None)
        if embed is None:
            raise LLMCallError(f"provider {self.provider.name} does not serve embeddings")
        result: EmbeddingResult = await self._with_retries(
            lambda: embed(list(texts), model=model or self.provider.model, timeout=self.retry.timeout))
        self.ledger.usage = self.ledger.usage + result.usage
        return result

    async def _with_retries(self, call: Callable[[], Awaitable]):  # type: ignore[type-arg]
        attempt = 0
        while True:
            retry_after: float | None = None
            await self.limiter.acquire()
            succeeded = False
            try:
                if self.budget is not None:
                    self.budget.check(self.name)  # at launch: calls waiting for a slot do not start
                async with asyncio.timeout(self.retry.timeout):
                    result = await call()
                succeeded = True
                self.ledger.successes += 1
                return result
            except ProviderError as exc:
                if exc.status == 429:
                    self.limiter.throttle()
                if isinstance(exc, EmptyReply) and attempt >= self.retry.max_retries:
                    self.ledger.failures += 1
                    raise EmptyReplyError(f"{exc} ({attempt + 1} attempt(s))") from None
                if isinstance(exc, ContextOverflow):  # the same prompt never fits: no retry
                    self.ledger.failures += 1
                    raise ContextOverflowError(redact(f"{self.name}: {exc}"), prompt_tokens=exc.prompt_tokens,
                                               limit_tokens=exc.limit_tokens) from None
                unusable = exc.unreachable or exc.status in (401, 403, 404)
                # A server that never answered this run gets one quick retry, not the whole budget.
                budget = 1 if unusable and self.ledger.successes == 0 else self.retry.max_retries
                if unusable and (not exc.retryable or attempt >= budget):
                    self.ledger.failures += 1
                    raise ServerUnusable(redact(f"{self.where()}: {_cause(exc)}")) from None
                if not exc.retryable or attempt >= self.retry.max_retries:
                    self.ledger.failures += 1
                    detail = f"HTTP {exc.status}: " if exc.status else ""
                    raise LLMCallError(redact(
                        f"{self.name} call failed after {attempt + 1} attempt(s): {detail}{exc}")) from None
                retry_after = exc.retry_after
            except TimeoutError:
                if attempt >= self.retry.max_retries:
                    self.ledger.failures += 1
                    raise LLMCallError(
                        f"{self.name} call timed out after {attempt + 1} attempt(s) of "
                        f"{self.retry.timeout:g}s") from None
            finally:
                self.limiter.release(success=succeeded)
            self.ledger.retries += 1
            await self._sleep(self.retry.backoff(attempt, retry_after, self._rng))
            attempt += 1

    def where(self) -> str:
        """The model and the URL it is reached at, for messages about the server."""
        base = self.provider.base_url
        return f"{self.name} at {base}" if base else self.name

    async def aclose(self) -> None:
        await self.provider.aclose()


def _cause(exc: ProviderError) -> str:
    """What the server did, in a few words: the HTTP status and its message, or the connection failure."""
    text = str(exc).split(": ", 1)[-1]
    return f"HTTP {exc.status}: {text}" if exc.status else text

