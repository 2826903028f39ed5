"""-M key=value and --model-args JSON: sent to each provider's call, recorded, part of the fingerprint and
cache key; an argument a provider does not take is one line naming it."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from mdagents.cli import main
from mdagents.errors import ConfigError
from mdagents.llm.cache import cache_key
from mdagents.llm.factory import build_llm
from mdagents.llm.model_args import parse_model_args
from mdagents.llm.types import GenerationParams, Message
from tests.runs_helpers import cli_args, good_server, only_run_dir, read_records

BASIC = ("--difficulty", "basic", "--num-exemplars", "0")
ASK = [Message("user", "Say hello.")]


def test_pairs_and_json_merge_with_types_and_nesting() -> None:
    args = parse_model_args('{"top_p": 0.5, "seed": 1}', ["top_p=0.9", "reasoning_effort=low",
                                                          "extra_body.top_k=20", "logprobs=true"])
    assert args == {"top_p": 0.9, "seed": 1, "reasoning_effort": "low", "extra_body": {"top_k": 20},
                    "logprobs": True}


@pytest.mark.parametrize(("json_text", "pairs", "message"), [
    ("[1]", [], "--model-args must be a JSON object"),
    ("{bad", [], "--model-args is not valid JSON"),
    (None, ["top_p"], "-M takes key=value"),
    (None, ["temperature=1"], "model argument 'temperature' cannot be given with -M/--model-args: use --temperature"),
    (None, ["messages=[]"], "model argument 'messages'"),
])
def test_bad_model_arguments_are_refused(json_text: str | None, pairs: list[str], message: str) -> None:
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace("[", r"\[")):
        parse_model_args(json_text, pairs)


def test_openai_call_carries_them_and_the_run_records_them(tmp_path: Path) -> None:
    with good_server("basic") as server:
        args = cli_args(server, tmp_path, *BASIC, "-M", "top_p=0.9", "--model-arg", "extra_body.top_k=20",
                        "--model-args", '{"seed": 7, "top_p": 0.1}', n=2)
        assert main(args) == 0
        bodies = [r["json"] for r in server.requests if r["path"].endswith("/chat/completions")]
        assert bodies and all(b["top_p"] == 0.9 and b["top_k"] == 20 and b["seed"] == 7 for b in bodies)
        assert all("extra_body" not in b for b in bodies)
        run_dir = only_run_dir(tmp_path)
        manifest = json.loads((run_dir / "manifest.json").read_text())
        expected = {"top_p": 0.9, "seed": 7, "extra_body": {"top_k": 20}}
        assert manifest["config"]["model_args"] == expected
        assert manifest["fingerprint_fields"]["model_args"] == expected
        # Other arguments are another configuration: the run directory refuses to mix them.
        changed = cli_args(server, tmp_path, *BASIC, "-M", "top_p=0.5", n=2)
        assert main(changed) == 2


def test_no_model_arguments_keep_the_fingerprint_of_earlier_runs(tmp_path: Path) -> None:
    with good_server("basic") as server:
        assert main(cli_args(server, tmp_path, *BASIC, n=1)) == 0
    manifest = json.loads((only_run_dir(tmp_path) / "manifest.json").read_text())
    assert "model_args" not in manifest["fingerprint_fields"]


def test_they_are_part_of_the_cache_key() -> None:
    plain = cache_key("openai", "m", None, ASK, GenerationParams(temperature=0))
    with_args = cache_key("openai", "m", None, ASK, GenerationParams(temperature=0, model_args={"top_p": 0.5}))
    assert plain != with_args


@pytest.mark.parametrize(("model", "wire", "args", "check"), [
    ("anthropic/claude-haiku-4-5", "anthropic", ["extra_body.top_k=5", "metadata.user_id=u1"],
     lambda body: body["top_k"] == 5 and body["metadata"] == {"user_id": "u1"}),
    ("gemini/gemini-2.5-flash", "gemini", ["top_p=0.3", "thinking_config.thinking_budget=0"],
     lambda body: body["generationConfig"]["topP"] == 0.3
     # the SDK sends the nested config as it is: the API reads snake_case and camelCase alike
     and body["generationConfig"]["thinkingConfig"] in ({"thinkingBudget": 0}, {"thinking_budget": 0})),
])
def test_each_sdk_call_carries_them(fake_server, monkeypatch, model: str, wire: str, args: list[str],
                                     check) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    monkeypatch.setenv("GEMINI_API_KEY", "gm-test")
    server = fake_server(wire)

    async def call() -> None:
        llm = build_llm(model, base_url=server.base_url, model_args=parse_model_args(None, args))
        try:
            await llm.complete(ASK, temperature=0)
        finally:
            await llm.aclose()

    asyncio.run(call())
    assert check(server.requests[-1]["json"])


@pytest.mark.parametrize(("model", "message"), [
    ("anthropic/claude-haiku-4-5", "model argument 'frequency_penalty' is not a parameter of Anthropic's "
                                   "messages.create (send it with -M extra_body.KEY=VALUE)"),
    ("gemini/gemini-2.5-flash", "model argument 'frequency_penalty_x' is not accepted by Gemini's "
                                "GenerateContentConfig"),
])
def test_an_argument_the_sdk_does_not_take_is_one_line_before_any_call(tmp_path: Path, monkeypatch, capsys,
                                                                       model: str, message: str) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    monkeypatch.setenv("GEMINI_API_KEY", "gm-test")
    name = message.split("'")[1]
    code = main(["--model", model, "--base-url", "http://127.0.0.1:9", "-M", f"{name}=1", *BASIC,
                 "--output-dir", str(tmp_path / "out")])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1
    assert message in err
    assert not (tmp_path / "out").exists()


def test_an_argument_the_server_rejects_is_named(tmp_path: Path, capsys) -> None:
    with good_server("basic") as server:
        server.fail_next(400, times=50, body={"error": {"message": "Unrecognized request argument supplied: "
                                                                   "best_of_n", "type": "invalid_request_error"}})
        code = main(cli_args(server, tmp_path, *BASIC, "-M", "best_of_n=3", n=1))
    assert code == 1
    [record] = read_records(only_run_dir(tmp_path))
    assert "model argument 'best_of_n' was rejected" in record["error"]
    assert "model argument 'best_of_n' was rejected" in capsys.readouterr().err


def test_the_local_model_takes_llama_cpp_arguments_and_refuses_others() -> None:
    from mdagents.llm.local import LocalProvider

    LocalProvider("smollm2-135m", model_args={"top_k": 40, "min_p": 0.05})
    with pytest.raises(ConfigError, match="model argument 'top_q' is not a parameter of llama"):
        LocalProvider("smollm2-135m", model_args={"top_q": 1})
