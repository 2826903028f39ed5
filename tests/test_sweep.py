"""`sweep GRID.yaml`: a grid of ordinary runs, checked before any call, resumable, one shared cap per endpoint."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mdagents.cli import main
from tests.fakes.servers import FakeServer
from tests.locations import REPO_ROOT
from tests.runs_helpers import good_server
from tests.sweep_helpers import LEVELS, MODELS, cell_records, counting_responder, read_csv, write_grid


def test_two_models_two_datasets_two_levels_then_rerun_makes_no_call(tmp_path: Path, capsys) -> None:
    with good_server() as server:
        grid = write_grid(tmp_path, server.base_url)
        assert main(["sweep", str(grid)]) == 0
        calls = len(server.requests)
        assert calls > 0
        out = tmp_path / "out"
        rows = read_csv(out / "sweep.csv")
        assert len(rows) == 8
        assert {(r["model"], r["difficulty"]) for r in rows} == {(m, lv) for m in MODELS for lv in LEVELS}
        assert {Path(r["dataset"]).stem for r in rows} == {"medqa", "wards"}
        assert all(r["n"] == "2" and r["accuracy"] == "1.0" and r["status"] == "finished" for r in rows)
        assert all(0 < float(r["ci_low"]) < 1.0 == float(r["ci_high"]) for r in rows)
        assert all(float(r["calls_per_question"]) >= 1 for r in rows)
        assert (out / "sweep.png").stat().st_size > 5000
        markdown = (out / "sweep.md").read_text()
        assert markdown.count("\n| openai/") == 8
        manifests = [json.loads(p.read_text()) for p in out.glob("*/manifest.json")]
        assert len(manifests) == 8 and {m["executor"] for m in manifests} == {"local"}
        capsys.readouterr()

        # Finished: every cell is skipped, no request reaches the server, the table is the same.
        assert main(["sweep", str(grid)]) == 0
        assert len(server.requests) == calls
        assert read_csv(out / "sweep.csv") == rows
        err = capsys.readouterr().err
        assert "8 unit(s) already finished, 0 to run" in err

        assert main(["report", str(out)]) == 0
        table = capsys.readouterr().out.split("Cost against accuracy:")[0]  # the cells table, then the cost one
        assert table.count("openai/gpt-4.1-mini") == 4 and "95% Wilson" in table

        # Killed after a cell's last record, before its manifest was closed: closed without a call.
        manifest_path = next(out.glob("*/manifest.json"))
        manifest_path.write_text(json.dumps(json.loads(manifest_path.read_text()) | {"status": "running"}))
        assert main(["sweep", str(grid)]) == 0
        assert len(server.requests) == calls
        assert json.loads(manifest_path.read_text())["status"] == "finished"
        assert {r["status"] for r in read_csv(out / "sweep.csv")} == {"finished"}


def test_a_cell_is_the_same_run_as_the_run_command(tmp_path: Path) -> None:
    """The run command on one cell's options finds that cell finished: same directory, nothing to do."""
    with good_server() as server:
        grid = write_grid(tmp_path, server.base_url)
        assert main(["sweep", str(grid), "--parallel", "4"]) == 0
        calls = len(server.requests)
        assert main(["run", "--model", MODELS[1], "--dataset", "medqa", "--difficulty", "basic", "--num_samples", "2",
                     "--base-url", server.base_url, "--output-dir", str(tmp_path / "out"), "--num-experts", "2",
                     "--cache-path", str(tmp_path / "cache.sqlite"), "--rounds", "1", "--turns", "1"]) == 0
        assert len(server.requests) == calls
        assert len(read_csv(tmp_path / "out" / "sweep.csv")) == 8


def test_cells_running_at_once_share_one_cap_per_endpoint(tmp_path: Path) -> None:
    counting, state = counting_responder()
    with FakeServer("openai", counting) as server:
        grid = write_grid(tmp_path, server.base_url, extra="max_connections: 2\nconcurrency: 4\n")
        assert main(["sweep", str(grid), "--parallel", "4"]) == 0
    assert state["peak"] == 2  # four cells, four questions each in flight, one cap of two for the endpoint


def test_grid_and_repeats_go_to_their_own_folders(tmp_path: Path) -> None:
    with good_server() as server:
        grid = tmp_path / "grid.yaml"
        grid.write_text(f"model: openai/gpt-4o-mini\nbase-url: {server.base_url}\nnum_samples: 2\n"
                        f"difficulty: basic\noutput-dir: {tmp_path / 'out'}\nno-cache: true\n"
                        f"repeats: 2\ngrid:\n  num_exemplars: [0, 1]\n")
        assert main(["sweep", str(grid)]) == 0
    rows = read_csv(tmp_path / "out" / "sweep.csv")
    assert [(r["num_exemplars"], r["repeat"]) for r in rows] == [("0", "1"), ("0", "2"), ("1", "1"), ("1", "2")]
    folders = sorted(p.name for p in (tmp_path / "out").iterdir() if p.is_dir())
    assert folders == ["num_exemplars=0_repeat=1", "num_exemplars=0_repeat=2", "num_exemplars=1_repeat=1",
                       "num_exemplars=1_repeat=2"]
    seeds = {json.loads(p.read_text())["config"]["seed"] for p in (tmp_path / "out").glob("*/*/manifest.json")}
    assert seeds == {0, 1}


@pytest.mark.parametrize(("body", "message"), [
    ("model: [openai/gpt-4o-mini]\nnum_sample: 3\n", "grid.yaml: num_sample: unknown option (did you mean num_samples?)"),
    ("model: []\n", "grid.yaml: model: empty list"),
    ("difficulty: [basic, expert]\n", "grid.yaml: difficulty: expert: argument --difficulty: invalid choice"),
    ("concurrency: 0\n", "grid.yaml: concurrency: invalid value for --concurrency"),
    ("seed: [1, 2]\n", "grid.yaml: seed: only model, dataset, difficulty, method may be lists here"),
    ("grid:\n  rounds: 3\n", "grid.yaml: grid.rounds: must be a list of values"),
    ("num-experts: 3\ngrid:\n  num_experts: [2, 3]\n", "grid.yaml: grid.num_experts: is also set at the top level"),
    ("grid:\n  rounds: [1, 0]\n", "grid.yaml: grid.rounds: 0: invalid value for --rounds"),
    ("fresh: true\n", "grid.yaml: fresh: a sweep never deletes finished results"),
    ("no_cache: 3\n", "grid.yaml: no_cache: is a switch: true or false"),
    ("repeats: 0\n", "grid.yaml: repeats: must be a whole number from 1 to 1000, not 0"),
    ("repeats: 100000000000000000000\n", "grid.yaml: repeats: must be a whole number from 1 to 1000"),
    ("concurrency: 1000000000\n", "grid.yaml: concurrency: invalid value for --concurrency 1000000000 "
                                  "(allowed: 1 to 10000)"),
    (f"grid:\n  seed: {list(range(1000))}\n  temperature: {[round(t / 1000, 3) for t in range(1000)]}\n",
     "grid.yaml: grid: 1,000,000 cells (1000 seed x 1000 temperature) is more than the 10,000"),
    ("dataset: [medqa, nosuchset]\n", "grid.yaml: dataset: nosuchset: dataset 'nosuchset' not found"),
])
def test_bad_grids_are_refused_before_any_call(tmp_path: Path, capsys, body: str, message: str) -> None:
    with good_server() as server:
        grid = tmp_path / "grid.yaml"
        grid.write_text(body + f"base_url: {server.base_url}\noutput_dir: {tmp_path / 'out'}\nnum_samples: 1\n")
        assert main(["sweep", str(grid)]) == 2
        assert server.requests == []
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert err.startswith(f"error: {tmp_path / message}"), err
    assert not (tmp_path / "out").exists()


def test_a_missing_key_is_named_before_any_cell_starts(tmp_path: Path, capsys) -> None:
    grid = tmp_path / "grid.yaml"
    grid.write_text(f"model: [anthropic/claude-haiku-4-5, openai/gpt-4o-mini]\noutput_dir: {tmp_path / 'out'}\n")
    assert main(["sweep", str(grid)]) == 2
    assert capsys.readouterr().err.strip() == (f"error: {grid}: model: anthropic/claude-haiku-4-5: ANTHROPIC_API_KEY is "
                                               "not set: export it or put it in .env to use anthropic/claude-haiku-4-5")
    assert not (tmp_path / "out").exists()


def test_sweep_survives_sigkill_and_resumes(tmp_path: Path) -> None:
    env = {**os.environ, "MDAGENTS_CACHE_DIR": str(tmp_path / "cache")}
    with good_server(latency=0.02) as server:
        reference = write_grid(tmp_path / "ref", server.base_url, n=3)
        assert main(["sweep", str(reference)]) == 0
        expected = cell_records(tmp_path / "ref" / "out")

        grid = write_grid(tmp_path, server.base_url, n=3, extra="no_cache: true\n")
        proc = subprocess.Popen([sys.executable, str(REPO_ROOT / "main.py"), "sweep", str(grid), "--parallel", "2"],
                                env=env, cwd=REPO_ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        out = tmp_path / "out"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(list(out.glob("*/results.jsonl"))) < 3:
            time.sleep(0.02)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        assert proc.returncode == -signal.SIGKILL
        assert not (out / "sweep.csv").exists()  # killed mid-sweep
        partial = cell_records(out)
        assert 0 < sum(len(r) for r in partial.values()) < 24

        assert main(["sweep", str(grid)]) == 0
        calls = len(server.requests)
        got = cell_records(out)
        assert got == expected
        for name, records in partial.items():  # what was finished before the kill is kept as it was
            assert all(got[name][i] == records[i] for i in records)
        assert main(["sweep", str(grid)]) == 0
        assert len(server.requests) == calls
    assert len(read_csv(out / "sweep.csv")) == 8


def test_slurm_style_slices_then_one_pass_writes_the_table(tmp_path: Path, capsys) -> None:
    """docs/sweeps.md: array tasks run `--shard i/n`; a last `--shards n` finds every slice done."""
    with good_server() as server:
        grid = write_grid(tmp_path, server.base_url, n=3)
        assert main(["sweep", str(grid), "--dry-run"]) == 0
        assert capsys.readouterr().out.count("3 of 3 questions left") == 8
        assert main(["sweep", str(grid), "--shard", "1/2"]) == 0
        assert main(["sweep", str(grid), "--shard", "2/2", "--parallel", "1"]) == 0
        calls = len(server.requests)
        assert main(["sweep", str(grid), "--shards", "2"]) == 0
        assert main(["sweep", str(grid)]) == 0  # whole cells: every id is in a slice's file already
        assert len(server.requests) == calls
    out = tmp_path / "out"
    assert len(list(out.glob("*/results.shard-1-of-2.jsonl"))) == 8 and not list(out.glob("*/results.jsonl"))
    rows = read_csv(out / "sweep.csv")
    assert len(rows) == 8 and {(r["n"], r["status"]) for r in rows} == {("3", "finished")}
    assert {len(records) for records in cell_records(out).values()} == {3}


def test_ctrl_c_stops_the_cell_cleanly_and_the_sweep_resumes(tmp_path: Path) -> None:
    with good_server(latency=0.05) as server:
        grid = write_grid(tmp_path, server.base_url, n=3, extra="no_cache: true\nconcurrency: 1\n")
        proc = subprocess.Popen([sys.executable, str(REPO_ROOT / "main.py"), "sweep", str(grid), "--parallel", "1"],
                                cwd=REPO_ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        out = tmp_path / "out"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not list(out.glob("*/results.jsonl")):
            time.sleep(0.02)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 130, err
        assert "interrupted: run the same sweep again to resume" in err
        statuses = [json.loads(p.read_text())["status"] for p in out.glob("*/manifest.json")]
        assert statuses == ["interrupted"]  # the sweep stopped with the cell it was running
        assert main(["sweep", str(grid)]) == 0
    assert {len(records) for records in cell_records(out).values()} == {3}
    assert {r["status"] for r in read_csv(out / "sweep.csv")} == {"finished"}


def test_a_sweep_file_can_price_its_model_and_its_table_shows_paid_and_replayed(tmp_path: Path) -> None:
    with good_server() as server:
        grid = write_grid(tmp_path, server.base_url, extra="price_in: 2\nprice-out: 8\n", n=1)
        assert main(["sweep", str(grid)]) == 0
        rows = read_csv(tmp_path / "out" / "sweep.csv")
        assert len(rows) == 8 and all(float(r["cost_usd"]) > 0 for r in rows)
        assert all(r["paid_usd"] == r["cost_usd"] and float(r["replayed_usd"]) == 0 for r in rows)
        shutil.rmtree(tmp_path / "out")
        assert main(["sweep", str(grid)]) == 0  # every reply from the cache: the same cost, none of it paid
        again = read_csv(tmp_path / "out" / "sweep.csv")
    assert [r["cost_usd"] for r in again] == [r["cost_usd"] for r in rows]
    assert all(float(r["paid_usd"]) == 0 and r["replayed_usd"] == r["cost_usd"] for r in again)


def test_a_sweep_price_given_alone_is_refused_naming_the_pair(tmp_path: Path, capsys) -> None:
    grid = tmp_path / "grid.yaml"
    grid.write_text(f"model: [openai/gpt-4o-mini]\nbase_url: http://127.0.0.1:9/v1\nprice_in: 2\n"
                    f"output_dir: {tmp_path / 'out'}\n")
    assert main(["sweep", str(grid)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "price_in" in err and "--price-out together" in err
