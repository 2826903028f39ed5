"""One run, end to end, as the `run` command does it: plan, resume, run, summarise, print."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import Awaitable, Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from prettytable import PrettyTable
from tqdm import tqdm

from mdagents import prompts
from mdagents.config import RunConfig, cache_path_for
from mdagents.datasets import Question, iter_questions, load_exemplars, resolve_dataset, shuffle_options
from mdagents.llm.client import LLM, RetryPolicy
from mdagents.llm.factory import build_llm
from mdagents.llm.models import load_prices, parse_model
from mdagents.pipelines.base import Finalizer, finalize_once
from mdagents.pipelines.exemplars import RUN_TRANSCRIPT
from mdagents.results import (
    RunDirectory,
    atomic_write_json,
    git_commit,
    now_iso,
    run_name,
    versions,
    write_json_list,
)
from mdagents.runner import Runner, RunOutcome
from mdagents.summary import summarize


def _retry_policy(config: RunConfig) -> RetryPolicy | None:
    if config.timeout is None and config.max_retries == 4:
        return None  # provider defaults (the local model gets a longer timeout)
    default = RetryPolicy(timeout=900.0) if config.model_spec.provider == "local" else RetryPolicy()
    return RetryPolicy(max_retries=config.max_retries, timeout=config.timeout or default.timeout)


def make_llm(config: RunConfig, model: str | None = None) -> LLM:
    spec = config.model_spec if model is None else parse_model(model, config.base_url)
    return build_llm(spec, cache_path=cache_path_for(config), retry=_retry_policy(config),
                     max_connections=config.max_connections, prices=load_prices(config.price_file), seed=config.seed)


def planned_questions(config: RunConfig, source: Any, done: set[str]) -> Iterator[Question]:
    """The questions of this run (and shard) not yet done, options shuffled per seed."""
    for position, question in enumerate(iter_questions(source, limit=config.num_samples)):
        if config.shard is not None and not config.shard.owns(position):
            continue
        if question.id in done:
            continue
        yield shuffle_options(question, config.seed) if config.shuffle else question


def build_finalizer(config: RunConfig, llm: LLM, closers: list[Callable[[], Awaitable[None]]]
                    ) -> tuple[Finalizer, list[LLM]]:
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
            critic_llm = make_llm(config, config.critic_model)
            extra.append(critic_llm)
        finalize = make_critic_finalizer(critic_llm=critic_llm, attempts=config.critic_attempts,
                                         abstain=config.critic_abstain, mode="mcq", inner=inner)
    return finalize, extra


def _summary_table(summary: dict[str, Any], model: str) -> str:
    table = PrettyTable(["level", "n", "correct", "accuracy", "95% CI"])
    table.align = "r"
    table.align["level"] = "l"  # type: ignore[index]

    def row(name: str, s: dict[str, Any]) -> list[str]:
        acc = "-" if s["accuracy"] is None else f"{s['accuracy']:.1%}"
        ci = "-" if s["ci_low"] is None else f"{s['ci_low']:.1%}–{s['ci_high']:.1%}"
        return [name, str(s["n"]), str(s["correct"]), acc, ci]

    for level, stats in summary["by_difficulty"].items():
        table.add_row(row(level, stats))
    table.add_row(row("all", summary))
    cost = "unknown" if summary["cost_usd"] is None else f"${summary['cost_usd']:.4f}"
    lines = [
        f"model {model}",
        table.get_string(),
        f"parse failures {summary['parse_failures']} · errors {summary['errors']} · abstained {summary['abstained']}",
        f"tokens in {summary['input_tokens']:,} · out {summary['output_tokens']:,} · calls {summary['calls']:,}"
        f" ({(summary['calls_per_question'] or 0):.1f}/question) · cost {cost}",
    ]
    overhead = summary.get("overhead") or {}
    if overhead.get("calls"):
        lines.append(f"run overhead (exemplar rationales, once per run): {overhead['calls']} calls · "
                     f"tokens in {overhead['input_tokens']:,} · out {overhead['output_tokens']:,}")
    return "\n".join(lines)


def _run_overhead(runner: Runner, run_dir: RunDirectory) -> dict[str, Any]:
    """Calls made for the run as a whole (per-run exemplar rationales), kept apart from per-question usage."""
    transcript = runner.shared.get(RUN_TRANSCRIPT)
    if transcript is None or not transcript.calls:
        return {"calls": 0, "input_tokens": 0, "output_tokens": 0, "cost_usd": 0.0}
    run_dir.write_transcript("_run", transcript.to_list())
    total = transcript.total()
    return {"calls": total.calls, "input_tokens": total.input_tokens, "output_tokens": total.output_tokens,
            "cost_usd": runner.transcript_cost(transcript)}


def _seed_compatible(records: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """The original tool's output list: question, label, answer, options, response, difficulty."""
    for r in records:
        yield {"id": r["id"], "question": r["question"], "label": r["answer_idx"], "answer": r["answer"],
               "options": r["options"], "response": r["response"], "prediction": r["prediction"],
               "difficulty": r["difficulty"]}


def run_session(config: RunConfig) -> int:
    spec = config.model_spec
    # Keys first: a missing key is reported before any dataset work.
    llm = None if config.dry_run else make_llm(config)
    source = resolve_dataset(config.dataset, split=config.split, data_dir=config.data_dir)
    name = run_name(spec.safe_name, source.name, config.difficulty, config.num_samples)
    run_dir = RunDirectory(Path(config.output_dir) / name, shard=str(config.shard) if config.shard else None,
                           transcripts=config.transcripts)
    done = set() if config.fresh or not run_dir.results_path.exists() else run_dir.done_ids()
    if config.retry_failed:
        done -= {r["id"] for r in run_dir.records() if r.get("error")}

    exemplars = load_exemplars(source, config.settings.num_exemplars)
    wanted = config.settings.num_exemplars
    if config.difficulty in ("basic", "adaptive") and len(exemplars) < wanted:
        why = (f"{source.train_path} has only {len(exemplars)}" if source.train_path
               else f"no train.jsonl beside {source.path}")
        print(f"note: basic questions get {len(exemplars)} few-shot exemplar(s), not {wanted}: {why}", file=sys.stderr)
    if config.dry_run:
        from mdagents.commands.dry_run import print_plan

        print_plan(config, list(planned_questions(config, source, done)), done=len(done), exemplars=len(exemplars))
        return 0

    assert llm is not None
    run_dir.prepare(fresh=config.fresh, retry_failed=config.retry_failed)
    closers: list[Callable[[], Awaitable[None]]] = []
    finalize, extra = build_finalizer(config, llm, closers)
    planned = sum(1 for _ in planned_questions(config, source, done))  # a counting pass: memory stays flat
    manifest = {
        "run": name, "status": "running", "started_at": now_iso(), "config": config.to_dict(),
        "dataset_path": str(source.path),
        "exemplars": {"path": str(source.train_path) if source.train_path else None,
                      "ids": [q.id for q in exemplars]},
        "versions": versions(), "git_commit": git_commit(),
        "prompt_hashes": prompts.hashes(), "command": sys.argv,
    }
    manifest_path = run_dir.path / (f"manifest.shard-{config.shard}.json" if config.shard else "manifest.json")
    atomic_write_json(manifest_path, manifest)

    bar = tqdm(total=planned, desc=f"{source.name} · {config.difficulty}",
               unit="q", dynamic_ncols=True, disable=None)
    tally = {"correct": 0, "done": 0, "failed": 0}

    def on_record(record: dict[str, Any]) -> None:
        tally["correct"] += bool(record.get("correct"))
        tally["done"] += 1
        tally["failed"] += bool(record.get("error"))
        bar.update(1)
        bar.set_postfix(acc=f"{tally['correct'] / tally['done']:.0%}", failed=tally["failed"])

    runner = Runner(config, llm, run_dir, dataset=source.name, exemplars=exemplars, finalize=finalize,
                    extra_llms=extra, on_record=on_record, log=tqdm.write)
    questions = planned_questions(config, source, done)
    outcome = asyncio.run(_run_with_signals(runner, questions, [llm.aclose, *(m.aclose for m in extra), *closers]))
    bar.close()
    run_dir.close()

    summary = summarize(run_dir.records(), wall_s=outcome.wall_s)
    summary["overhead"] = _run_overhead(runner, run_dir)
    summary |= {"status": outcome.status, "model": llm.name, "cache_hits": llm.ledger.cache_hits,
                "retries": llm.ledger.retries, "spent_usd": round(runner.spent_usd(), 6)}
    summary_path = run_dir.path / (f"summary.shard-{config.shard}.json" if config.shard else "summary.json")
    atomic_write_json(summary_path, summary)
    if config.shard is None:
        write_json_list(Path(config.output_dir) / f"{name}.json", _seed_compatible(run_dir.records()))
    atomic_write_json(manifest_path, manifest | {"status": outcome.status, "finished_at": now_iso()})

    print(_summary_table(summary, llm.name))
    if outcome.errors:
        print(f"{len(outcome.errors)} sample(s) failed this time, e.g. {outcome.errors[0]}", file=sys.stderr)
        print("re-run only those with --retry-failed", file=sys.stderr)
    if outcome.status == "interrupted":
        print("interrupted: re-run the same command to resume where it stopped", file=sys.stderr)
    elif outcome.status == "budget_exhausted":
        print(f"stopped starting new questions: --max-cost ${config.max_cost} reached; "
              "re-run with a higher --max-cost to continue", file=sys.stderr)
    print(run_dir.path)
    if outcome.status == "interrupted":
        return 130
    return 1 if summary["errors"] else 0


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
