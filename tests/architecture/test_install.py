"""The package installs as a newcomer would install it, and its `mdagents` command works from anywhere."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.locations import REPO_ROOT
from tests.runs_helpers import good_server


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("site")
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                    "--disable-pip-version-check", "--target", str(target), str(REPO_ROOT)],
                   check=True, capture_output=True, text=True, timeout=300)
    return target


def environment(site: Path, home: Path) -> dict[str, str]:
    """Only the installed copy on the path (not the checkout), caches under the unrelated directory."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MDAGENTS_") and k != "PYTHONPATH"}
    return env | {"PYTHONPATH": str(site), "HOME": str(home)}


def run_installed(code: str, site: Path, home: Path) -> str:
    """stdout of `python -c code` seeing only the installed copy, run from an unrelated directory."""
    done = subprocess.run([sys.executable, "-c", code], cwd=home, env=environment(site, home),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.slow
def test_the_installed_command_runs_an_advanced_question_from_an_unrelated_directory(
        installed: Path, tmp_path: Path) -> None:
    command = installed / "bin" / "mdagents"
    assert command.is_file()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    with good_server(difficulty="advanced") as server:
        done = subprocess.run([sys.executable, str(command), "--dataset", "medqa", "--model", "openai/gpt-4o-mini",
                               "--base-url", server.base_url, "--difficulty", "advanced", "--num_samples", "1"],
                              cwd=elsewhere, env=environment(installed, tmp_path), capture_output=True, text=True,
                              timeout=120)
    assert done.returncode == 0, done.stderr
    run_dir = Path(done.stdout.strip().splitlines()[-1])
    records = [json.loads(line) for line in (elsewhere / run_dir / "results.jsonl").read_text().splitlines()]
    assert [(r["difficulty"], r["correct"]) for r in records] == [("advanced", True)]
    manifest = json.loads((elsewhere / run_dir / "manifest.json").read_text())
    assert manifest["dataset_path"].startswith(str(installed))  # the sample set shipped inside the package
    assert (elsewhere / ".cache" / "responses.sqlite").is_file()  # caches go to ./.cache of the working directory
    assert not (REPO_ROOT / "output" / run_dir.name).exists()


@pytest.mark.slow
def test_the_installed_package_imports_the_notebook_api_and_ships_its_files(installed: Path, tmp_path: Path) -> None:
    code = ("import mdagents, mdagents.prompts as p; from mdagents import load_run, to_dataframe; "
            "from mdagents.results import load_runs; "
            "print(mdagents.__file__); print(len(p.hashes())); print(p.load('basic_system')[:10])")
    where, prompts, first = run_installed(code, installed, tmp_path).splitlines()
    assert where.startswith(str(installed)) and int(prompts) > 30 and first


@pytest.mark.slow
def test_the_installed_package_ships_the_viewer_templates(installed: Path, tmp_path: Path) -> None:
    code = ("from importlib import resources; from mdagents.analysis.viewer import ASSETS, environment; "
            "env = environment(); print(len([env.get_template(n) for n in env.list_templates()])); "
            "print(all((resources.files('mdagents.analysis') / 'templates' / a).is_file() for a in ASSETS))")
    assert run_installed(code, installed, tmp_path).split() == ["7", "True"]


@pytest.mark.slow
def test_the_installed_metadata_has_a_lean_core_and_the_extras(installed: Path) -> None:
    [metadata] = installed.glob("mdagents-*.dist-info/METADATA")
    lines = metadata.read_text(encoding="utf-8").splitlines()
    extras = {line.split(": ", 1)[1] for line in lines if line.startswith("Provides-Extra: ")}
    core = [line for line in lines if line.startswith("Requires-Dist: ") and "extra ==" not in line]
    assert {"local", "rag", "guardrails", "viewer", "analysis", "inspect", "ray", "all"} <= extras
    assert any("openai" in line for line in core) and not any("llama-cpp-python" in line for line in core)
    assert any(line.startswith("Requires-Dist: llama-cpp-python") and 'extra == "local"' in line for line in lines)


def readme_setup_command() -> list[str]:
    """The install part (before `&&`) of the README's first set-up command."""
    block = (REPO_ROOT / "README.md").read_text(encoding="utf-8").split("```bash", 1)[1].split("```", 1)[0]
    first = next(line for line in block.splitlines() if line.strip() and not line.lstrip().startswith("#"))
    return first.split("&&")[0].split()


@pytest.mark.slow
def test_the_readmes_first_command_leaves_the_notebook_api_importable_anywhere(tmp_path: Path) -> None:
    command = readme_setup_command()
    assert command[:2] == ["pip", "install"] and "requirements.txt" in command  # the package and every dependency
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True, timeout=120)
    python = str(venv / "bin" / "python")
    # Offline: the dependencies are already in the system site-packages, so only the package itself is new.
    subprocess.run([python, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                    "--disable-pip-version-check", *command[2:]], cwd=REPO_ROOT, check=True, capture_output=True,
                   timeout=300)
    elsewhere = tmp_path / "notebooks"
    elsewhere.mkdir()
    code = "import mdagents; from mdagents import load_run, to_dataframe; print(mdagents.__file__)"
    done = subprocess.run([python, "-c", code], cwd=elsewhere, env=environment(elsewhere, tmp_path),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert Path(done.stdout.strip()).is_relative_to(REPO_ROOT)  # editable: the checkout itself, not a copy
