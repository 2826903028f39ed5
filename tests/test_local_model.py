"""The embedded default model really runs: SmolLM2-135M-Instruct via llama.cpp (slow: loads the GGUF)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mdagents.cli import main
from mdagents.llm.local import LocalProvider, embedded_model_path, grammar_for
from mdagents.llm.types import GenerationParams, Message


def test_embedded_model_is_found_without_importing_its_package() -> None:
    path = embedded_model_path("smollm2-135m")
    assert path.name.endswith(".gguf") and path.stat().st_size > 50_000_000


def test_grammars_for_answer_formats() -> None:
    letter = grammar_for(GenerationParams(answer_format="letter", answer_letters=("A", "B")))
    assert letter == 'root ::= "Answer: (" ("A" | "B") ")"\n'
    assert grammar_for(GenerationParams(answer_format="choice", answer_letters=("yes", "no"))) == 'root ::= ("yes" | "no")\n'
    assert grammar_for(GenerationParams()) is None


@pytest.mark.slow
async def test_constrained_answers_from_the_real_model() -> None:
    provider = LocalProvider("smollm2-135m")
    question = [Message("user", "Which vitamin deficiency causes scurvy? (A) Vitamin A (B) Vitamin C (C) Vitamin D")]
    letter = await provider.complete(question, GenerationParams(answer_format="letter", answer_letters=("A", "B", "C"),
                                                                max_tokens=12), timeout=300)
    assert letter.text in {"Answer: (A)", "Answer: (B)", "Answer: (C)"}
    assert letter.usage.input_tokens > 10 and letter.usage.output_tokens > 0
    choice = await provider.complete([Message("user", "Is this question basic, intermediate or advanced?")],
                                     GenerationParams(answer_format="choice",
                                                      answer_letters=("basic", "intermediate", "advanced")),
                                     timeout=300)
    assert choice.text in {"basic", "intermediate", "advanced"}


@pytest.mark.slow
def test_one_real_question_end_to_end(tmp_path: Path) -> None:
    args = ["--dataset", "medqa", "--num_samples", "1", "--difficulty", "basic", "--num-exemplars", "1",
            "--output-dir", str(tmp_path / "out"), "--cache-path", str(tmp_path / "cache.sqlite")]
    assert main(args) == 0
    run_dir = tmp_path / "out" / "local_smollm2-135m_medqa_basic_1samples"
    record = json.loads((run_dir / "results.jsonl").read_text())
    assert record["model"] == "local/smollm2-135m" and record["error"] is None
    assert record["parse_status"] == "ok" and record["prediction"] in record["options"]
    assert record["usage"]["total"]["input_tokens"] > 100 and record["cost_usd"] == 0.0


def test_fit_context_drops_oldest_turns_but_keeps_system_and_last() -> None:
    from mdagents.llm.local import MESSAGE_OVERHEAD_TOKENS, fit_context

    messages = [Message("system", "s " * 10), Message("user", "old " * 50), Message("assistant", "reply " * 50),
                Message("user", "new " * 20)]
    count = lambda text: len(text.split())  # noqa: E731
    assert fit_context(messages, 10_000, count) == (messages, 0)
    budget = 10 + 50 + 20 + 3 * MESSAGE_OVERHEAD_TOKENS  # room for all but one 50-token turn
    fitted, dropped = fit_context(messages, budget, count)
    assert dropped == 1 and fitted == [messages[0], messages[2], messages[3]]
    fitted, dropped = fit_context(messages, 1, count)  # never below system + last message
    assert fitted == [messages[0], messages[3]] and dropped == 2


@pytest.mark.slow
@pytest.mark.parametrize(("stage", "prompt", "max_tokens"), [
    ("generating", "Write a very long essay about the heart and its diseases.", 2000),
    ("reading the prompt", "Describe the management of diabetic ketoacidosis in detail. " * 150, 4),
])
async def test_a_cancelled_local_call_stops_within_a_second(stage: str, prompt: str, max_tokens: int) -> None:
    import asyncio
    import time

    provider = LocalProvider("smollm2-135m")
    await provider.complete([Message("user", "Hello")], GenerationParams(max_tokens=2), timeout=300)  # load
    task = asyncio.create_task(provider.complete([Message("user", prompt)], GenerationParams(max_tokens=max_tokens),
                                                 timeout=300))
    await asyncio.sleep(1.0)  # well inside the generation / the prompt's evaluation (~10 s either way)
    task.cancel()
    cancelled = time.perf_counter()
    with pytest.raises(asyncio.CancelledError):
        await task
    # the next call waits for the model: it runs only once the cancelled one has let go
    after = await provider.complete([Message("user", "Hello")], GenerationParams(max_tokens=2), timeout=300)
    assert time.perf_counter() - cancelled < 3.0, stage
    assert after.text


@pytest.mark.slow
async def test_the_embedded_model_gives_a_readable_structured_answer() -> None:
    """--answer-format json on llama.cpp: a JSON-schema grammar, so even the tiny model's answer is readable."""
    from mdagents.scoring import read_answer

    provider = LocalProvider("smollm2-135m")
    options = {"A": "Metformin", "B": "Insulin glargine", "C": "Lisinopril"}
    question = [Message("user", "Which drug protects the kidneys in diabetes with albuminuria?\n"
                                "(A) Metformin (B) Insulin glargine (C) Lisinopril")]
    reply = await provider.complete(question, GenerationParams(answer_format="json", answer_letters=tuple(options),
                                                               max_tokens=200), timeout=300)
    parsed = json.loads(reply.text)
    assert set(parsed) == {"reasoning", "answer"} and parsed["answer"] in (*options, None)
    reading = read_answer(reply.text, options, finish_reason=reply.finish_reason)
    assert reading.letter == parsed["answer"] or reading.reason in ("refused", "truncated")


@pytest.mark.slow
async def test_experts_that_share_their_first_message_read_it_once() -> None:
    """The embedded model's prompt layout: the second expert reads only its persona, not the whole question."""
    from mdagents.agent import persona_after_first_message

    provider = LocalProvider("smollm2-135m")
    case = ("A 61-year-old man has had two days of fever, productive cough and right-sided pleuritic chest pain. "
            "He smokes and drinks heavily. Crackles and bronchial breathing over the right lower lobe; "
            "temperature 39.1 C, pulse 112, respiratory rate 28, blood pressure 96/58. ")
    params = GenerationParams(answer_format="letter", answer_letters=("A", "B", "C"), max_tokens=8)
    personas = [Message("system", f"You are a {role}. Your job is to collaborate with other medical experts.")
                for role in ("Pulmonologist", "Infectious disease specialist", "Emergency physician")]

    def ask(variant: str) -> Message:
        return Message("user", f"[{variant}] {case * 4}Most likely pathogen? (A) Streptococcus pneumoniae "
                               "(B) Mycoplasma pneumoniae (C) Legionella pneumophila\nAnswer: (X)")

    shared = ask("shared first")
    laid_out = [await provider.complete(persona_after_first_message([p, shared]), params, timeout=300)
                for p in personas]
    read = [c.usage.input_tokens - (c.usage.cached_tokens or 0) for c in laid_out]
    assert laid_out[0].usage.input_tokens > 300 and read[0] > 300  # the first expert reads the question
    assert all(r < 40 for r in read[1:]), read  # the others only their persona
    # persona first (the usual order): every expert reads the whole question again
    usual = ask("persona first")
    persona_first = [await provider.complete([p, usual], params, timeout=300) for p in personas]
    assert all(c.usage.input_tokens - (c.usage.cached_tokens or 0) > 300 for c in persona_first)
    # what a call reads from the model's state does not change its answer
    again = await provider.complete(persona_after_first_message([personas[2], shared]), params, timeout=300)
    assert again.text == laid_out[2].text and again.usage.input_tokens - (again.usage.cached_tokens or 0) <= 2


@pytest.mark.slow
async def test_a_saved_state_carries_no_logits_buffer_of_its_own() -> None:
    """Every call saves the model's state to resume it later: the state is the KV cache, not 100 MB of logits."""
    from mdagents.llm.local import _load

    provider = LocalProvider("smollm2-135m")
    await provider.complete([Message("user", "Name one symptom of anaemia. " * 90)], GenerationParams(max_tokens=4),
                            timeout=300)
    state = _load(provider.path, provider.n_ctx, provider.writing_threads).save_state()
    assert state.n_tokens > 520  # past the default batch of 512 rows
    assert state.scores.nbytes <= 128 * 49_152 * 4  # 25 MB; llama-cpp-python's default batch copies 100 MB
