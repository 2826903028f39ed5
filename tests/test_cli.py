"""What a user sees on the command line: one clear line and the right exit code, never a key."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from mdagents.cli import main
from tests.fakes.servers import FakeServer
from tests.runs_helpers import cli_args, good_server, only_run_dir, read_records

SECRET = "sk-proj-SECRETsecretSECRET0123456789"


def test_missing_key_is_reported_before_any_dataset_work(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--dataset", "no-such-dataset", "--model", "openai/gpt-4o-mini"])
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert err.startswith("error: OPENAI_API_KEY is not set") and "no-such-dataset" not in err
    assert len(err.splitlines()) == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--no-such-flag"], "unrecognized arguments"),
        (["--difficulty", "expert"], "invalid choice"),
        (["--model", "mystery-model"], "cannot tell the provider"),
        (["--num_samples", "-3"], "--num_samples"),
        (["--shard", "3/2"], "--shard"),
        (["--dataset", "no-such-dataset", "--model", "local/smollm2-135m"], "no-such-dataset"),
        (["--team-context", "shared"], "invalid choice"),
        (["--temperature", "3"], "--temperature"),
        (["--max-tokens", "0"], "--max-tokens"),
    ],
)
def test_usage_errors_exit_2_with_one_line(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "Traceback" not in err


@pytest.mark.parametrize(("args", "message"), [
    (["--repeats", "100000000000000000000"], "invalid value for --repeats 100000000000000000000 (allowed: 1 to 1000)"),
    (["--repeats", "1e20"], "argument --repeats: invalid int value: '1e20'"),
    (["--concurrency", "1000000000"], "--concurrency 1000000000 (allowed: 1 to 10000)"),
    (["--rounds", "100000", "--turns", "100000"], "--rounds 100000 (allowed: 1 to 100); --turns 100000"),
    (["--seed", str(2**64)], f"--seed {2**64} (allowed: "),
    (["--timeout", "1e9"], "--timeout 1e+09 is over a day"),
])
def test_absurd_sizes_are_refused_at_once_with_one_line(args: list[str], message: str,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    started = time.monotonic()
    assert main(["--model", "openai/gpt-4o-mini", "--base-url", "http://127.0.0.1:9/v1", *args]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err, err
    assert time.monotonic() - started < 10


def test_a_flooding_server_costs_one_error_record_not_the_disk(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    flood = "Adrenaline." * 1_800_000 + "\nAnswer: (A)"  # 19.8 MB
    with FakeServer("openai", lambda messages, request: flood) as server:
        code = main(cli_args(server, tmp_path, "--difficulty", "basic", "--num-exemplars", "0", n=1))
    assert code == 1
    run_dir = only_run_dir(tmp_path)
    [record] = read_records(run_dir)
    assert "reply of 19,800,012 characters refused (the cap is 1,000,000)" in record["error"]
    assert sum(p.stat().st_size for p in tmp_path.rglob("*") if p.is_file()) < 1_000_000
    assert "Traceback" not in capsys.readouterr().err


def test_malformed_dataset_line_names_file_and_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "test.jsonl"
    good = {"question": "Q?", "options": {"A": "x", "B": "y"}, "answer_idx": "A", "answer": "x"}
    bad.write_text(json.dumps(good) + "\n" + '{"question": "broken"\n')
    with good_server() as server:
        code = main(cli_args(server, tmp_path, "--dataset", str(bad)))
    assert code == 2
    assert f"{bad}:2" in capsys.readouterr().err


def test_key_never_appears_in_output_or_records(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    with good_server() as server:
        server.fail_next(401, times=100, body={"error": {"message": f"Incorrect API key provided: {SECRET}",
                                                          "type": "invalid_request_error"}})
        code = main(cli_args(server, tmp_path, "--difficulty", "basic", "--num-exemplars", "0", n=2))
        assert server.requests[0]["headers"]["authorization"] == f"Bearer {SECRET}"  # it was really used
    out, err = capsys.readouterr()
    assert code == 1
    run_dir = only_run_dir(tmp_path)
    errors = [line for line in err.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "HTTP 401" in errors[0]  # a refused key stops the run at once: one line
    assert not (run_dir / "results.jsonl").exists() or read_records(run_dir) == []
    everything = out + err + "".join(p.read_text() for p in run_dir.rglob("*") if p.is_file())
    assert SECRET not in everything


def test_method_flags_reach_the_manifest(tmp_path: Path) -> None:
    with good_server() as server:
        assert main(cli_args(server, tmp_path, "--difficulty", "advanced", "--no-consensus-stop", "--team-context",
                             "staged", "--temperature", "0.4", "--max-tokens", "2048", n=1)) == 0
        bodies = [r["json"] for r in server.requests]
    assert {b["max_tokens"] for b in bodies} == {2048}
    assert {b["temperature"] for b in bodies} == {0.4, 0.0}  # the coordinator's final decision is at 0
    manifest = json.loads((only_run_dir(tmp_path) / "manifest.json").read_text())
    settings = manifest["config"]["settings"]
    assert (settings["consensus_stop"], settings["team_context"], settings["temperatures"]) == (False, "staged", [0.4])
    assert manifest["config"]["max_tokens"] == 2048
    record = read_records(only_run_dir(tmp_path))[0]
    assert record["details"]["team_context"] == "staged" and record["correct"] is True
