"""The Reflexion loop (Shinn et al. 2023) as a pipeline Finalizer: decide, critique, revise; N decisions at most.

It wraps the final decision step of any pipeline (see mdagents.pipelines.base). The inner
finalizer (default: ask once; with --rag the retrieval finalizer) produces the first decision;
on FAIL (or a retryable UNVERIFIED) the critic's feedback is appended to the final prompt --
after whatever extra text the inner finalizer gave it, so retrieved guidelines stay in view --
and the decider tries again, until `attempts` decisions have been reviewed. A decision that has
not passed by then gets the safe fallback: multiple choice keeps the last answer, recorded as not
passed (or abstains), free text returns the "inconclusive -- consult a clinician" message.
"""

from __future__ import annotations

from typing import Any

from mdagents.critic.review import (
    CriticVerdict,
    Mode,
    check_mode,
    fallback_text,
    inference_error_verdict,
    review,
)
from mdagents.critic.vocab import message
from mdagents.data.datasets import Question
from mdagents.errors import LLMCallError, UsageError
from mdagents.llm.client import LLM
from mdagents.pipelines.base import FinalAttempt, Finalizer, PipelineContext, finalize_once
from mdagents.prompts import render
from mdagents.scoring import read_answer


def rag_chunks(ctx: PipelineContext) -> list[dict[str, Any]] | None:
    """Guideline chunks the --rag finalizer left in ctx.notes["rag"]["chunks"]; None when no retrieval ran."""
    rag = ctx.notes.get("rag")
    if not isinstance(rag, dict):
        return None
    chunks = rag.get("chunks")
    return [c for c in chunks if isinstance(c, dict)] if isinstance(chunks, list) else []


def revision_prompt(verdict: CriticVerdict, base_extra: str | None) -> str:
    """The extra text of the next attempt: the inner finalizer's own extra, then the critic's feedback.

    An UNVERIFIED verdict's own text says why the check could not run, which the decider cannot
    act on; it gets the standing request to keep to the cited sections instead. The previous
    answer itself is not repeated: the pipeline's final step (pipelines/final.py) shows the
    decider its previous reply on every later attempt.
    """
    said = message("unverified_retry") if verdict.verdict == "UNVERIFIED" else verdict.feedback.strip()
    feedback = render("critic_feedback", feedback=said)
    return f"{base_extra.rstrip()}\n\n{feedback}" if base_extra else feedback


def _changed(first: str, final: str, mode: Mode, question: Question) -> bool:
    """Whether the critic's revisions changed the decision: for a question with options, the answer as
    grading reads it (the same reader as the grade)."""
    if mode == "mcq":
        return read_answer(first, question.options).letter != read_answer(final, question.options).letter
    return first.strip() != final.strip()


def make_critic_finalizer(
    *,
    critic_llm: LLM | None,
    attempts: int = 2,
    abstain: bool = False,
    mode: str = "mcq",
    inner: Finalizer | None = None,
) -> Finalizer:
    """A Finalizer that reviews at most `attempts` decisions, revising after each one that did not pass.

    `critic_llm` does the entailment check (default: the decider's own model, ctx.llm).
    Records ctx.notes["critic"] = {verdict, decisions, attempts: [{verdict, layer, feedback,
    issues, decision}], changed_answer[, fallback]}, where `verdict` is the last reviewed
    decision's, and ctx.notes["abstained"] = True when `abstain` is on and it did not pass.
    """
    checked_mode = check_mode(mode)
    if attempts < 1:
        raise UsageError(f"critic attempts (decisions reviewed in total) must be 1 or more, not {attempts}")
    first_step = inner or finalize_once

    async def finalize(question: Question, attempt: FinalAttempt, ctx: PipelineContext) -> str:
        checker = critic_llm or ctx.llm
        inner_extra: list[str | None] = [None]

        async def remembering(extra: str | None) -> str:
            inner_extra[0] = extra
            return await attempt(extra)

        record: dict[str, Any] = {"verdict": None, "decisions": 0, "attempts": [], "changed_answer": False}
        ctx.notes["critic"] = record

        def note(verdict: CriticVerdict, decision: str | None) -> None:
            record["attempts"].append({**verdict.to_dict(), "decision": decision})
            if decision is not None or record["verdict"] is None:  # a failed call leaves the last verdict
                record["verdict"] = verdict.verdict
            ctx.say(f"critic: {verdict.verdict}" + (f" ({verdict.layer})" if verdict.layer else ""))

        async def judge(decision: str) -> CriticVerdict:
            record["decisions"] += 1
            verdict = await review(decision, question=question, mode=checked_mode, context_chunks=rag_chunks(ctx),
                                   llm=checker, transcript=ctx.transcript)
            note(verdict, decision)
            return verdict

        try:
            first = await first_step(question, remembering, ctx)
        except LLMCallError as exc:
            note(inference_error_verdict(exc), None)
            raise
        text, verdict = first, await judge(first)
        while verdict.verdict != "PASS" and verdict.retry and record["decisions"] < attempts:
            try:
                text = await attempt(revision_prompt(verdict, inner_extra[0]))
            except LLMCallError as exc:
                note(inference_error_verdict(exc), None)  # keep the last decision we have
                break
            verdict = await judge(text)

        if record["verdict"] != "PASS":
            if abstain:
                ctx.notes["abstained"] = True
            if checked_mode == "free_text":
                text = fallback_text()
                record["fallback"] = True
        record["changed_answer"] = _changed(first, text, checked_mode, question)
        return text

    return finalize
