"""`export RUN --format inspect` is read back by inspect_ai's own reader; csv/parquet are flat tables."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pandas as pd
import pytest

from mdagents.cli import main
from tests.runs_helpers import cli_args, good_server, only_run_dir, read_records

inspect_log = pytest.importorskip("inspect_ai.log")


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("export")
    with good_server("intermediate") as server:
        server.fail_next(400, times=1)  # the first call of one sample fails: a record with an error
        main(cli_args(server, tmp, "--difficulty", "adaptive", "--num-exemplars", "0", "--max-retries", "0",
                      "--concurrency", "1", n=3))
    return only_run_dir(tmp)


@pytest.mark.parametrize("suffix", [".eval", ".json"])
def test_inspect_reads_the_exported_log(run_dir: Path, tmp_path: Path, suffix: str) -> None:
    out = tmp_path / f"run{suffix}"
    assert main(["export", str(run_dir), "--format", "inspect", "-o", str(out)]) == 0
    log = inspect_log.read_eval_log(str(out))
    records = {r["id"]: r for r in read_records(run_dir)}
    summary = json.loads((run_dir / "summary.json").read_text())
    assert log.status == "success" and log.eval.model == "openai/gpt-4o-mini"
    assert log.eval.dataset.samples == len(records) == len(log.samples or [])
    failed = [s for s in log.samples or [] if s.error is not None]
    assert len(failed) == summary["errors"] == 1 and failed[0].scores is None
    for sample in log.samples or []:
        record = records[str(sample.id)]
        assert sample.target == record["answer_idx"]
        assert sample.choices == [record["options"][k] for k in sorted(record["options"])]
        transcript = json.loads((run_dir / "transcripts" / f"{sample.id}.json").read_text())
        assert len([e for e in sample.events if e.event == "model"]) == len(transcript["calls"])
        if sample.error is None:
            assert sample.scores["choice"].value == ("C" if record["correct"] else "I")
            assert sample.scores["choice"].answer == record["prediction"]
            assert sample.output.completion == record["response"]
            assert set(sample.role_usage) == set(record["usage"]["by_role"])
    usage = log.stats.model_usage["openai/gpt-4o-mini"]
    assert usage.input_tokens == summary["input_tokens"] and usage.output_tokens == summary["output_tokens"]
    metrics = log.results.scores[0].metrics
    graded = [r for r in records.values() if not r["error"]]
    assert metrics["accuracy"].value == pytest.approx(sum(r["correct"] for r in graded) / len(graded))


def test_one_log_per_run_in_a_directory(run_dir: Path, tmp_path: Path, capsys) -> None:
    assert main(["export", str(run_dir), "--format", "inspect", "-o", str(tmp_path / "logs")]) == 0
    [written] = (tmp_path / "logs").glob("*.eval")
    assert written.stem == run_dir.name
    assert "inspect view --log-dir" in capsys.readouterr().out
    infos = inspect_log.list_eval_logs(str(tmp_path / "logs"))
    assert len(infos) == 1


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_records_as_one_flat_table(run_dir: Path, tmp_path: Path, fmt: str) -> None:
    if fmt == "parquet":
        pytest.importorskip("pyarrow")
    out = tmp_path / f"records.{fmt}"
    assert main(["export", str(run_dir), "--format", fmt, "-o", str(out)]) == 0
    frame = pd.read_csv(out) if fmt == "csv" else pd.read_parquet(out)
    records = read_records(run_dir)
    assert len(frame) == len(records)
    assert {"run", "model", "dataset", "id", "correct", "prediction", "input_tokens"} <= set(frame.columns)
    assert set(frame["model"]) == {"openai/gpt-4o-mini"}
    options = json.loads(frame.loc[frame["id"] == records[0]["id"], "options"].iloc[0])
    assert options == records[0]["options"]


def test_without_inspect_ai_the_export_is_one_line(run_dir: Path, tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.setitem(sys.modules, "inspect_ai.log", None)
    assert main(["export", str(run_dir), "--format", "inspect", "-o", str(tmp_path / "x.eval")]) == 2
    err = capsys.readouterr().err.strip()
    assert err == "error: --format inspect needs inspect_ai: pip install inspect_ai"
