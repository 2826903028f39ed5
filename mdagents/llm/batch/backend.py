"""What the scheduler needs from one provider's batch API: submit, poll, read results, cancel."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from mdagents.errors import ProviderError
from mdagents.llm.types import Completion, GenerationParams, Message

# Terminal states, in the words every backend maps its provider's states to.
ENDED = "ended"  # every request has a result (a reply or an error)
EXPIRED = "expired"  # the provider's window closed: requests without a result go to the next wave
CANCELLED = "cancelled"
FAILED = "failed"  # the batch as a whole was refused (e.g. a malformed request file)


@dataclass
class BatchState:
    """A batch as last polled: `status` is one of the terminal states above, or the provider's own word."""

    status: str
    done: bool
    handle: Any = None  # the provider's batch object, for reading its results
    detail: str = ""  # why a batch failed, when the provider says
    counts: dict[str, int] = field(default_factory=dict)


Result = Completion | ProviderError


class BatchBackend(Protocol):
    """One provider+model's batch API, reached through its official SDK."""

    key: str  # "provider/model": calls with the same key share a batch

    def request(self, custom_id: str, messages: Sequence[Message], params: GenerationParams) -> dict[str, Any]:
        """One request of a batch, in the provider's format."""
        ...

    async def submit(self, requests: Sequence[dict[str, Any]]) -> str:
        """Create the batch; its id."""
        ...

    async def poll(self, batch_id: str) -> BatchState: ...

    async def results(self, state: BatchState) -> dict[str, Result]:
        """custom_id -> reply or error, for the requests that have a result."""
        ...

    async def cancel(self, batch_id: str) -> None: ...
