"""What every pipeline receives (PipelineContext) and returns (Decision).

The last step of each pipeline -- the call that produces the final answer -- is passed to
`ctx.finalize` as a `FinalAttempt`: a function taking optional extra text to append to the
final prompt (retrieved guideline sections, critic feedback) and returning the reply. By
default `finalize` calls it once with nothing extra; `--rag` and `--critic` swap in their own
`finalize` so they wrap the final decision of every pipeline in the same way.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from mdagents.agent import Agent
from mdagents.data.datasets import Question
from mdagents.llm.client import LLM
from mdagents.llm.transcript import Transcript
from mdagents.llm.types import PERSONA_AFTER_FIRST_MESSAGE, Message

Level = Literal["basic", "intermediate", "advanced"]
LEVELS: tuple[Level, ...] = ("basic", "intermediate", "advanced")

FinalAttempt = Callable[[str | None], Awaitable[str]]
Finalizer = Callable[[Question, FinalAttempt, "PipelineContext"], Awaitable[str]]


async def finalize_once(question: Question, attempt: FinalAttempt, ctx: PipelineContext) -> str:
    """The default final step: ask the decider once."""
    return await attempt(None)


@dataclass(frozen=True)
class PipelineSettings:
    num_experts: int = 5
    rounds: int = 5
    turns: int = 5
    num_teams: int = 3
    team_size: int = 3
    num_exemplars: int = 5
    rationales: Literal["per-run", "per-question"] = "per-run"
    temperatures: tuple[float, ...] = (0.0,)
    # End the intermediate debate once every expert's latest answer names the same option (see debate.py).
    consensus_stop: bool = True
    # Advanced: "isolated" teams assess the case from the question alone (the method); "staged" teams
    # read the reports of the teams that worked before them.
    team_context: Literal["isolated", "staged"] = "isolated"
    # How final decisions answer: "text" ends with the contract line (the paper's method); "json" asks the
    # provider for a structured answer through its SDK ({"reasoning": ..., "answer": "B" | null}).
    answer_format: Literal["text", "json"] = "text"

    @property
    def temperature(self) -> float:
        """The sampling temperature of the agents' calls (final decisions are always at 0)."""
        return self.temperatures[0] if self.temperatures else 0.0


@dataclass
class PipelineContext:
    llm: LLM
    transcript: Transcript = field(default_factory=Transcript)
    settings: PipelineSettings = field(default_factory=PipelineSettings)
    exemplars: list[Question] = field(default_factory=list)
    finalize: Finalizer = finalize_once
    verbose: bool = False
    log: Callable[[str], None] = print
    # Run-wide state a pipeline may reuse across questions (e.g. per-run exemplar rationales).
    shared: dict[str, Any] = field(default_factory=dict)
    # Free-form notes finalizers add to the record (rag retrieval, critic verdicts).
    notes: dict[str, Any] = field(default_factory=dict)
    # Groups the question's calls for provider prompt caches (the question id).
    cache_hint: str | None = None

    def agent(self, *, role: str, instruction: str, kind: str, examples: Sequence[Message] = (),
              shares_first_message: bool = False) -> Agent:
        """An agent of this question: its calls go to the question's transcript at the configured temperature.

        `shares_first_message`: peers with other personas get the same first message (a panel's
        experts); where the model's prompt layout asks for it, the persona then follows that message.
        """
        return Agent(self.llm, role=role, instruction=instruction, kind=kind, transcript=self.transcript,
                     examples=examples, temperature=self.settings.temperature, cache_hint=self.cache_hint,
                     persona_after_first=shares_first_message
                     and self.llm.prompt_layout == PERSONA_AFTER_FIRST_MESSAGE)

    def say(self, text: str) -> None:
        if self.verbose:
            self.log(text)


@dataclass
class Decision:
    """A pipeline's outcome for one question."""

    text: str
    level: str  # a Level under the default method; another method's name otherwise
    details: dict[str, Any] = field(default_factory=dict)
