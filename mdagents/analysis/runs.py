"""Reading run directories for reports and notebooks: records merged across shards, manifest, summary.

Tolerant by design: runs written by older versions (missing fields), runs still being
written (torn last line), and sharded runs (`results.shard-<i>-of-<n>.jsonl`) all load.
Only conflicting duplicates, where two files disagree about one id's answer, are refused.
"""

from __future__ import annotations

import glob
import gzip
import json
import re
import warnings
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mdagents.analysis.costs import record_costs
from mdagents.analysis.summary import critic_outcome
from mdagents.errors import UsageError
from mdagents.jsonl import has_torn_tail, numbered_objects
from mdagents.paths import RESULTS_FILE, TRANSCRIPTS_DIR, legacy_transcript_stem, transcript_stem

_SHARD_FILE = re.compile(r"^results\.shard-(\d+)-of-(\d+)\.jsonl$")
_SHARD_MANIFEST = re.compile(r"^manifest\.shard-(\d+)-of-(\d+)\.json$")
_USAGE_FIELDS = ("input_tokens", "output_tokens", "cached_tokens", "reasoning_tokens", "calls")
_GLOB_CHARS = re.compile(r"[*?\[]")


class RunReadError(UsageError):
    """A run directory cannot be read as asked (missing, not a run, or conflicting shard records)."""


@dataclass
class Run:
    """One run directory as plain data: records are dicts in the docs/records.md format."""

    path: Path
    records: list[dict[str, Any]]
    manifest: dict[str, Any] = field(default_factory=dict)
    summary: dict[str, Any] = field(default_factory=dict)
    files: list[Path] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    shards_expected: int | None = None

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def status(self) -> str:
        """finished | running | interrupted | budget_exhausted | unknown (no manifest: older runs)."""
        if not self.manifest:
            return "unknown"
        status = self.manifest.get("status")
        if status and status != "running":
            return str(status)
        return "finished" if self.manifest.get("finished_at") and not status else "running"

    @property
    def in_progress(self) -> bool:
        return self.status == "running"

    def by_id(self) -> dict[str, dict[str, Any]]:
        return {record["id"]: record for record in self.records}

    def transcript(self, sample_id: str) -> dict[str, Any]:
        """{"id", "calls": [...]} of one sample (plain or gzip-compressed, see `--transcripts`)."""
        folder = self.path / TRANSCRIPTS_DIR
        # Earlier versions named the file by a lossy slug of the id: read it only if it holds this id.
        for stem in dict.fromkeys((transcript_stem(sample_id), legacy_transcript_stem(sample_id))):
            for path, opener in ((folder / f"{stem}.json", open), (folder / f"{stem}.json.gz", gzip.open)):
                if path.is_file():
                    with opener(path, "rt", encoding="utf-8") as fh:
                        found = json.load(fh)
                    if isinstance(found, dict) and found.get("id", sample_id) == sample_id:
                        return found
        written = self.manifest.get("config", {}).get("transcripts", "json")
        why = " (the run was made with --transcripts none)" if written == "none" else ""
        raise RunReadError(f"{self.path}: no transcript for {sample_id!r}{why}")


def load_run(path: str | Path) -> Run:
    """Load one run directory (or one results .jsonl file) with shards merged by id."""
    path = Path(path)
    if not path.exists():
        raise RunReadError(f"no such run directory: {path}")
    if path.is_file():
        if path.suffix != ".jsonl":
            raise RunReadError(f"{path} is not a run directory or a results .jsonl file")
        files, directory = [path], path.parent
    else:
        directory = path
        files = _result_files(directory)
        if not files and not (directory / "manifest.json").exists() and not _shard_manifests(directory):
            raise RunReadError(f"{path} is not a run directory (no results.jsonl or manifest.json)")
    run = Run(path=directory, records=[], files=files)
    run.records = _merge(files, run.warnings)
    run.manifest = _load_manifest(directory, run.warnings)
    run.summary = _read_json(directory / "summary.json", run.warnings)
    run.shards_expected = _shards_expected(files)
    if run.shards_expected and not (directory / RESULTS_FILE).exists():
        present = sum(1 for f in files if _SHARD_FILE.match(f.name))
        if present < run.shards_expected:
            run.warnings.append(f"only {present} of {run.shards_expected} shard files are present")
    for message in run.warnings:
        warnings.warn(f"{run.name}: {message}", stacklevel=2)
    return run


def load_runs(paths_or_globs: str | Path | Iterable[str | Path]) -> list[Run]:
    """Load several runs; globs are expanded here (shells may not), and a folder of runs loads them all.

    The original-format `<run>.json` list beside a run directory is skipped (`report output/*` names
    both); when nothing named is a run, RunReadError names what was given."""
    if isinstance(paths_or_globs, str | Path):
        paths_or_globs = [paths_or_globs]
    runs: list[Run] = []
    seen: set[Path] = set()
    skipped: list[str] = []
    for item in paths_or_globs:
        paths = _expand(str(item))
        if not paths:
            skipped.append(str(item))
        for path in paths:
            resolved = path.resolve()
            if resolved not in seen:
                seen.add(resolved)
                runs.append(load_run(path))
    if not runs and skipped:
        raise RunReadError(f"not run directories: {', '.join(skipped)} (a <run>.json file is the list kept for "
                           f"the original tool; give its run directory, e.g. {Path(skipped[0]).with_suffix('')})")
    return runs


def is_run_directory(path: Path) -> bool:
    return path.is_dir() and (bool(_result_files(path)) or (path / "manifest.json").exists()
                              or bool(_shard_manifests(path)))


def _expand(item: str) -> list[Path]:
    if _GLOB_CHARS.search(item):
        matches = sorted(Path(m) for m in glob.glob(item))
        runs = [m for m in matches if is_run_directory(m) or (m.is_file() and m.suffix == ".jsonl")]
        if not runs:
            raise RunReadError(f"no run directory matches {item}")
        return runs
    path = Path(item)
    if path.is_file() and path.suffix == ".json" and is_run_directory(path.with_suffix("")):
        return []  # the seed-compatible copy beside its run (what `report output/*` expands to)
    if path.is_dir() and not is_run_directory(path):
        children = sorted(child for child in path.iterdir() if is_run_directory(child))
        if children:
            return children  # a folder of runs, e.g. output/
    return [path]


def _result_files(directory: Path) -> list[Path]:
    shards = sorted(
        (p for p in directory.glob("results.shard-*.jsonl") if _SHARD_FILE.match(p.name)),
        key=lambda p: int(_SHARD_FILE.match(p.name).group(1)),  # type: ignore[union-attr]
    )
    main = directory / RESULTS_FILE
    return ([main] if main.exists() else []) + shards


def _shard_manifests(directory: Path) -> list[Path]:
    return sorted(p for p in directory.glob("manifest.shard-*.json") if _SHARD_MANIFEST.match(p.name))


def _shards_expected(files: Sequence[Path]) -> int | None:
    counts = {int(m.group(2)) for f in files if (m := _SHARD_FILE.match(f.name))}
    return max(counts) if counts else None


def read_records(path: Path, problems: list[str]) -> list[dict[str, Any]]:
    """Records of one JSONL file. A torn last line (still being written) is skipped quietly;
    a damaged line elsewhere is skipped with a note in `problems` naming it."""
    records = []
    if has_torn_tail(path):
        problems.append(f"ignored an incomplete last line in {path.name} (still being written?)")
    for number, record in numbered_objects(path, lambda bad: problems.append(f"skipped damaged line {bad}")):
        records.append(normalise_record(record, fallback_id=f"{path.stem}-{number}"))
    return records


def _merge(files: Sequence[Path], problems: list[str]) -> list[dict[str, Any]]:
    """Merge files by id: later lines of one file win (re-runs); files that disagree are refused."""
    merged: dict[str, dict[str, Any]] = {}
    origin: dict[str, Path] = {}
    for path in files:
        own: dict[str, dict[str, Any]] = {}
        for record in read_records(path, problems):
            own[record["id"]] = record
        for sample_id, record in own.items():
            if sample_id in merged and _answer_of(merged[sample_id]) != _answer_of(record):
                raise RunReadError(
                    f"conflicting records for id {sample_id}: {origin[sample_id].name} says "
                    f"{_describe(merged[sample_id])}, {path.name} says {_describe(record)}"
                )
            if sample_id not in merged:
                merged[sample_id] = record
                origin[sample_id] = path
    fingerprints = Counter(r["fingerprint"] for r in merged.values() if r.get("fingerprint"))
    if len(fingerprints) > 1:
        listed = ", ".join(f"{fp} ({n} records)" for fp, n in fingerprints.most_common())
        raise RunReadError(f"{files[0].parent}: records from {len(fingerprints)} different configurations "
                           f"({listed}); they cannot be reported as one run")
    return list(merged.values())


def _answer_of(record: dict[str, Any]) -> tuple[Any, Any]:
    return record.get("prediction"), record.get("correct")


def _describe(record: dict[str, Any]) -> str:
    return f"prediction={record.get('prediction')!r} correct={record.get('correct')!r}"


def normalise_record(record: dict[str, Any], fallback_id: str = "") -> dict[str, Any]:
    """Fill the fields an older or partial record lacks, so every reader sees one shape."""
    out = dict(record)
    out["id"] = str(out.get("id") or fallback_id)
    for key in ("dataset", "split", "difficulty", "difficulty_source", "prediction", "error", "model",
                "cost_usd", "latency_s", "answer_idx"):
        out.setdefault(key, None)
    out.setdefault("response", "")
    if out.get("parse_status") not in ("ok", "failed"):
        out["parse_status"] = "ok" if out.get("prediction") else "failed"
    out["abstained"] = bool(out.get("abstained"))
    if "correct" not in out:
        answerable = not out["error"] and not out["abstained"]
        known = out["answer_idx"] is not None
        out["correct"] = (out["prediction"] == out["answer_idx"]) if answerable and known else None
    out["usage"] = _normalise_usage(out.get("usage"))
    if "paid_usd" not in out:  # written before costs were split into paid and replayed
        out["cost_usd"], out["paid_usd"], out["replayed_usd"] = record_costs(out)
        out.pop("cached_cost_usd", None)
    if out.get("calls") is None:
        out["calls"] = out["usage"]["total"].get("calls") or 0
    return out


def _normalise_usage(usage: Any) -> dict[str, Any]:
    """`{"total": {...}, "by_role": {...}}`; older flat usage dicts become the total."""
    if not isinstance(usage, dict):
        usage = {}
    if "total" not in usage and any(k in usage for k in _USAGE_FIELDS):
        usage = {"total": usage, "by_role": {}}
    total = {k: (usage.get("total") or {}).get(k) for k in _USAGE_FIELDS}
    for k in ("input_tokens", "output_tokens", "calls"):
        total[k] = total[k] or 0
    return {"total": total, "by_role": dict(usage.get("by_role") or {})}


def _read_json(path: Path, problems: list[str]) -> dict[str, Any]:
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError):
        problems.append(f"{path.name} is not valid JSON; ignored")
        return {}
    return data if isinstance(data, dict) else {}


def _load_manifest(directory: Path, problems: list[str]) -> dict[str, Any]:
    """manifest.json, or for sharded runs the shard manifests combined (running if any shard is)."""
    manifest = _read_json(directory / "manifest.json", problems)
    shard_manifests = [_read_json(p, problems) for p in _shard_manifests(directory)]
    if manifest or not shard_manifests:
        return manifest
    combined = dict(shard_manifests[0])
    if any(m.get("status") == "running" or not m.get("finished_at") for m in shard_manifests):
        combined["status"] = "running"
        combined.pop("finished_at", None)
    else:
        unfinished = [str(m.get("status")) for m in shard_manifests if m.get("status") != "finished"]
        combined["status"] = unfinished[0] if unfinished else "finished"
        combined["finished_at"] = max(str(m.get("finished_at")) for m in shard_manifests)
    combined["shards"] = len(shard_manifests)
    return combined


# Columns every row of a run gets from its manifest: how the run was made, so runs concatenated
# into one frame can be told apart and grouped.
RUN_COLUMNS = ("run", "model", "base_url", "method", "difficulty_mode", "dataset", "split", "sample_set", "rag", "critic",
               "critic_model", "seed", "run_status", "run_started_at")
USAGE_COLUMNS = ("run", "id", "role", "calls", "input_tokens", "cached_tokens", "output_tokens", "cost_usd")
_DATETIME_COLUMNS = ("finished_at", "run_started_at")


def natural_key(text: str) -> tuple[Any, ...]:
    """`medqa-test-2` before `medqa-test-10`: digit runs compare as numbers."""
    return tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", text))


def run_columns(run: Run) -> dict[str, Any]:
    """The run-level columns of `run` (None where an older manifest does not say)."""
    config = run.manifest.get("config") or {}
    return {
        "run": run.name, "model": config.get("model"), "base_url": config.get("base_url"),
        "method": config.get("method") or "mdagents",
        "difficulty_mode": config.get("difficulty"), "dataset": config.get("dataset"), "split": config.get("split"),
        "sample_set": run.manifest.get("sample_set", run.summary.get("sample_set")),
        "rag": config.get("rag"), "critic": config.get("critic"), "critic_model": config.get("critic_model"),
        "seed": config.get("seed"), "run_status": run.status, "run_started_at": run.manifest.get("started_at"),
    }


def _sorted_records(items: Run | Iterable[Run] | Iterable[dict[str, Any]]
                    ) -> list[tuple[Run | None, dict[str, Any]]]:
    """(run or None, record) pairs: runs in the order given, each run's records by natural id order."""
    if isinstance(items, Run):
        items = [items]
    pairs: list[tuple[Run | None, dict[str, Any]]] = []
    loose: list[dict[str, Any]] = []
    for item in items:
        if isinstance(item, Run):
            pairs.extend((item, r) for r in sorted(item.records, key=lambda r: natural_key(r["id"])))
        else:
            loose.append(normalise_record(dict(item)))
    pairs.extend((None, r) for r in sorted(loose, key=lambda r: natural_key(r["id"])))
    return pairs


def _pandas() -> Any:
    try:
        import pandas as pd
    except ImportError:
        raise UsageError("to_dataframe needs pandas: pip install pandas") from None
    return pd


def to_dataframe(records_or_runs: Run | Iterable[Run] | Iterable[dict[str, Any]]) -> Any:
    """A pandas DataFrame, one row per sample: runs in the order given, each sorted by question id.

    Rows of a run start with its run-level columns (RUN_COLUMNS: model, base URL, difficulty mode,
    dataset, sample set, rag, critic, ...), so several runs concatenate into one tidy frame; total
    usage is flattened (input_tokens, ...), usage by agent role is in `usage_frame`, and
    `finished_at` / `run_started_at` are timezone-aware datetimes."""
    pd = _pandas()
    rows = []
    for run, record in _sorted_records(records_or_runs):
        row = flatten_record(record)
        if run is not None:
            columns = run_columns(run)
            row = columns | {k: v for k, v in row.items() if k not in columns or v is not None}
        rows.append(row)
    frame = pd.DataFrame(rows)
    for column in _DATETIME_COLUMNS:
        if column in frame:
            frame[column] = pd.to_datetime(frame[column], utc=True, errors="coerce", format="ISO8601")
    return frame


def usage_frame(records_or_runs: Run | Iterable[Run] | Iterable[dict[str, Any]]) -> Any:
    """Usage by agent role as a long table: one row per (run, id, role) with calls, input, cached and
    output tokens and the role's cost (USAGE_COLUMNS); join it to `to_dataframe` on run and id."""
    pd = _pandas()
    rows = []
    for run, record in _sorted_records(records_or_runs):
        for role, usage in sorted((record.get("usage") or {}).get("by_role", {}).items()):
            usage = usage or {}
            rows.append({"run": run.name if run else None, "id": record["id"], "role": role,
                         "calls": usage.get("calls"), "input_tokens": usage.get("input_tokens"),
                         "cached_tokens": usage.get("cached_tokens"), "output_tokens": usage.get("output_tokens"),
                         "cost_usd": usage.get("cost_usd")})
    return pd.DataFrame(rows, columns=list(USAGE_COLUMNS))


def flatten_record(record: dict[str, Any], run: str | None = None) -> dict[str, Any]:
    """One flat row: total usage, critic and rag become columns; other nested values stay as objects."""
    row: dict[str, Any] = {} if run is None else {"run": run}
    for key, value in record.items():
        if key not in ("usage", "critic", "rag", "calls"):
            row[key] = value
    usage = record.get("usage") or {}
    for k in _USAGE_FIELDS:
        row[k] = (usage.get("total") or {}).get(k)
    row["calls"] = record.get("calls")
    critic = record.get("critic")
    if isinstance(critic, dict):
        attempts = critic.get("attempts") or []
        row["critic_verdict"] = critic.get("verdict")
        row["critic_outcome"] = critic_outcome(record)
        row["critic_decisions"] = critic.get("decisions")
        row["critic_attempts"] = len(attempts)
        row["critic_failed_layers"] = ",".join(
            str(a.get("layer")) for a in attempts if isinstance(a, dict) and a.get("verdict") == "FAIL"
        )
        row["critic_changed_answer"] = critic.get("changed_answer")
    rag = record.get("rag")
    if isinstance(rag, dict):
        row["rag_query"] = rag.get("query")
        row["rag_chunks"] = len(rag.get("chunks") or [])
        row["rag_changed_answer"] = rag.get("changed_answer")
    return row
