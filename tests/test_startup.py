"""Start-up loads only what the command needs: no provider SDK or heavy library a run does not use."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.locations import REPO_ROOT

HEAVY = ("openai", "anthropic", "google.genai", "llama_cpp", "numpy", "yaml", "jinja2", "mdagents.guardrails",
         "mdagents.guidelines")


def _loaded_after(argv: list[str]) -> list[str]:
    """The heavy modules a fresh interpreter has loaded after `main(argv)`."""
    script = (
        "import json, sys\n"
        "from mdagents.cli import main\n"
        f"code = main({argv!r})\n"
        f"print(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def test_help_loads_no_command_module() -> None:
    assert _loaded_after(["--help"]) == []


def test_run_help_loads_no_sdk() -> None:
    assert _loaded_after(["run", "--help"]) == []


def test_a_mock_run_loads_no_sdk_and_no_numpy(tmp_path: Path) -> None:
    args = ["--model", "mock/oracle", "--num_samples", "2", "--difficulty", "basic", "--no-cache", "-q",
            "--output-dir", str(tmp_path)]
    assert _loaded_after(args) == []


@pytest.mark.parametrize(("model", "others"), [
    ("openai/gpt-4o-mini", ("anthropic", "google.genai", "llama_cpp")),
    ("anthropic/claude-haiku-4-5", ("openai", "google.genai", "llama_cpp")),
])
def test_a_provider_loads_only_its_own_sdk(model: str, others: tuple[str, ...]) -> None:
    script = (
        "import json, sys\n"
        "from mdagents.llm.factory import build_llm\n"
        f"build_llm({model!r})\n"
        f"print(json.dumps([m for m in {others!r} if m in sys.modules]))\n"
    )
    env = {"OPENAI_API_KEY": "sk-test", "ANTHROPIC_API_KEY": "sk-ant-test", "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", script], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120,
                         env=env)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []
