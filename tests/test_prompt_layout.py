"""Prompt layouts: the embedded model reads agents' shared content first; every other provider gets
exactly the requests it got before the layout existed."""

from __future__ import annotations

import asyncio
import hashlib
import json
from pathlib import Path

import pytest

from mdagents.agent import persona_after_first_message
from mdagents.cli import main
from mdagents.llm.local import LocalProvider
from mdagents.llm.types import PERSONA_AFTER_FIRST_MESSAGE, GenerationParams, Message
from mdagents.pipelines import intermediate
from mdagents.run.config import RunConfig
from mdagents.run.fingerprint import fingerprint_fields
from tests.fakes.scripted import scripted_llm
from tests.fakes.servers import FakeServer, Wire
from tests.locations import SAMPLES
from tests.pipelines.helpers import LOOKUP, QUESTIONS, context, provider
from tests.pipelines.responders import good_responder, talkative_responder
from tests.runs_helpers import cli_args, sample_lookup

MODELS = {"openai": "openai/gpt-4o-mini", "anthropic": "anthropic/claude-haiku-4-5",
          "gemini": "gemini/gemini-2.0-flash"}
# sha256 of the sorted request bodies of two intermediate questions with one debate round, recorded
# before the embedded provider's layout existed: these providers' bytes must never change with it.
# A deliberate change to what they are sent (a prompt, a pipeline step) records new digests here
# (the assertion message prints them).
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


def test_the_persona_follows_the_first_message_only_where_asked() -> None:
    system, first, reply, second = (Message("system", "You are a Cardiologist."), Message("user", "The question"),
                                    Message("assistant", "Answer: (C)"), Message("user", "Talk?"))
    assert persona_after_first_message([system, first, reply, second]) == [first, system, reply, second]
    assert persona_after_first_message([system, first]) == [first, system]
    few_shot = [system, Message("assistant", "an exemplar"), first]  # no shared first message: as it was
    assert persona_after_first_message(few_shot) == few_shot
    assert persona_after_first_message([first, reply]) == [first, reply]


def _expert_and_other_calls(layout: str | None) -> tuple[list[list[Message]], list[list[Message]]]:
    llm = scripted_llm(good_responder(LOOKUP))
    provider(llm).prompt_layout = layout  # type: ignore[attr-defined]
    ctx = context(llm, num_experts=5, consensus_stop=False)
    asyncio.run(intermediate.solve(QUESTIONS[0], ctx))
    kinds = [call["role"] for call in ctx.transcript.to_list()]
    sent = [messages for messages, _ in provider(llm).requests]
    assert len(kinds) == len(sent)
    experts = [m for kind, m in zip(kinds, sent, strict=True) if kind == "expert"]
    others = [m for kind, m in zip(kinds, sent, strict=True) if kind != "expert"]
    return experts, others


def test_experts_share_their_first_message_on_a_model_that_asks_for_it() -> None:
    experts, others = _expert_and_other_calls(PERSONA_AFTER_FIRST_MESSAGE)
    assert len(experts) == 10  # 5 initial opinions + 5 participation checks
    initial = experts[:5]
    assert len({m[0] for m in initial}) == 1 and initial[0][0].role == "user"  # one shared first message
    assert [m[1].role for m in initial] == ["system"] * 5 and len({m[1] for m in initial}) == 5  # then the persona
    # a later call of an expert extends its first call's prompt: the model resumes from it
    for later in experts[5:]:
        assert any(later[:len(first)] == first for first in initial)
    assert all(m[0].role == "system" for m in others)  # recruiter, moderator: as they were


def test_other_models_keep_the_persona_first() -> None:
    experts, others = _expert_and_other_calls(None)
    assert all(m[0].role == "system" for m in experts + others)


def test_the_layout_is_part_of_the_configuration(tmp_path: Path) -> None:
    dataset = SAMPLES / "medqa" / "test.jsonl"
    embedded = fingerprint_fields(RunConfig(model="local/smollm2-135m"), dataset)
    assert embedded["prompt_layout"] == PERSONA_AFTER_FIRST_MESSAGE
    # other models: no such field, so their fingerprints are what they were
    assert "prompt_layout" not in fingerprint_fields(RunConfig(model="openai/gpt-4o-mini"), dataset)
    own = tmp_path / "own.gguf"
    own.write_bytes(b"GGUF")
    assert "prompt_layout" not in fingerprint_fields(RunConfig(model=f"local/{own}"), dataset)
    assert LocalProvider("smollm2-135m").prompt_layout == PERSONA_AFTER_FIRST_MESSAGE
    assert LocalProvider(str(own)).prompt_layout is None


def test_local_calls_run_one_at_a_time_in_the_order_they_were_made(monkeypatch: pytest.MonkeyPatch) -> None:
    """The embedded model resumes from what the previous call left: which call ran before which must not vary."""
    import time

    from mdagents.llm import local

    started: list[str] = []

    class Model:
        def tokenize(self, text: bytes, **_: object) -> list[int]:
            return list(range(len(text.split())))

        def create_chat_completion(self, messages: list[dict[str, str]], **_: object) -> dict[str, object]:
            started.append(messages[-1]["content"])
            time.sleep(0.01)
            return {"choices": [{"message": {"content": "ok"}}], "usage": {"prompt_tokens": 3, "completion_tokens": 1}}

    provider_ = LocalProvider("smollm2-135m")
    monkeypatch.setitem(local._MODELS, str(provider_.path), Model())

    async def many() -> None:
        await asyncio.gather(*(provider_.complete([Message("user", f"call {i}")], GenerationParams(), timeout=30)
                               for i in range(12)))

    asyncio.run(many())
    assert started == [f"call {i}" for i in range(12)]
