"""The report: numbers on constructed runs known by hand, each output format, comparisons, plots, errors."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from mdagents.analysis.report import build_report, compare_runs, summarize_run
from mdagents.analysis.runs import load_run
from mdagents.analysis.stats import wilson_interval
from mdagents.analysis.summary import summarize
from mdagents.cli import main
from tests.test_runs import make_record, write_run


def _mixed_run(path: Path) -> Path:
    """10 samples: 6 right, 2 wrong, 1 parse failure, 1 error; 4 basic / 6 advanced; 2 datasets."""
    records = [make_record(f"q{i}", difficulty="basic" if i < 4 else "advanced") for i in range(6)]
    records += [make_record("q6", correct=False, difficulty="advanced"),
                make_record("q7", correct=False, difficulty="advanced", dataset="pubmedqa")]
    failed = make_record("q8", correct=False, difficulty="advanced", dataset="pubmedqa")
    failed.update(prediction=None, parse_status="failed", response="I am not sure")
    errored = make_record("q9", correct=None, difficulty="advanced", dataset="pubmedqa", error="timeout",
                          cost_usd=0.0, latency_s=None)
    for record, latency in zip(records, [1, 2, 3, 4, 5, 6, 7, 8], strict=True):
        record["latency_s"] = float(latency)
    failed["latency_s"] = 9.0
    return write_run(path, [*records, failed, errored])


def _run_report(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["report", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_summary_numbers_match_hand_counts(tmp_path: Path) -> None:
    report = summarize_run(load_run(_mixed_run(tmp_path / "run")), bootstrap=500, seed=3)
    # The errored sample is counted apart: it is not a wrong answer (accuracy is over the 9 graded).
    assert (report["n"], report["correct"], report["answered"]) == (9, 6, 8)
    assert report["accuracy"] == pytest.approx(6 / 9) and report["accuracy_answered"] == 0.75
    assert (report["parse_failures"], report["errors"], report["abstained"]) == (1, 1, 0)
    assert (report["ci_low"], report["ci_high"]) == wilson_interval(6, 9)
    assert report["bootstrap_low"] < 6 / 9 < report["bootstrap_high"]
    assert report["by_difficulty"]["basic"] == {**report["by_difficulty"]["basic"], "n": 4, "correct": 4,
                                                "accuracy": 1.0, "share": 0.4}
    assert report["by_difficulty"]["advanced"]["accuracy"] == pytest.approx(2 / 5)
    assert report["by_dataset"]["pubmedqa"]["n"] == 2 and report["by_dataset"]["medqa"]["correct"] == 6
    assert (report["input_tokens"], report["output_tokens"], report["calls"]) == (1000, 200, 20)
    assert report["calls_per_question"] == 2.0
    assert report["cost_usd"] == pytest.approx(0.009)  # the errored sample's calls cost nothing
    assert report["latency_p50_s"] == 5.0 and report["latency_p95_s"] == pytest.approx(8.6)


def test_same_seed_same_bootstrap_and_zero_turns_it_off(tmp_path: Path) -> None:
    run = load_run(_mixed_run(tmp_path / "run"))
    first = summarize_run(run, bootstrap=300, seed=11)
    assert (first["bootstrap_low"], first["bootstrap_high"]) == (
        summarize_run(run, bootstrap=300, seed=11)["bootstrap_low"],
        summarize_run(run, bootstrap=300, seed=11)["bootstrap_high"])
    off = summarize_run(run, bootstrap=0)
    assert off["bootstrap_low"] is None and off["ci_low"] is not None


def test_paired_comparison_counts_discordant_pairs(tmp_path: Path) -> None:
    # a right on q0-q5; b right on q0-q1 and q6-q9 (5 shared ids + 1 id only in b).
    a = write_run(tmp_path / "a", [make_record(f"q{i}", correct=i < 6) for i in range(10)])
    b = write_run(tmp_path / "b", [make_record(f"q{i}", correct=i < 2 or i >= 6) for i in range(11)])
    comparison = compare_runs(load_run(a), load_run(b), bootstrap=400, seed=0)
    assert comparison is not None
    assert comparison["n_shared"] == 10
    assert comparison["only_a_correct"] == ["q2", "q3", "q4", "q5"]
    assert comparison["only_b_correct"] == ["q6", "q7", "q8", "q9"]
    assert comparison["difference"] == 0.0
    assert comparison["mcnemar_p"] == pytest.approx(1.0)
    assert comparison["changed_prediction"] == [f"q{i}" for i in range(2, 10)]

    c = write_run(tmp_path / "c", [make_record(f"q{i}", correct=i == 0) for i in range(10)])
    versus_c = compare_runs(load_run(a), load_run(c), bootstrap=400, seed=0)
    assert versus_c is not None
    assert (len(versus_c["only_a_correct"]), len(versus_c["only_b_correct"])) == (5, 0)
    assert versus_c["mcnemar_p"] == pytest.approx(2 / 2**5)
    assert versus_c["difference"] == 0.5 and versus_c["diff_ci_low"] > 0


def test_runs_without_shared_ids_are_not_compared(tmp_path: Path) -> None:
    a = load_run(write_run(tmp_path / "a", [make_record("x1")]))
    b = load_run(write_run(tmp_path / "b", [make_record("y1")]))
    assert compare_runs(a, b) is None
    assert "comparisons" not in build_report([a, b], bootstrap=0)[0]


def test_per_level_view_uses_the_adaptive_runs_levels(tmp_path: Path) -> None:
    levels = ["basic", "basic", "advanced", "advanced"]
    adaptive = [make_record(f"q{i}", difficulty=lvl, difficulty_source="classified", correct=lvl == "advanced")
                for i, lvl in enumerate(levels)]
    forced = [make_record(f"q{i}", difficulty="basic", correct=True) for i in range(4)]
    comparison = compare_runs(load_run(write_run(tmp_path / "forced", forced)),
                              load_run(write_run(tmp_path / "adaptive", adaptive)), bootstrap=0)
    assert comparison is not None
    assert comparison["levels_from"] == "adaptive"
    assert comparison["by_difficulty"]["basic"] == {"n": 2, "a_correct": 2, "b_correct": 0,
                                                    "a_accuracy": 1.0, "b_accuracy": 0.0}
    assert comparison["by_difficulty"]["advanced"]["b_accuracy"] == 1.0


def test_critic_and_rag_sections_and_with_vs_without(tmp_path: Path) -> None:
    def critic(verdict: str, layers: list[str], changed: bool) -> dict:
        return {"verdict": verdict, "changed_answer": changed,
                "attempts": [{"verdict": "FAIL", "layer": layer, "feedback": "x"} for layer in layers]}

    with_critic = [
        make_record("q0", critic=critic("PASS", [], False)),
        make_record("q1", critic=critic("PASS", ["dosage"], True)),
        make_record("q2", critic=critic("FAIL", ["dosage", "entailment"], False), correct=None, abstained=True),
        make_record("q3", critic=critic("unverified", [], False), correct=False,  # as older runs wrote it
                    rag={"query": "q", "chunks": [{"id": 1}], "changed_answer": True}),
        make_record("q4", critic=critic("UNVERIFIED", ["format"], True), correct=True),
    ]
    without = [make_record(f"q{i}", correct=i == 0) for i in range(5)]
    runs = [load_run(write_run(tmp_path / "plain", without)), load_run(write_run(tmp_path / "critic", with_critic))]
    plain_report, critic_report = build_report(runs, bootstrap=0)
    section = critic_report["critic"]
    # unverified decisions are counted apart from passed ones, never as passed
    assert (section["n"], section["passed"], section["failed"], section["unverified"]) == (5, 2, 1, 2)
    assert section["layer_failures"] == {"dosage": 2, "entailment": 1, "format": 1}
    assert (section["changed_answer"], section["abstained"]) == (2, 1)
    assert critic_report["abstained"] == 1 and critic_report["accuracy"] == 0.6
    summary = summarize(with_critic)
    assert summary["critic"] == {"reviewed": 5, "passed": 2, "failed": 1, "unverified": 2}
    assert "critic" not in summarize(without)
    assert critic_report["rag"] == {"n": 1, "changed_answer": 1, "chunks_per_question": 1.0}
    (comparison,) = plain_report["comparisons"]
    assert (comparison["a"], comparison["b"], comparison["feature"]) == ("critic", "plain", "critic")
    assert (comparison["a_accuracy"], comparison["b_accuracy"]) == (0.6, 0.2)


def test_table_format_shows_counts_intervals_and_sections(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _mixed_run(tmp_path / "m_medqa_basic_10samples")
    write_run(tmp_path / "m_medqa_adaptive_10samples", [make_record(f"q{i}") for i in range(10)])
    code, out, _ = _run_report(capsys, str(tmp_path / "m_medqa_basic_10samples"),
                               str(tmp_path / "m_medqa_adaptive_10samples"), "--bootstrap", "200")
    assert code == 0
    assert "Runs (named m_medqa_<label>_10samples):" in out
    assert "66.7%" in out and "[35.4, 87.9]" in out  # 6/9 graded with its Wilson interval (1 error apart)
    assert "75.0% of 8" in out
    assert "By difficulty:" in out and "By dataset:" in out and "pubmedqa" in out
    assert "Paired comparisons" in out and "McNemar" in out
    assert "Ids that changed" not in out


def test_markdown_format(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run_report(capsys, str(_mixed_run(tmp_path / "run")), "--format", "markdown")
    assert code == 0
    assert out.startswith("### Runs")
    assert "| :" in out and "| accuracy (graded samples)" in out


def test_csv_format_is_one_row_per_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _mixed_run(tmp_path / "a")
    write_run(tmp_path / "b", [make_record("q0")])
    code, out, _ = _run_report(capsys, str(tmp_path / "a"), str(tmp_path / "b"), "--format", "csv")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["run"] for r in rows] == ["a", "b"]
    assert rows[0]["accuracy"] == str(round(6 / 9, 6)) and rows[0]["parse_failures"] == "1"
    assert rows[0]["errors"] == "1" and rows[0]["n_advanced"] == "5" and rows[1]["n_advanced"] == "0" and rows[1]["accuracy_advanced"] == ""


def test_json_format_has_the_promised_fields(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _mixed_run(tmp_path / "a")
    write_run(tmp_path / "b", [make_record(f"q{i}") for i in range(10)])
    code, out, _ = _run_report(capsys, str(tmp_path / "*"), "--format", "json", "--seed", "5")
    assert code == 0
    data = json.loads(out)
    assert [d["run"] for d in data] == ["a", "b"]
    for key in ("run", "n", "accuracy", "ci_low", "ci_high", "parse_failures", "errors", "by_difficulty",
                "input_tokens", "output_tokens", "calls", "cost_usd"):
        assert key in data[0]
    assert data[0]["n"] == 9 and data[0]["accuracy"] == pytest.approx(6 / 9)
    (comparison,) = data[0]["comparisons"]
    assert (comparison["a"], comparison["b"], comparison["only_a_correct"]) == ("a", "b", [])
    assert comparison["only_b_correct"] == ["q6", "q7", "q8"]  # wrong, parse failure; the error is left out
    assert comparison["n_shared"] == 9
    assert comparison["b_accuracy"] == 1.0 and comparison["mcnemar_p"] == pytest.approx(2 / 2**3)
    _, again, _ = _run_report(capsys, str(tmp_path / "*"), "--format", "json", "--seed", "5")
    assert json.loads(again) == data


def test_compare_lists_changed_ids_and_needs_shared_ids(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_run(tmp_path / "a", [make_record("q0"), make_record("q1", correct=False)])
    write_run(tmp_path / "b", [make_record("q0"), make_record("q1")])
    code, out, _ = _run_report(capsys, str(tmp_path / "a"), str(tmp_path / "b"), "--compare")
    assert code == 0
    assert "Ids that changed" in out and "only b right (1): q1" in out
    code, _, err = _run_report(capsys, str(tmp_path / "a"), "--compare")
    assert code == 2 and "share question ids" in err


def test_in_progress_and_torn_line_are_reported_not_fatal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_dir = write_run(tmp_path / "run", [make_record("q0"), make_record("q1")], finished=False)
    with (run_dir / "results.jsonl").open("a") as fh:
        fh.write('{"id": "q2", "pred')
    code, out, _ = _run_report(capsys, str(run_dir))
    assert code == 0
    assert "running" in out and "still in progress" in out and "incomplete last line" in out
    code, out, _ = _run_report(capsys, str(run_dir), "--format", "json")
    (data,) = json.loads(out)
    assert data["in_progress"] is True and data["n"] == 2


def test_conflicting_shards_exit_2_naming_the_id(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_dir = tmp_path / "run"
    write_run(run_dir, [make_record("q3")], file="results.shard-1-of-2.jsonl")
    write_run(run_dir, [make_record("q3", correct=False)], file="results.shard-2-of-2.jsonl")
    code, out, err = _run_report(capsys, str(run_dir))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "q3" in err and "Traceback" not in err


def test_unknown_path_is_one_line_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run_report(capsys, str(tmp_path / "nope"))
    assert code == 2 and out == ""
    assert err.strip().startswith("error:") and err.count("\n") == 1 and "nope" in err
    code, _, err = _run_report(capsys, str(tmp_path / "nope*"))
    assert code == 2 and "no run directory matches" in err


def test_plot_file_is_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    _mixed_run(tmp_path / "runs" / "m_medqa_basic_10samples")
    write_run(tmp_path / "runs" / "m_medqa_adaptive_10samples",
              [make_record(f"q{i}", difficulty=["basic", "intermediate", "advanced"][i % 3]) for i in range(10)])
    out_png = tmp_path / "plots" / "report.png"
    code, _, err = _run_report(capsys, str(tmp_path / "runs"), "--plot", str(out_png), "--bootstrap", "0")
    assert code == 0 and "plot written" in err
    assert out_png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out_png.stat().st_size > 10_000


def test_plot_without_matplotlib_says_how_to_install(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import builtins

    real_import = builtins.__import__

    def no_matplotlib(name: str, *args: object, **kwargs: object) -> object:
        if name.startswith("matplotlib"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    code, _, err = _run_report(capsys, str(_mixed_run(tmp_path / "run")), "--plot", str(tmp_path / "p.png"))
    assert code == 2 and "pip install matplotlib" in err


def test_a_perfect_run_of_40_plots_and_its_interval_ends_at_one(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    assert wilson_interval(40, 40)[1] == 1.0 and wilson_interval(0, 40)[0] == 0.0
    write_run(tmp_path / "runs" / "m_medqa_basic_40samples", [make_record(f"q{i}") for i in range(40)])
    code, _, err = _run_report(capsys, str(tmp_path / "runs"), "--plot", str(tmp_path / "p.png"), "--bootstrap", "0")
    assert code == 0 and "plot written" in err


def test_rounding_never_gives_a_negative_error_bar(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from mdagents.analysis.plots import error_bar, plot_sweep

    assert error_bar(100.0, 91.2, 99.99999999999999) == [[pytest.approx(8.8)], [0.0]]
    row = {"dataset": "medqa", "model": "m", "difficulty": "basic", "n": 40, "accuracy": 1.0, "ci_low": 0.912,
           "ci_high": 0.9999999999999999}
    assert plot_sweep(["model"], [row], tmp_path / "sweep.png").stat().st_size > 1000


def test_costs_in_the_report_do_not_depend_on_the_cache(tmp_path: Path) -> None:
    # Three questions replayed from the cache and one paid, in today's fields; one record of an older
    # version (paid part in cost_usd, replayed part in cached_cost_usd).
    records = [make_record(f"q{i}", cost_usd=0.002, paid_usd=0.0, replayed_usd=0.002) for i in range(3)]
    records.append(make_record("q3", cost_usd=0.002, paid_usd=0.002, replayed_usd=0.0))
    records.append(make_record("q4", cost_usd=0.0, cached_cost_usd=0.002))
    report = summarize_run(load_run(write_run(tmp_path / "run", records)), bootstrap=0)
    assert report["cost_usd"] == pytest.approx(0.010)
    assert (report["paid_usd"], report["replayed_usd"]) == (pytest.approx(0.002), pytest.approx(0.008))
    assert summarize(records)["cost_usd"] == pytest.approx(0.010)
    unpriced = [make_record("q0", cost_usd=None, paid_usd=None, replayed_usd=None), make_record("q1")]
    assert summarize_run(load_run(write_run(tmp_path / "unpriced", unpriced)), bootstrap=0)["cost_usd"] is None
