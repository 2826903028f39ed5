"""An always-correct model that writes its answers in the everyday forms models use grades 100% at every level,
and the intermediate debate stops at consensus as designed (the same calls as with the contract form)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

import mdagents.llm.mock as mock
from mdagents.cli import main
from tests.locations import SHARED_DATASETS
from tests.runs_helpers import only_run_dir, read_records

# The final line of every answering step, from (letter, option text): one line a form.
FORMS: dict[str, Callable[[str, str], str]] = {
    "contract": lambda letter, text: f"Answer: ({letter}) {text}",
    "bold contract": lambda letter, text: f"**Answer: {letter}) {text}**",
    "the answer is": lambda letter, text: f"The answer is {letter}.",
    "final answer": lambda letter, text: f"Final answer: {letter}",
    "option line": lambda letter, text: f"{letter}) {text}",
    "correct answer is": lambda letter, text: f"The correct answer is ({letter}) {text}.",
    "letter only": lambda letter, text: f"Answer: {letter}",
    "boxed": lambda letter, text: f"$\\boxed{{{letter}}}$",
}
LONG_REASONING = ("The presentation, the timing of the symptoms, the examination and the laboratory results "
                  "were weighed against every option, and the findings fit one option best.")


def _oracle_in(form: Callable[[str, str], str]) -> Callable[[str, tuple[str, str] | None, str], str]:
    original = mock.step_reply

    def step_reply(text: str, answer: tuple[str, str] | None, difficulty: str) -> str:
        reply = original(text, answer, difficulty)
        if answer is None or not reply.rstrip().endswith(f"Answer: ({answer[0]}) {answer[1]}"):
            return reply
        return f"{LONG_REASONING}\n{form(*answer)}"

    return step_reply


def _run(tmp_path: Path, level: str, dataset: str = "medqa", limit: int = 6) -> tuple[list[dict], dict]:
    args = ["--model", "mock/oracle", "--dataset", dataset, "--difficulty", level, "--limit", str(limit),
            "--output-dir", str(tmp_path / "out"), "--no-cache"]
    assert main(args) == 0
    run_dir = only_run_dir(tmp_path)
    return read_records(run_dir), json.loads((run_dir / "summary.json").read_text())


@pytest.mark.parametrize("level", ["basic", "intermediate", "advanced"])
def test_every_answer_form_grades_100_percent_and_debates_stop_at_consensus(
        level: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: dict[str, int] = {}
    for name, form in FORMS.items():
        monkeypatch.setattr(mock, "step_reply", _oracle_in(form))
        records, summary = _run(tmp_path / name.replace(" ", "_"), level)
        assert [r["correct"] for r in records] == [True] * 6, (name, [r["response"] for r in records])
        assert summary["grading"]["no_answer"] == {}, name
        calls[name] = summary["calls"]
    assert len(set(calls.values())) == 1, calls  # no form makes the debate go on: consensus is read alike


def test_yes_no_maybe_answers_in_every_form(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name, form in FORMS.items():
        monkeypatch.setattr(mock, "step_reply", _oracle_in(form))
        records, _ = _run(tmp_path / name.replace(" ", "_"), "basic", dataset="pubmedqa")
        assert all(r["correct"] for r in records), (name, [r["response"] for r in records])


def test_public_options_ending_in_a_stray_quote_reach_the_model_on_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Public MedQA options such as 'Propranolol\\n"' would split the options line the model reads (a model that
    reads the line, like the bench's, then finds no option for its answer); every option must reach it whole."""
    source = SHARED_DATASETS / "medqa_5options" / "test.jsonl"
    if not source.is_file():
        pytest.skip(f"public dataset {source} not present")
    marked = [line for line in source.read_text(encoding="utf-8").splitlines()
              if line.strip() and any("\n" in text for text in json.loads(line)["options"].values())]
    dataset = tmp_path / "marked.jsonl"
    dataset.write_text("\n".join(marked) + "\n", encoding="utf-8")
    shown: list[dict[str, str]] = []
    original = mock.step_reply

    def step_reply(text: str, answer: tuple[str, str] | None, difficulty: str) -> str:
        if answer is not None:
            shown.append(mock.options_after(text, text.rfind("Options:")))
        return original(text, answer, difficulty)

    monkeypatch.setattr(mock, "step_reply", step_reply)
    records, _ = _run(tmp_path, "basic", str(dataset), limit=len(marked))
    assert len(records) == len(marked) >= 50 and all(r["correct"] for r in records)
    assert len(shown) == len(records)
    assert all(len(options) == 5 and not any('"' in t or "\n" in t for t in options.values()) for options in shown), \
        [o for o in shown if len(o) != 5][:2]
