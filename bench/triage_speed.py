"""Time the offline triage (patterns + embedding classifier) per message and on long pastes.

    python bench/triage_speed.py

Prints milliseconds per message on the held-out set (one message at a time, as a chat sends them),
and the time of a 100,000-character mixed-script paste against the one-second goal (ratio < 1 is
within it). Not a timed test: it prints the numbers.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mdagents.guardrails.checker import Guardrails  # noqa: E402
from mdagents.guardrails.semantic import DATA_DIR  # noqa: E402

GOAL_S = 1.0
PASTES = {
    "latin": "Here are my notes from the last appointment, copied as they are. " * 1600,
    "mixed scripts": "Bonjour, voici mes résultats 雪 مرحبا नमस्ते " * 2500,
    "han": "我把检查报告全部复制在这里，请帮我看看。" * 5000,
}


def main() -> None:
    guard = Guardrails("semantic")
    guard.check_offline("warm-up")
    texts = [json.loads(line)["text"] for line in (DATA_DIR / "heldout_c.jsonl").read_text("utf-8").splitlines()][:200]
    times = []
    for text in texts:
        started = time.perf_counter()
        guard.check_offline(text)
        times.append(time.perf_counter() - started)
    print(f"per message ({len(texts)} held-out messages): median {1000 * statistics.median(times):.0f} ms, "
          f"p95 {1000 * sorted(times)[int(0.95 * len(times))]:.0f} ms")
    for name, paste in PASTES.items():
        paste = paste[:100_000]
        started = time.perf_counter()
        guard.check_offline(paste + " I want to end my life tonight")
        elapsed = time.perf_counter() - started
        print(f"100,000-character paste ({name}): {elapsed:.2f} s, ratio to the {GOAL_S:.0f} s goal {elapsed / GOAL_S:.2f}")


if __name__ == "__main__":
    main()
