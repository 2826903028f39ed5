"""Runs questions through the pipelines, --concurrency of them at work, one record per question.

Every sample ends as a record: a failure is recorded with `error` and the run goes on.
Records are appended (and fsync'd, off the event loop) as samples finish, so a killed run resumes where it was.
"""

from __future__ import annotations

import asyncio
import importlib
import time
import traceback
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from mdagents.data.datasets import Question
from mdagents.errors import BudgetExceeded, EmptyReplyError, EndpointGone, MDAgentsError, ServerUnusable
from mdagents.llm.budget import Budget
from mdagents.llm.cache import cache_variant
from mdagents.llm.client import LLM
from mdagents.llm.limiter import request_priority, retry_wait
from mdagents.llm.mock import expected_answer
from mdagents.llm.prices import Costs, call_costs
from mdagents.llm.transcript import Transcript
from mdagents.methods import resolve as resolve_method
from mdagents.pipelines.base import Decision, Finalizer, Level, PipelineContext, finalize_once
from mdagents.redact import redact
from mdagents.run.config import RunConfig
from mdagents.run.store import RunDirectory, now_iso
from mdagents.scoring import grade, grade_reading
from mdagents.scoring.llm_extractor import extract_with_llm, worth_extracting


class QuestionsWaiting:
    """How many questions in flight only wait out a retry delay (a 429's Retry-After, a backoff).

    --concurrency counts the questions at work: one whose calls wait on the clock lends its place,
    so a rate-limited question delays itself, not the run. With 5% of requests answered 429 a
    question spends about as long waiting as working, and twice --concurrency in flight binds;
    at most `LENDING` × --concurrency questions are. While the endpoint is saturated (a storm of
    429s) nothing is lent: a new question would only meet more 429s, and a storm cannot start
    the whole dataset. A finished question whose record is on its way to disk is not at work either.
    """

    LENDING = 4  # questions in flight, at most, per --concurrency place

    def __init__(self) -> None:
        self.count = 0
        self.saving = 0  # questions done with their calls whose records are on their way to disk
        self._changed = asyncio.Event()

    @contextmanager
    def storing(self) -> Iterator[None]:
        """Around a finished question's durable write: it is no longer at work, so the next one starts
        while the record reaches the disk (it still counts as finished only once it is there)."""
        self.saving += 1
        self._changed.set()
        try:
            yield
        finally:
            self.saving -= 1

    def hook(self) -> Callable[[bool], None]:
        """One question's `retry_wait` hook: it waits while any of its calls sleeps out a delay."""
        sleeping = 0

        def changed(started: bool) -> None:
            nonlocal sleeping
            sleeping += 1 if started else -1
            if started and sleeping == 1:
                self.count += 1
                self._changed.set()
            elif not started and sleeping == 0:
                self.count -= 1

        return changed

    def full(self, in_flight: int, concurrency: int, *, storm: bool = False) -> bool:
        """No room for another question: `concurrency` at work, or the lending cap, or a storm."""
        working = in_flight - self.saving
        lent = 0 if storm else self.count
        return working - lent >= concurrency or working >= self.LENDING * concurrency

    async def next_change(self, in_flight: set[asyncio.Task[None]]) -> set[asyncio.Task[None]]:
        """Wait until a question finishes, starts waiting or starts storing its record; the finished ones."""
        self._changed.clear()
        changed = asyncio.ensure_future(self._changed.wait())
        try:
            done, _ = await asyncio.wait({*in_flight, changed}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            changed.cancel()
        return {task for task in done if task is not changed}  # type: ignore[misc]


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
    reason: str | None = None
    if decision is not None and error is None:
        graded = notes.get("extracted") or grade(response, question,
                                                 finish_reason=transcript.finish_reason_of(response))
        prediction, parse_status, correct, extraction, reason = (graded.prediction, graded.parse_status,
                                                                 graded.correct, graded.extraction, graded.reason)
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
        "no_answer_reason": reason,
        "correct": correct,
        "usage": {"total": total.to_dict(),
                  "by_role": {k: v.to_dict() | {"cost_usd": costs.by_role.get(k)}
                              for k, v in transcript.by_role().items()}},
        "calls": total.calls,
        "cost_usd": costs.total,
        "paid_usd": costs.paid,
        "replayed_usd": costs.replayed,
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
        self.waiting = QuestionsWaiting()
        self.method = resolve_method(config.method)

    def transcript_costs(self, transcript: Transcript) -> Costs:
        """Spent and cached-reply costs of a transcript's calls, each priced by the model that made it."""
        llms = {m.name: m for m in (*self.extra_llms, self.llm)}
        if any(m.price is None for m in llms.values()):  # unknown, even for a question that made no call
            return Costs(None, None, None, dict.fromkeys(transcript.by_role(), None))
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
            if self.method.solve is not None:  # a baseline or plugin (mdagents/methods/): no levels
                level, source = self.method.label, "method"  # type: ignore[assignment]
                decision = await self.method.decide(question, ctx)
            else:
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
            if isinstance(exc, EndpointGone) or not any(m.ledger.successes for m in self._llms()):
                raise RunAborted(str(exc)) from None  # the server never answered, or stopped: write nothing
            error = redact(f"{type(exc).__name__}: {exc}")
        except MDAgentsError as exc:
            error = redact(f"{type(exc).__name__}: {exc}")
        except Exception as exc:  # a bug or an unexpected SDK failure: record it, keep the run going
            error = redact(f"{type(exc).__name__}: {exc}")
            if self.config.verbose:
                self.log(redact(traceback.format_exc()))
        self._stop_if_endpoint_gone(ctx.transcript)
        return {"fingerprint": self.fingerprint, "method": self.method.name} | build_record(
            question, dataset=self.dataset, split=self.config.split, model=self.llm.name, seed=self.config.seed,
            level=level, level_source=source, decision=decision, transcript=ctx.transcript, notes=ctx.notes,
            costs=self.transcript_costs(ctx.transcript), latency_s=time.perf_counter() - started, error=error,
        ) | {"_transcript": ctx.transcript.to_list()}

    def _llms(self) -> list[LLM]:
        return [self.llm, *self.extra_llms, *([self.extractor] if self.extractor else [])]

    def _storm(self) -> bool:
        """Whether an endpoint of this run is answering a storm of 429s (its limiter saw one)."""
        return any(m.limiter.saturated for m in self._llms())

    def _stop_if_endpoint_gone(self, transcript: Transcript) -> None:
        """A question with a failed call while its server is gone is not recorded, even when a step
        (retrieval, the critic) carried on without that call: a re-run does the question whole."""
        gone = next((m for m in self._llms() if m.endpoint_gone), None)
        if gone is not None and any(call.error for call in transcript.calls):
            raise RunAborted(gone.gone_message())

    async def _extract_if_needed(self, question: Question, decision: Decision, ctx: PipelineContext) -> None:
        """The LLM extraction step, only for what grading could not read (no answer, a conflict, an alias)."""
        graded = grade(decision.text, question, finish_reason=ctx.transcript.finish_reason_of(decision.text))
        if worth_extracting(graded):
            assert self.extractor is not None
            found = await extract_with_llm(decision.text, question.options, self.extractor, ctx.transcript)
            if found.letter is not None:
                ctx.notes["extracted"] = grade_reading(found, question)

    async def _run_and_store(self, question: Question, outcome: RunOutcome, position: int) -> None:
        request_priority.set(position)  # earlier questions' calls first when the in-flight cap binds
        retry_wait.set(self.waiting.hook())  # a question sleeping out a retry delay lends its place
        cache_variant.set(int(question.meta.get("repeat", 0)))
        expected_answer.set((question.answer_idx, question.answer))  # only mock/oracle reads it
        try:
            record = await self.solve_one(question)
        except BudgetExceeded:
            outcome.status = "budget_exhausted"
            return
        transcript = record.pop("_transcript")
        with self.waiting.storing():
            await self.run_dir.save(question.id, record, transcript)  # counted below only once it is on disk
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
                while self.waiting.full(len(in_flight), self.config.concurrency, storm=self._storm()):
                    done = await self.waiting.next_change(in_flight)
                    in_flight -= done
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
