"""Cost against accuracy: the Pareto front, the table with the paper's figures, the plots of report and sweep."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from mdagents.analysis.cost_accuracy import Point, pareto_front, render_table, x_axis
from mdagents.analysis.published import published
from mdagents.cli import main


def _point(label: str, accuracy: float | None, tokens: float, cost: float | None = None, dataset: str = "medqa",
           method: str = "cot") -> Point:
    return Point(label, method, "m", dataset, 50, accuracy, accuracy, accuracy, 1.0, tokens, cost)


def test_the_front_keeps_what_nothing_beats() -> None:
    points = [_point("cheap", 0.6, 100), _point("dear and better", 0.8, 900), _point("dominated", 0.55, 500),
              _point("tie on accuracy, dearer", 0.8, 1000), _point("unfinished", None, 10),
              _point("other dataset", 0.1, 5000, dataset="pubmedqa")]
    xs, label = x_axis(points)
    assert label.startswith("tokens")  # no costs: tokens per question
    assert pareto_front(points, xs) == [True, True, False, False, False, True]


def test_cost_is_the_axis_when_every_run_has_one() -> None:
    points = [_point("a", 0.6, 100, cost=0.01), _point("b", 0.7, 50, cost=0.02)]
    xs, label = x_axis(points)
    assert label.startswith("cost") and xs == [0.01, 0.02]
    assert pareto_front(points, xs) == [True, True]  # b has fewer tokens but costs more: cost decides


def test_published_figures_match_method_and_dataset() -> None:
    figure = published("cot-sc:5", "medqa")
    assert figure is not None and figure.paper_method == "+ CoT-SC" and figure.accuracy == pytest.approx(0.839)
    assert published("mdagents", "medqa").accuracy == pytest.approx(0.887)  # type: ignore[union-attr]
    assert published("llm-debate:3:2", "medqa") is None  # the paper did not run it
    assert published("cot", "some/dir/pubmedqa.jsonl").accuracy == pytest.approx(0.576)  # type: ignore[union-attr]
    text = render_table([_point("cot · gpt-4o", 0.8, 100)])
    assert "82.5 ± 4.9 (gpt-4, + CoT)" in text and "NeurIPS 2024" in text and "zero-shot" in text


def test_published_data_names_only_real_methods() -> None:
    from mdagents.analysis.published import PUBLISHED_FILE
    from mdagents.methods import BUILTIN, DEFAULT_METHOD

    table = yaml.safe_load(PUBLISHED_FILE.read_text())
    ours = {m for m in table["methods"].values() if m}
    assert ours <= {*BUILTIN, DEFAULT_METHOD}
    assert all(set(figures) <= set(table["methods"]) for figures in table["accuracy"].values())


def _runs(tmp_path: Path) -> list[Path]:
    for model, method in (("mock/random", "zero-shot"), ("mock/random", "cot-sc:3"), ("mock/oracle", "cot")):
        assert main(["--dataset", "medqa", "--model", model, "--method", method, "--num_samples", "8", "-q",
                     "--output-dir", str(tmp_path / "out"), "--cache-path", str(tmp_path / "c.sqlite")]) == 0
    return sorted((tmp_path / "out").iterdir())


def test_report_on_several_runs_prints_the_table_and_draws_the_plot(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    runs = [str(p) for p in _runs(tmp_path) if p.is_dir()]
    capsys.readouterr()
    assert main(["report", *runs, "--plot", str(tmp_path / "report.png")]) == 0
    out = capsys.readouterr().out
    table = out.split("Cost against accuracy:")[1]
    row = {line.split("|")[1].strip(): line for line in table.splitlines() if line.startswith("| ")}
    assert set(row) >= {"cot · mock/oracle", "zero-shot · mock/random", "cot-sc:3 · mock/random"}
    assert row["cot · mock/oracle"].split("|")[9].strip() == "*"  # most accurate at one call: on the front
    assert row["cot-sc:3 · mock/random"].split("|")[9].strip() == ""  # dearer than cot and not better
    assert "83.9 ± 2.7" in row["cot-sc:3 · mock/random"]
    plot = tmp_path / "report.cost-accuracy.png"
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_sweep_varies_the_method(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    grid = tmp_path / "grid.yaml"
    grid.write_text(yaml.safe_dump({
        "model": "mock/oracle", "dataset": "medqa", "num_samples": 3, "output_dir": str(tmp_path / "sweep"),
        "cache_path": str(tmp_path / "c.sqlite"), "method": ["cot", "cot-sc", "mdagents"]}))
    assert main(["sweep", str(grid)]) == 0
    out = capsys.readouterr().out
    assert sorted(p.name for p in (tmp_path / "sweep").iterdir() if p.is_dir()) == [
        "mock_oracle_medqa_adaptive_3samples", "mock_oracle_medqa_cot-sc-5_3samples", "mock_oracle_medqa_cot_3samples"]
    assert "| cot-sc:5 " in out and "Cost against accuracy:" in out
    assert (tmp_path / "sweep" / "sweep.cost-accuracy.png").stat().st_size > 10_000
    assert "| cot-sc:5 " in (tmp_path / "sweep" / "sweep.cost-accuracy.md").read_text()
    capsys.readouterr()
    assert main(["report", str(tmp_path / "sweep")]) == 0
    table = capsys.readouterr().out.split("Cost against accuracy:")[1]
    labels = [line.split("|")[1].strip() for line in table.splitlines() if line.startswith("| ")][1:]
    assert labels == ["cot", "cot-sc:5", "mdagents · adaptive"]


def test_the_shipped_paper_sweep_runs_under_the_oracle(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paper = Path(__file__).resolve().parents[2] / "examples" / "paper_table.yaml"
    overrides = ["--set", "model=mock/oracle", "--set", "num_samples=2", "--set", "repeats=1",
                 "--set", f"output_dir={tmp_path / 'paper'}", "--set", f"cache_path={tmp_path / 'c.sqlite'}"]
    assert main(["sweep", str(paper), *overrides]) == 0
    capsys.readouterr()
    assert main(["report", str(tmp_path / "paper")]) == 0
    table = capsys.readouterr().out.split("Cost against accuracy:")[1]
    rows = [line for line in table.splitlines() if line.startswith("| ") and line.split("|")[2].strip() == "medqa"]
    assert len(rows) == len(yaml.safe_load(paper.read_text())["method"])
    assert all("100.0%" in row for row in rows)
    assert any("88.7 ± 4.0 (gpt-4, MDAgents)" in row for row in rows)


def test_sweep_set_must_be_key_value(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paper = Path(__file__).resolve().parents[2] / "examples" / "paper_table.yaml"
    assert main(["sweep", str(paper), "--set", "model", "--dry-run"]) == 2
    assert "--set takes KEY=VALUE" in capsys.readouterr().err
