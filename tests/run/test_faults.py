"""Faults of the machine and malformed inputs meet one line and a documented exit code, never a
traceback, and nothing already written is lost: a full disk, a read-only cache or run directory, a
path that is not UTF-8, files nested too deeply to parse, YAML that is not UTF-8, a sweep killed at
its last step."""

from __future__ import annotations

import errno
import gc
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from mdagents.cli import main
from mdagents.run import store
from tests.locations import REPO_ROOT
from tests.runs_helpers import cli_args, good_server, only_run_dir, read_records

ONE_CALL = ("--difficulty", "basic", "--num-exemplars", "0")


def one_line(err: str) -> str:
    """The single error line of a failure, with no traceback and no asyncio noise beside it."""
    assert "Traceback" not in err and "never retrieved" not in err, err
    lines = [line for line in err.splitlines() if line.startswith(("error:", "python main.py: error:"))]
    assert len(lines) == 1, err
    return lines[0]


@contextmanager
def read_only(path: Path) -> Iterator[None]:
    """`path` cannot be written, even by root: a read-only bind mount as root, else its permissions."""
    if os.geteuid() != 0:
        path.chmod(0o555)
        try:
            yield
        finally:
            path.chmod(0o755)
        return
    if subprocess.run(["mount", "--bind", str(path), str(path)], capture_output=True).returncode != 0:
        pytest.skip("root without mount: cannot make a read-only directory")
    try:
        if subprocess.run(["mount", "-o", "remount,ro,bind", str(path)], capture_output=True).returncode != 0:
            pytest.skip("cannot remount read-only")
        yield
    finally:
        subprocess.run(["umount", str(path)], capture_output=True)


def disk_full_after(monkeypatch: pytest.MonkeyPatch, writes: int, target: str = "atomic_write_bytes",
                    where: str = "") -> None:
    """The store's writes of files whose path holds `where` succeed `writes` times, then the disk is full."""
    real = getattr(store, target)
    count = {"n": 0}

    def write(path: Path, *args: Any, **kwargs: Any) -> None:
        if where in str(path):
            count["n"] += 1
            if count["n"] > writes:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        real(path, *args, **kwargs)

    monkeypatch.setattr(store, target, write)


# ---------------------------------------------------------------- a full disk


def test_a_full_disk_mid_run_is_one_line_exit_1_and_the_run_resumes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        caplog: pytest.LogCaptureFixture) -> None:
    with good_server("basic") as server:
        args = cli_args(server, tmp_path, *ONE_CALL, "--concurrency", "4", n=8)
        disk_full_after(monkeypatch, 3, where="/transcripts/")  # the fourth question cannot be stored
        assert main(args) == 1
        gc.collect()  # tasks whose failure nobody looked at would complain now (through asyncio's logger)
        assert not [r for r in caplog.records if "never retrieved" in r.getMessage()]
        line = one_line(capsys.readouterr().err)
        assert "No space left on device" in line and "re-run the same command to resume" in line
        run_dir = only_run_dir(tmp_path)
        kept = read_records(run_dir)
        assert len(kept) == 3
        monkeypatch.undo()
        assert main(args) == 0
    records = read_records(run_dir)
    assert len(records) == 8 and len({r["id"] for r in records}) == 8
    assert {r["id"]: r for r in records} | {r["id"]: r for r in kept} == {r["id"]: r for r in records}


def test_a_full_disk_when_the_summary_is_written_keeps_every_record(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    with good_server("basic") as server:
        args = cli_args(server, tmp_path, *ONE_CALL, "--transcripts", "none", n=4)
        disk_full_after(monkeypatch, 0, "atomic_write_json", where="summary.json")
        monkeypatch.setattr("mdagents.run.session.atomic_write_json", store.atomic_write_json)
        assert main(args) == 1
        assert "No space left on device" in one_line(capsys.readouterr().err)
    assert len(read_records(only_run_dir(tmp_path))) == 4


# ---------------------------------------------------------------- read-only places


def test_a_read_only_cache_directory_is_one_line_never_a_traceback(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    with good_server("basic") as server, read_only(cache):
        args = [*cli_args(server, tmp_path, *ONE_CALL, n=2)[:-2], "--cache-path", str(cache / "responses.sqlite")]
        code = main(args)
    err = capsys.readouterr().err
    assert "Traceback" not in err
    if code == 0:  # the cache skipped with a warning: the run itself completes
        assert "cache" in err and len(read_records(only_run_dir(tmp_path))) == 2
    else:
        line = one_line(err)
        assert code == 2 and "response cache" in line and "--no-cache" in line


def test_view_of_a_read_only_run_says_where_else_to_write(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with good_server("basic") as server:
        assert main(cli_args(server, tmp_path, *ONE_CALL, n=2)) == 0
    run_dir = only_run_dir(tmp_path)
    capsys.readouterr()
    with read_only(run_dir):
        assert main(["view", str(run_dir)]) == 2
        line = one_line(capsys.readouterr().err)
        assert f"cannot write the pages to {run_dir / 'view'}" in line and "--out DIR" in line
        assert main(["view", str(run_dir), "--out", str(tmp_path / "site")]) == 0
    assert (tmp_path / "site" / "index.html").is_file() and not (run_dir / "view").exists()


# ---------------------------------------------------------------- inputs that are not what they seem


def test_an_output_path_that_is_not_utf8_is_refused_before_any_work(tmp_path: Path) -> None:
    argv = [sys.executable.encode(), b"main.py", b"--model", b"mock/oracle", b"--limit", b"1",
            b"--output-dir", os.fsencode(tmp_path) + b"/out\xff\xfe"]
    done = subprocess.run(argv, cwd=REPO_ROOT, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "MDAGENTS_CACHE_DIR": str(tmp_path / "cache")})
    assert done.returncode == 2
    assert "out\\xff\\xfe' is not valid UTF-8" in one_line(done.stderr)
    assert list(tmp_path.iterdir()) == []


def test_a_dataset_nested_too_deeply_names_its_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deep = tmp_path / "deep.jsonl"
    good = {"question": "Q?", "options": {"A": "x", "B": "y"}, "answer_idx": "A", "answer": "x"}
    deep.write_text(json.dumps(good) + "\n" + "[" * 200_000 + "]" * 200_000 + "\n")
    with good_server("basic") as server:
        assert main(cli_args(server, tmp_path, *ONE_CALL, "--dataset", str(deep))) == 2
    assert f"{deep}:2" in one_line(capsys.readouterr().err)


def test_a_price_file_nested_too_deeply_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    prices = tmp_path / "prices.json"
    prices.write_text('{"openai/gpt-4o-mini": ' + "[" * 200_000 + "]" * 200_000 + "}")
    with good_server("basic") as server:
        assert main(cli_args(server, tmp_path, *ONE_CALL, "--price-file", str(prices))) == 2
        assert server.requests == []
    assert f"cannot read price file {prices}" in one_line(capsys.readouterr().err)


@pytest.mark.parametrize(("body", "message"), [
    (b"model: mock/oracle\nnum_samples: 1\ndataset: caf\xe9\n", "not UTF-8 text (line 3); save it as UTF-8"),
    (b"model: mock/oracle\ngrid:\n  seed: " + b"[" * 50_000 + b"]" * 50_000 + b"\n", "nested too deeply"),
])
def test_a_grid_file_that_cannot_be_read_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     body: bytes, message: str) -> None:
    grid = tmp_path / "grid.yaml"
    grid.write_bytes(body)
    assert main(["sweep", str(grid)]) == 2
    line = one_line(capsys.readouterr().err)
    assert line.startswith(f"error: {grid}: ") and message in line


# ---------------------------------------------------------------- a sweep killed at its last step


def _grid(tmp_path: Path) -> Path:
    grid = tmp_path / "grid.yaml"
    grid.write_text(f"model: mock/oracle\nnum_samples: 3\ndifficulty: [basic, advanced]\n"
                    f"output_dir: {tmp_path / 'out'}\n")
    return grid


def test_a_sweep_killed_while_closing_its_last_cell_finishes_on_resume(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    grid = _grid(tmp_path)
    assert main(["sweep", str(grid), "--parallel", "1"]) == 0
    last = next(p for p in (tmp_path / "out").glob("*advanced*") if p.is_dir())
    # SIGKILL after its last record: no summary, its manifest still says running, the tables half written.
    (last / "summary.json").unlink()
    manifest = json.loads((last / "manifest.json").read_text())
    (last / "manifest.json").write_text(json.dumps(manifest | {"status": "running"}))
    (tmp_path / "out" / "sweep.png").write_bytes(b"\x89PNG\r\n")
    (tmp_path / "out" / "sweep.csv").unlink()
    capsys.readouterr()
    assert main(["sweep", str(grid), "--parallel", "1"]) == 0
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "advanced" in out
    assert json.loads((last / "manifest.json").read_text())["status"] == "finished"
    assert (last / "summary.json").is_file() and (tmp_path / "out" / "sweep.csv").is_file()
    assert (tmp_path / "out" / "sweep.png").stat().st_size > 1000


def test_a_full_disk_at_a_sweeps_last_step_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    grid = _grid(tmp_path)
    assert main(["sweep", str(grid), "--parallel", "1"]) == 0
    capsys.readouterr()

    def full(path: Path, *args: Any) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))

    monkeypatch.setattr("mdagents.run.sweep.atomic_write_bytes", full)
    assert main(["sweep", str(grid), "--parallel", "1"]) == 1
    line = one_line(capsys.readouterr().err)
    assert "No space left on device" in line and "sweep.csv" in line
    assert len(list((tmp_path / "out").glob("*/summary.json"))) == 2  # the cells' results are untouched
