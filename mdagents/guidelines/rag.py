"""`--rag` at decision time: a Finalizer that checks the pipeline's decision against retrieved guidelines.

The decider answers once; the chosen option (the condition or intervention) plus the findings
extracted from the question form the search; the retrieved sections go back to the decider,
who may revise its answer citing them. `ctx.notes["rag"]` records the query, the chunks
(id, source, section, similarity) and whether the answer changed.
"""

from __future__ import annotations

import re
from typing import Any

from mdagents.data.datasets import Question
from mdagents.errors import LLMCallError, StoreError
from mdagents.guidelines.errors import EmbeddingError
from mdagents.guidelines.findings import extract_findings
from mdagents.guidelines.records import Chunk
from mdagents.guidelines.retriever import Retriever, query_text
from mdagents.pipelines.base import FinalAttempt, Finalizer, PipelineContext
from mdagents.prompts import render
from mdagents.scoring import read_answer

DEFAULT_K = 5
MAX_CHARS_PER_CHUNK = 2400  # keeps k=5 sections within a small model's context


def chosen_letter(text: str, question: Question) -> str | None:
    """The option letter a reply chose, read as grading reads it."""
    return read_answer(text, question.options).letter


def search_terms(question: Question, letter: str | None) -> tuple[str, str]:
    """(condition, findings): the chosen option's text, or the question's last sentence without one."""
    stem = " ".join(filter(None, (question.context, question.question)))
    findings = extract_findings(stem).text()
    if letter is not None and letter in question.options:
        return question.options[letter], findings
    sentences = [s for s in re.split(r"(?<=[.?!])\s+", question.question.strip()) if s]
    return (sentences[-1] if sentences else question.question), findings


def render_sections(chunks: list[Chunk], max_chars: int = MAX_CHARS_PER_CHUNK) -> str:
    parts = []
    for number, chunk in enumerate(chunks, start=1):
        content = chunk.content if len(chunk.content) <= max_chars else chunk.content[:max_chars].rstrip() + " ..."
        parts.append(render("rag_section", number=number, source=chunk.source, section=chunk.section,
                            similarity=f"{chunk.similarity or 0.0:.2f}", content=content))
    return "\n\n".join(parts)


def make_rag_finalizer(retriever: Retriever, *, k: int = DEFAULT_K,
                       max_chars_per_chunk: int = MAX_CHARS_PER_CHUNK) -> Finalizer:
    """A Finalizer (see mdagents.pipelines.base) that revises the decision with guideline sections."""

    async def finalize(question: Question, attempt: FinalAttempt, ctx: PipelineContext) -> str:
        first = await attempt(None)
        first_letter = chosen_letter(first, question)
        condition, findings = search_terms(question, first_letter)
        query = query_text(condition, findings)
        note: dict[str, Any] = {"query": query, "condition": condition, "findings": findings, "chunks": [],
                                "first_answer": first_letter, "changed_answer": False}
        ctx.notes["rag"] = note
        try:
            chunks = await retriever.search(condition, findings, k)
        except (StoreError, EmbeddingError, LLMCallError) as exc:
            # The decision stands without guidelines; the record says why.
            note["error"] = str(exc)
            ctx.say(f"[rag] retrieval failed: {exc}")
            return first
        # "content" is for the critic's entailment check; the runner leaves it out of the record.
        note["chunks"] = [{"id": c.id, "source": c.source, "section": c.section,
                           "similarity": round(c.similarity or 0.0, 4), "content": c.content} for c in chunks]
        if not chunks:
            return first
        ctx.say(f"[rag] {query!r} -> " + "; ".join(c.section for c in chunks))
        revised = await attempt(render("rag_context", query=query,
                                       sections=render_sections(chunks, max_chars_per_chunk)))
        final_letter = chosen_letter(revised, question)
        note["final_answer"] = final_letter
        note["changed_answer"] = final_letter != first_letter
        return revised

    return finalize
