"""Methods of your own: a plugin file outside the package, an installed entry point, and --prompts-dir."""

from __future__ import annotations

import json
import shutil
import textwrap
from pathlib import Path

import pytest

from mdagents.cli import main
from tests.runs_helpers import cli_args, good_server, only_run_dir, read_records

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "my_method.py"


def _oracle(tmp_path: Path, *extra: str, n: int = 3) -> list[str]:
    return ["--dataset", "medqa", "--model", "mock/oracle", "--num_samples", str(n), "-q",
            "--output-dir", str(tmp_path / "out"), "--cache-path", str(tmp_path / "cache.sqlite"), *extra]


def _outside(tmp_path: Path) -> Path:
    plugin = tmp_path / "elsewhere" / "my_method.py"
    plugin.parent.mkdir()
    shutil.copy(EXAMPLE, plugin)
    return plugin


def test_the_documented_example_runs_from_a_file_outside_the_package(tmp_path: Path) -> None:
    plugin = _outside(tmp_path)
    spec = f"{plugin}:solve"
    assert main(_oracle(tmp_path, "--method", spec)) == 0
    run_dir = only_run_dir(tmp_path)
    assert run_dir.name == "mock_oracle_medqa_my_method_3samples"
    records = read_records(run_dir)
    assert all(r["correct"] is True and r["calls"] == 2 and r["method"] == spec for r in records)
    assert all(r["usage"]["by_role"]["answerer"]["calls"] == 2 for r in records)
    assert all(r["details"] == {"changed_on_check": False} for r in records)
    fields = json.loads((run_dir / "manifest.json").read_text())["fingerprint_fields"]
    assert len(fields["method_source_sha256"]) == 64


def test_the_example_against_the_loopback_server(tmp_path: Path) -> None:
    plugin = _outside(tmp_path)
    with good_server() as server:
        assert main(cli_args(server, tmp_path, "--method", str(plugin), n=3)) == 0  # `:solve` is the default
        assert len(server.requests) == 6
    assert all(r["correct"] for r in read_records(only_run_dir(tmp_path)))


def test_editing_the_plugin_is_a_new_configuration(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plugin = _outside(tmp_path)
    assert main(_oracle(tmp_path, "--method", str(plugin), n=1)) == 0
    plugin.write_text(plugin.read_text() + "\n# a change\n")
    assert main(_oracle(tmp_path, "--method", str(plugin), n=1)) == 2
    assert "method_source_sha256" in capsys.readouterr().err


def test_a_plugin_may_return_just_the_text(tmp_path: Path) -> None:
    plugin = tmp_path / "plain.py"
    plugin.write_text(textwrap.dedent("""
        from mdagents.methods.api import answerer, final_answer, question_text

        async def answer(question, ctx):
            agent = answerer(ctx, "plain")
            return await final_answer(question, ctx, agent, question_text(question) + "\\nAnswer: (X) option text")
    """))
    assert main(_oracle(tmp_path, "--method", f"{plugin}:answer")) == 0
    records = read_records(only_run_dir(tmp_path))
    assert all(r["correct"] and r["difficulty"] == "plain-answer" for r in records)


@pytest.mark.parametrize(("source", "function", "message"), [
    (None, "solve", "no plugin file"),
    ("def solve(:\n", "solve", "failed to load: SyntaxError"),
    ("async def other(q, ctx):\n    return ''\n", "solve", "defines no solve()"),
    ("def solve(q, ctx):\n    return ''\n", "solve", "must be an async function"),
])
def test_a_broken_plugin_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                 source: str | None, function: str, message: str) -> None:
    plugin = tmp_path / "broken.py"
    if source is not None:
        plugin.write_text(source)
    assert main(_oracle(tmp_path, "--method", f"{plugin}:{function}")) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_an_installed_entry_point_is_a_method(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site = tmp_path / "site"
    (site / "shipped_method-1.0.dist-info").mkdir(parents=True)
    (site / "shipped_method-1.0.dist-info" / "METADATA").write_text("Name: shipped-method\nVersion: 1.0\n")
    (site / "shipped_method-1.0.dist-info" / "entry_points.txt").write_text(
        "[mdagents.methods]\nanswer-and-check = shipped_method:solve\n")
    shutil.copy(EXAMPLE, site / "shipped_method.py")
    monkeypatch.syspath_prepend(str(site))
    assert main(_oracle(tmp_path, "--method", "answer-and-check")) == 0
    records = read_records(only_run_dir(tmp_path))
    assert all(r["correct"] and r["method"] == "answer-and-check" and r["calls"] == 2 for r in records)


def test_prompts_dir_overrides_a_prompt_by_name(tmp_path: Path) -> None:
    prompts = tmp_path / "prompts"
    prompts.mkdir()
    (prompts / "method_cot.txt").write_text("REVISED PROMPT. Think it through.\n$question\nAnswer: (X) option text\n")
    with good_server() as server:
        assert main(cli_args(server, tmp_path, "--method", "cot", "--prompts-dir", str(prompts), n=2)) == 0
        assert all("REVISED PROMPT" in json.dumps(body) for body in server.requests)
        run_dir = only_run_dir(tmp_path)
        fields = json.loads((run_dir / "manifest.json").read_text())["fingerprint_fields"]
        assert list(fields["prompt_overrides"]) == ["method_cot.txt"]
        assert all(r["correct"] for r in read_records(run_dir))
        # the next run without the flag uses the shipped prompt again (and is another configuration)
        seen = len(server.requests)
        assert main(cli_args(server, tmp_path / "plain", "--method", "cot", "--no-cache", n=2)) == 0
        assert not any("REVISED PROMPT" in json.dumps(body) for body in server.requests[seen:])


def test_prompts_dir_change_is_a_new_configuration(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    prompts = tmp_path / "prompts"
    prompts.mkdir()
    (prompts / "basic_answer.txt").write_text("Version one.\n$question\nAnswer: (X) option text\n")
    args = _oracle(tmp_path, "--difficulty", "basic", "--prompts-dir", str(prompts), n=1)
    assert main(args) == 0
    (prompts / "basic_answer.txt").write_text("Version two.\n$question\nAnswer: (X) option text\n")
    assert main(args) == 2
    assert "prompt_overrides.basic_answer.txt" in capsys.readouterr().err
    from mdagents.prompts import load

    assert not load("basic_answer").startswith("Version")  # the override ended with its run


@pytest.mark.parametrize(("name", "message"), [("method_cott.txt", "override no shipped prompt"),
                                               (None, "holds no .txt prompt")])
def test_prompts_dir_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str | None,
                            message: str) -> None:
    prompts = tmp_path / "prompts"
    prompts.mkdir()
    if name:
        (prompts / name).write_text("x $question")
    assert main(_oracle(tmp_path, "--method", "cot", "--prompts-dir", str(prompts))) == 2
    assert message in capsys.readouterr().err
