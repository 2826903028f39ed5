"""Typed errors: the library raises these; only the CLI turns them into messages and exit codes."""

from __future__ import annotations


class MDAgentsError(Exception):
    """Base of every error the library raises on purpose."""

    exit_code = 1


class UsageError(MDAgentsError):
    """The user asked for something invalid (bad flag value, unknown model, missing key): exit 2."""

    exit_code = 2


class ConfigError(UsageError):
    """Configuration is incomplete or inconsistent."""


class MissingKeyError(ConfigError):
    """A provider's API key is not set; the message names the variable, never a value."""


class DatasetError(UsageError):
    """A dataset file is missing or malformed (message names file and line)."""


class ProviderError(MDAgentsError):
    """A provider call failed.

    `retryable` tells the LLM client whether another attempt may succeed;
    `retry_after` carries the server's Retry-After hint in seconds, when it sent one.
    """

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        retryable: bool = False,
        retry_after: float | None = None,
        unreachable: bool = False,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.retryable = retryable
        self.retry_after = retry_after
        self.unreachable = unreachable  # no connection (refused, DNS, TLS): the server itself is the problem


class LLMCallError(MDAgentsError):
    """An LLM call failed for good (fatal error, or retries exhausted)."""


class EmptyReplyError(LLMCallError):
    """The model kept answering with no text (or was cut off before any answer), retries exhausted."""

    code = "empty_reply"


class EmptyReply(ProviderError):
    """One empty (or cut-off, answerless) reply: retryable, never cached, never graded."""

    def __init__(self, message: str) -> None:
        super().__init__(message, retryable=True)


class ReplyTooLarge(ProviderError):
    """A reply longer than any answer needs (a runaway or hostile server): refused, never retried or cached."""

    def __init__(self, message: str) -> None:
        super().__init__(message, retryable=False)


class ContextOverflow(ProviderError):
    """The prompt is longer than the model's context window (with room for the answer): never retried.

    `prompt_tokens` and `limit_tokens` say by how much, when the provider knows."""

    def __init__(self, message: str, *, prompt_tokens: int | None = None, limit_tokens: int | None = None) -> None:
        super().__init__(message, status=400, retryable=False)
        self.prompt_tokens = prompt_tokens
        self.limit_tokens = limit_tokens


class ContextOverflowError(LLMCallError):
    """An LLM call failed because its prompt does not fit the model's context window."""

    def __init__(self, message: str, *, prompt_tokens: int | None = None, limit_tokens: int | None = None) -> None:
        super().__init__(message)
        self.prompt_tokens = prompt_tokens
        self.limit_tokens = limit_tokens


class ServerUnusable(LLMCallError):
    """The model's server cannot serve this run: unreachable, or it refuses the key (401/403) or the
    model or path (404). When no call of the run has succeeded yet, the run stops at once."""


class EndpointGone(ServerUnusable):
    """The model's server answered earlier in the run and has stopped: every attempt for a while failed
    to connect. The run stops; the questions it could not answer are not recorded, so a re-run does them."""


class BudgetExceeded(MDAgentsError):
    """The run's --max-cost budget is spent: the run stops incomplete (exit 3)."""

    exit_code = 3


class StoreError(MDAgentsError):
    """The guideline store could not be reached or refused the request."""
