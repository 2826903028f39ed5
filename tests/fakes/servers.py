"""Loopback HTTP servers speaking the OpenAI, Anthropic and Gemini wire formats.

Provider translators are tested through the real SDKs against these servers instead of
mocking SDK objects, so a change in an SDK's request or response shape shows up in tests.
Other tests and the benchmarks use them as stand-in providers too.

    with FakeServer("openai", lambda messages, request: "Answer: (B)") as server:
        provider = OpenAIProvider("gpt-4o-mini", api_key="sk-test", base_url=server.base_url)

Every request is recorded in `server.requests` ({"path", "headers" (lower-case keys), "json"}),
failed ones included. `fail_next` and `hang_next` queue one action per future request, in the
order they were called; a request with no queued action is answered normally. Usage numbers
are whitespace token counts; `cached` counts the tokens of the longest message prefix seen in
an earlier request (as provider prompt caches do); reasoning models report reasoning tokens.
"""

from __future__ import annotations

import base64
import hashlib
import json
import ssl
import struct
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

import pytest

from mdagents.llm.types import Message

Wire = Literal["openai", "anthropic", "gemini"]
Responder = Callable[[list[Message], dict], str]

DEFAULT_REPLY = "The findings fit the first option best.\nAnswer: (A)"
EMBEDDING_DIM = 16

_GEMINI_STATUS = {400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED",
                  404: "NOT_FOUND", 408: "DEADLINE_EXCEEDED", 409: "ABORTED", 429: "RESOURCE_EXHAUSTED",
                  500: "INTERNAL", 503: "UNAVAILABLE", 504: "DEADLINE_EXCEEDED"}
_ANTHROPIC_TYPE = {400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
                   404: "not_found_error", 408: "timeout_error", 413: "request_too_large",
                   429: "rate_limit_error", 500: "api_error", 529: "overloaded_error"}


def tokens(text: str) -> int:
    """The fake servers' token count: whitespace-separated words."""
    return len(text.split())


def fake_embedding(text: str, dim: int = EMBEDDING_DIM) -> list[float]:
    """A deterministic unit vector derived from a hash of the text."""
    digest = hashlib.sha256(text.encode()).digest()
    raw = [(digest[i % len(digest)] - 127.5) / 127.5 for i in range(dim)]
    norm = sum(x * x for x in raw) ** 0.5 or 1.0
    return [x / norm for x in raw]


def is_reasoning_model(model: str) -> bool:
    """Models that report reasoning/thinking tokens on the fake wire."""
    name = model.lower().rsplit("/", 1)[-1]
    return name.startswith(("o1", "o3", "o4", "gpt-5", "gemini-2.5", "gemini-3"))


def text_of(content: Any) -> str:
    """Text of a wire message content: a string or a list of text blocks/parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(str(b.get("text", "")) for b in content if isinstance(b, dict))
    return ""


def parse_messages(wire: Wire, body: dict[str, Any]) -> list[Message]:
    """The harness messages a wire request carries (system first where the format separates it)."""
    messages: list[Message] = []
    if wire == "openai":
        for m in body.get("messages", []):
            role = "system" if m.get("role") in ("system", "developer") else m.get("role", "user")
            messages.append(Message(role, text_of(m.get("content"))))
    elif wire == "anthropic":
        system = body.get("system")
        if system:
            messages.append(Message("system", text_of(system)))
        for m in body.get("messages", []):
            messages.append(Message(m.get("role", "user"), text_of(m.get("content"))))
    else:
        system = body.get("systemInstruction") or body.get("system_instruction")
        if system:
            messages.append(Message("system", text_of(system.get("parts", []))))
        for c in body.get("contents", []):
            role = "assistant" if c.get("role") == "model" else "user"
            messages.append(Message(role, text_of(c.get("parts", []))))
    return messages


class CutReply(str):
    """A scripted reply that the server reports as cut off by the token limit (finish reason "length")."""


def limit_reply(text: str, max_tokens: int | None, stops: list[str] | None) -> tuple[str, str]:
    """Apply stop sequences and a token limit like a server would: (text, "stop" | "length")."""
    if isinstance(text, CutReply):
        return str(text), "length"
    for stop in stops or []:
        if stop and stop in text:
            text = text[: text.index(stop)]
    words = text.split()
    if max_tokens is not None and len(words) > max_tokens:
        return " ".join(words[:max_tokens]), "length"
    return text, "stop"


@dataclass
class _Action:
    kind: Literal["fail", "hang"]
    status: int = 0
    seconds: float = 0.0
    headers: dict[str, str] | None = None
    body: dict[str, Any] | None = None


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out in two writes; with Nagle on, each reply would wait ~40 ms for
    # the client's delayed ACK.
    disable_nagle_algorithm = True
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # silence per-request logging
        return None

    def do_GET(self) -> None:
        owner = self.server.owner
        status, payload, headers = owner._handle(self.path, {k.lower(): v for k, v in self.headers.items()},
                                                 {"_method": "GET"})
        self._send(status, payload, headers)

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length) if length else b""
        if self.server.owner.dead.is_set():  # killed: hang up without a reply, as a dead process would
            self.close_connection = True
            return
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {"_raw": raw.decode("utf-8", "replace")}
        owner = self.server.owner
        status, payload, headers = owner._handle(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
        self._send(status, payload, headers)

    def _send(self, status: int, payload: dict[str, Any] | bytes, headers: dict[str, str] | None = None) -> None:
        """A JSON reply, or raw bytes (a file's content)."""
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        try:
            self.send_response(status)
            self.send_header("content-type", "application/octet-stream" if isinstance(payload, bytes)
                             else "application/json")
            self.send_header("content-length", str(len(data)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True  # the client gave up (e.g. its timeout fired)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256
    owner: FakeServer

    def handle_error(self, request: Any, client_address: Any) -> None:
        return None  # a client hanging up mid-request is normal here


class FakeServer:
    """A context-managed loopback server speaking one provider's wire format."""

    def __init__(self, wire: Wire, responder: Responder | None = None, *, latency: float = 0.0,
                 tls: ssl.SSLContext | None = None, port: int = 0) -> None:
        """`tls`: a server-side context (e.g. from trustme) to speak https instead of http; `port`: a fixed
        port (e.g. a server started again where a killed one was), 0 for any free one."""
        if wire not in ("openai", "anthropic", "gemini"):
            raise ValueError(f"unknown wire format {wire!r}")
        self.wire: Wire = wire
        self.responder = responder
        self.latency = latency
        self.requests: list[dict[str, Any]] = []
        self._actions: deque[_Action] = deque()
        self._seen_prefixes: set[tuple[Message, ...]] = set()
        self._lock = threading.Lock()
        self._closed = threading.Event()
        self.dead = threading.Event()
        self._httpd = _Server(("127.0.0.1", port), _Handler)
        self._httpd.owner = self
        if tls is not None:
            self._httpd.socket = tls.wrap_socket(self._httpd.socket, server_side=True)
        self.port: int = self._httpd.server_address[1]
        host = f"{'https' if tls else 'http'}://127.0.0.1:{self.port}"
        self.base_url = f"{host}/v1" if wire == "openai" else host
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02},
                                        name=f"fake-{wire}", daemon=True)
        self._thread.start()

    # -- test controls -------------------------------------------------------------------

    def fail_next(self, status: int, *, times: int = 1, headers: dict | None = None,
                  body: dict | None = None) -> None:
        """The next `times` requests get HTTP `status` (with a wire-format error body unless `body`)."""
        with self._lock:
            self._actions.extend(_Action("fail", status=status, headers=headers, body=body) for _ in range(times))

    def hang_next(self, seconds: float, *, times: int = 1) -> None:
        """The next `times` requests wait `seconds` before being answered normally."""
        with self._lock:
            self._actions.extend(_Action("hang", seconds=seconds) for _ in range(times))

    def kill(self) -> None:
        """Die as a crashed server does: open connections are dropped, new ones refused. Safe from a
        responder (the server's own thread): the shutdown happens on another thread."""
        self.dead.set()
        self._closed.set()
        threading.Thread(target=self.close, name="fake-kill", daemon=True).start()

    def close(self) -> None:
        self._closed.set()  # wakes hanging handlers
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> FakeServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- request handling (runs in the server's threads) ----------------------------------

    def _handle(self, path: str, headers: dict[str, str], body: dict[str, Any]
                ) -> tuple[int, dict[str, Any] | bytes, dict[str, str]]:
        with self._lock:
            self.requests.append({"path": path, "headers": headers, "json": body})
            action = self._actions.popleft() if self._actions else None
        if self.latency:
            self._closed.wait(self.latency)
        if action is not None and action.kind == "hang":
            self._closed.wait(action.seconds)
        if action is not None and action.kind == "fail":
            return action.status, action.body or self._error_body(action.status), action.headers or {}
        try:
            return 200, self._route(path, body), {}
        except _NoRoute:
            return 404, self._error_body(404, f"no route {path}"), {}
        except Exception as exc:  # a broken responder shows up as a server error in the test
            return 500, self._error_body(500, f"fake server responder failed: {exc!r}"), {}

    def _route(self, path: str, body: dict[str, Any]) -> dict[str, Any] | bytes:
        if path.startswith("http://"):  # sent to us as a proxy: serve it as the upstream would
            path = "/" + path.split("/", 3)[3]
        path = path.split("?", 1)[0]
        if self.wire == "openai" and path == "/v1/chat/completions":
            return self._openai_chat(body)
        if self.wire == "openai" and path == "/v1/embeddings":
            return self._openai_embeddings(body)
        if self.wire == "anthropic" and path == "/v1/messages":
            return self._anthropic_messages(body)
        if self.wire == "gemini" and path.endswith(":generateContent"):
            model = path.rsplit("/", 1)[-1].split(":", 1)[0]
            return self._gemini_generate(model, body)
        raise _NoRoute(path)

    def _reply(self, messages: list[Message], body: dict[str, Any]) -> str:
        if self.responder is None:
            return DEFAULT_REPLY
        reply = self.responder(messages, body)
        return reply if isinstance(reply, str) else str(reply)

    def _cached_tokens(self, messages: list[Message]) -> int:
        """Tokens of the longest message prefix an earlier request already sent."""
        with self._lock:
            cached = 0
            for k in range(len(messages), 0, -1):
                if tuple(messages[:k]) in self._seen_prefixes:
                    cached = sum(tokens(m.content) for m in messages[:k])
                    break
            self._seen_prefixes.update(tuple(messages[:k]) for k in range(1, len(messages) + 1))
        return cached

    def _error_body(self, status: int, message: str | None = None) -> dict[str, Any]:
        message = message or f"fake server error {status}"
        if self.wire == "anthropic":
            return {"type": "error", "error": {"type": _ANTHROPIC_TYPE.get(status, "api_error"), "message": message}}
        if self.wire == "gemini":
            return {"error": {"code": status, "message": message, "status": _GEMINI_STATUS.get(status, "UNKNOWN")}}
        return {"error": {"message": message, "type": "fake_error", "param": None, "code": str(status)}}

    # -- wire formats ---------------------------------------------------------------------

    def _openai_chat(self, body: dict[str, Any]) -> dict[str, Any]:
        messages = parse_messages("openai", body)
        model = str(body.get("model", ""))
        limit = body.get("max_completion_tokens", body.get("max_tokens"))
        stops = body.get("stop")
        text, finish = limit_reply(self._reply(messages, body), limit, [stops] if isinstance(stops, str) else stops)
        prompt = sum(tokens(m.content) for m in messages)
        visible = tokens(text)
        reasoning = 2 * visible + 3 if is_reasoning_model(model) else 0
        return openai_chat_body(len(self.requests), model, text, finish, prompt, visible, reasoning,
                                self._cached_tokens(messages))

    def _openai_embeddings(self, body: dict[str, Any]) -> dict[str, Any]:
        inputs = body.get("input", [])
        inputs = [inputs] if isinstance(inputs, str) else list(inputs)
        base64_format = body.get("encoding_format") == "base64"
        data = []
        for i, text in enumerate(inputs):
            vector = fake_embedding(str(text), int(body.get("dimensions") or EMBEDDING_DIM))
            encoded: Any = (base64.b64encode(struct.pack(f"<{len(vector)}f", *vector)).decode()
                            if base64_format else vector)
            data.append({"object": "embedding", "index": i, "embedding": encoded})
        used = sum(tokens(str(t)) for t in inputs)
        return {"object": "list", "data": data, "model": body.get("model", ""),
                "usage": {"prompt_tokens": used, "total_tokens": used}}

    def _anthropic_messages(self, body: dict[str, Any]) -> dict[str, Any]:
        messages = parse_messages("anthropic", body)
        text, finish = limit_reply(self._reply(messages, body), body.get("max_tokens"), body.get("stop_sequences"))
        stop_reason = "max_tokens" if finish == "length" else "end_turn"
        content: list[dict[str, Any]] = [{"type": "text", "text": text, "citations": None}]
        forced = (body.get("tool_choice") or {}).get("name") if (body.get("tool_choice") or {}).get("type") == "tool" else None
        if forced:  # a forced tool call: the reply (a JSON object) comes as the tool's input
            content, stop_reason = [{"type": "tool_use", "id": "toolu_fake", "name": forced, "input": json.loads(text)}], \
                "tool_use"
        usage: dict[str, Any] = {"input_tokens": 0, "output_tokens": tokens(text),
                                 "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
        if body.get("tools") and not forced:
            # What a server-side web search turn looks like: a tool call, its result, and the
            # answer split over several text blocks (around citations).
            words = text.split(" ")
            half = max(1, len(words) // 2)
            content = [
                {"type": "server_tool_use", "id": "srvtoolu_fake", "name": "web_search",
                 "input": {"query": messages[-1].content[:80] if messages else ""}},
                {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_fake",
                 "content": [{"type": "web_search_result", "url": "https://www.nice.org.uk/guidance/ng1",
                              "title": "Guideline", "encrypted_content": "ZmFrZQ==", "page_age": None}]},
                {"type": "text", "text": " ".join(words[:half]) + (" " if len(words) > half else ""),
                 "citations": None},
                {"type": "text", "text": " ".join(words[half:]),
                 "citations": [{"type": "web_search_result_location", "url": "https://www.nice.org.uk/guidance/ng1",
                                "title": "Guideline", "cited_text": " ".join(words[half:])[:150],
                                "encrypted_index": "ZmFrZQ=="}]},
            ]
            usage["server_tool_use"] = {"web_search_requests": 1, "web_fetch_requests": 0}
        prompt = sum(tokens(m.content) for m in messages)
        cached = self._cached_tokens(messages)
        usage["cache_read_input_tokens"] = cached
        usage["input_tokens"] = prompt - cached  # Anthropic's input_tokens excludes cache reads
        if body.get("thinking", {}).get("type") in ("enabled", "adaptive"):
            thinking = 2 * tokens(text) + 3
            usage["output_tokens"] += thinking
            usage["output_tokens_details"] = {"thinking_tokens": thinking}
        return {"id": f"msg_fake{len(self.requests)}", "type": "message", "role": "assistant",
                "model": body.get("model", ""), "content": content, "stop_reason": stop_reason,
                "stop_sequence": None, "usage": usage}

    def _gemini_generate(self, model: str, body: dict[str, Any]) -> dict[str, Any]:
        messages = parse_messages("gemini", body)
        config = body.get("generationConfig") or body.get("generation_config") or {}
        limit = config.get("maxOutputTokens", config.get("max_output_tokens"))
        stops = config.get("stopSequences", config.get("stop_sequences"))
        text, finish = limit_reply(self._reply(messages, body), limit, stops)
        prompt = sum(tokens(m.content) for m in messages)
        visible = tokens(text)
        usage: dict[str, Any] = {"promptTokenCount": prompt, "candidatesTokenCount": visible,
                                 "totalTokenCount": prompt + visible}
        cached = self._cached_tokens(messages)
        if cached:
            usage["cachedContentTokenCount"] = cached
        if is_reasoning_model(model):
            usage["thoughtsTokenCount"] = 2 * visible + 3
            usage["totalTokenCount"] += usage["thoughtsTokenCount"]
        return {"candidates": [{"content": {"role": "model", "parts": [{"text": text}]},
                                "finishReason": "MAX_TOKENS" if finish == "length" else "STOP", "index": 0}],
                "usageMetadata": usage, "modelVersion": model, "responseId": f"fake{len(self.requests)}"}


def openai_chat_body(number: int, model: str, text: str, finish: str, prompt: int, visible: int, reasoning: int,
                     cached: int) -> dict[str, Any]:
    """A chat.completion reply as the OpenAI API sends it (also used by bench/_server_process.py)."""
    return {
        "id": f"chatcmpl-fake{number}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "system_fingerprint": "fp_fake",
        "choices": [{"index": 0, "finish_reason": finish, "logprobs": None,
                     "message": {"role": "assistant", "content": text, "refusal": None}}],
        "usage": {
            "prompt_tokens": prompt,
            "completion_tokens": visible + reasoning,
            "total_tokens": prompt + visible + reasoning,
            "prompt_tokens_details": {"cached_tokens": cached, "audio_tokens": 0},
            "completion_tokens_details": {"reasoning_tokens": reasoning, "audio_tokens": 0,
                                          "accepted_prediction_tokens": 0, "rejected_prediction_tokens": 0},
        },
    }


class _NoRoute(Exception):
    pass


@contextmanager
def server_factory() -> Iterator[Callable[..., FakeServer]]:
    """`with server_factory() as start: server = start("gemini", responder)`; all closed on exit."""
    started: list[FakeServer] = []

    def start(wire: Wire, responder: Responder | None = None, *, latency: float = 0.0,
              tls: ssl.SSLContext | None = None) -> FakeServer:
        server = FakeServer(wire, responder, latency=latency, tls=tls)
        started.append(server)
        return server

    try:
        yield start
    finally:
        for server in started:
            server.close()


@pytest.fixture
def fake_server() -> Iterator[Callable[..., FakeServer]]:
    """Factory fixture: `server = fake_server("anthropic", responder)`; all are closed after the test.

    Register it with `from tests.fakes.servers import fake_server` in a conftest.py.
    """
    with server_factory() as start:
        yield start


Start = Callable[..., FakeServer]


def provider_classes() -> dict[str, tuple[Callable[..., Any], str]]:
    """Provider constructors and a model name each, for tests parametrised over wire formats."""
    from mdagents.llm.anthropic import AnthropicProvider
    from mdagents.llm.gemini import GeminiProvider
    from mdagents.llm.openai import OpenAIProvider

    return {
        "openai": (OpenAIProvider, "gpt-4o-mini"),
        "anthropic": (AnthropicProvider, "claude-haiku-4-5"),
        "gemini": (GeminiProvider, "gemini-2.0-flash"),
    }


def wire_of(provider_case: str) -> Wire:
    """The wire format a `provider_classes()` entry speaks."""
    wire = provider_case.split("-", 1)[0]
    if wire not in ("openai", "anthropic", "gemini"):
        raise ValueError(f"unknown provider case {provider_case!r}")
    return wire  # type: ignore[return-value]
