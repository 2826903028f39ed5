"""`run --config FILE` and MDAGENTS_* defaults: one schema with a sweep's cells, flags over file over environment."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mdagents.cli import main
from mdagents.cli.sweep import cell_parser
from mdagents.run.config_file import file_argv
from mdagents.run.sweep import GridError, load_sweep
from tests.runs_helpers import good_server, only_run_dir, read_records

BASIC = ("--difficulty", "basic", "--num-exemplars", "0")


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_a_config_file_sets_the_run_and_flags_override_it(tmp_path: Path) -> None:
    with good_server("basic") as server:
        config = write(tmp_path / "run.yaml",
                       f"model: openai/gpt-4o-mini\nbase_url: {server.base_url}\nnum_samples: 3\n"
                       f"output_dir: {tmp_path / 'out'}\ncache_path: {tmp_path / 'c.sqlite'}\n"
                       f"difficulty: basic\nnum-exemplars: 0\nno_cache: true\n")
        assert main(["--config", str(config), "--num-samples", "2"]) == 0
    run_dir = only_run_dir(tmp_path)
    assert len(read_records(run_dir)) == 2  # the flag, not the file's 3
    manifest = json.loads((run_dir / "manifest.json").read_text())
    assert manifest["config"]["model"] == "openai/gpt-4o-mini" and manifest["config"]["use_cache"] is False
    assert manifest["config_file"] == str(config.resolve())


def test_environment_defaults_apply_under_the_file_and_the_flags(tmp_path: Path, monkeypatch) -> None:
    with good_server("basic") as server:
        monkeypatch.setenv("MDAGENTS_MODEL", "openai/gpt-4.1-mini")
        monkeypatch.setenv("MDAGENTS_OUTPUT_DIR", str(tmp_path / "env-out"))
        monkeypatch.setenv("MDAGENTS_BASE_URL", "http://127.0.0.1:9/v1")  # the file's URL wins
        monkeypatch.setenv("MDAGENTS_NUM_SAMPLES", "3")
        config = write(tmp_path / "run.yaml", f"base_url: {server.base_url}\n")
        code = main(["--config", str(config), *BASIC, "--num-samples", "1", "--no-cache"])
        assert code == 0
    [run_dir] = [p for p in (tmp_path / "env-out").iterdir() if p.is_dir()]
    assert run_dir.name.startswith("openai_gpt-4.1-mini_medqa_basic_1")
    manifest = json.loads((run_dir / "manifest.json").read_text())
    assert "MDAGENTS_MODEL" in manifest["environment_defaults"]
    assert manifest["config"]["base_url"] == server.base_url


@pytest.mark.parametrize(("body", "message"), [
    ("num_sample: 3\n", "run.yaml: num_sample: unknown option (did you mean num_samples?)"),
    ("rag: maybe\n", "run.yaml: rag: is a switch: true or false"),
    ("config: other.yaml\n", "run.yaml: config: a config file cannot name another one"),
    ("difficulty: expert\n", "invalid choice"),
    ("- just\n- a list\n", "expected a mapping of run options"),
    ("model: [a, b]\n", "run.yaml: model: must be a single value"),
])
def test_a_bad_config_file_is_one_line_and_exit_2(tmp_path: Path, capsys, body: str, message: str) -> None:
    config = write(tmp_path / "run.yaml", body)
    assert main(["--config", str(config), "--output-dir", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1 and "Traceback" not in err
    assert not (tmp_path / "out").exists()


def test_a_file_and_a_sweep_cell_read_the_same_keys(tmp_path: Path) -> None:
    """One schema: what a run file refuses a sweep refuses, with the same words."""
    parser = cell_parser()
    body = "model: openai/gpt-4o-mini\nbase_url: http://127.0.0.1:9/v1\nnum_sample: 3\n"
    with pytest.raises(Exception, match="num_sample: unknown option") as from_file:
        file_argv(write(tmp_path / "run.yaml", body), parser.options)
    with pytest.raises(GridError, match="num_sample: unknown option") as from_sweep:
        load_sweep(write(tmp_path / "grid.yaml", body), parser)
    assert str(from_file.value).split(": ", 1)[1] == str(from_sweep.value).split(": ", 1)[1]
    good = "model: openai/gpt-4o-mini\nbase_url: [http://127.0.0.1:9/v1, http://127.0.0.1:10/v1]\nrepeats: 1\n"
    sweep = load_sweep(write(tmp_path / "grid2.yaml", good), parser)
    assert sweep.cells[0].config.base_url == "http://127.0.0.1:9/v1,http://127.0.0.1:10/v1"


def test_flags_replace_a_repeatable_option_of_the_file(tmp_path: Path) -> None:
    with good_server("basic") as server:
        config = write(tmp_path / "run.yaml", "model: openai/gpt-4o-mini\nbase_url: [http://127.0.0.1:9/v1]\n"
                                              "model_args: {top_p: 0.5}\n")
        code = main(["--config", str(config), "--base-url", server.base_url, *BASIC,
                     "--num-samples", "1", "--output-dir", str(tmp_path / "out"), "--no-cache"])
        assert code == 0
        assert all(r["json"]["top_p"] == 0.5 for r in server.requests)
    manifest = json.loads((only_run_dir(tmp_path) / "manifest.json").read_text())
    assert manifest["config"]["base_url"] == server.base_url  # not joined with the file's unreachable one


def test_a_bad_environment_default_names_its_variable(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("MDAGENTS_CONCURRENCY", "many")
    assert main(["--dry-run", "--output-dir", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: MDAGENTS_CONCURRENCY: argument --concurrency: invalid int value")


def test_a_grid_over_model_arguments_gives_each_its_cell(tmp_path: Path) -> None:
    grid = write(tmp_path / "grid.yaml", "model: openai/gpt-4o-mini\nbase_url: http://127.0.0.1:9/v1\n"
                                         "grid:\n  model_args: [{top_p: 0.5}, {top_p: 0.9}]\n")
    sweep = load_sweep(grid, cell_parser())
    assert [c.config.model_args for c in sweep.cells] == [{"top_p": 0.5}, {"top_p": 0.9}]
    assert [Path(c.config.output_dir).name for c in sweep.cells] == ["model_args=top-p-0.5", "model_args=top-p-0.9"]
