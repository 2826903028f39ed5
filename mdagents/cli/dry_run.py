"""--dry-run: show what a run would do and roughly what it would cost, without calling a model."""

from __future__ import annotations

from dataclasses import replace

from prettytable import PrettyTable

from mdagents.data.datasets import Question
from mdagents.llm.prices import resolve_price
from mdagents.llm.types import Usage
from mdagents.methods import DEFAULT_METHOD, resolve
from mdagents.pipelines.base import LEVELS
from mdagents.run.config import RunConfig
from mdagents.run.estimate import LevelEstimate, calls_per_question


def _method_or_difficulty(config: RunConfig) -> str:
    return f"difficulty {config.difficulty}" if config.method == DEFAULT_METHOD else f"method {config.method}"


def print_plan(config: RunConfig, questions: list[Question], *, done: int, exemplars: int) -> None:
    """`exemplars`: how many few-shot exemplars the dataset's train split actually provides."""
    spec = config.model_spec
    price = resolve_price(spec, price_file=config.price_file, price_in=config.price_in, price_out=config.price_out)
    if config.batch:
        from mdagents.llm.batch.provider import batch_price

        price = batch_price(price, spec.provider)
    n = len(questions)
    print(f"dry run: {n} question(s) to run ({done} already done) · model {spec.name} · "
          f"{_method_or_difficulty(config)}" + (f" · shard {config.shard}" if config.shard else ""))
    for q in questions[:5]:
        print(f"  {q.id}: {q.question[:90]}{'…' if len(q.question) > 90 else ''}")
    if n > 5:
        print(f"  … and {n - 5} more")
    if not n:
        return
    q_tokens = int(sum(len(q.question) + sum(len(o) for o in q.options.values()) for q in questions) / 4 / n)
    adaptive = config.difficulty == "adaptive"
    settings = replace(config.settings, num_exemplars=min(exemplars, config.settings.num_exemplars))
    levels = LEVELS if adaptive else (config.difficulty,)
    method = resolve(config.method)
    if method.solve is not None:
        levels = (method.name,)
    table = PrettyTable(["if every question went to", "calls/q", "input tok/q", "output tok/q", f"cost for {n} (USD)"])
    table.align = "r"
    for level in levels:
        if method.solve is not None and method.calls is None:
            table.add_row([level, "set by the plugin", "–", "–", "–"])
            continue
        est = (LevelEstimate(level, *method.calls) if method.solve is not None and method.calls is not None
               else calls_per_question(level, settings, n, adaptive=adaptive))
        lo_in, lo_out = est.tokens(q_tokens, est.calls_min)
        hi_in, hi_out = est.tokens(q_tokens, est.calls_max)
        lo_cost = None if price is None else price.cost(Usage(lo_in * n, lo_out * n))
        hi_cost = None if price is None else price.cost(Usage(hi_in * n, hi_out * n))

        def span(a: float | int, b: float | int, fmt: str = "{:,}") -> str:
            return fmt.format(a) if a == b else f"{fmt.format(a)}–{fmt.format(b)}"

        cost = "unknown price" if lo_cost is None or hi_cost is None else span(lo_cost, hi_cost, "{:.4f}")
        table.add_row([level, span(est.calls_min, est.calls_max), span(lo_in, hi_in), span(lo_out, hi_out), cost])
    print(table)
    print("tokens are a rough guide (question length + prompt overhead); no model was called."
          + (f" Prices: {price.source}." if price is not None else ""))
