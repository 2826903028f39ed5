"""LLM: the one wrapper every call goes through.

It owns, for one model: bounded retries (exponential backoff with jitter, honouring
Retry-After), a per-call timeout, the response cache, the shared in-flight limiter and the
usage ledger. Providers below it only translate; pipelines above it never see an SDK.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from mdagents.errors import (
    ContextOverflow,
    ContextOverflowError,
    EmptyReply,
    EmptyReplyError,
    EndpointGone,
    LLMCallError,
    ProviderError,
    ReplyTooLarge,
    ServerUnusable,
)
from mdagents.llm.base import MAX_REPLY_CHARS, Provider
from mdagents.llm.budget import Budget
from mdagents.llm.cache import ResponseCache, cache_key, cache_variant, report_unusable
from mdagents.llm.limiter import AdaptiveLimiter, InFlightLimit, waiting_out_retry
from mdagents.llm.prices import Price, plus_known
from mdagents.llm.transcript import Transcript
from mdagents.llm.types import Completion, EmbeddingResult, GenerationParams, Message, Usage
from mdagents.redact import redact, redact_url


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
    """Totals of this process for one model: `spent_usd` counts only calls actually paid (cache misses),
    `cached_usd` what the replies replayed from the cache cost at the model's price; None when unpriced."""

    usage: Usage = field(default_factory=Usage)
    cache_hits: int = 0
    retries: int = 0
    failures: int = 0
    successes: int = 0  # provider calls that returned (cache hits not counted)
    spent_usd: float | None = 0.0
    cached_usd: float | None = 0.0
    in_flight: int = 0  # provider calls sent and not yet answered (progress reads it while they run)
    throttled: int = 0  # replies that asked to slow down (HTTP 429)
    last_role: str | None = None  # the agent role of the latest call: the step a long question is on
    last_call_at: float = 0.0  # time.monotonic() of that call


@dataclass
class Outage:
    """Connection failures of an endpoint since its last successful call, across every call in flight.

    The endpoint is gone once `attempts` connection attempts in a row have failed over at least
    `grace_s` seconds with no success in between: a server that restarts within the grace period
    is waited for, a dead one stops the run within seconds instead of failing each question in turn."""

    attempts: int = 3
    grace_s: float = 2.0
    failures: int = 0
    since: float | None = None

    def failed(self, now: float) -> None:
        self.failures += 1
        if self.since is None:
            self.since = now

    def succeeded(self) -> None:
        self.failures, self.since = 0, None

    def gone(self, now: float) -> bool:
        return self.since is not None and self.failures >= self.attempts and now - self.since >= self.grace_s


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
        model_args: dict[str, Any] | None = None,
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
        self.model_args = model_args or None  # passed to every call of the provider (llm/model_args.py)
        self.ledger = Ledger() if price is not None else Ledger(spent_usd=None, cached_usd=None)  # unpriced
        self.outage = Outage()
        self._rng = random.Random(seed)
        self._sleep = sleep

    @property
    def name(self) -> str:
        return f"{self.provider.name}/{self.provider.model}"

    @property
    def prompt_layout(self) -> str | None:
        """How the model wants agents' prompts laid out (llm/types.py), or None: the usual order."""
        return getattr(self.provider, "prompt_layout", None)

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
            model_args=self.model_args,
        )
        messages = list(messages)
        self.ledger.last_role, self.ledger.last_call_at = role, time.monotonic()
        started = time.perf_counter()
        key = None
        completion = None
        if self.cache is not None:
            key = cache_key(self.provider.name, self.provider.model, self.provider.base_url, messages, params,
                            cache_variant.get(), getattr(self.provider, "weights", None))
            completion = self._cached(key) if use_cache else None
        if completion is None:
            try:
                completion = await self._with_retries(lambda: self._complete_once(messages, params))
            except LLMCallError as exc:
                if transcript is not None:
                    transcript.add(role, messages, "", Usage(), time.perf_counter() - started, self.name,
                                   params=params.to_dict(), error=str(exc), started=started)
                raise
            completion.text = redact(completion.text)  # a key the server echoed is kept nowhere
            if self.cache is not None and key is not None:
                self._remember(key, completion)
            paid = self.cost(completion.usage)
            self.ledger.spent_usd = plus_known(self.ledger.spent_usd, paid)
            if self.budget is not None:
                self.budget.add(paid)
        else:
            self.ledger.cache_hits += 1
            self.ledger.cached_usd = plus_known(self.ledger.cached_usd, self.cost(completion.usage))
        completion.latency_s = time.perf_counter() - started
        completion.usage.calls = 1
        self.ledger.usage = self.ledger.usage + completion.usage
        if transcript is not None:
            transcript.add(role, messages, completion.text, completion.usage, completion.latency_s, self.name,
                           cached=completion.cached, params=params.to_dict(), started=started,
                           finish_reason=completion.finish_reason)
        return completion

    def _cached(self, key: str) -> Completion | None:
        """The cached reply for `key`, or None; a cache that cannot be read is dropped (see `_drop_cache`)."""
        assert self.cache is not None
        try:
            return self.cache.get(key)
        except (OSError, sqlite3.Error) as exc:
            self._drop_cache(exc)
            return None

    def _remember(self, key: str, completion: Completion) -> None:
        """Store a reply in the cache; a failed write (full disk, read-only file) never loses the reply."""
        assert self.cache is not None
        try:
            self.cache.put(key, completion)
        except (OSError, sqlite3.Error) as exc:
            self._drop_cache(exc)

    def _drop_cache(self, exc: BaseException) -> None:
        """The cache is an optimisation: on failure this client goes on without it, with one warning."""
        if self.cache is not None:
            report_unusable(self.cache.path, exc)
        self.cache = None

    async def _complete_once(self, messages: list[Message], params: GenerationParams) -> Completion:
        """One provider call; an empty reply is a retryable failure of this call (never cached, never graded).
        A reply cut off by the length limit is kept: grading reads its stop reason and says so."""
        completion = await self.provider.complete(messages, params, timeout=self.retry.timeout)
        if len(completion.text) > MAX_REPLY_CHARS:
            raise ReplyTooLarge(f"reply of {len(completion.text):,} characters refused (the cap is "
                                f"{MAX_REPLY_CHARS:,})")
        if not completion.text.strip():
            raise EmptyReply(f"{self.name} returned an empty reply (finish reason: {completion.finish_reason})")
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
            self.ledger.in_flight += 1
            succeeded = False
            try:
                if self.budget is not None:
                    self.budget.check(self.name)  # at launch: calls waiting for a slot do not start
                if self.ledger.successes and self.outage.gone(time.monotonic()):
                    self.ledger.failures += 1
                    raise EndpointGone(self.gone_message())
                async with asyncio.timeout(self.retry.timeout):
                    result = await call()
                succeeded = True
                self.ledger.successes += 1
                self.outage.succeeded()
                return result
            except ProviderError as exc:
                if exc.status == 429:
                    self.ledger.throttled += 1
                    self.limiter.throttle()
                if isinstance(exc, EmptyReply) and attempt >= self.retry.max_retries:
                    self.ledger.failures += 1
                    raise EmptyReplyError(f"{exc} ({attempt + 1} attempt(s))") from None
                if isinstance(exc, ContextOverflow):  # the same prompt never fits: no retry
                    self.ledger.failures += 1
                    raise ContextOverflowError(redact(f"{self.name}: {exc}"), prompt_tokens=exc.prompt_tokens,
                                               limit_tokens=exc.limit_tokens) from None
                unusable = exc.unreachable or exc.status in (401, 403, 404)
                if exc.unreachable:
                    self.outage.failed(time.monotonic())
                    if self.ledger.successes and self.outage.gone(time.monotonic()):
                        self.ledger.failures += 1
                        raise EndpointGone(self.gone_message(_cause(exc))) from None
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
                self.ledger.in_flight -= 1
                self.limiter.release(success=succeeded)
            self.ledger.retries += 1
            with waiting_out_retry():  # the question lends its place to another while it waits
                await self._sleep(self.retry.backoff(attempt, retry_after, self._rng))
            attempt += 1

    @property
    def endpoint_gone(self) -> bool:
        """Whether this model's server answered earlier in the run and has stopped answering."""
        return bool(self.ledger.successes) and self.outage.gone(time.monotonic())

    def gone_message(self, cause: str | None = None) -> str:
        return redact(f"{self.where()} stopped answering ({self.outage.failures} connection attempts failed"
                      + (f", last: {cause}" if cause else "") + ")")

    def where(self) -> str:
        """The model and the URL it is reached at, for messages about the server."""
        base = redact_url(self.provider.base_url)
        return f"{self.name} at {base}" if base else self.name

    async def aclose(self) -> None:
        await self.provider.aclose()


def _cause(exc: ProviderError) -> str:
    """What the server did, in a few words: the HTTP status and its message, or the connection failure."""
    text = str(exc).split(": ", 1)[-1]
    return f"HTTP {exc.status}: {text}" if exc.status else text

