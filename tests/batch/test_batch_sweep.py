"""`batch: true` in a sweep file: every cell goes through the batch API, in waves, and shares the cache with live."""

from __future__ import annotations

import json
from pathlib import Path

from mdagents.cli import main
from tests.fakes.batches import FakeBatchServer
from tests.pipelines.responders import good_responder
from tests.runs_helpers import sample_lookup
from tests.sweep_helpers import cell_records, read_csv, write_grid


def test_a_sweep_with_batch_true_runs_every_cell_by_batch(tmp_path: Path) -> None:
    with FakeBatchServer(good_responder(sample_lookup(), "intermediate"), turnaround=0.02) as server:
        grid = write_grid(tmp_path, server.base_url, extra="batch: true\nbatch_poll: 0.02\n")
        assert main(["sweep", str(grid), "--parallel", "4"]) == 0
        assert not [r for r in server.requests if r["path"].endswith("/chat/completions")]
        assert server.batches
        journals = list((tmp_path / "out").rglob("batches.jsonl"))
        assert len(journals) == 8  # one per cell; each cell pays for each of its requests once
        for journal in journals:
            ids = [i for line in journal.read_text().splitlines() for i in json.loads(line).get("custom_ids", [])]
            assert ids and len(ids) == len(set(ids))
        rows = read_csv(tmp_path / "out" / "sweep.csv")
        assert len(rows) == 8 and all(r["accuracy"] == "1.0" for r in rows)
        batched = cell_records(tmp_path / "out")
        submitted = len(server.submitted_ids)

        # The same grid live: every reply is already in the shared cache, so nothing more is sent.
        live = write_grid(tmp_path, server.base_url, name="live.yaml", extra="new_run: true\n")
        assert main(["sweep", str(live)]) == 0
        assert len(server.submitted_ids) == submitted
        assert not [r for r in server.requests if r["path"].endswith("/chat/completions")]
    assert batched
