"""A run directory as an inspect_ai eval log: `inspect view` shows it, `read_eval_log` reads it.

Built with inspect_ai's own log models and written by its own writer (`.eval`, or `.json` by the
file's extension), so the file is what inspect_ai itself would write. What maps to what:

- the run -> EvalSpec (task `mdagents/<dataset>`, solver `mdagents/<difficulty>` with the method's
  settings, model, base URL, model arguments, git commit, package versions; the whole manifest
  configuration under metadata) and EvalStats (tokens per model);
- a record -> EvalSample (question, options as choices, the true letter as target, the final reply as
  output, the grade as a `choice` score C/I with the predicted letter as its answer, usage per agent
  role as role_usage, a failed sample's error);
- each call of the sample's transcript -> a ModelEvent (messages, reply, usage, cache hit, timing),
  its agent role under the event's metadata;
- the summary -> EvalResults (accuracy and its standard error over graded samples).
"""

from __future__ import annotations

import datetime as dt
import math
from pathlib import Path
from typing import Any

from mdagents.analysis.runs import Run, RunReadError, natural_key
from mdagents.errors import UsageError

SCORER = "choice"
STATUS = {"finished": "success", "running": "started", "interrupted": "cancelled", "budget_exhausted": "cancelled"}


def _inspect() -> Any:
    try:
        import inspect_ai.log as log
    except ImportError:
        raise UsageError("--format inspect needs inspect_ai: pip install inspect_ai") from None
    return log


def export_inspect(run: Run, path: Path) -> Path:
    """Write `run` as an inspect_ai eval log at `path` (.eval or .json)."""
    log = _inspect()
    from inspect_ai.model import GenerateConfig

    manifest, config = run.manifest, run.manifest.get("config") or {}
    records = sorted(run.records, key=lambda r: natural_key(r["id"]))
    model = config.get("model") or (records[0].get("model") if records else None) or "unknown/unknown"
    dataset = config.get("dataset") or (records[0].get("dataset") if records else "dataset")
    created = manifest.get("started_at") or _earliest(records) or _now()
    commit = manifest.get("git_commit")
    spec = log.EvalSpec(
        run_id=run.name, eval_id=str(manifest.get("fingerprint") or run.name), created=created,
        task=f"mdagents/{Path(str(dataset)).stem}", task_id=str(manifest.get("fingerprint") or ""),
        solver=f"mdagents/{config.get('difficulty', 'adaptive')}", solver_args=config.get("settings") or {},
        dataset=log.EvalDataset(name=str(dataset), location=manifest.get("dataset_path"), samples=len(records),
                                sample_ids=[r["id"] for r in records], shuffled=config.get("shuffle")),
        model=str(model), model_base_url=config.get("base_url"), model_args=config.get("model_args") or {},
        model_generate_config=GenerateConfig(max_tokens=config.get("max_tokens"), seed=config.get("seed")),
        config=log.EvalConfig(limit=config.get("num_samples"), epochs=config.get("repeats")),
        revision=log.EvalRevision(type="git", origin="", commit=commit) if commit else None,
        packages={k: str(v) for k, v in (manifest.get("versions") or {}).items() if v},
        metadata={"mdagents_config": config, "fingerprint": manifest.get("fingerprint"), "run_dir": str(run.path)},
    )
    samples = [_sample(run, record, str(model)) for record in records]
    eval_log = log.EvalLog(
        status=STATUS.get(run.status, "started"), eval=spec,
        plan=log.EvalPlan(steps=[log.EvalPlanStep(solver=spec.solver or "mdagents", params=spec.solver_args or {})]),
        results=_results(records), stats=_stats(manifest, records, str(model)), samples=samples,
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    log.write_eval_log(eval_log, str(path))
    return path


def _sample(run: Run, record: dict[str, Any], model: str) -> Any:
    from inspect_ai.log import EvalSample
    from inspect_ai.model import ModelOutput
    from inspect_ai.scorer import Score

    options = record.get("options") or {}
    events = model_events(_calls(run, record["id"]), _started(record))
    meta = record.get("meta") or {}
    score = None
    if not record.get("error"):
        score = {SCORER: Score(value="C" if record.get("correct") else "I", answer=record.get("prediction"),
                               explanation=record.get("no_answer_reason") or record.get("parse_status"),
                               metadata={"parse_status": record.get("parse_status"),
                                         "extraction": record.get("extraction")})}
    by_role = (record.get("usage") or {}).get("by_role") or {}
    total = (record.get("usage") or {}).get("total") or {}
    return EvalSample(
        id=record["id"], epoch=int(meta.get("repeat") or 1), input=str(record.get("question") or ""),
        choices=[str(options[k]) for k in sorted(options)] or None, target=str(record.get("answer_idx") or ""),
        output=ModelOutput.from_content(model=record.get("model") or model, content=str(record.get("response") or "")),
        messages=[*events[-1].input, events[-1].output.message] if events else [],
        scores=score, events=events,
        metadata={k: record.get(k) for k in ("difficulty", "difficulty_source", "parse_status", "no_answer_reason",
                                             "prediction", "answer", "cost_usd", "calls", "seed") if k in record},
        model_usage={record.get("model") or model: usage_of(total, record.get("cost_usd"))} if total else {},
        role_usage={role: usage_of(u or {}, (u or {}).get("cost_usd")) for role, u in by_role.items()},
        total_time=record.get("latency_s"), working_time=record.get("latency_s"),
        started_at=_started(record), completed_at=record.get("finished_at"),
        error=eval_error(record["error"]) if record.get("error") else None,
    )


def _calls(run: Run, sample_id: str) -> list[dict[str, Any]]:
    try:
        return list(run.transcript(sample_id).get("calls") or [])
    except (RunReadError, OSError, ValueError):
        return []


def _results(records: list[dict[str, Any]]) -> Any:
    from inspect_ai.log import EvalMetric, EvalResults, EvalScore

    graded = [r for r in records if not r.get("error")]
    n = len(graded)
    accuracy = sum(1 for r in graded if r.get("correct")) / n if n else 0.0
    stderr = math.sqrt(accuracy * (1 - accuracy) / (n - 1)) if n > 1 else 0.0
    return EvalResults(total_samples=len(records), completed_samples=n, scores=[EvalScore(
        name=SCORER, scorer=SCORER, scored_samples=n, unscored_samples=len(records) - n,
        metrics={"accuracy": EvalMetric(name="accuracy", value=accuracy),
                 "stderr": EvalMetric(name="stderr", value=stderr)})])


def _stats(manifest: dict[str, Any], records: list[dict[str, Any]], model: str) -> Any:
    from inspect_ai.log import EvalStats

    total: dict[str, Any] = {}
    for record in records:
        for key, value in ((record.get("usage") or {}).get("total") or {}).items():
            if isinstance(value, int | float):
                total[key] = total.get(key, 0) + value
    costs = [r.get("cost_usd") for r in records]
    cost = sum(c for c in costs if c is not None) if costs and all(c is not None for c in costs) else None
    return EvalStats(started_at=manifest.get("started_at") or "", completed_at=manifest.get("finished_at") or "",
                     model_usage={model: usage_of(total, cost)} if total else {})


def model_events(calls: list[dict[str, Any]], started: str | None) -> list[Any]:
    """One ModelEvent per call of a transcript, timed from the sample's start."""
    from inspect_ai.event import ModelEvent
    from inspect_ai.model import ChatCompletionChoice, ChatMessageAssistant, GenerateConfig, ModelOutput

    base = dt.datetime.fromisoformat(started) if started else None
    events = []
    for call in calls:
        params = call.get("params") or {}
        usage = call.get("usage") or {}
        output = ModelOutput(model=str(call.get("model") or ""), choices=[ChatCompletionChoice(
            message=ChatMessageAssistant(content=str(call.get("reply") or ""), model=call.get("model")),
            stop_reason=_stop_reason(call.get("finish_reason")))], usage=usage_of(usage, call.get("cost_usd")),
            time=call.get("latency_s"), error=call.get("error"))
        timing: dict[str, Any] = {}
        if base is not None and call.get("start_s") is not None:
            timing["timestamp"] = base + dt.timedelta(seconds=float(call["start_s"]))
            timing["completed"] = timing["timestamp"] + dt.timedelta(seconds=float(call.get("latency_s") or 0))
            timing["working_start"] = float(call["start_s"])
        events.append(ModelEvent(
            model=str(call.get("model") or ""), input=[_message(m) for m in call.get("messages") or []], tools=[],
            tool_choice="none", config=GenerateConfig(temperature=params.get("temperature"),
                                                      max_tokens=params.get("max_tokens"), seed=params.get("seed")),
            output=output, error=call.get("error"), cache="read" if call.get("cached") else None,
            working_time=call.get("latency_s"), metadata={"agent_role": call.get("role"), "params": params},
            **timing))
    return events


def _message(message: dict[str, Any]) -> Any:
    from inspect_ai.model import ChatMessageAssistant, ChatMessageSystem, ChatMessageUser

    kind = {"system": ChatMessageSystem, "assistant": ChatMessageAssistant}.get(message.get("role", ""),
                                                                             ChatMessageUser)
    return kind(content=str(message.get("content") or ""))


def _stop_reason(finish: str | None) -> Any:
    """The provider's finish reason in inspect_ai's words."""
    return {"length": "max_tokens", "max_tokens": "max_tokens", "MAX_TOKENS": "max_tokens",
            "tool_use": "tool_calls", "tool_calls": "tool_calls", "content_filter": "content_filter",
            "SAFETY": "content_filter"}.get(finish or "", "stop")


def usage_of(usage: dict[str, Any], cost: float | None = None) -> Any:
    """Harness usage (input tokens include cached ones) as an inspect_ai ModelUsage."""
    from inspect_ai.model import ModelUsage

    input_tokens, output_tokens = int(usage.get("input_tokens") or 0), int(usage.get("output_tokens") or 0)
    return ModelUsage(input_tokens=input_tokens, output_tokens=output_tokens, total_tokens=input_tokens + output_tokens,
                      input_tokens_cache_read=usage.get("cached_tokens"),
                      input_tokens_cache_write=usage.get("cache_write_tokens"),
                      reasoning_tokens=usage.get("reasoning_tokens"), total_cost=cost)


def eval_error(message: str) -> Any:
    from inspect_ai.log import EvalError

    return EvalError(message=message, traceback="", traceback_ansi="")


def _started(record: dict[str, Any]) -> str | None:
    finished, latency = record.get("finished_at"), record.get("latency_s")
    if not finished or latency is None:
        return None
    try:
        return (dt.datetime.fromisoformat(finished) - dt.timedelta(seconds=float(latency))).isoformat()
    except (TypeError, ValueError):
        return None


def _earliest(records: list[dict[str, Any]]) -> str | None:
    starts = [s for s in (_started(r) for r in records) if s]
    return min(starts) if starts else None


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
