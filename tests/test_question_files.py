"""Per-question files (transcripts, viewer pages) are named so that no two ids share one and any id fits."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mdagents import load_run
from mdagents.cli import main
from mdagents.errors import MDAgentsError
from mdagents.paths import legacy_transcript_stem, transcript_stem
from tests.locations import REPO_ROOT
from tests.runs_helpers import cli_args, good_server, only_run_dir, read_records

LONG = "case-" + "x" * 295  # 300 characters: more than a file name may hold with its suffix
IDS = ("a/b", "a_b", "A_B", LONG, "../../escape", ".hidden")


def _quiz(tmp_path: Path) -> Path:
    """Sample questions under awkward ids, as a dataset of the user's own."""
    lines = (REPO_ROOT / "mdagents" / "data" / "samples" / "medqa" / "test.jsonl").read_text().splitlines()
    rows = [{**json.loads(line), "realidx": key} for line, key in zip(lines, IDS, strict=False)]
    path = tmp_path / "quiz.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_every_id_gets_its_own_bounded_safe_name() -> None:
    stems = [transcript_stem(f"quiz-test-{key}") for key in IDS]
    assert len(set(stems)) == len(stems) and len({s.lower() for s in stems}) == len(stems)
    for stem in stems:
        assert "/" not in stem and not stem.startswith(".") and len(stem.encode()) <= 100
    assert transcript_stem("medqa-test-s000") == "medqa-test-s000"  # a plain id stays readable as it was
    assert transcript_stem("a/b").startswith("a_b~") and transcript_stem("a_b") == "a_b"


def test_awkward_ids_keep_their_own_transcripts_resume_and_view(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    quiz = _quiz(tmp_path)
    with good_server("basic") as server:
        args = cli_args(server, tmp_path, "--dataset", str(quiz), "--difficulty", "basic", "--num-exemplars", "0",
                        n=len(IDS))
        assert main(args) == 0
        calls = len(server.requests)
        assert main(args) == 0  # resumes: every question is done, nothing is asked again
        assert len(server.requests) == calls
    run_dir = only_run_dir(tmp_path)
    records = read_records(run_dir)
    assert sorted(r["id"] for r in records) == sorted(f"quiz-test-{key}" for key in IDS)
    assert not any(r["error"] for r in records)
    assert len(list((run_dir / "transcripts").iterdir())) == len(IDS)
    run = load_run(run_dir)
    for record in records:
        assert run.transcript(record["id"])["id"] == record["id"]
    assert main(["view", str(run_dir)]) == 0
    assert "Traceback" not in capsys.readouterr().err
    assert len(list((run_dir / "view" / "questions").glob("*.html"))) == len(IDS)


def test_a_run_written_with_the_old_file_names_still_reads(tmp_path: Path) -> None:
    quiz = _quiz(tmp_path)
    with good_server("basic") as server:
        assert main(cli_args(server, tmp_path, "--dataset", str(quiz), "--difficulty", "basic",
                             "--num-exemplars", "0", n=2)) == 0
    run_dir = only_run_dir(tmp_path)
    folder = run_dir / "transcripts"
    # The old naming gave `a/b` and `a_b` one file; the one written last (here `a/b`'s) survived.
    (folder / f"{transcript_stem('quiz-test-a_b')}.json").unlink()
    (folder / f"{transcript_stem('quiz-test-a/b')}.json").rename(folder / f"{legacy_transcript_stem('quiz-test-a/b')}.json")
    run = load_run(run_dir)
    assert run.transcript("quiz-test-a/b")["id"] == "quiz-test-a/b"
    with pytest.raises(MDAgentsError, match="no transcript for 'quiz-test-a_b'"):
        run.transcript("quiz-test-a_b")  # the file under its name holds another question: not shown as its own
