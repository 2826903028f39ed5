"""An emergency or crisis flagged offline gets its fixed message at once, whatever the model does."""

from __future__ import annotations

import argparse
import json
import time

import pytest

from mdagents.cli import ask

HANG_SECONDS = 60.0
MESSAGES = [
    ("I have crushing chest pain and can't breathe", "emergency_detected"),
    ("I want to end my life tonight", "mental_health_crisis"),
    ("J'ai une douleur écrasante dans la poitrine et je n'arrive plus à respirer", "emergency_detected"),
]


@pytest.mark.parametrize("mode", ["regex", "semantic", "hybrid", "llm"])
@pytest.mark.parametrize(("text", "flag"), MESSAGES)
def test_the_fixed_message_leaves_at_once_with_no_model_call(fake_server, capsys, mode, text, flag) -> None:
    server = fake_server("openai", lambda messages, request: "never read")
    server.hang_next(HANG_SECONDS, times=5)  # every call the turn could make would hang
    parser = argparse.ArgumentParser()
    ask.configure(parser)
    args = parser.parse_args([text, "--json", "--model", "openai/tiny", "--base-url", server.base_url,
                              "--no-guidelines", "--mode", mode])
    started = time.perf_counter()
    assert ask.execute(args) == 0
    elapsed = time.perf_counter() - started
    out = json.loads(capsys.readouterr().out)
    assert out[flag] and out["usage"]["calls"] == 0
    assert server.requests == []
    assert elapsed < 1.0
