"""A whole run with --rag --critic: retrieval from the real store feeds the decider, the critic checks it."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from mdagents.cli import main
from mdagents.guidelines.records import Chunk
from mdagents.guidelines.store import GuidelineStore
from tests.guidelines.conftest import MemoEmbedder
from tests.runs_helpers import cli_args, good_server, only_run_dir, read_records


@pytest.mark.slow
@pytest.mark.parametrize("level", ["basic", "advanced"])
def test_rag_and_critic_end_to_end(level: str, store: GuidelineStore, pg_url: str, sample_chunks: list[Chunk],
                                   default_embedder: MemoEmbedder, tmp_path: Path) -> None:
    vectors = asyncio.run(default_embedder.embed_documents([c.content for c in sample_chunks]))
    store.create_schema(len(vectors[0]))
    store.add_chunks(sample_chunks, vectors, default_embedder.name)
    with good_server() as server:
        args = cli_args(server, tmp_path, "--difficulty", level, "--rag", "--critic", "--db-url", pg_url, n=4)
        assert main(args) == 0
        prompts = [json.dumps(r["json"]) for r in server.requests]
    records = read_records(only_run_dir(tmp_path))
    assert len(records) == 4 and all(r["correct"] for r in records)
    for record in records:
        rag = record["rag"]
        assert rag["query"] and len(rag["chunks"]) == 5
        assert all({"id", "source", "section", "similarity"} <= set(c) for c in rag["chunks"])
        assert all("content" not in c for c in rag["chunks"])  # sections are named, not copied, in records
        assert rag["changed_answer"] is False
        critic = record["critic"]
        assert critic["verdict"] in ("PASS", "unverified") and critic["attempts"]
        assert critic["changed_answer"] is False
    # The decider was shown the retrieved guideline sections.
    assert any(records[0]["rag"]["chunks"][0]["section"].split(" > ")[-1] in p for p in prompts)
