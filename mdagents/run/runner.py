"""Runs questions through the pipelines, at most --concurrency in flight, one record per question.

Every sample ends as a record: a failure is recorded with `error` and the run goes on.
Records are appended (and fsync'd) as samples finish, so a killed run resumes where it was.
"""

from __future__ import annotations

import asyncio
import importlib
import time
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from mdagents.data.datasets import Question
from mdagents.errors import BudgetExceeded, EmptyReplyError, MDAgentsError, ServerUnusable
from mdagents.llm.budget import Budget
from mdagents.llm.cache import cache_variant
from mdagents.llm.client import LLM
from mdagents.llm.limiter import request_priority
from mdagents.llm.mock import expected_answer
from mdagents.llm.prices import Costs, call_costs
from mdagents.llm.transcript import Transcript
from mdagents.pipelines.base import Decision, Finalizer, Level, PipelineContext, finalize_once
from mdagents.redact import redact
from mdagents.run.config import RunConfig
from mdagents.run.store import RunDirectory, now_iso
from mdagents.scoring import grade
from mdagents.scoring.extraction import extract, is_ambiguous
from mdagents.scoring.llm_extractor import extract_with_llm


class RunAborted(Exception):
    """Raised inside the runner when the run must stop at once (the message says why)."""


@dataclass
class RunOutcome:
    started: int = 0
    finished: int = 0
    failed: int = 0
    status: str = "finished"  # finished | interrupted | budget_exhausted | failed
    wall_s: float = 0.0
    abort: str | None = None  # why the run stopped early (a server that never answered), when it did
    errors: list[str] = field(default_factory=list)


def pipeline_for(level: Level) -> Callable[[Question, PipelineContext], Any]:
    return importlib.import_module(f"mdagents.pipelines.{level}").solve  # type: ignore[no-any-return]


async def choose_level(question: Question, ctx: PipelineContext, difficulty: str) -> tuple[Level, str]:
    if difficulty != "adaptive":
        return difficulty, "forced"  # type: ignore[return-value]
    from mdagents.pipelines.difficulty import classify

    return await classify(question, ctx)


def build_record(
    question: Question,
    *,
    dataset: str,
    split: str,
    model: str,
    seed: int,
    level: str | None,
    level_source: str | None,
    decision: Decision | None,
    transcript: Transcript,
    notes: dict[str, Any],
    costs: Costs,
    latency_s: float,
    error: str | None,
) -> dict[str, Any]:
    """One results.jsonl line (format in docs/records.md)."""
    response = decision.text if decision else ""
    if decision is not None and error is None:
        graded = grade(response, question)
        prediction, parse_status, correct, extraction = (graded.prediction, graded.parse_status, graded.correct,
                                                         graded.extraction)
        if extracted := notes.get("extracted"):  # the optional LLM extractor, when the cascade found nothing
            prediction, parse_status, extraction = extracted, "ok", "llm"
            correct = prediction == question.answer_idx
    else:
        prediction, parse_status, correct, extraction = None, "failed", None, "none"
    abstained = bool(notes.get("abstained"))
    if abstained:
        correct = None
    total = transcript.total()
    record: dict[str, Any] = {
        "id": question.id,
        "dataset": dataset,
        "split": split,
        "question": question.question,
        "options": question.options,
        "answer_idx": question.answer_idx,
        "answer": question.answer,
        "original_answer_idx": question.meta.get("original_answer_idx", question.answer_idx),
        "difficulty": level,
        "difficulty_source": level_source,
        "response": response,
        "prediction": prediction,
        "parse_status": parse_status,
        "extraction": extraction,
        "correct": correct,
        "usage": {"total": total.to_dict(),
                  "by_role": {k: v.to_dict() | {"cost_usd": costs.by_role.get(k)}
                              for k, v in transcript.by_role().items()}},
        "calls": total.calls,
        "cost_usd": costs.spent,
        "cached_cost_usd": costs.cached,
        "latency_s": round(latency_s, 3),
        "model": model,
        "seed": seed,
        "error": error,
        "details": decision.details if decision else {},
        "finished_at": now_iso(),
    }
    if question.context:
        record["context"] = question.context
    if "repeat" in question.meta:
        record["question_id"], record["repeat"] = question.meta["question_id"], question.meta["repeat"]
    if "rag" in notes:
        rag = dict(notes["rag"])
        rag["chunks"] = [{k: v for k, v in c.items() if k != "content"} for c in rag.get("chunks", [])]
        record["rag"] = rag
    if "critic" in notes:
        record["critic"] = notes["critic"]
    if abstained:
        record["abstained"] = True
    return record


class Runner:
    def __init__(
        self,
        config: RunConfig,
        llm: LLM,
        run_dir: RunDirectory,
        *,
        dataset: str,
        exemplars: list[Question],
        finalize: Finalizer = finalize_once,
        extra_llms: Iterable[LLM] = (),
        on_record: Callable[[dict[str, Any]], None] | None = None,
        log: Callable[[str], None] = print,
        extractor: LLM | None = None,
        fingerprint: str | None = None,
        budget: Budget | None = None,
    ) -> None:
        self.config = config
        self.budget = budget
        self.llm = llm
        self.run_dir = run_dir
        self.dataset = dataset
        self.exemplars = exemplars
        self.finalize = finalize
        self.extra_llms = list(extra_llms)
        self.on_record = on_record
        self.log = log
        self.extractor = extractor
        self.fingerprint = fingerprint
        self.shared: dict[str, Any] = {}
        self.stop = asyncio.Event()

    def transcript_costs(self, transcript: Transcript) -> Costs:
        """Spent and cached-reply costs of a transcript's calls, each priced by the model that made it."""
        llms = {m.name: m for m in (*self.extra_llms, self.llm)}
        return call_costs(transcript.calls, lambda model, usage: llms.get(model, self.llm).cost(usage))

    async def solve_one(self, question: Question) -> dict[str, Any]:
        ctx = PipelineContext(
            llm=self.llm, transcript=Transcript(), settings=self.config.settings, exemplars=self.exemplars,
            finalize=self.finalize, verbose=self.config.verbose, log=self.log, shared=self.shared,
            cache_hint=question.id,
        )
        started = time.perf_counter()
        level: Level | None = None
        source: str | None = None
        decision: Decision | None = None
        error: str | None = None
        try:
            level, source = await choose_level(question, ctx, self.config.difficulty)
            ctx.say(f"[{question.id}] difficulty: {level} ({source})")
            decision = await pipeline_for(level)(question, ctx)
            if self.extractor is not None and not ctx.notes.get("abstained"):
                await self._extract_if_needed(question, decision, ctx)
        except (asyncio.CancelledError, BudgetExceeded):
            raise  # a question the budget stopped is not recorded: a resumed run does it again
        except EmptyReplyError:
            error = EmptyReplyError.code
        except ServerUnusable as exc:
            if not any(m.ledger.successes for m in (self.llm, *self.extra_llms)):
                raise RunAborted(str(exc)) from None  # no call of this run ever succeeded: stop, write nothing
            error = redact(f"{type(exc).__name__}: {exc}")
        except MDAgentsError as exc:
            error = redact(f"{type(exc).__name__}: {exc}")
        except Exception as exc:  # a bug or an unexpected SDK failure: record it, keep the run going
            error = redact(f"{type(exc).__name__}: {exc}")
            if self.config.verbose:
                self.log(redact(traceback.format_exc()))
        return {"fingerprint": self.fingerprint} | build_record(
            question, dataset=self.dataset, split=self.config.split, model=self.llm.name, seed=self.config.seed,
            level=level, level_source=source, decision=decision, transcript=ctx.transcript, notes=ctx.notes,
            costs=self.transcript_costs(ctx.transcript), latency_s=time.perf_counter() - started, error=error,
        ) | {"_transcript": ctx.transcript.to_list()}

    async def _extract_if_needed(self, question: Question, decision: Decision, ctx: PipelineContext) -> None:
        """The LLM extraction step, only when the cascade found nothing at all (not on ambiguity)."""
        found = extract(decision.text, question.options)
        if found.letter is None and not is_ambiguous(decision.text, question.options):
            assert self.extractor is not None
            letter = await extract_with_llm(decision.text, question.options, self.extractor, ctx.transcript)
            if letter is not None:
                ctx.notes["extracted"] = letter

    async def _run_and_store(self, question: Question, outcome: RunOutcome, position: int) -> None:
        request_priority.set(position)  # earlier questions' calls first when the in-flight cap binds
        cache_variant.set(int(question.meta.get("repeat", 0)))
        expected_answer.set((question.answer_idx, question.answer))  # only mock/oracle reads it
        try:
            record = await self.solve_one(question)
        except BudgetExceeded:
            outcome.status = "budget_exhausted"
            return
        transcript = record.pop("_transcript")
        self.run_dir.write_transcript(question.id, transcript)
        self.run_dir.append(record)
        outcome.finished += 1
        if record["error"]:
            outcome.failed += 1
            outcome.errors.append(f"{record['id']}: {record['error']}")
        if self.on_record:
            self.on_record(record)

    async def run(self, questions: Iterable[Question]) -> RunOutcome:
        """Run every question (already filtered to the ones still to do) with bounded concurrency."""
        outcome = RunOutcome()
        started = time.perf_counter()
        in_flight: set[asyncio.Task[None]] = set()
        try:
            for question in questions:
                while len(in_flight) >= self.config.concurrency:
                    done, in_flight = await asyncio.wait(in_flight, return_when=asyncio.FIRST_COMPLETED)
                    _raise_first_failure(done)  # a record that could not be stored (e.g. disk full)
                if self.stop.is_set():
                    outcome.status = "interrupted"
                    break
                if outcome.status == "budget_exhausted" or (self.budget is not None and self.budget.exhausted):
                    outcome.status = "budget_exhausted"
                    break
                outcome.started += 1
                in_flight.add(asyncio.create_task(self._run_and_store(question, outcome, outcome.started)))
            while in_flight:
                done, in_flight = await asyncio.wait(in_flight, return_when=asyncio.FIRST_EXCEPTION)
                _raise_first_failure(done)
        except OSError:  # results cannot be stored: stop the other questions, report the failure once
            for task in in_flight:
                task.cancel()
            await asyncio.gather(*in_flight, return_exceptions=True)
            raise
        except RunAborted as exc:
            for task in in_flight:
                task.cancel()
            await asyncio.gather(*in_flight, return_exceptions=True)
            outcome.status, outcome.abort = "failed", str(exc)
        except asyncio.CancelledError:
            for task in in_flight:
                task.cancel()
            await asyncio.gather(*in_flight, return_exceptions=True)
            outcome.status = "interrupted"
        finally:
            outcome.wall_s = time.perf_counter() - started
        return outcome


def _raise_first_failure(tasks: Iterable[asyncio.Task[None]]) -> None:
    """Re-raise the first failure among finished tasks, having retrieved every one (so asyncio prints no
    "exception was never retrieved" tracebacks for the others)."""
    failures = [task.exception() for task in tasks if not task.cancelled()]
    for failure in failures:
        if failure is not None:
            raise failure
