"""Batch mode at scale: questions in waves, wall time against waves x turnaround, cost against live.

Runs the same intermediate questions twice through `mdagents.cli.main`: live against the loopback
OpenAI server (`tests/fakes/servers.py`), then with `--batch` against its batch API
(`tests/fakes/batches.py`), where every batch completes `--turnaround` seconds after it was created.
Prints the batches submitted, the waves, the wall time against waves x turnaround, the cost
against the live run's (target 0.5x) and whether the graded answers are the same.

    python bench/batch_waves.py                       # 200 intermediate questions, 2 s turnaround
    python bench/batch_waves.py -n 50 --turnaround 1
    python bench/batch_waves.py -n 50 --difficulty adaptive --wire anthropic   # or --wire gemini
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mdagents.cli import main as cli_main  # noqa: E402
from mdagents.data.datasets import load_questions, resolve_dataset  # noqa: E402
from mdagents.paths import SAMPLES_DIR  # noqa: E402
from tests.fakes.batches import FakeBatchServer  # noqa: E402
from tests.fakes.servers import FakeServer  # noqa: E402
from tests.pipelines.responders import good_responder  # noqa: E402

SHARED_MEDQA = ROOT.parent / "shared" / "datasets" / "medqa" / "test.jsonl"
SAMPLE_MEDQA = SAMPLES_DIR / "medqa" / "test.jsonl"
PRICE = ["--price-in", "0.15", "--price-out", "0.6"]  # gpt-4o-mini's list price, USD per million tokens
MODELS = {"openai": "openai/gpt-4o-mini", "anthropic": "anthropic/claude-haiku-4-5",
          "gemini": "gemini/gemini-2.0-flash"}


def lookup(dataset: Path) -> dict[str, str]:
    source = resolve_dataset(str(dataset))
    return {q.question: q.answer for q in load_questions(source)}


def run(server: FakeServer, where: Path, dataset: Path, n: int, repeats: int, difficulty: str, *extra: str
        ) -> tuple[float, Path]:
    args = ["--dataset", str(dataset), "--model", MODELS[server.wire], "--base-url", server.base_url,
            "--difficulty", difficulty, "--num_samples", str(n), "--repeats", str(repeats),
            "--output-dir", str(where / "out"), "--cache-path", str(where / "cache.sqlite"), "-q", *PRICE, *extra]
    started = time.perf_counter()
    code = cli_main(args)
    if code != 0:
        raise SystemExit(f"the run exited {code}")
    [run_dir] = [p for p in (where / "out").iterdir() if p.is_dir()]
    return time.perf_counter() - started, run_dir


def records(run_dir: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (run_dir / "results.jsonl").read_text().splitlines() if line.strip()]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", type=int, default=200, help="questions (default: 200)")
    parser.add_argument("--turnaround", type=float, default=2.0, help="seconds each batch takes (default: 2)")
    parser.add_argument("--poll", type=float, default=0.25, help="--batch-poll of the batch run (default: 0.25)")
    parser.add_argument("--dataset", type=Path, default=None, help="a .jsonl of questions (default: MedQA)")
    parser.add_argument("--difficulty", default="intermediate", help="level, or adaptive (default: intermediate)")
    parser.add_argument("--wire", choices=sorted(MODELS), default="openai", help="provider API (default: openai)")
    args = parser.parse_args()
    dataset = args.dataset or (SHARED_MEDQA if SHARED_MEDQA.is_file() else SAMPLE_MEDQA)
    available = len(load_questions(resolve_dataset(str(dataset))))
    repeats = -(-args.n // available)  # the sample set is small: its questions repeated (distinct cache keys)
    per_repeat = min(args.n, available) if repeats == 1 else -(-args.n // repeats)
    responder = good_responder(lookup(dataset), "mixed" if args.difficulty == "adaptive" else args.difficulty)
    os.environ.setdefault("ANTHROPIC_API_KEY", "sk-ant-bench")  # the fakes ignore keys; the CLI wants one
    os.environ.setdefault("GEMINI_API_KEY", "bench")

    with tempfile.TemporaryDirectory() as tmp:
        with FakeServer(args.wire, responder) as live:
            live_wall, live_dir = run(live, Path(tmp) / "live", dataset, per_repeat, repeats, args.difficulty)
        with FakeBatchServer(responder, wire=args.wire, turnaround=args.turnaround) as server:
            batch_wall, batch_dir = run(server, Path(tmp) / "batch", dataset, per_repeat, repeats, args.difficulty,
                                        "--batch", "--batch-poll", str(args.poll))
            batches = len(server.batches)
            requests = len(server.submitted_ids)
            unique = len(set(server.submitted_ids))
            fake_s = server.processing_s
        live_records, batch_records = records(live_dir), records(batch_dir)
        stats = json.loads((batch_dir / "summary.json").read_text())["batch"]
        live_cost = json.loads((live_dir / "summary.json").read_text())["spent_usd"]
        batch_cost = json.loads((batch_dir / "summary.json").read_text())["spent_usd"]

    def graded(rs: list[dict[str, Any]]) -> dict[str, Any]:
        return {r["id"]: (r["prediction"], r["correct"]) for r in rs}

    calls = sum(r["calls"] for r in batch_records)
    longest = max(r["calls"] for r in batch_records)
    waves = stats["waves"]
    same = graded(live_records) == graded(batch_records)
    levels = ", ".join(f"{lv} {sum(r['difficulty'] == lv for r in batch_records)}"
                       for lv in ("basic", "intermediate", "advanced") if any(r["difficulty"] == lv for r in batch_records))
    print(f"questions            {len(batch_records)} {args.difficulty} ({levels}; {args.wire}; {dataset.name}, "
          f"{repeats} repeat(s))")
    print(f"calls                {calls} in batches ({requests} requests submitted, {unique} distinct); "
          f"longest question {longest} calls")
    print(f"batches / waves      {batches} / {waves}   (live would be {calls} calls)")
    print(f"wall                 {batch_wall:.1f} s   waves x turnaround = {waves * args.turnaround:.1f} s   "
          f"ratio {batch_wall / (waves * args.turnaround):.2f}   (live run: {live_wall:.1f} s)")
    print(f"  of which           {fake_s:.1f} s the fake server answering the batches' requests (its CPU, in this "
          f"process); the rest: {batch_wall - waves * args.turnaround - fake_s:.1f} s harness and polling")
    print(f"cost                 ${batch_cost:.4f} batch vs ${live_cost:.4f} live = {batch_cost / live_cost:.3f}x")
    print(f"graded answers       {'the same as live' if same else 'DIFFERENT from live'}")
    ok = same and requests == unique and abs(batch_cost / live_cost - 0.5) < 0.01 and waves <= longest + 1
    print("target met" if ok else "target NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
