"""One run, assembled and executed: model client, plan, resume, finalizers, signals, summary.

The CLI parses flags into a RunConfig, calls `execute_run` once with its progress hooks,
and prints what comes back; nothing here prints or picks an exit code.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import itertools
import json
import os
import signal
import sys
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mdagents import prompts
from mdagents.analysis.costs import rounded_usd
from mdagents.analysis.summary import summarize
from mdagents.analysis.variants import variant_record
from mdagents.data.datasets import (
    DatasetSource,
    Question,
    iter_questions,
    load_exemplars,
    resolve_dataset,
    shuffle_options,
)
from mdagents.errors import ConfigError, DatasetError, MDAgentsError, UsageError
from mdagents.llm.budget import Budget
from mdagents.llm.client import LLM, RetryPolicy
from mdagents.llm.factory import build_llm
from mdagents.llm.models import parse_model
from mdagents.llm.prices import no_price_fix, plus_known
from mdagents.methods import resolve as resolve_method
from mdagents.pipelines.base import Finalizer, finalize_once
from mdagents.pipelines.exemplars import RUN_TRANSCRIPT
from mdagents.run.activity import CallActivity, call_activity
from mdagents.run.batching import start_batch_mode
from mdagents.run.collector import run_collection
from mdagents.run.config import RunConfig, cache_path_for
from mdagents.run.fingerprint import check_resume, fingerprint_fields, short_hash
from mdagents.run.lock import RunLock
from mdagents.run.runner import Runner, RunOutcome
from mdagents.run.store import (
    RunDirectory,
    atomic_write_json,
    git_commit,
    now_iso,
    run_name,
    versions,
    write_json_list,
)
from mdagents.run.totals import RunTotals


def _retry_policy(config: RunConfig) -> RetryPolicy | None:
    if config.timeout is None and config.max_retries == 4:
        return None  # provider defaults (the local model gets a longer timeout)
    default = RetryPolicy(timeout=900.0) if config.model_spec.provider == "local" else RetryPolicy()
    return RetryPolicy(max_retries=config.max_retries, timeout=config.timeout or default.timeout)


def make_llm(config: RunConfig, model: str | None = None, budget: Budget | None = None) -> LLM:
    """The client for --model (or another model of the run, e.g. the critic's), priced and under `budget`.

    --price-in/--price-out price --model only; a cap that cannot be kept (unknown price) is refused."""
    spec = config.model_spec if model is None else parse_model(model, config.base_url)
    own = model is None
    llm = build_llm(spec, cache_path=cache_path_for(config), retry=_retry_policy(config),
                    max_connections=config.in_flight_cap(), price_file=config.price_file,
                    price_in=config.price_in if own else None, price_out=config.price_out if own else None,
                    budget=budget, seed=config.seed, max_tokens=config.max_tokens,
                    model_args=config.model_args if own else None)
    if budget is not None and budget.limit is not None and llm.price is None:
        raise ConfigError(f"--max-cost needs the price of every model: {no_price_fix(spec)}")
    if budget is not None and llm.price is None:
        budget.unpriced = True  # what the run spends is unknown, even when every reply is replayed
    return llm


def planned_questions(config: RunConfig, source: Any, done: set[str]) -> Iterator[Question]:
    """The questions of this run (and shard) not yet done, options shuffled per seed."""
    for position, question in enumerate(iter_questions(source, limit=config.num_samples)):
        if config.shard is not None and not config.shard.owns(position):
            continue
        shown = shuffle_options(question, config.seed) if config.shuffle else question
        for repeat in range(1, config.repeats + 1):
            copy = shown if config.repeats == 1 else repeat_of(shown, repeat)
            if copy.id not in done:
                yield copy


def repeat_of(question: Question, repeat: int) -> Question:
    """The `repeat`-th run of a question: its own id (`<id>#<k>`), the question's id kept in meta."""
    return dataclasses.replace(question, id=f"{question.id}#{repeat}",
                               meta={**question.meta, "question_id": question.id, "repeat": repeat})


def build_finalizer(config: RunConfig, llm: LLM, closers: list[Callable[[], Awaitable[None]]],
                    budget: Budget | None = None) -> tuple[Finalizer, list[LLM]]:
    """The final-decision wrapper chain: plain, or guideline retrieval, or critic (around retrieval).

    Resources to release after the run (the guideline store) are appended to `closers`."""
    finalize: Finalizer = finalize_once
    extra: list[LLM] = []
    inner: Finalizer | None = None
    if config.rag:
        from mdagents.guidelines.rag import make_rag_finalizer
        from mdagents.guidelines.retriever import open_store_retriever

        retriever = open_store_retriever(db_url=config.db_url)
        closers.append(retriever.aclose)
        inner = finalize = make_rag_finalizer(retriever, k=config.rag_k)
    if config.critic:
        from mdagents.critic import make_critic_finalizer

        critic_llm = llm
        if config.critic_model:
            critic_llm = make_llm(config, config.critic_model, budget)
            extra.append(critic_llm)
        finalize = make_critic_finalizer(critic_llm=critic_llm, attempts=config.critic_attempts,
                                         abstain=config.critic_abstain, mode="mcq", inner=inner)
    return finalize, extra


def _run_overhead(runner: Runner, run_dir: RunDirectory) -> dict[str, Any]:
    """Calls made for the run as a whole (per-run exemplar rationales), kept apart from per-question usage."""
    transcript = runner.shared.get(RUN_TRANSCRIPT)
    if transcript is None or not transcript.calls:
        return {"calls": 0, "input_tokens": 0, "output_tokens": 0, "cost_usd": 0.0, "paid_usd": 0.0,
                "replayed_usd": 0.0}
    run_dir.write_transcript("_run", transcript.to_list())
    total = transcript.total()
    costs = runner.transcript_costs(transcript)
    return {"calls": total.calls, "input_tokens": total.input_tokens, "output_tokens": total.output_tokens,
            "cost_usd": costs.total, "paid_usd": costs.paid, "replayed_usd": costs.replayed}


def session_costs(llms: Iterable[LLM]) -> dict[str, Any]:
    """What this process paid and replayed from the cache, over every model of the run (None: unpriced)."""
    paid: float | None = 0.0
    replayed: float | None = 0.0
    hits = 0
    for model in llms:
        paid, replayed = plus_known(paid, model.ledger.spent_usd), plus_known(replayed, model.ledger.cached_usd)
        hits += model.ledger.cache_hits
    return {"paid_usd": rounded_usd(paid), "replayed_usd": rounded_usd(replayed), "cache_hits": hits}


INCOMPLETE = {"budget_exhausted": "budget", "interrupted": "interrupted"}  # summary["incomplete"]


def sample_set_note(dataset: str) -> str:
    return (f"note: '{dataset}' is the small sample set shipped with mdagents (written for testing, not the "
            f"public benchmark); fetch the public set with: python main.py datasets prepare {dataset}")


def _seed_compatible(records: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """The original tool's output list: question, label, answer, options, response, difficulty."""
    for r in records:
        yield {"id": r["id"], "question": r["question"], "label": r["answer_idx"], "answer": r["answer"],
               "options": r["options"], "response": r["response"], "prediction": r["prediction"],
               "difficulty": r["difficulty"]}


@dataclass
class RunHooks:
    """How a caller follows a run: a note before it starts, the planned total, each record, log lines."""

    note: Callable[[str], None] = lambda text: None
    start: Callable[[int, str], None] = lambda total, label: None
    record: Callable[[dict[str, Any]], None] = lambda record: None
    log: Callable[[str], None] = lambda text: None
    finish: Callable[[], None] = lambda: None
    # Given, before `start`, a function that reads the run's call activity at any moment (from any thread).
    watch: Callable[[Callable[[], CallActivity]], None] = lambda poll: None


@dataclass
class RunResult:
    """What a finished (or stopped) run leaves: where, its summary, and how it ended."""

    run_dir: Path
    summary: dict[str, Any]
    outcome: RunOutcome
    model: str


@dataclass
class DryRunPlan:
    """What --dry-run shows: the questions that would run and what the run can use."""

    questions: list[Question]
    done: int
    exemplars: int
    run_dir: Path


class OutputError(UsageError):
    """The output directory cannot be created or written (a missing parent, no permission, a read-only disk)."""


class RunFailed(MDAgentsError):
    """The run could not go on (the results could not be written, or the model's server is unusable)."""


def execute_run(config: RunConfig, hooks: RunHooks | None = None, *,
                manifest_extra: dict[str, Any] | None = None) -> RunResult | DryRunPlan:
    """Run one configuration; `manifest_extra` adds to the manifest (a sweep names its executor and cell)."""
    with prompts.overridden(config.prompts_dir):  # --prompts-dir applies to this run only
        return _execute_run(config, hooks, manifest_extra=manifest_extra)


def _execute_run(config: RunConfig, hooks: RunHooks | None = None, *,
                 manifest_extra: dict[str, Any] | None = None) -> RunResult | DryRunPlan:
    hooks = hooks or RunHooks()
    spec = config.model_spec
    config.check_batch()
    # Keys (and a --max-cost without a price) first: reported before any dataset work.
    budget = Budget(config.max_cost)
    llm = None if config.dry_run else make_llm(config, budget=budget)
    source = resolve_dataset(config.dataset, split=config.split, data_dir=config.data_dir)
    if next(iter_questions(source, limit=1), None) is None:
        raise DatasetError(f"{source.path} holds no questions")
    if source.sample:
        hooks.note(sample_set_note(source.name))
    name = run_name(spec.safe_name, source.name, config.run_label, config.num_samples)
    fields = fingerprint_fields(config, source.path)
    fingerprint = short_hash(fields)
    shard = str(config.shard) if config.shard else None
    run_path = choose_run_dir(Path(config.output_dir), name, fingerprint, new_run=config.new_run)
    manifest_extra = variant_record(run_path, fields) | (manifest_extra or {})  # a `<name>-k`: what differs
    run_dir = RunDirectory(run_path, shard=shard, transcripts=config.transcripts)
    # the exemplars, and the train pool a method searches (medprompt's nearest neighbours)
    exemplars = load_exemplars(source, max(config.settings.num_exemplars, resolve_method(config.method).train_pool))
    wanted = config.settings.num_exemplars
    if config.difficulty in ("basic", "adaptive") and len(exemplars) < wanted:
        why = (f"{source.train_path} has only {len(exemplars)}" if source.train_path
               else f"no train.jsonl beside {source.path}")
        hooks.note(f"note: basic questions get {len(exemplars)} few-shot exemplar(s), not {wanted}: {why}")
    if config.dry_run:
        done = set() if config.fresh else run_dir.done_ids()
        return DryRunPlan(list(planned_questions(config, source, done)), done=len(done), exemplars=len(exemplars),
                          run_dir=run_dir.path)

    assert llm is not None
    lock = RunLock(run_path, shard)
    try:
        run_path.mkdir(parents=True, exist_ok=True)
        lock.acquire(wait=config.wait, on_wait=hooks.note)
    except OSError as exc:
        raise OutputError(f"cannot write the run directory {run_path}: {exc.strerror or exc}") from None
    try:
        if not config.fresh:
            check_resume(recorded_manifest(run_path), fields, run_path)
        return _run_locked(config, hooks, llm, budget, source, run_dir, name, exemplars, fields, fingerprint,
                           manifest_extra or {})
    except OSError as exc:
        raise RunFailed(f"cannot write to {run_path}: {exc.strerror or exc}; the questions already recorded are "
                        "kept: make room (or fix the permissions) and re-run the same command to resume") from None
    finally:
        lock.release()


def choose_run_dir(output_dir: Path, name: str, fingerprint: str, *, new_run: bool) -> Path:
    """`output/<name>`, or with --new-run the first `<name>-k` that holds this configuration or nothing yet."""
    if not new_run:
        return output_dir / name
    for k in itertools.count(1):
        candidate = output_dir / (name if k == 1 else f"{name}-{k}")
        manifest = recorded_manifest(candidate)
        if manifest is not None and manifest.get("fingerprint") == fingerprint:
            return candidate
        if manifest is None and not (candidate / "results.jsonl").exists() and not any(candidate.glob("results*")):
            return candidate
    raise AssertionError("unreachable")


def recorded_manifest(run_path: Path) -> dict[str, Any] | None:
    """The manifest a run directory already holds (any shard's), or None."""
    for path in [run_path / "manifest.json", *sorted(run_path.glob("manifest.shard-*.json"))]:
        with contextlib.suppress(OSError, ValueError):
            data = json.loads(path.read_text(encoding="utf-8"))
            if isinstance(data, dict):
                return data
    return None


def _run_locked(config: RunConfig, hooks: RunHooks, llm: LLM, budget: Budget, source: DatasetSource,
                run_dir: RunDirectory, name: str, exemplars: list[Question], fields: dict[str, Any],
                fingerprint: str, manifest_extra: dict[str, Any]) -> RunResult:
    damaged: list[str] = []
    done = set() if config.fresh else {r["id"] for r in run_dir.records(on_bad=lambda bad: damaged.append(str(bad)))
                                      if "id" in r}
    if damaged:
        hooks.note(f"warning: skipped {len(damaged)} damaged line(s) of {run_dir.results_path} "
                   f"(first: {damaged[0]}); their questions run again")
    if config.retry_failed:
        done -= {r["id"] for r in run_dir.records() if r.get("error")}
    run_dir.prepare(fresh=config.fresh, retry_failed=config.retry_failed)
    closers: list[Callable[[], Awaitable[None]]] = []
    finalize, extra = build_finalizer(config, llm, closers, budget)
    extractor = None
    if config.extractor_model is not None:
        extractor = llm if config.extractor_model == llm.name else make_llm(config, config.extractor_model, budget)
        if extractor is not llm:
            extra.append(extractor)
    batch = start_batch_mode(config, run_dir, [llm, *extra], budget, hooks.log) if config.batch else None
    totals = RunTotals.open(run_dir.totals_path, budget)
    planned = sum(1 for _ in planned_questions(config, source, done))  # a counting pass: memory stays flat
    manifest = {
        "run": name, "status": "running", "started_at": totals.started_at, "config": config.to_dict(),
        "fingerprint": fingerprint, "fingerprint_fields": fields,
        "dataset_path": str(source.path), "sample_set": source.sample,
        "price": llm.price.to_dict() if llm.price else None,
        "exemplars": {"path": str(source.train_path) if source.train_path else None,
                      "ids": [q.id for q in exemplars]},
        "versions": versions(), "git_commit": git_commit(),
        "prompt_hashes": prompts.hashes(), "command": sys.argv, "executor": "local",
    } | manifest_extra
    manifest_path = run_dir.path / (f"manifest.shard-{config.shard}.json" if config.shard else "manifest.json")
    atomic_write_json(manifest_path, manifest)

    if planned == 0 and done:
        hooks.note(f"complete: all {len(done)} question(s) of this run are already recorded in {run_dir.path}; "
                   "nothing to run (--fresh starts over, --retry-failed redoes the failed ones)")
    hooks.watch(lambda: call_activity([llm, *extra]))
    hooks.start(planned, f"{source.name} · {config.run_label}")
    run_dir.writer.checkpoint = totals.save  # the totals follow each durable batch of records

    runner = Runner(config, llm, run_dir, dataset=source.name, exemplars=exemplars, finalize=finalize,
                    extra_llms=extra, on_record=hooks.record, log=hooks.log, extractor=extractor,
                    fingerprint=fingerprint, budget=budget)
    questions = planned_questions(config, source, done)
    try:
        batch_close = [batch.aclose] if batch else []
        with run_collection():
            outcome = asyncio.run(_run_with_signals(runner, questions, [*batch_close, llm.aclose,
                                                                        *(m.aclose for m in extra), *closers]))
    finally:
        hooks.finish()
        run_dir.close()
        totals.save()

    summary = summarize(run_dir.records(), wall_s=totals.wall_s)
    summary["overhead"] = _run_overhead(runner, run_dir)
    summary |= {"status": outcome.status, "model": llm.name, "cache_hits": llm.ledger.cache_hits,
                "retries": llm.ledger.retries, "spent_usd": rounded_usd(budget.spent_usd),
                "this_session": session_costs([llm, *extra]), "sample_set": source.sample,
                "incomplete": INCOMPLETE.get(outcome.status), "fingerprint": fingerprint,
                "method": config.method}
    if batch is not None:
        summary["batch"] = batch.stats.to_dict()
    summary_path = run_dir.path / (f"summary.shard-{config.shard}.json" if config.shard else "summary.json")
    atomic_write_json(summary_path, summary)
    if config.shard is None:
        # Named after this run's own directory: a --new-run `<name>-2` never replaces `<name>.json`.
        write_json_list(run_dir.path.parent / f"{run_dir.path.name}.json", _seed_compatible(run_dir.records()))
    atomic_write_json(manifest_path, manifest | {"status": outcome.status, "finished_at": now_iso(),
                                                 "wall_s": round(totals.wall_s, 2)})
    if outcome.abort is not None:
        raise RunFailed(f"{outcome.abort}; finished questions are saved in {run_dir.path}: "
                        "re-run the same command to do the rest")
    return RunResult(run_dir=run_dir.path, summary=summary, outcome=outcome, model=llm.name)


async def _run_with_signals(runner: Runner, questions: Any,
                            closers: list[Callable[[], Awaitable[None]]]) -> RunOutcome:
    """Run with Ctrl-C/SIGTERM turned into a clean stop (in-flight samples cancelled, redone on resume).

    The handlers stay installed until the event loop closes: a local model call already running
    in a worker thread is waited for at shutdown, and a signal meanwhile must not kill the process
    before the summary is written. A second signal quits at once (every finished question is
    already on disk).
    """
    loop = asyncio.get_running_loop()
    run_task = asyncio.create_task(runner.run(questions))

    def stop() -> None:
        if runner.stop.is_set():
            os.write(2, b"stopping now: finished questions are saved; re-run the same command to resume\n")
            os._exit(130)
        os.write(2, b"stopping after the calls in progress (press Ctrl-C again to quit at once)\n")
        runner.stop.set()
        run_task.cancel()

    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop)
        except (NotImplementedError, RuntimeError):
            pass
    try:
        return await run_task
    finally:
        for close in closers:
            await close()
