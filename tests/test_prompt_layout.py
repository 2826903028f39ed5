"""Prompt layouts: the embedded model reads agents' shared content first; every other provider gets
exactly the requests it got before the layout existed."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from mdagents.cli import main
from tests.fakes.servers import FakeServer, Wire
from tests.pipelines.responders import talkative_responder
from tests.runs_helpers import cli_args, sample_lookup

MODELS = {"openai": "openai/gpt-4o-mini", "anthropic": "anthropic/claude-haiku-4-5",
          "gemini": "gemini/gemini-2.0-flash"}
# sha256 of the sorted request bodies of two intermediate questions with one debate round, recorded
# before the embedded provider's layout existed: these providers' bytes must never change with it.
REQUESTS_SHA256 = {
    "openai": "3679b1cacd91c31e5b9f22a22a9000cf9759e98015bb55ad6e9677ba5a0656ce",
    "anthropic": "f8eb3080a1a6a07c18f154cf2015b12a12f4778385b553eb7e643a9d7a3f254e",
    "gemini": "dfc903d0577f84e5f9e5cb660b85ebf00b4d993235c346096cdb0d5785fece88",
}


def request_digest(server: FakeServer) -> str:
    bodies = sorted(json.dumps(r["json"], sort_keys=True, ensure_ascii=False) for r in server.requests)
    return hashlib.sha256("\n".join(bodies).encode()).hexdigest()


@pytest.mark.parametrize("wire", ["openai", "anthropic", "gemini"])
def test_api_providers_send_the_same_bytes_as_before(wire: Wire, tmp_path: Path) -> None:
    with FakeServer(wire, talkative_responder(sample_lookup(), "intermediate", talk_turns=1)) as server:
        args = cli_args(server, tmp_path, "--model", MODELS[wire], "--difficulty", "intermediate",
                        "--concurrency", "1", "--no-cache", "--no-consensus-stop", n=2)
        assert main(args) == 0
        digest = request_digest(server)
    assert len(server.requests) > 40
    assert digest == REQUESTS_SHA256[wire], digest
