"""bench/economy.py runs end to end: every level against its talking mock, numbers counted by the server."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.locations import REPO_ROOT, SAMPLES


def test_economy_bench_prints_every_level_beside_the_original(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(REPO_ROOT / "bench" / "economy.py"), "--skip-local", "-n", "2",
                           "--dataset", str(SAMPLES / "medqa" / "test.jsonl")],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode in (0, 1), done.stderr[-2000:]
    rows = {m.group(1).strip(): m.groups()[1:] for m in re.finditer(
        r"^(basic|intermediate --no-consensus-stop|intermediate \(consensus stop\)|advanced|adaptive)\s+"
        r"([\d.]+)\s+([\d,]+)\s+([\d,]+)\s+(\d+)%\s+(\d+)/(\d+)\s+([\d.]+)\s+([\d,]+)\s+([\d.]+)x\s+([\d.]+)x",
        done.stdout, re.MULTILINE)}
    assert set(rows) == {"basic", "intermediate --no-consensus-stop", "intermediate (consensus stop)", "advanced",
                         "adaptive"}, done.stdout
    assert all(row[4] == row[5] == "2" for row in rows.values())
    for calls, tokens, quarter_chars, _cached, _correct, _n, original_calls, original, calls_ratio, ratio in rows.values():
        # Both sides in one unit: our messages' characters / 4, counted by the server, against the original's
        # characters / 4 (not our whitespace tokens against them).
        ours = int(quarter_chars.replace(",", ""))
        assert ours != int(tokens.replace(",", ""))
        assert abs(float(ratio) - ours / int(original.replace(",", ""))) < 0.006
        assert abs(float(calls_ratio) - float(calls) / float(original_calls)) < 0.006
    # per question: 1 + 5 + 3 x 5 + 1 + 5 + 5 + 1 = 33 debate calls, plus the 5 exemplar rationales of the run
    assert float(rows["intermediate --no-consensus-stop"][0]) == 33 + 5 / 2
    assert float(rows["advanced"][0]) == 14
    debate_tokens = int(rows["intermediate --no-consensus-stop"][1].replace(",", ""))
    assert int(rows["intermediate (consensus stop)"][1].replace(",", "")) < debate_tokens
    assert "target (intermediate --no-consensus-stop)" in done.stdout
