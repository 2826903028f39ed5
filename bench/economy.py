"""Token economy: calls and input tokens per question at each level, next to the original MDAgents.

    python bench/economy.py                # every level on the mock, then one question on the embedded model
    python bench/economy.py --skip-local   # the mock levels only (about 20 s)

Each level runs the first `-n` (10) MedQA test questions (../shared/datasets/medqa/test.jsonl when
present, else the project's sample set; with 5 few-shot exemplars from the project's sample train
set, as the original shows exemplars) through `mdagents.cli.main` against `_server_process.py`,
a loopback OpenAI-compatible server in its own process that answers every step correctly. Its
experts talk: in the first two turns of the debate's first round every expert sends the next
one a message (`--talk-turns`), then they stay silent, so the intermediate level runs a real
round (participation, summary, updated answers) and then a silent turn. The adaptive row uses a
classifier answer that varies by question (`--difficulty mixed`: a stable level per question).

Calls and input tokens are counted by the server (whitespace tokens, as every loopback server of
the project counts them), per question; `cached` is the share of input tokens that the server's
prompt-cache emulation served (the longest message prefix an earlier request already sent), which is
what a provider's prompt cache can bill at its cached rate. The original's figures (same 10
questions, same kind of mock) are printed beside them. They were counted as characters / 4 of the
messages sent, so the comparison uses that unit on both sides: the server also counts the
characters of every message it receives, and `chars/4` and `vs original` come from those.

Target: intermediate with `--no-consensus-stop` at most 50,000 input tokens and 35 calls per
question, still 10/10. The embedded-model row times `python main.py --difficulty intermediate
--num_samples 1` (default debate size, fresh cache; the wall includes start-up, the model's loading and
the run's exemplar rationales); target: at most 15 s on 2 cores. Beside it: the prompt tokens the
model had to read and those it reused from its state (`cached`), and the load average, since the
figure depends on what else the cores are doing.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from throughput import MODEL, ROOT, SHARED_MEDQA, ServerProcess

from mdagents.cli import main as cli_main
from mdagents.paths import SAMPLES_DIR

# the shared datasets sit beside the checkout (or beside the folder of worktrees)
MEDQA_CANDIDATES = (SHARED_MEDQA, ROOT.parent.parent / "shared" / "datasets" / "medqa" / "test.jsonl",
                    SAMPLES_DIR / "medqa" / "test.jsonl")

# The original MDAgents on the first 10 MedQA test questions: calls and input tokens per question,
# its tokens counted as characters / 4 of the messages it sent (compare with `input_chars / 4`).
ORIGINAL = {"basic": (7, 5_493), "intermediate": (61, 98_604), "advanced": (29, 10_249), "adaptive": (22.2, 26_734)}
TARGET_TOKENS, TARGET_CALLS, TARGET_LOCAL_S = 50_000, 35, 15.0


@dataclass(frozen=True)
class Case:
    label: str
    level: str  # --difficulty
    original: str  # key of ORIGINAL
    extra: tuple[str, ...] = ()
    classifier: str = "intermediate"  # what the mock answers the difficulty classifier


CASES = (
    Case("basic", "basic", "basic"),
    Case("intermediate --no-consensus-stop", "intermediate", "intermediate", ("--no-consensus-stop",)),
    Case("intermediate (consensus stop)", "intermediate", "intermediate"),
    Case("advanced", "advanced", "advanced"),
    Case("adaptive", "adaptive", "adaptive", classifier="mixed"),
)


@dataclass
class Row:
    case: Case
    calls: float
    input_tokens: float
    input_chars: float
    cached_share: float
    correct: int
    n: int
    harness_calls: float


def run_case(case: Case, dataset: Path, n: int, talk_turns: int, workdir: Path) -> Row:
    out = workdir / case.label.replace(" ", "_").replace("(", "").replace(")", "")
    with ServerProcess(0.0, [dataset], case.classifier, n, ("--talk-turns", str(talk_turns))) as server:
        args = ["--dataset", str(dataset), "--model", MODEL, "--base-url", server.base_url,
                "--num-samples", str(n), "--difficulty", case.level, "--concurrency", "4", "--no-cache",
                "--output-dir", str(out / "runs"), *case.extra]
        out.mkdir(parents=True, exist_ok=True)
        with open(out / "cli.log", "w") as log, contextlib.redirect_stdout(log), contextlib.redirect_stderr(log):
            code = cli_main(args)
        if code != 0:
            raise RuntimeError(f"{case.label}: run exited {code}; see {out / 'cli.log'}")
        requests, tokens = server.count(), server.tokens()
    run_dir = next(p for p in (out / "runs").iterdir() if p.is_dir())
    records = [json.loads(line) for line in (run_dir / "results.jsonl").read_text().splitlines() if line.strip()]
    return Row(case, requests / n, tokens["input"] / n, tokens["input_chars"] / n,
               tokens["cached"] / max(1, tokens["input"]),
               sum(bool(r.get("correct")) for r in records), len(records),
               sum(r["calls"] for r in records) / max(1, len(records)))


def print_rows(rows: list[Row], dataset: str) -> bool:
    print(f"{rows[0].n} questions from {dataset}; per question, counted by the server. input tok: whitespace "
          "tokens; chars/4: the messages' characters / 4, the unit of the original's figures (original chars/4)")
    header = f"{'level':34} {'calls':>6} {'input tok':>10} {'chars/4':>8} {'cached':>7} {'correct':>8}   " \
             f"{'original calls':>14} {'original chars/4':>16} {'calls vs original':>17} {'chars/4 vs original':>19}"
    print(header)
    print("-" * len(header))
    for row in rows:
        calls, tokens = ORIGINAL[row.case.original]
        quarter_chars = row.input_chars / 4
        print(f"{row.case.label:34} {row.calls:6.1f} {row.input_tokens:10,.0f} {quarter_chars:8,.0f} "
              f"{row.cached_share:7.0%} {row.correct:>4}/{row.n:<3}   {calls:14} {tokens:16,} "
              f"{row.calls / calls:16.2f}x {quarter_chars / tokens:18.2f}x")
    target = next(r for r in rows if r.case.extra == ("--no-consensus-stop",))
    met = target.input_tokens <= TARGET_TOKENS and target.calls <= TARGET_CALLS and target.correct == target.n
    print(f"target (intermediate --no-consensus-stop): <= {TARGET_TOKENS:,} input tokens (whitespace) and <= {TARGET_CALLS} calls "
          f"per question, all correct: {'MET' if met else 'NOT MET'} ({target.input_tokens:,.0f} tokens, "
          f"{target.calls:.1f} calls, {target.correct}/{target.n})")
    mismatched = [r.case.label for r in rows if abs(r.harness_calls - r.calls) > 1e-9]
    if mismatched:
        print(f"note: the records count other calls than the server for {', '.join(mismatched)} "
              "(run overhead such as exemplar rationales)")
    return met


def time_local(workdir: Path) -> tuple[float, dict[str, Any] | None]:
    """Wall seconds of `python main.py --difficulty intermediate --num_samples 1`, and its record."""
    out = workdir / "local"
    cmd = [sys.executable, "main.py", "--difficulty", "intermediate", "--num_samples", "1",
           "--output-dir", str(out / "runs"), "--cache-path", str(out / "cache.sqlite")]
    started = time.perf_counter()
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env=os.environ | {"PYTHONPATH": str(ROOT)})
    wall = time.perf_counter() - started
    if done.returncode != 0:
        print(done.stderr[-2000:], file=sys.stderr)
        return wall, None
    run_dir = next(p for p in (out / "runs").iterdir() if p.is_dir())
    return wall, json.loads((run_dir / "results.jsonl").read_text().splitlines()[0])


def with_exemplars(dataset: Path, workdir: Path) -> Path:
    """The test file in a folder of its own with a train split beside it, so that basic and intermediate show
    few-shot exemplars as the original does (the shared MedQA folder has no train split: the project's
    sample train set stands in)."""
    if (dataset.parent / "train.jsonl").is_file():
        return dataset
    folder = workdir / "medqa"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "test.jsonl").symlink_to(dataset.resolve())
    (folder / "train.jsonl").symlink_to((SAMPLES_DIR / "medqa" / "train.jsonl").resolve())
    return folder / "test.jsonl"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=10, help="questions per level (default: 10)")
    parser.add_argument("--dataset", default=None, help="a MedQA-style JSONL (default: the shared MedQA test set)")
    parser.add_argument("--talk-turns", type=int, default=2, help="turns of round 1 in which the mock's experts talk")
    parser.add_argument("--skip-local", action="store_true", help="do not time the embedded model")
    args = parser.parse_args()
    dataset = Path(args.dataset) if args.dataset else next(p for p in MEDQA_CANDIDATES if p.is_file())
    with tempfile.TemporaryDirectory(prefix="mdagents-economy-") as tmp:
        runs_on = with_exemplars(dataset, Path(tmp))
        rows = [run_case(case, runs_on, args.n, args.talk_turns, Path(tmp)) for case in CASES]
        met = print_rows(rows, str(dataset))
        if args.skip_local:
            return 0 if met else 1
        load = os.getloadavg()[0]
        wall, record = time_local(Path(tmp))
        if record is None:
            print(f"embedded model: the run failed after {wall:.0f} s")
            return 1
        details = record.get("details") or {}
        total = record["usage"]["total"]
        reused = total.get("cached_tokens") or 0
        print(f"embedded model, one intermediate question (python main.py --difficulty intermediate --num_samples 1, "
              f"{os.cpu_count()} cores, load average {load:.1f}): {wall:.1f} s wall (target ≤ {TARGET_LOCAL_S:.0f} s: "
              f"{'MET' if wall <= TARGET_LOCAL_S else 'NOT MET'}); {record['calls']} calls, "
              f"{total['input_tokens']:,} prompt tokens of which {total['input_tokens'] - reused:,} read and "
              f"{reused:,} reused from the model's state; debate rounds {details.get('rounds_run')}, stopped by "
              f"{details.get('debate_stopped_by')}")
        return 0 if met and wall <= TARGET_LOCAL_S else 1


if __name__ == "__main__":
    raise SystemExit(main())
