"""Run integrity as a user meets it: one run directory holds one configuration and each question once,
damage is survived, and every bad input or dead server is one clear line with the documented exit code."""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from mdagents.cli import main
from tests.fakes.servers import FakeServer
from tests.locations import REPO_ROOT
from tests.pipelines.responders import good_responder
from tests.runs_helpers import cli_args, good_server, only_run_dir, read_records, sample_lookup


def one_line(err: str) -> str:
    """The one line that reports the failure (notes and progress lines set aside), and no traceback."""
    assert "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line.startswith(("error:", "python main.py: error:"))]
    assert len(lines) == 1, err
    return lines[0]


# ---------------------------------------------------------------- one process per run


@pytest.mark.slow
def test_two_identical_commands_at_once_leave_each_id_once(tmp_path: Path) -> None:
    """The first process is held at its first call (the server answers nothing until the gate opens), so the
    second provably meets its lock, and the `--wait` one provably waits for it before resuming."""
    env = {**os.environ, "MDAGENTS_CACHE_DIR": str(tmp_path / "cache")}
    gate = threading.Event()
    with good_server() as server:
        answer = server.responder
        assert answer is not None
        server.responder = lambda messages, body: (gate.wait(120), answer(messages, body))[1]
        args = cli_args(server, tmp_path, "--difficulty", "intermediate", "--concurrency", "4", n=12)
        first = subprocess.Popen([sys.executable, "main.py", *args], cwd=REPO_ROOT, env=env,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 60
            while not server.requests and first.poll() is None and time.monotonic() < deadline:
                time.sleep(0.01)  # its first call has arrived: it holds the run directory
            assert server.requests and first.poll() is None
            second = subprocess.run([sys.executable, "main.py", *args], cwd=REPO_ROOT, env=env,
                                    capture_output=True, text=True, timeout=120)
            assert second.returncode == 2
            assert f"in use by process {first.pid}" in one_line(second.stderr)
            waiting = subprocess.Popen([sys.executable, "main.py", *args, "--wait"], cwd=REPO_ROOT, env=env,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            assert waiting.stderr is not None
            seen: list[str] = []

            def read_lines() -> None:
                for line in waiting.stderr or ():
                    seen.append(line)

            threading.Thread(target=read_lines, daemon=True).start()
            deadline = time.monotonic() + 60
            while (not any(f"waiting for process {first.pid}" in line for line in seen)
                   and waiting.poll() is None and time.monotonic() < deadline):
                time.sleep(0.01)
            assert any(f"waiting for process {first.pid}" in line for line in seen), seen
            assert first.poll() is None  # still held: the waiting process met the lock, not a finished run
        finally:
            gate.set()
        assert first.wait(timeout=180) == 0
        assert waiting.wait(timeout=180) == 0, "".join(seen)
    records = read_records(only_run_dir(tmp_path))
    assert len(records) == 12 and len({r["id"] for r in records}) == 12


# ---------------------------------------------------------------- one configuration per run


def test_a_changed_seed_is_refused_with_the_fields_that_differ(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    with good_server() as server:
        assert main(cli_args(server, tmp_path, "--difficulty", "basic", n=3)) == 0
        capsys.readouterr()
        before = len(server.requests)
        assert main(cli_args(server, tmp_path, "--difficulty", "basic", "--seed", "1", "--no-shuffle", n=3)) == 2
        line = one_line(capsys.readouterr().err)
        assert "seed: 0 -> 1" in line and "shuffle: true -> false" in line and "--new-run" in line
        assert len(server.requests) == before
        assert main(cli_args(server, tmp_path, "--difficulty", "basic", "--seed", "1", "--new-run", n=3)) == 0
        assert main(cli_args(server, tmp_path, "--difficulty", "basic", "--seed", "1", "--new-run", n=3)) == 0
    runs = sorted(p.name for p in (tmp_path / "out").iterdir() if p.is_dir())
    assert runs == ["openai_gpt-4o-mini_medqa_basic_3samples", "openai_gpt-4o-mini_medqa_basic_3samples-2"]
    for run in runs:
        records = read_records(tmp_path / "out" / run)
        assert len(records) == 3 and len({r["fingerprint"] for r in records}) == 1
    manifest = json.loads((tmp_path / "out" / runs[1] / "manifest.json").read_text())
    assert manifest["fingerprint_fields"]["seed"] == 1 and manifest["fingerprint"] == records[0]["fingerprint"]


def test_two_files_with_one_name_never_share_a_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = (REPO_ROOT / "mdagents" / "data" / "samples" / "medqa" / "test.jsonl").read_text().splitlines()
    for folder, chosen in (("a", lines[:3]), ("b", lines[3:6])):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "test_hard.jsonl").write_text("\n".join(chosen) + "\n")
    with good_server() as server:
        base = ["--model", "openai/gpt-4o-mini", "--base-url", server.base_url, "--difficulty", "basic",
                "--output-dir", str(tmp_path / "out"), "--cache-path", str(tmp_path / "c.sqlite"), "--num-exemplars", "0"]
        assert main(["--dataset", str(tmp_path / "a" / "test_hard.jsonl"), *base]) == 0
        capsys.readouterr()
        assert main(["--dataset", str(tmp_path / "b" / "test_hard.jsonl"), *base]) == 2
    line = one_line(capsys.readouterr().err)
    assert "dataset_path" in line and "dataset_sha256" in line


def test_report_refuses_records_of_two_configurations(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with good_server() as server:
        assert main(cli_args(server, tmp_path, "--difficulty", "basic", n=2)) == 0
    run_dir = only_run_dir(tmp_path)
    records = read_records(run_dir)
    records[1]["fingerprint"] = "0123456789ab"
    (run_dir / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    capsys.readouterr()
    assert main(["report", str(run_dir)]) == 2
    assert "2 different configurations" in capsys.readouterr().err


# ---------------------------------------------------------------- damage is survivable


def test_damaged_results_lines_are_skipped_rerun_and_reported(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    with good_server() as server:
        assert main(cli_args(server, tmp_path, "--difficulty", "basic", n=4)) == 0
        run_dir = only_run_dir(tmp_path)
        lines = (run_dir / "results.jsonl").read_bytes().splitlines(keepends=True)
        damaged = lines[0] + b"\xff\xfe not utf-8 \x00\n" + lines[1][:50] + b"}garbage\n" + lines[2] + lines[3]
        (run_dir / "results.jsonl").write_bytes(damaged)
        capsys.readouterr()
        assert main(cli_args(server, tmp_path, "--difficulty", "basic", n=4)) == 0
    err = capsys.readouterr().err
    assert "skipped 2 damaged line(s)" in err and "results.jsonl:2" in err
    good = [json.loads(x) for x in (run_dir / "results.jsonl").read_bytes().splitlines() if x.startswith(b'{"')
            and x.endswith(b"}") and b"garbage" not in x]
    assert len({r["id"] for r in good}) == 4  # the damaged question ran again
    assert main(["report", str(run_dir)]) == 0
    assert "skipped damaged line" in "".join(capsys.readouterr())


def test_a_corrupt_cache_is_moved_aside_with_one_warning(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cache = tmp_path / "cache.sqlite"
    cache.write_bytes(b"this is not a sqlite database at all" * 100)
    with good_server() as server:
        assert main(cli_args(server, tmp_path, "--difficulty", "basic", n=2)) == 0
    err = capsys.readouterr().err
    assert err.count("response cache") == 1 and "moved it to" in err
    assert list(tmp_path.glob("cache.sqlite.corrupt-*"))
    sqlite3.connect(cache).execute("SELECT count(*) FROM responses").fetchone()


# ---------------------------------------------------------------- bad input: one line, exit 2


@pytest.mark.parametrize(("extra", "words"), [
    (["--base-url", "notaurl"], "--base-url must be an http"),
    (["--max-cost", "nan"], "--max-cost must be a finite positive number"),
    (["--timeout", "inf"], "--timeout must be a finite positive number"),
    (["--base-url", "http://localhost:99999/v1"], "invalid port"),
])
def test_bad_values_are_one_line_and_exit_2(extra: list[str], words: str, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--dataset", "medqa", "--model", "openai/gpt-4o-mini", "--base-url", "http://127.0.0.1:9/v1",
            "--output-dir", str(tmp_path / "out"), "--num_samples", "2", *extra]
    assert main(args) == 2
    assert words in one_line(capsys.readouterr().err)
    assert not (tmp_path / "out").exists()


def test_an_empty_dataset_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n\n")
    assert main(["--dataset", str(empty), "--model", "openai/gpt-4o-mini", "--base-url", "http://127.0.0.1:9/v1",
                 "--output-dir", str(tmp_path / "out")]) == 2
    assert "holds no questions" in one_line(capsys.readouterr().err)


@pytest.mark.skipif(os.geteuid() == 0 and False, reason="")
def test_an_unwritable_output_directory_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("a file where a directory should be")
    assert main(["--dataset", "medqa", "--model", "openai/gpt-4o-mini", "--base-url", "http://127.0.0.1:9/v1",
                 "--output-dir", str(blocker / "out")]) == 2
    assert "cannot write the run directory" in one_line(capsys.readouterr().err)


# ---------------------------------------------------------------- dead or misconfigured servers fail fast


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_dead_server_stops_eight_questions_within_seconds(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    url = f"http://127.0.0.1:{free_port()}/v1"  # nothing listens there
    started = time.monotonic()
    code = main(["--dataset", "medqa", "--model", "openai/gpt-4o-mini", "--base-url", url, "--num_samples", "8",
                 "--difficulty", "intermediate", "--output-dir", str(tmp_path / "out"), "--no-cache"])
    elapsed = time.monotonic() - started
    line = one_line(capsys.readouterr().err)
    assert code == 1 and elapsed < 45
    assert url in line and "onnect" in line


@pytest.mark.parametrize(("status", "words"), [(401, "HTTP 401"), (404, "HTTP 404")])
def test_a_refused_key_or_a_wrong_path_stops_the_run_with_one_line(status: int, words: str, tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    with FakeServer("openai", good_responder(sample_lookup(), "basic")) as server:
        server.fail_next(status, times=1000)
        code = main(cli_args(server, tmp_path, "--difficulty", "basic", n=8))
        assert len(server.requests) <= 16
    line = one_line(capsys.readouterr().err)
    assert code == 1 and words in line and server.base_url in line


# ---------------------------------------------------------------- keys never written


def test_a_key_the_model_echoes_is_redacted_before_anything_is_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    secret = "sk-proj-Zq8v3LmN0pR7sT2uW5xY9aB4cD6eF8gH"
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    oracle = good_responder(sample_lookup(), "basic")

    def echo(messages: object, body: object = None) -> str:
        return f"My key is {secret}. " + oracle(messages, body)  # type: ignore[arg-type]

    with FakeServer("openai", echo) as server:
        assert main(cli_args(server, tmp_path, "--difficulty", "basic", n=2)) == 0
    written = "".join(p.read_text(errors="replace") for p in (tmp_path / "out").rglob("*") if p.is_file())
    assert secret not in written and "My key is ***" in written


def test_new_run_never_overwrites_another_runs_seed_compatible_list(tmp_path: Path) -> None:
    with good_server() as server:
        assert main(cli_args(server, tmp_path, "--difficulty", "basic", n=3)) == 0
        legacy = tmp_path / "out" / "openai_gpt-4o-mini_medqa_basic_3samples.json"
        before = legacy.read_bytes()
        assert main(cli_args(server, tmp_path, "--difficulty", "basic", "--seed", "1", "--new-run", n=3)) == 0
    assert legacy.read_bytes() == before  # the first run's list is its own
    second = json.loads((tmp_path / "out" / "openai_gpt-4o-mini_medqa_basic_3samples-2.json").read_text())
    assert len(second) == 3
    own = {r["id"]: r["options"] for r in read_records(tmp_path / "out" / "openai_gpt-4o-mini_medqa_basic_3samples-2")}
    assert {r["id"]: r["options"] for r in second} == own
