"""The grader on every labelled corpus of replies: per corpus, per step and per no-answer reason.

    python bench/extraction.py [CORPUS.jsonl ...]     # default: the corpora in tests/scoring/

Each line: {"options": {...}, "reply": "...", "expected": "C" | null, "style": "...", "kind": "...",
"finish_reason": "length" (optional: what the provider said)}. A silent mis-grade is a letter where the
reply committed to another letter or to none: the goal is none, and at least 97% exact on every corpus.
Not a test: the tests assert the thresholds.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path

from prettytable import PrettyTable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mdagents.scoring import read_answer  # noqa: E402

GOAL_EXACT = 0.97


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="*", type=Path, default=sorted((ROOT / "tests" / "scoring").glob("replies*.jsonl")))
    args = parser.parse_args(argv)
    by_corpus: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    by_step: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    reasons: collections.Counter[str] = collections.Counter()
    for path in args.corpus:
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            row = json.loads(line)
            found = read_answer(row["reply"], row["options"], finish_reason=row.get("finish_reason"))
            verdict = "exact" if found.letter == row["expected"] else ("silent" if found.letter else "missed")
            for table, key in ((by_corpus, path.name), (by_step, found.step)):
                table[key]["n"] += 1
                table[key][verdict] += 1
            if found.reason:
                reasons[found.reason] += 1
    corpus_table = PrettyTable(["corpus", "replies", "exact", "exact %", "missed (no answer)", "silent mis-grades"])
    for name, c in sorted(by_corpus.items()):
        corpus_table.add_row([name, c["n"], c["exact"], f"{c['exact'] / c['n']:.1%}", c["missed"], c["silent"]])
    step_table = PrettyTable(["step", "replies", "exact", "missed (no answer)", "silent mis-grades"])
    for key, c in sorted(by_step.items(), key=lambda kv: -kv[1]["n"]):
        step_table.add_row([key, c["n"], c["exact"], c["missed"], c["silent"]])
    for table in (corpus_table, step_table):
        table.align = "r"
        print(table)
    print("no-answer reasons: " + ", ".join(f"{reason} {n}" for reason, n in reasons.most_common()))
    total = sum(by_corpus.values(), collections.Counter())
    worst = min(c["exact"] / c["n"] for c in by_corpus.values())
    print(f"{total['n']} replies: {total['exact']} exact ({total['exact'] / total['n']:.1%}; worst corpus {worst:.1%}, "
          f"goal >= {GOAL_EXACT:.0%} on each), {total['silent']} silent mis-grades (goal 0)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
