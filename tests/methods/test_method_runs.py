"""--method end to end: mock/oracle and the loopback server, records, summary, manifest, fingerprint, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mdagents.cli import main
from mdagents.errors import ConfigError
from mdagents.methods import BUILTIN
from mdagents.run.config import RunConfig
from mdagents.run.fingerprint import fingerprint_fields, short_hash
from tests.locations import SAMPLES
from tests.runs_helpers import cli_args, good_server, only_run_dir, read_records

ALL = ["zero-shot", "few-shot", "cot", "cot-sc:3", "majority-vote:3", "llm-debate:2:2", "medagents:3:1:2",
       "medprompt:3:2:6"]
CALLS = {"zero-shot": 1, "few-shot": 1, "cot": 1, "cot-sc:3": 3, "majority-vote:3": 3, "llm-debate:2:2": 4,
         "medagents:3:1:2": 11, "medprompt:3:2:6": 3}
RUN_OVERHEAD = {"medprompt:3:2:6"}  # exemplar chains of thought, written once per run
REPO = Path(__file__).resolve().parents[2]


def _oracle(tmp_path: Path, *extra: str, n: int = 4) -> list[str]:
    return ["--dataset", "medqa", "--model", "mock/oracle", "--num_samples", str(n), "-q",
            "--output-dir", str(tmp_path / "out"), "--cache-path", str(tmp_path / "cache.sqlite"), *extra]


def test_every_builtin_is_run_end_to_end() -> None:
    assert {spec.split(":")[0] for spec in ALL} == set(BUILTIN)


@pytest.mark.parametrize("spec", ALL)
def test_mock_oracle_scores_every_method_perfectly(spec: str, tmp_path: Path) -> None:
    assert main(_oracle(tmp_path, "--method", spec)) == 0
    run_dir = only_run_dir(tmp_path)
    assert run_dir.name == f"mock_oracle_medqa_{spec.replace(':', '-')}_4samples"
    records = read_records(run_dir)
    assert len(records) == 4 and all(r["correct"] is True for r in records)
    label = spec.replace(":", "-")
    assert {(r["method"], r["difficulty"], r["difficulty_source"]) for r in records} == {(spec, label, "method")}
    assert all(r["calls"] == CALLS[spec] for r in records)
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["method"] == spec and summary["accuracy"] == 1.0
    assert (summary["overhead"]["calls"] > 0) == (spec in RUN_OVERHEAD)
    manifest = json.loads((run_dir / "manifest.json").read_text())
    assert manifest["config"]["method"] == spec and manifest["fingerprint_fields"]["method"] == spec


@pytest.mark.parametrize("spec", ALL)
def test_each_method_through_the_loopback_openai_server(spec: str, tmp_path: Path) -> None:
    with good_server() as server:
        assert main(cli_args(server, tmp_path, "--method", spec, n=3)) == 0
        overhead = json.loads((only_run_dir(tmp_path) / "summary.json").read_text())["overhead"]["calls"]
        assert len(server.requests) == 3 * CALLS[spec] + overhead
    records = read_records(only_run_dir(tmp_path))
    assert all(r["correct"] is True and r["calls"] == CALLS[spec] for r in records)


def _fields(config: RunConfig) -> dict:
    return fingerprint_fields(config.validate(), SAMPLES / "medqa" / "test.jsonl")


def test_default_method_keeps_its_fingerprint_fields() -> None:
    fields = _fields(RunConfig(model="mock/oracle"))
    assert "method" not in fields and "method_prompt_hashes" not in fields and "prompt_overrides" not in fields
    assert not any(name.startswith("method_") for name in fields["prompt_hashes"])


def test_method_and_its_parameters_change_the_fingerprint() -> None:
    hashes = {short_hash(_fields(RunConfig(model="mock/oracle", method=m)))
              for m in ("mdagents", "cot", "cot-sc", "cot-sc:7")}
    assert len(hashes) == 4
    assert _fields(RunConfig(model="mock/oracle", method="cot-sc"))["method"] == "cot-sc:5"  # defaults filled in
    assert short_hash(_fields(RunConfig(model="mock/oracle", method="cot-sc"))) == \
        short_hash(_fields(RunConfig(model="mock/oracle", method="cot-sc:5")))


@pytest.mark.parametrize(("options", "message"), [
    ({"method": "tree-of-thought"}, "unknown --method"),
    ({"method": "cot-sc:0"}, "k must be a positive integer"),
    ({"method": "cot-sc:two"}, "k must be a positive integer"),
    ({"method": "cot:3"}, "takes no parameter"),
    ({"method": "llm-debate:3:2:1"}, "takes 2 parameter"),
    ({"method": "cot", "difficulty": "basic"}, "has no levels"),
    ({"method": "cot-sc", "critic": True}, "decides by a vote"),
])
def test_bad_method_options_are_config_errors(options: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        RunConfig(model="mock/oracle", **options).validate()


def test_unknown_method_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(_oracle(tmp_path, "--method", "nope")) == 2
    err = capsys.readouterr().err
    assert "unknown --method 'nope'" in err and "Traceback" not in err
    assert not (tmp_path / "out").exists()


def test_another_parameter_is_another_run_directory(tmp_path: Path) -> None:
    assert main(_oracle(tmp_path, "--method", "cot-sc:3", n=2)) == 0
    assert main(_oracle(tmp_path, "--method", "cot-sc:4", n=2)) == 0
    assert sorted(p.name for p in (tmp_path / "out").iterdir() if p.is_dir()) == [
        "mock_oracle_medqa_cot-sc-3_2samples", "mock_oracle_medqa_cot-sc-4_2samples"]


def test_dry_run_shows_the_method_calls(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(_oracle(tmp_path, "--method", "llm-debate:3:3", "--dry-run")) == 0
    out = capsys.readouterr().out
    assert "method llm-debate:3:3" in out
    row = next(line for line in out.splitlines() if line.startswith("|") and "llm-debate:3:3 |" in line)
    assert row.split("|")[2].strip() == "9"


def test_report_and_viewer_name_the_method(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(_oracle(tmp_path, "--method", "majority-vote:3", n=2)) == 0
    run_dir = only_run_dir(tmp_path)
    capsys.readouterr()
    assert main(["report", str(run_dir)]) == 0
    method_row = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("| method"))
    assert "majority-vote:3" in method_row
    assert main(["view", str(run_dir)]) == 0
    index = Path(capsys.readouterr().out.strip().splitlines()[-1]).read_text()
    assert "<span>method</span><b>majority-vote:3</b>" in index
    # per question, the level filter names the method
    assert "<option>majority-vote-3</option>" in index
