"""`python main.py [run] --dataset medqa --model openai/gpt-4o-mini --difficulty adaptive --num_samples 200`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from prettytable import PrettyTable

from mdagents.analysis.summary import grading_line
from mdagents.errors import UsageError
from mdagents.llm.model_args import parse_model_args
from mdagents.llm.models import DEFAULT_MODEL, join_urls
from mdagents.pipelines.base import PipelineSettings
from mdagents.run.config import BATCH_CONCURRENCY, DIFFICULTIES, TRANSCRIPT_FORMATS, RunConfig, Shard
from mdagents.run.config_file import (
    ENV_PREFIX,
    config_path_from_env,
    env_argv,
    file_argv,
    layered_argv,
    option_table,
)


def _both(name: str) -> list[str]:
    """Accept --num_samples and --num-samples alike (the original used underscores)."""
    body = name.removeprefix("--")
    dashed, underscored = "--" + body.replace("_", "-"), "--" + body.replace("-", "_")
    return [dashed] if dashed == underscored else [dashed, underscored]


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", default=None, metavar="FILE",
                        help="YAML file of run options by their flag names with underscores (model: ..., "
                             "num_samples: ...); flags given here override it (default: $MDAGENTS_CONFIG; "
                             "see docs/configuration.md)")
    data = parser.add_argument_group("data")
    data.add_argument("--dataset", default="medqa",
                      help="dataset name under --data-dir (medqa, pubmedqa, ...) or a .jsonl path (default: medqa)")
    data.add_argument("--split", default="test", help="which <split>.jsonl to run (default: test)")
    data.add_argument(*_both("--data-dir"), dest="data_dir", default="data", help="datasets folder (default: data)")
    data.add_argument(*_both("--num-samples"), "--limit", dest="num_samples", type=int, default=100,
                      help="first N questions of the split (default: 100; 0 = all)")
    data.add_argument("--seed", type=int, default=0, help="seed for the option order and sampling (default: 0)")
    data.add_argument(*_both("--no-shuffle"), dest="shuffle", action="store_false",
                      help="keep the dataset's option order (default: shuffled per --seed, as the original)")

    model = parser.add_argument_group("model")
    model.add_argument("--model", default=None,
                       help=f"provider/model, e.g. openai/gpt-4o-mini, gemini/gemini-2.5-flash, "
                            f"anthropic/claude-haiku-4-5, local//path/model.gguf (default: {DEFAULT_MODEL})")
    model.add_argument(*_both("--base-url"), dest="base_url", action="append", default=None,
                       help="API base URL: any OpenAI-compatible server (vLLM, Ollama), or a proxy for "
                            "anthropic/gemini; repeat it (or separate by commas) to share the load between "
                            "several OpenAI-compatible servers of one model")
    model.add_argument("-M", *_both("--model-arg"), dest="model_arg", action="append", default=None,
                       metavar="KEY=VALUE",
                       help="a generation parameter passed to the provider's call as it is (top_p=0.9, "
                            "reasoning_effort=low, extra_body={...}, thinking_config.thinking_budget=1024); "
                            "repeatable; VALUE is read as JSON when it parses, else as text")
    model.add_argument(*_both("--model-args"), dest="model_args", default=None, metavar="JSON",
                       help='generation parameters as one JSON object, e.g. \'{"top_p": 0.9, "seed": 7}\' '
                            "(-M entries override its keys)")
    model.add_argument("--timeout", type=float, default=None, help="seconds per call before it is retried (default: 120; local 900)")
    model.add_argument(*_both("--max-retries"), dest="max_retries", type=int, default=4, help="retries per call (default: 4)")
    model.add_argument(*_both("--max-tokens"), dest="max_tokens", type=int, default=None,
                       help="cap on each reply's tokens (default: the provider's; anthropic, which needs one: 4096)")
    model.add_argument(*_both("--no-cache"), dest="use_cache", action="store_false", help="bypass the response cache")
    model.add_argument(*_both("--cache-path"), dest="cache_path", default=None,
                       help="sqlite response cache (default: .cache/responses.sqlite)")

    method = parser.add_argument_group("method")
    method.add_argument("--method", default="mdagents", metavar="NAME",
                        help="how each question is answered: mdagents (the adaptive levels, default), a baseline "
                             "(zero-shot, few-shot, cot, cot-sc[:k], medprompt, majority-vote[:n], llm-debate[:agents:rounds], "
                             "medagents), "
                             "a plugin file path/to/file.py:function or an installed plugin's name (docs/methods.md)")
    method.add_argument(*_both("--prompts-dir"), dest="prompts_dir", default=None, metavar="DIR",
                        help="prompt templates that replace the shipped ones of the same name (e.g. DIR/method_cot.txt)")
    method.add_argument("--difficulty", default="adaptive", choices=DIFFICULTIES,
                        help="adaptive (LLM classifies each question) or force one level (default: adaptive)")
    method.add_argument(*_both("--num-experts"), dest="num_experts", type=int, default=5, help="intermediate: experts (default: 5)")
    method.add_argument("--rounds", type=int, default=5, help="intermediate: debate rounds (default: 5)")
    method.add_argument("--turns", type=int, default=5, help="intermediate: turns per round (default: 5)")
    method.add_argument(*_both("--consensus-stop"), dest="consensus_stop", action=argparse.BooleanOptionalAction,
                        default=True, help="intermediate: end the debate once every expert's latest answer names "
                                           "the same option, as the paper describes (default: on; --no-consensus-stop "
                                           "debates until nobody talks, as the original code)")
    method.add_argument(*_both("--num-teams"), dest="num_teams", type=int, default=3, help="advanced: teams (default: 3)")
    method.add_argument(*_both("--team-size"), dest="team_size", type=int, default=3, help="advanced: members per team (default: 3)")
    method.add_argument(*_both("--team-context"), dest="team_context", choices=("isolated", "staged"),
                        default="isolated", help="advanced: each team works from the question alone (isolated, "
                                                 "default) or reads the reports of earlier teams (staged)")
    method.add_argument("--temperature", type=float, default=0.0,
                        help="sampling temperature of the agents' calls (default: 0; final decisions always 0)")
    method.add_argument(*_both("--num-exemplars"), dest="num_exemplars", type=int, default=5,
                        help="basic: few-shot exemplars from the train split (default: 5)")
    method.add_argument("--rationales", choices=("per-run", "per-question"), default="per-run",
                        help="basic: write exemplar rationales once per run (default) or per question (the original's cost)")
    method.add_argument("--repeats", type=int, default=1,
                        help="run each question N times (distinct cache keys); the summary gives mean ± sd "
                             "and majority-vote accuracy (default: 1)")
    method.add_argument("--extractor", default=None, metavar="llm[:PROVIDER/MODEL]",
                        help="when grading reads no answer (none, a conflict, an alias it cannot resolve), ask a "
                             "model for the one letter the reply commits to (default: off; `llm` uses --model)")
    method.add_argument(*_both("--answer-format"), dest="answer_format", choices=("text", "json"), default="text",
                        help="final decisions end with the contract line `Answer: (X) option text` (text, default, "
                             "the paper's method) or come as the provider's structured output (json)")
    method.add_argument("--rag", action="store_true", help="retrieve guideline sections for the final decision")
    method.add_argument(*_both("--rag-k"), dest="rag_k", type=int, default=5, help="guideline sections to retrieve (default: 5)")
    method.add_argument(*_both("--db-url"), dest="db_url", default=None,
                        help="guideline store: postgresql://... (default: the embedded server)")
    method.add_argument("--critic", action="store_true", help="Reflexion critic checks each final decision")
    method.add_argument(*_both("--critic-model"), dest="critic_model", default=None,
                        help="model for the critic's entailment check (default: --model)")
    method.add_argument(*_both("--critic-attempts"), dest="critic_attempts", type=int, default=2,
                        help="decisions the critic reviews in total before the safe fallback (default: 2)")
    method.add_argument(*_both("--critic-abstain"), dest="critic_abstain", action="store_true",
                        help="abstain when no decision passed the critic (reported apart from wrong answers)")

    run = parser.add_argument_group("run")
    run.add_argument(*_both("--output-dir"), dest="output_dir", default="output", help="where runs go (default: output)")
    run.add_argument("--concurrency", type=int, default=None,
                     help=f"questions in flight (default: 8; with --batch {BATCH_CONCURRENCY})")
    run.add_argument("--batch", action="store_true",
                     help="send the calls through the provider's batch API at half the price: slower (each step "
                          "of every question waits for one batch), resumable (see docs/sweeps.md)")
    run.add_argument(*_both("--batch-poll"), dest="batch_poll", type=float, default=5.0, metavar="S",
                     help="with --batch: seconds before a batch is first polled, backing off to 60 (default: 5)")
    run.add_argument(*_both("--max-connections"), dest="max_connections", type=int, default=None,
                     help="requests in flight per provider endpoint, lowered on a 429 (default: --concurrency x "
                          "the widest stage of calls, e.g. 8 questions x 9 team members = 72)")
    run.add_argument(*_both("--max-cost"), dest="max_cost", type=float, default=None,
                     help="stop launching calls once the run has spent this many USD (over all its sessions); "
                          "exit 3")
    run.add_argument(*_both("--price-in"), dest="price_in", type=float, default=None, metavar="USD",
                     help="price of --model per million input tokens (needed behind --base-url to know costs)")
    run.add_argument(*_both("--price-out"), dest="price_out", type=float, default=None, metavar="USD",
                     help="price of --model per million output tokens")
    run.add_argument(*_both("--price-file"), dest="price_file", default=None,
                     help='JSON {"provider/model": {"input": ..., "cached_input": ..., "output": ...}} USD per '
                          "million tokens, before the shipped table")
    run.add_argument(*_both("--dry-run"), dest="dry_run", action="store_true",
                     help="print the plan and an estimate of calls, tokens and cost; call no model")
    run.add_argument("--fresh", action="store_true", help="start over instead of resuming")
    run.add_argument("--wait", action="store_true",
                     help="if another process is running this run directory, wait for it (default: exit 2)")
    run.add_argument(*_both("--new-run"), dest="new_run", action="store_true",
                     help="when the run directory holds another configuration, use a separate one "
                          "(<name>-2, ...) instead of refusing")
    run.add_argument(*_both("--retry-failed"), dest="retry_failed", action="store_true",
                     help="re-run only the failed questions of an existing run")
    run.add_argument("--shard", default=None, help="run slice i of n (e.g. 2/4); `report` merges shards")
    run.add_argument("--transcripts", choices=TRANSCRIPT_FORMATS, default="json",
                     help="per-sample call logs: json (default), gzip (~20x smaller for multi-agent levels) or none")
    run.add_argument("-v", "--verbose", action="store_true", help="print the agents' conversation")
    run.add_argument("-q", "--quiet", action="store_true", help="no progress bar or progress lines")
    run.add_argument(*_both("--progress-every"), dest="progress_every", type=float, default=10.0, metavar="S",
                     help="when stderr is not a terminal: a progress line every S seconds, with the model calls "
                          "done and in flight, also while no question finishes (default: 10; 0: one line per question)")


def config_from_args(args: argparse.Namespace) -> RunConfig:
    settings = PipelineSettings(
        num_experts=args.num_experts, rounds=args.rounds, turns=args.turns, num_teams=args.num_teams,
        team_size=args.team_size, num_exemplars=args.num_exemplars, rationales=args.rationales,
        temperatures=(args.temperature,), consensus_stop=args.consensus_stop, team_context=args.team_context,
        answer_format=args.answer_format,
    )
    return RunConfig(
        dataset=args.dataset, split=args.split, data_dir=args.data_dir,
        num_samples=None if args.num_samples == 0 else args.num_samples, model=args.model,
        base_url=join_urls(args.base_url), model_args=parse_model_args(args.model_args, args.model_arg),
        difficulty=args.difficulty, seed=args.seed, shuffle=args.shuffle, output_dir=args.output_dir,
        fresh=args.fresh, retry_failed=args.retry_failed, use_cache=args.use_cache, cache_path=args.cache_path,
        concurrency=args.concurrency if args.concurrency is not None else (BATCH_CONCURRENCY if args.batch else 8),
        batch=args.batch, batch_poll=args.batch_poll, max_connections=args.max_connections, timeout=args.timeout,
        max_retries=args.max_retries, max_tokens=args.max_tokens, max_cost=args.max_cost, price_file=args.price_file, price_in=args.price_in,
        price_out=args.price_out, dry_run=args.dry_run,
        shard=Shard.parse(args.shard) if args.shard else None, verbose=args.verbose, settings=settings,
        rag=args.rag, rag_k=args.rag_k, db_url=args.db_url, critic=args.critic, critic_model=args.critic_model,
        critic_attempts=args.critic_attempts, critic_abstain=args.critic_abstain, transcripts=args.transcripts,
        repeats=args.repeats, extractor=args.extractor, wait=args.wait, new_run=args.new_run,
        method=args.method, prompts_dir=args.prompts_dir,
    ).validate()


class _RaisingParser(argparse.ArgumentParser):
    """The run parser for arguments that come from a file or the environment: errors are raised, not printed."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(message)


def run_parser() -> argparse.ArgumentParser:
    parser = _RaisingParser(prog="run", add_help=False, allow_abbrev=False)
    configure(parser)
    return parser


def with_defaults(args: argparse.Namespace) -> tuple[argparse.Namespace, dict[str, Any]]:
    """The command's arguments over its config file over MDAGENTS_* variables, parsed again as one
    command line; and what the manifest records about where options came from."""
    argv = getattr(args, "argv", None)
    parser = run_parser()
    options = option_table(parser)
    environment = env_argv(options)
    config = args.config or config_path_from_env()
    if argv is None or (not environment and not config):
        return args, {}
    layers = [environment, file_argv(config, options) if config else [], list(argv)]
    sources = [(_variable(flag), [flag, value]) for flag, value in zip(environment[::2], environment[1::2],
                                                                        strict=True)]
    for source, layer in [*sources, (str(config), layers[1])]:
        try:
            parser.parse_args(layer)  # each source alone, so a bad value is blamed on where it came from
        except UsageError as exc:
            raise UsageError(f"{source}: {exc}") from None
    parsed = parser.parse_args(layered_argv(layers, options))
    parsed.argv = argv
    origin: dict[str, Any] = {}
    if config:
        origin["config_file"] = str(Path(config).resolve())
    if environment:
        origin["environment_defaults"] = sorted(_variable(flag) for flag in environment[::2])
    return parsed, origin


def _variable(flag: str) -> str:
    """`--output-dir` -> `MDAGENTS_OUTPUT_DIR`."""
    return ENV_PREFIX + flag[2:].replace("-", "_").upper()


def execute(args: argparse.Namespace) -> int:
    from mdagents.run.config import load_dotenv_file
    from mdagents.run.session import DryRunPlan, execute_run

    load_dotenv_file()
    args, origin = with_defaults(args)
    config = config_from_args(args)
    from mdagents.cli.progress import Progress

    progress = Progress(quiet=args.quiet, every=args.progress_every)
    result = execute_run(config, progress.hooks(), manifest_extra=origin or None)
    if isinstance(result, DryRunPlan):
        from mdagents.cli.dry_run import print_plan

        print_plan(config, result.questions, done=result.done, exemplars=result.exemplars)
        return 0
    summary, outcome = result.summary, result.outcome
    print(summary_table(summary, result.model))
    if batch := summary.get("batch"):
        print(f"batch mode: {batch['waves']} wave(s), {batch['batches_submitted']} batch(es), "
              f"{batch['requests_submitted']} request(s) submitted, {batch['requests_resumed']} resumed from "
              f"earlier batches; costs at the batch price")
    if outcome.errors:
        print(f"{len(outcome.errors)} sample(s) failed this time, e.g. {outcome.errors[0]}", file=sys.stderr)
        print("re-run only those with --retry-failed", file=sys.stderr)
    if outcome.status == "interrupted":
        print("interrupted: re-run the same command to resume where it stopped", file=sys.stderr)
    elif outcome.status == "budget_exhausted":
        print(f"stopped: --max-cost ${config.max_cost:g} reached (${summary['spent_usd']:.4f} spent by this run); "
              "the run is incomplete: re-run with a higher --max-cost to continue", file=sys.stderr)
    print(result.run_dir)
    if outcome.status == "interrupted":
        return 130
    if outcome.status == "budget_exhausted":
        return 3
    return 1 if summary["errors"] else 0


def _cached(summary: dict[str, Any]) -> str:
    cached = summary.get("cached_tokens") or 0
    return f" ({cached:,} from the prompt cache, {summary['cached_share']:.0%})" if cached else ""


def usd(value: float | None) -> str:
    return "unknown" if value is None else f"${value:.4f}"


def cost_line(summary: dict[str, Any]) -> str:
    """The run's cost at its prices, then what this invocation paid now and replayed from the cache."""
    text = usd(summary.get("cost_usd"))
    session = summary.get("this_session")
    if session:
        text += (f" (paid now {usd(session.get('paid_usd'))}, replayed from the cache "
                 f"{usd(session.get('replayed_usd'))})")
    return text


def _percent(block: dict[str, Any]) -> str:
    if block.get("accuracy") is None:
        return "-"
    return f"{block['accuracy']:.1%} ({block['ci_low']:.1%}–{block['ci_high']:.1%})"


def repeats_line(repeats: dict[str, Any]) -> str:
    """--repeats: the reducers, each with its interval over questions."""
    n = repeats["repeats"]
    at_least = repeats.get("at_least") or {}
    mean = {"accuracy": repeats.get("accuracy_mean"), "ci_low": repeats.get("ci_low"),
            "ci_high": repeats.get("ci_high")}
    text = (f"{n} repeats of {repeats['questions']} questions: mean {_percent(mean)}"
            f" · majority vote {_percent(repeats.get('majority_vote') or {})}")
    if "1" in at_least:
        text += f" · pass@{n} {_percent(at_least['1'])}"
    if str(n) in at_least and n > 1:
        text += f" · all {n} right {_percent(at_least[str(n)])}"
    return text


def _extractor_hint(grading: dict[str, dict[str, int]]) -> str:
    """Points at the model extractor when the rules left answers a model could read (an alias, a conflict)."""
    from mdagents.scoring.reading import MODEL_READABLE

    readable = sum(n for reason, n in grading["no_answer"].items() if reason in MODEL_READABLE)
    if not readable or "llm" in grading["by_step"]:
        return ""
    return f"\n  ({readable} without an answer the rules could read: --extractor llm[:PROVIDER/MODEL] reads them with a model)"


def summary_table(summary: dict[str, Any], model: str) -> str:
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
    cost = cost_line(summary)
    method = summary.get("method") or "mdagents"
    lines = [
        f"model {model}" + ("" if method == "mdagents" else f" · method {method}"),
        table.get_string(),
        f"parse failures {summary['parse_failures']} · errors {summary['errors']} · abstained {summary['abstained']}",
        f"grading: {grading_line(summary['grading'])}" + _extractor_hint(summary["grading"]),
        f"tokens in {summary['input_tokens']:,}{_cached(summary)} · out {summary['output_tokens']:,}"
        f" · calls {summary['calls']:,} ({(summary['calls_per_question'] or 0):.1f}/question) · cost {cost}",
    ]
    repeats = summary.get("repeats")
    if repeats:
        lines.append(repeats_line(repeats))
    critic = summary.get("critic")
    if critic:
        lines.append(f"critic: passed {critic['passed']} · failed {critic['failed']} · "
                     f"unverified {critic['unverified']} (of {critic['reviewed']} reviewed)")
    if summary.get("talk_unparsed"):
        lines.append(f"debate replies that named no readable expert (kept as talk_unparsed): "
                     f"{summary['talk_unparsed']}")
    overhead = summary.get("overhead") or {}
    if overhead.get("calls"):
        lines.append(f"run overhead (exemplar rationales, once per run): {overhead['calls']} calls · "
                     f"tokens in {overhead['input_tokens']:,} · out {overhead['output_tokens']:,}")
    return "\n".join(lines)
