"""Report CSV with model and dataset, the viewer's index by id, what a `-2` run changes, guardrails-train's output."""

from __future__ import annotations

import argparse
import csv
import io
import json
from pathlib import Path

import numpy as np
from bs4 import BeautifulSoup

from mdagents.analysis.runs import load_run
from mdagents.analysis.viewer import write_site
from mdagents.cli import guardrails_train, main
from mdagents.guardrails.semantic import CLASSES, MODEL_FILE, SemanticTriage
from mdagents.guardrails.triage_training import Labelled, train
from tests.runs_helpers import cli_args, good_server
from tests.test_runs import make_record, write_run


def test_report_csv_names_model_and_dataset(tmp_path: Path, capsys) -> None:
    config = {"model": "gemini/gemini-2.5-flash", "dataset": "pubmedqa", "split": "test", "difficulty": "basic"}
    write_run(tmp_path / "a", [make_record("q0")], manifest={"status": "finished", "config": config})
    write_run(tmp_path / "b", [make_record("q0")])  # no configuration recorded: read from the records
    assert main(["report", str(tmp_path / "a"), str(tmp_path / "b"), "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [(r["run"], r["model"], r["dataset"], r["split"]) for r in rows] == [
        ("a", "gemini/gemini-2.5-flash", "pubmedqa", "test"), ("b", "openai/gpt-4o-mini", "medqa", "test")]
    assert rows[0]["difficulty_mode"] == "basic"


def test_the_viewer_index_lists_questions_by_id_not_by_completion(tmp_path: Path) -> None:
    run_dir = write_run(tmp_path / "run", [make_record(i) for i in ("medqa-test-10", "medqa-test-2", "medqa-test-1")])
    site = write_site(load_run(run_dir))
    page = BeautifulSoup(site.index.read_text(encoding="utf-8"), "html.parser")
    table = page.find("table", id="questions")
    assert [row["data-id"] for row in table.tbody.find_all("tr")] == ["medqa-test-1", "medqa-test-2", "medqa-test-10"]
    headers = table.thead.find_all("th")
    assert all(th.has_attr("data-sort") for th in headers)
    assert headers[0].get("data-dir") == "asc"
    first = BeautifulSoup((site.root / "questions" / "medqa-test-1.html").read_text(encoding="utf-8"), "html.parser")
    assert any("medqa-test-2" in (a.get("href") or "") for a in first.find_all("a"))  # next is the next id


def test_a_second_run_directory_records_and_reports_what_differs(tmp_path: Path, capsys) -> None:
    basic = ("--difficulty", "basic", "--num-exemplars", "0")
    with good_server("basic") as server:
        assert main(cli_args(server, tmp_path, *basic, n=2)) == 0
        assert main(cli_args(server, tmp_path, *basic, "--num-exemplars", "1", "--new-run", n=2)) == 0
    base = tmp_path / "out" / "openai_gpt-4o-mini_medqa_basic_2samples"
    variant = base.with_name(base.name + "-2")
    manifest = json.loads((variant / "manifest.json").read_text())
    assert manifest["variant_of"] == base.name
    assert manifest["differs_in"] == ["settings.num_exemplars: 0 -> 1"]
    assert "variant_of" not in json.loads((base / "manifest.json").read_text())
    capsys.readouterr()
    assert main(["report", str(base), str(variant)]) == 0
    out = capsys.readouterr().out
    assert f"{variant.name} is a separate run beside {base.name}; it differs in settings.num_exemplars: 0 -> 1" in out
    # A -2 directory written before the fields were recorded: worked out from both manifests.
    del manifest["variant_of"], manifest["differs_in"]
    (variant / "manifest.json").write_text(json.dumps(manifest))
    assert main(["report", str(variant), "--format", "csv"]) == 0
    [row] = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert row["variant_of"] == base.name and row["differs_in"] == "settings.num_exemplars: 0 -> 1"


def _toy_training(*_: object, **__: object) -> tuple[np.ndarray, Labelled]:
    rng = np.random.default_rng(0)
    labels = np.repeat(np.arange(len(CLASSES)), 20)
    vectors = rng.normal(size=(len(CLASSES), 8))[labels] * 2 + rng.normal(size=(len(labels), 8))
    return vectors, Labelled([f"t{i}" for i in range(len(labels))], labels, ["en"] * len(labels),
                             ["critical" if label == 0 else None for label in labels],
                             [f"{CLASSES[label]}:{i // 2}" for i, label in enumerate(labels)])


def test_guardrails_train_writes_to_the_working_directory_not_the_package(tmp_path: Path, monkeypatch,
                                                                           capsys) -> None:
    vectors, data = _toy_training()
    monkeypatch.setattr(guardrails_train, "load_labelled", lambda files: data)
    monkeypatch.setattr(guardrails_train, "embed_all", lambda texts: vectors)
    monkeypatch.setattr(guardrails_train, "print_language_table", lambda *a, **k: None)
    monkeypatch.chdir(tmp_path)
    shipped = MODEL_FILE.read_bytes()
    parser = argparse.ArgumentParser()
    guardrails_train.configure(parser)
    assert guardrails_train.execute(parser.parse_args([])) == 0
    assert MODEL_FILE.read_bytes() == shipped
    written = tmp_path / MODEL_FILE.name
    assert written.is_file()
    assert f"MDAGENTS_TRIAGE_MODEL={written}" in capsys.readouterr().out
    monkeypatch.setenv("MDAGENTS_TRIAGE_MODEL", str(written))
    expected, _ = train(vectors, data)
    used = SemanticTriage(embedder=object()).model
    assert np.allclose(used.weights, expected.weights, atol=1e-5)
