"""What a run tells its user: which data it ran, how far it got, and files a colleague can read."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from mdagents import __version__
from mdagents.cli import main
from tests.locations import REPO_ROOT
from tests.runs_helpers import cli_args, good_server, only_run_dir, read_records

ONE_CALL = ("--difficulty", "basic", "--num-exemplars", "0")


def test_a_sample_set_run_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with good_server() as server:
        assert main(cli_args(server, tmp_path, *ONE_CALL, n=2)) == 0
    err = capsys.readouterr().err
    notes = [line for line in err.splitlines() if "sample set" in line]
    assert len(notes) == 1 and "not the public benchmark" in notes[0] and "datasets prepare medqa" in notes[0]
    run_dir = only_run_dir(tmp_path)
    assert json.loads((run_dir / "manifest.json").read_text())["sample_set"] is True
    assert json.loads((run_dir / "summary.json").read_text())["sample_set"] is True
    assert main(["report", str(run_dir)]) == 0
    assert "SAMPLE SET (not the public benchmark)" in capsys.readouterr().out


def test_a_dataset_file_is_not_called_a_sample_set(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "mine.jsonl"
    data.write_text(json.dumps({"question": "Which is right?", "options": {"A": "this", "B": "that"},
                                "answer_idx": "A", "answer": "this"}) + "\n")
    with good_server() as server:
        assert main(cli_args(server, tmp_path, *ONE_CALL, "--dataset", str(data), n=1)) == 0
    assert "sample set" not in capsys.readouterr().err
    assert json.loads((only_run_dir(tmp_path) / "manifest.json").read_text())["sample_set"] is False


def test_progress_lines_while_it_runs_when_stderr_is_a_file(tmp_path: Path) -> None:
    log = tmp_path / "stderr.log"
    with good_server(latency=0.25) as server, log.open("w") as stderr:
        args = cli_args(server, tmp_path, *ONE_CALL, "--concurrency", "1", "--progress-every", "0", n=6)
        process = subprocess.Popen([sys.executable, str(REPO_ROOT / "main.py"), *args], cwd=tmp_path,
                                   stdout=subprocess.DEVNULL, stderr=stderr)
        try:
            seen_while_running = False
            deadline = time.monotonic() + 60
            while process.poll() is None and time.monotonic() < deadline:
                if "progress: 1/6" in log.read_text():
                    seen_while_running = process.poll() is None
                    break
                time.sleep(0.05)
            assert process.wait(timeout=60) == 0
        finally:
            if process.poll() is None:
                process.kill()
    assert seen_while_running
    lines = [line for line in log.read_text().splitlines() if line.startswith("progress:")]
    assert len(lines) == 6 and lines[-1].startswith("progress: 6/6 (100%)")
    assert all(p in lines[-1] for p in ("errors 0", "accuracy 100%", "paid unknown", "q/s", "ETA"))


def test_quiet_silences_progress(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with good_server() as server:
        assert main(cli_args(server, tmp_path, *ONE_CALL, "--progress-every", "0", "-q", n=2)) == 0
    assert "progress:" not in capsys.readouterr().err


@pytest.fixture
def umask_022() -> Iterator[None]:
    previous = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(previous)


def test_every_file_a_run_writes_is_group_readable(tmp_path: Path, umask_022: None) -> None:
    with good_server() as server:
        assert main(cli_args(server, tmp_path, "--difficulty", "basic", n=2)) == 0
        # a resume and a --retry-failed rewrite the files again
        assert main(cli_args(server, tmp_path, "--difficulty", "basic", "--retry-failed", n=2)) == 0
    files = [p for p in (tmp_path / "out").rglob("*") if p.is_file()]
    assert {"results.jsonl", "manifest.json", "summary.json", "totals.json"} <= {p.name for p in files}
    assert any(p.parent.name == "transcripts" for p in files) and any(p.suffix == ".json" and
                                                                      p.parent.name == "out" for p in files)
    unreadable = [str(p) for p in files if not p.stat().st_mode & stat.S_IRGRP or not p.stat().st_mode & stat.S_IROTH]
    assert unreadable == []


def test_version_and_limit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"mdagents {__version__}"
    with good_server() as server:
        assert main([*cli_args(server, tmp_path, *ONE_CALL, n=10), "--limit", "3"]) == 0
    assert len(read_records(only_run_dir(tmp_path))) == 3


def test_a_mistyped_command_suggests_the_right_one(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["reprot", "output"]) == 2
    err = capsys.readouterr().err.strip()
    assert "unknown command 'reprot'" in err and "did you mean 'report'" in err and len(err.splitlines()) == 1


def test_report_on_paths_that_are_not_runs_names_them(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with good_server() as server:
        assert main(cli_args(server, tmp_path, *ONE_CALL, n=2)) == 0
    capsys.readouterr()
    copies = [str(p) for p in (tmp_path / "out").glob("*.json")]  # what `report output/*.json` expands to
    assert main(["report", *copies]) == 2
    err = capsys.readouterr().err
    assert "not run directories" in err and copies[0] in err
    notes = tmp_path / "notes.txt"
    notes.write_text("x")
    assert main(["report", str(notes)]) == 2
    assert str(notes) in capsys.readouterr().err


def test_levels_are_listed_in_their_natural_order(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with good_server() as server:
        for level in ("advanced", "basic", "intermediate"):
            assert main(cli_args(server, tmp_path / level, "--difficulty", level, "--rounds", "1", n=1)) == 0
    records = [r for level in ("advanced", "basic", "intermediate")
               for r in read_records(only_run_dir(tmp_path / level))]
    from mdagents.analysis.summary import summarize

    assert list(summarize(records)["by_difficulty"]) == ["basic", "intermediate", "advanced"]


def test_to_dataframe_of_two_runs_has_run_columns_and_ids_in_order(tmp_path: Path) -> None:
    pd = pytest.importorskip("pandas")
    from mdagents import load_runs, to_dataframe, usage_frame

    quiz = tmp_path / "quiz.jsonl"  # ids quiz-test-0 ... quiz-test-11
    quiz.write_text("".join(json.dumps({"question": f"Question {i}?", "options": {"A": "yes", "B": "no"},
                                        "answer_idx": "A", "answer": "yes"}) + "\n" for i in range(12)))
    with good_server() as server:
        assert main(cli_args(server, tmp_path, *ONE_CALL, "--dataset", str(quiz), "--concurrency", "8", n=12)) == 0
        assert main(cli_args(server, tmp_path, "--difficulty", "advanced", n=3)) == 0
    runs = load_runs(tmp_path / "out")
    frame = to_dataframe(runs)
    assert len(frame) == 15
    for column in ("run", "model", "base_url", "difficulty_mode", "dataset", "sample_set", "rag", "critic"):
        assert column in frame.columns, column
    per_run = frame.groupby("run")[["difficulty_mode", "dataset", "sample_set"]].first()
    assert per_run.to_dict("index") == {
        "openai_gpt-4o-mini_medqa_advanced_3samples": {"difficulty_mode": "advanced", "dataset": "medqa",
                                                       "sample_set": True},
        "openai_gpt-4o-mini_quiz_basic_12samples": {"difficulty_mode": "basic", "dataset": "quiz",
                                                    "sample_set": False}}
    assert set(frame["base_url"]) == {runs[0].manifest["config"]["base_url"]}
    quiz_ids = frame.loc[frame["dataset"] == "quiz", "id"].tolist()
    assert quiz_ids == [f"quiz-test-{i}" for i in range(12)]  # quiz-test-2 before quiz-test-10
    assert pd.api.types.is_datetime64_any_dtype(frame["finished_at"])
    assert not [c for c in frame.columns if c.startswith("usage_")]
    usage = usage_frame(runs)
    advanced = usage[usage["run"].str.contains("advanced")]
    assert advanced.groupby("id")["calls"].sum().tolist() == frame.loc[frame["difficulty_mode"] == "advanced",
                                                                       "calls"].tolist()
