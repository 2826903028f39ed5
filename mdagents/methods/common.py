"""What the baseline methods share: their agents, the one-call final answer, sampled answers."""

from __future__ import annotations

from collections.abc import Sequence

from mdagents.agent import Agent
from mdagents.data.datasets import Question
from mdagents.llm.types import Message
from mdagents.pipelines.answers import answer_params
from mdagents.pipelines.base import Decision, PipelineContext
from mdagents.pipelines.final import FinalStep
from mdagents.pipelines.question_text import question_text
from mdagents.prompts import load, render

# The temperature of sampled answers (CoT-SC, debate), as in Wang et al. 2023 and the MDAgents paper.
SAMPLING_TEMPERATURE = 0.7


def answerer(ctx: PipelineContext, kind: str, *, instruction: str | None = None,
             examples: Sequence[Message] = (), role: str = "medical expert") -> Agent:
    """An agent that answers multiple choice questions (`method_system` unless told otherwise)."""
    return ctx.agent(role=role, instruction=instruction or load("method_system"), kind=kind, examples=examples)


def prompt(name: str, question: Question) -> str:
    """A method prompt (`method_<name>.txt`) filled with the question."""
    return render(f"method_{name}", question=question_text(question))


async def final_answer(question: Question, ctx: PipelineContext, agent: Agent, text: str) -> str:
    """The single final call at temperature 0, through `ctx.finalize` (so --rag and --critic wrap it)."""
    return await ctx.finalize(question, FinalStep(agent, text, question), ctx)


async def one_answer(question: Question, ctx: PipelineContext, *, method: str, kind: str, template: str,
                     examples: Sequence[Message] = ()) -> Decision:
    """A single-call method: one agent, one final answer (temperature 0) to `method_<template>.txt`."""
    agent = answerer(ctx, kind, examples=examples)
    text = await final_answer(question, ctx, agent, prompt(template, question))
    return Decision(text=text, level=method, details={"exemplars": len(examples) // 2} if examples else {})


async def sampled(agent: Agent, text: str, question: Question, sample: int, *, chat: bool = False) -> str:
    """One sampled answer; `sample` (1, 2, ...) is sent as the seed, so samples are distinct calls
    (and distinct cache entries) that replay identically."""
    ask = agent.chat if chat else agent.ask
    return await ask(text, temperature=SAMPLING_TEMPERATURE, seed=sample, **answer_params(question))
