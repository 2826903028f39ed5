"""--batch for one run: a wave scheduler journalled in the run directory, and the run's models switched to it."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from mdagents.llm.batch.provider import enable_batch
from mdagents.llm.batch.scheduler import BatchOptions, BatchScheduler
from mdagents.llm.budget import Budget
from mdagents.llm.client import LLM
from mdagents.run.config import RunConfig
from mdagents.run.store import RunDirectory


def start_batch_mode(config: RunConfig, run_dir: RunDirectory, llms: Iterable[LLM], budget: Budget | None,
                     log: Callable[[str], None]) -> BatchScheduler:
    """The run's scheduler; submitted batches are recorded in `batches.jsonl` (one per shard)."""
    name = f"batches.shard-{config.shard}.jsonl" if config.shard else "batches.jsonl"
    options = BatchOptions(poll_s=config.batch_poll, quiet_s=min(BatchOptions.quiet_s, config.batch_poll / 2))
    scheduler = BatchScheduler(run_dir.path / name, options=options, budget=budget, log=log)
    for llm in llms:
        enable_batch(llm, scheduler)
    return scheduler
