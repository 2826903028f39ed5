"""Mock models for smoke runs: `mock/oracle` answers every question correctly, `mock/random` guesses.

No key, no network, no download: a configuration can be checked end to end in seconds (in a
user's CI, say). Each pipeline step gets a reply in the shape its parser accepts, recognised by
phrases of the prompt templates in prompts/. The oracle knows the truth because the runner
publishes the answer of the question being solved in `expected_answer` (a context variable,
inherited by every call the question's pipeline makes); pipelines stay provider-agnostic.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Sequence
from contextvars import ContextVar

from mdagents.errors import ConfigError
from mdagents.llm.structured import JSON
from mdagents.llm.types import Completion, GenerationParams, Message, Usage

# (letter as shown, option text) of the question being solved; None outside a run.
expected_answer: ContextVar[tuple[str, str] | None] = ContextVar("expected_answer", default=None)

MOCK_MODELS = ("oracle", "random")
_LEVELS = ("basic", "intermediate", "advanced")
_OPTIONS_LINE = re.compile(r"^Options:\s*(.*)$", re.MULTILINE)
_OPTION = re.compile(r"\(([A-Z])\)\s*(.*?)(?=\s+\([A-Z]\)\s|$)")
_ROLES = ("Internist", "Cardiologist", "Pulmonologist", "Neurologist", "Pharmacologist",
          "Radiologist", "Pathologist", "Surgeon", "Pediatrician", "Psychiatrist")


def options_after(text: str, start: int = 0) -> dict[str, str]:
    """The first `Options: (A) ... (B) ...` line at or after `start`, as letter -> option text."""
    match = _OPTIONS_LINE.search(text, start)
    return dict(_OPTION.findall(match.group(1))) if match else {}


def _count(pattern: str, text: str, default: int) -> int:
    match = re.search(pattern, text)
    return int(match.group(1)) if match else default


def recruit_experts(n: int) -> str:
    lines = []
    for i in range(n):
        role = _ROLES[i % len(_ROLES)] + (f" {i // len(_ROLES) + 1}" if i >= len(_ROLES) else "")
        chain = f"{_ROLES[0]} > {role}" if i == 1 else "Independent"
        lines.append(f"{i + 1}. {role} - Specializes in {role.lower()} problems. - Hierarchy: {chain}")
    return "\n".join(lines)


def recruit_teams(n: int, size: int) -> str:
    names = ["Initial Assessment Team (IAT)"]
    names += [f"Specialist Team {k} (ST{k})" for k in range(1, n - 1)]
    names += ["Final Review and Decision Team (FRDT)"] if n > 1 else []
    blocks = []
    for g, name in enumerate(names, 1):
        members = [f"Member {m}: {_ROLES[(g + m) % len(_ROLES)]}{' (Lead)' if m == 1 else ''} - Team clinician."
                   for m in range(1, size + 1)]
        blocks.append(f"Group {g} - {name}\n" + "\n".join(members))
    return "\n\n".join(blocks)


def step_reply(text: str, answer: tuple[str, str] | None, difficulty: str) -> str:
    """A well-formed reply to the pipeline step whose prompt is `text`.

    `answer` is (letter, option text) to give where the step asks for an answer; `difficulty`
    is what to tell the classifier."""
    if "Difficulty: <basic|intermediate|advanced>" in text:
        return f"The case needs this much collaboration.\nDifficulty: {difficulty}"
    if "Hierarchy: Independent" in text and "ecruit" in text:
        return recruit_experts(_count(r"Recruit exactly (\d+) experts", text, 5))
    if "Final Review and Decision Team" in text and "Organize exactly" in text:
        return recruit_teams(_count(r"Organize exactly (\d+) groups", text, 3),
                             _count(r"groups of (\d+) members", text, 3))
    if "distinct fields of medicine" in text:
        fields = _count(r"List exactly (\d+) distinct", text, 5)
        return "\n".join(f"{i}. {_ROLES[(i - 1) % len(_ROLES)]}{'' if i <= len(_ROLES) else f' {i}'}"
                         for i in range(1, fields + 1))
    if 'Reply with a first line "Agree: yes"' in text:
        return "Agree: yes"
    if "Talk: yes or no" in text:
        return "Talk: no"
    if "Extract key knowledge" in text:
        return "Key Knowledge: the experts agree.\nTotal Analysis: the consensus answer stands."
    if "what kind of investigations are needed" in text:
        return "Each assistant should review the findings relevant to their speciality."
    if "return your investigation summary" in text:
        return "Investigation summary: the findings support the leading diagnosis."
    if "1-2 sentences of reason" in text:
        return "The key findings point directly to this answer."
    if answer is None:
        return "I cannot tell which question this is."
    letter, option = answer
    return f"Weighing the findings step by step, the best option is {option}.\nAnswer: ({letter}) {option}"


def as_shown(answer: tuple[str, str] | None, text: str) -> tuple[str, str] | None:
    """The expected answer under the letter the prompt's last options line gives its text (a method
    may show the options in another order than the run did)."""
    if answer is None:
        return None
    shown = options_after(text, text.rfind("Options:"))
    return next(((letter, option) for letter, option in shown.items() if option.strip() == answer[1].strip()),
                answer)


class MockProvider:
    """`oracle` gives the expected answer; `random` picks an option (and a level) seeded by --seed."""

    name = "mock"
    base_url = None

    def __init__(self, model: str, *, seed: int = 0) -> None:
        if model not in MOCK_MODELS:
            raise ConfigError(f"unknown mock model {model!r}: use mock/oracle or mock/random")
        self.model = model
        self.seed = seed

    def _rng(self, text: str) -> random.Random:
        """A generator seeded by the seed and the prompt: replies do not depend on call order."""
        digest = hashlib.sha256(f"{self.seed}\x00{text}".encode()).digest()
        return random.Random(int.from_bytes(digest[:8], "big"))

    def reply(self, text: str) -> str:
        rng = self._rng(text)
        if self.model == "oracle":
            # Spread questions over the three levels so a smoke run goes through every pipeline.
            level = _LEVELS[int(hashlib.sha256(text.encode()).hexdigest(), 16) % len(_LEVELS)]
            return step_reply(text, as_shown(expected_answer.get(), text), level)
        options = options_after(text, text.rfind("Options:")) or dict(
            zip("ABCD", ("A", "B", "C", "D"), strict=True))
        letter = rng.choice(sorted(options))
        return step_reply(text, (letter, options[letter]), rng.choice(_LEVELS))

    async def complete(self, messages: Sequence[Message], params: GenerationParams, *,
                       timeout: float) -> Completion:
        text = next((m.content for m in reversed(messages) if m.role == "user"), "")
        reply = self.reply(text)
        if params.answer_format == JSON:  # what a provider's structured output gives
            chosen = re.findall(r"Answer: \(([A-Z])\)", reply)
            reply = json.dumps({"reasoning": reply.split("\nAnswer:")[0], "answer": chosen[-1] if chosen else None})
        usage = Usage(input_tokens=sum(len(m.content.split()) for m in messages),
                      output_tokens=len(reply.split()))
        return Completion(text=reply, usage=usage, model=self.model, finish_reason="stop")

    async def aclose(self) -> None:
        return None
