"""Grading in whole runs: empty replies are retried (never graded, never cached), records name their
extraction step, repeats report mean ± sd and majority vote, and the optional LLM extractor only
speaks when the cascade found nothing."""

from __future__ import annotations

import itertools
import json
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mdagents.cli import main
from tests.fakes.servers import CutReply, FakeServer
from tests.pipelines.responders import good_responder, last_user_text, true_option
from tests.runs_helpers import cli_args, only_run_dir, read_records, sample_lookup


def every_fifth_empty(responder: Any) -> Any:
    """An oracle that sends every fifth reply empty (HTTP 200, no text): 20% of replies."""
    counter = itertools.count(1)
    lock = threading.Lock()

    def respond(messages: Sequence[Any], body: Any = None) -> str:
        with lock:
            n = next(counter)
        return "" if n % 5 == 0 else responder(messages, body)

    return respond


def test_an_oracle_with_20_percent_empty_replies_still_scores_everything(tmp_path: Path) -> None:
    oracle = good_responder(sample_lookup(), "basic")
    with FakeServer("openai", every_fifth_empty(oracle)) as server:
        args = cli_args(server, tmp_path, "--difficulty", "adaptive", "--max-retries", "4", n=20)
        assert main(args) == 0
    records = read_records(only_run_dir(tmp_path))
    assert len(records) == 20 and all(r["correct"] is True for r in records)
    assert all(r["extraction"] == "contract" and r["error"] is None for r in records)


def test_a_model_that_only_sends_empty_replies_gives_empty_reply_errors_not_parse_failures(tmp_path: Path) -> None:
    oracle = good_responder(sample_lookup(), "basic")

    def empty_answers(messages: Sequence[Any], body: Any = None) -> str:
        text = last_user_text(messages)
        return "" if true_option(text, sample_lookup()) and "Answer" in text else oracle(messages, body)

    with FakeServer("openai", empty_answers) as server:
        args = cli_args(server, tmp_path, "--difficulty", "basic", "--max-retries", "2", "--num-exemplars", "0", n=3)
        assert main(args) == 1
        calls = len(server.requests)
        assert main([*args, "--retry-failed"]) == 1
        assert len(server.requests) == 2 * calls  # nothing was cached: the retry asked again
    records = read_records(only_run_dir(tmp_path))
    assert {r["error"] for r in records} == {"empty_reply"}
    assert all(r["correct"] is None and r["prediction"] is None and r["extraction"] == "none" for r in records)
    assert all(r["no_answer_reason"] is None for r in records)  # an error, not a graded reply
    summary = json.loads((only_run_dir(tmp_path) / "summary.json").read_text())
    assert summary["errors"] == 3 and summary["parse_failures"] == 0


def test_repeats_report_mean_sd_and_majority_vote(tmp_path: Path) -> None:
    oracle = good_responder(sample_lookup(), "basic")
    with FakeServer("openai", oracle) as server:
        assert main(cli_args(server, tmp_path, "--difficulty", "basic", "--repeats", "3", n=4)) == 0
        first = len(server.requests)
        assert main(cli_args(server, tmp_path, "--difficulty", "basic", "--repeats", "3", n=4)) == 0
        assert len(server.requests) == first  # resumed: every repeat is done
    run_dir = only_run_dir(tmp_path)
    records = read_records(run_dir)
    assert len(records) == 12 and len({r["id"] for r in records}) == 12
    assert sorted({r["repeat"] for r in records}) == [1, 2, 3]
    assert len({r["question_id"] for r in records}) == 4
    # Distinct cache keys: each repeat asked the model (4 questions × 3 repeats basic answers).
    answers = [r for r in server.requests if "think step by step" in last_user_text(r["json"]["messages"])]
    assert len(answers) == 12
    block = json.loads((run_dir / "summary.json").read_text())["repeats"]
    assert block["repeats"] == 3 and block["questions"] == 4
    assert block["accuracy_mean"] == 1.0 and block["accuracy_sd"] == 0.0 and block["majority_vote_accuracy"] == 1.0


def test_the_llm_extractor_reads_only_replies_the_cascade_cannot(tmp_path: Path) -> None:
    lookup = sample_lookup()
    oracle = good_responder(lookup, "basic")

    def respond(messages: Sequence[Any], body: Any = None) -> str:
        text = last_user_text(messages)
        if "Which single option does the reply commit to" in text:
            return "B"
        truth = true_option(text, lookup)
        if truth and "step by step" in text.lower():
            return "The second one on the list fits best."
        return oracle(messages, body)

    with FakeServer("openai", respond) as server:
        assert main(cli_args(server, tmp_path, "--difficulty", "basic", "--extractor", "llm",
                             "--num-exemplars", "0", n=3)) == 0
    records = read_records(only_run_dir(tmp_path))
    assert all(r["extraction"] == "llm" and r["prediction"] == "B" for r in records)
    assert all(r["usage"]["by_role"]["extractor"]["calls"] == 1 for r in records)


def test_a_whole_run_grades_verbatim_realistic_replies(tmp_path: Path) -> None:
    """Each question's final reply is a corpus reply served verbatim by the mock server (a reply the corpus
    marks as cut off by the token limit comes with the finish reason "length", as a server sends it)."""
    cases = [json.loads(line) for line in (Path(__file__).with_name("replies_second.jsonl")).read_text().splitlines()]
    dataset = tmp_path / "verbatim.jsonl"
    replies = {}
    with dataset.open("w") as fh:
        for i, case in enumerate(cases):
            question = f"Verbatim case {i}: which option is right?"
            truth = case["expected"] or next(iter(case["options"]))
            fh.write(json.dumps({"question": question, "options": case["options"], "answer_idx": truth}) + "\n")
            replies[question] = CutReply(case["reply"]) if case.get("finish_reason") == "length" else case["reply"]

    def respond(messages: Sequence[Any], body: Any = None) -> str:
        text = last_user_text(messages)
        return next(reply for question, reply in replies.items() if question in text)

    with FakeServer("openai", respond) as server:
        code = main(["--dataset", str(dataset), "--model", "openai/gpt-4o-mini", "--base-url", server.base_url,
                     "--difficulty", "basic", "--num-exemplars", "0", "--no-shuffle", "--num_samples", "0",
                     "--max-retries", "0", "--output-dir", str(tmp_path / "out"), "--no-cache"])
    records = {int(r["question"].split()[2].rstrip(":")): r for r in read_records(only_run_dir(tmp_path))}
    assert len(records) == len(cases)
    graded = [(case["expected"], records[i]) for i, case in enumerate(cases) if records[i]["error"] is None]
    exact = sum(expected == record["prediction"] for expected, record in graded)
    silent = [r["id"] for expected, r in graded if r["prediction"] is not None and r["prediction"] != expected]
    assert code in (0, 1) and silent == []
    assert exact / len(cases) >= 0.99
    assert all(r["extraction"] in ("contract", "declaration", "option_text", "letter", "none") for _, r in graded)


def test_the_closing_lines_point_at_the_extractor_only_when_it_could_help(tmp_path: Path, capsys: Any) -> None:
    lookup = sample_lookup()
    oracle = good_responder(lookup, "basic")

    def alias(messages: Sequence[Any], body: Any = None) -> str:
        text = last_user_text(messages)
        if "Which single option does the reply commit to" in text:
            return "A"  # what a capable model reads behind the alias
        if true_option(text, lookup) and "step by step" in text.lower():
            return "Answer: the drug its makers sell under another name"
        return oracle(messages, body)

    with FakeServer("openai", alias) as server:
        assert main(cli_args(server, tmp_path / "rules", "--difficulty", "basic", "--num-exemplars", "0", n=2)) == 0
        rules = capsys.readouterr().out
        assert main(cli_args(server, tmp_path / "model", "--difficulty", "basic", "--num-exemplars", "0",
                             "--extractor", "llm", n=2)) == 0
        model = capsys.readouterr().out
    assert "2 without an answer the rules could read: --extractor llm" in rules
    assert "--extractor llm" not in model and "read by llm 2" in model
