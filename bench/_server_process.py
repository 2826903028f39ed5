"""A loopback OpenAI-compatible server for the benchmarks, run in its own process.

Why a separate process: the server's work (HTTP parsing, JSON, the scripted responder) would
otherwise count as harness CPU and compete with the harness for the GIL.

    python bench/_server_process.py --latency 0.1 --dataset /path/test.jsonl

It prints one JSON line {"base_url": ...} when ready, then answers commands on stdin, one
per line: `count` prints the number of requests served so far (429s included); `limited` prints
how many were answered 429 (with --rate-limit-every N, every Nth request is); `tokens` prints a JSON
object with the input tokens it was sent, how many of them its prompt-cache emulation served, and
the characters of those messages (`input_chars`);
`cpu` prints this process's CPU seconds so far; `quit` (or EOF) stops it. Every reply comes from
`good_responder` over the questions of the given dataset files (and the train.jsonl beside
each, for exemplar rationales), or with `--talk-turns N` from `talkative_responder` (every
expert talks in the first N turns of the debate's first round).

It is built to cost as little CPU per request as possible, because it shares the machine's
cores with the harness while a real provider costs the harness machine nothing: one asyncio
event loop (aiohttp.web, C HTTP parser) instead of a thread per request, the latency as a
non-blocking `asyncio.sleep`, no access log, orjson when installed. aiohttp keeps connections
alive (HTTP/1.1, 75 s idle timeout), sets TCP_NODELAY on every accepted socket, and sends a
reply's headers and body in one write. The reply is the same as tests/fakes/servers.py's
FakeServer("openai") gives for POST /v1/chat/completions (usage: whitespace token counts,
cached_tokens = tokens of the longest message prefix an earlier request sent); other paths get
an OpenAI-style 404 and a responder exception an OpenAI-style 500.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from aiohttp import web

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mdagents.data.datasets import load_questions, resolve_dataset  # noqa: E402
from tests.fakes.servers import is_reasoning_model, limit_reply, openai_chat_body, text_of  # noqa: E402
from tests.pipelines.responders import good_responder, talkative_responder  # noqa: E402

try:
    import orjson

    _loads: Callable[[bytes], Any] = orjson.loads
    _dumps: Callable[[Any], bytes] = orjson.dumps
except ImportError:  # the stdlib's C json is only slightly slower
    _loads = json.loads

    def _dumps(obj: Any) -> bytes:
        return json.dumps(obj, separators=(",", ":")).encode()


def answer_lookup(datasets: list[str], limit: int | None = None) -> dict[str, str]:
    """question text -> true answer text, over the first `limit` questions of each file and its train split.

    Only the questions a run uses: the responder scans the whole lookup on every request."""
    lookup: dict[str, str] = {}
    for dataset in datasets:
        source = resolve_dataset(dataset)
        paths = [source.path] + ([source.train_path] if source.train_path else [])
        for path in paths:
            for q in load_questions(resolve_dataset(str(path)), limit=limit):
                lookup[q.question] = q.answer
    return lookup


class ChatServer:
    """POST /v1/chat/completions answered by `responder` after `latency` seconds."""

    def __init__(self, responder: Callable[[list[dict[str, str]], Any], str], latency: float,
                 rate_limit_every: int = 0, retry_after: float = 1.0) -> None:
        self.responder = responder
        self.latency = latency
        self.rate_limit_every = rate_limit_every  # every Nth request is answered 429 (0: never)
        self.retry_after = retry_after
        self.rate_limited = 0
        self.requests = 0  # read by the stdin thread: an int read is atomic
        self.input_tokens = 0
        self.input_chars = 0  # characters of the messages: the unit other tools estimate tokens in (chars / 4)
        self.cached_tokens = 0
        # Prompt-cache emulation: each message prefix is keyed by a hash chain over its messages
        # (one hash per message instead of hashing every prefix tuple again).
        self._seen_prefixes: set[int] = set()
        # Whitespace token counts by text: the system prompt and exemplars recur in most requests,
        # and a dict lookup (one hash, one memcmp) is far cheaper than str.split on a long prompt.
        self._tokens: dict[str, int] = {}

    def _count(self, text: str) -> int:
        n = self._tokens.get(text)
        if n is None:
            n = self._tokens[text] = len(text.split())
        return n

    def _cached_tokens(self, messages: list[dict[str, str]]) -> int:
        """Tokens of the longest message prefix an earlier request already sent."""
        cached = running = key = 0
        for m in messages:
            key = hash((key, m["role"], m["content"]))
            running += self._count(m["content"])
            if key in self._seen_prefixes:
                cached = running
            else:
                self._seen_prefixes.add(key)
        return cached

    async def chat(self, request: web.Request) -> web.Response:
        arrived = time.perf_counter()
        self.requests += 1
        number = self.requests
        raw = await request.read()
        if self.rate_limit_every and number % self.rate_limit_every == 0:
            self.rate_limited += 1
            reply = _error(429, "Rate limit reached for requests")
            reply.headers["retry-after"] = f"{self.retry_after:g}"
            if self.latency:
                await asyncio.sleep(max(0.0, arrived + self.latency - time.perf_counter()))
            return reply
        try:
            reply = web.Response(body=_dumps(self._completion(_loads(raw or b"{}"), number)),
                                 content_type="application/json")
        except Exception as exc:  # a broken responder or body shows up as a server error
            reply = _error(500, f"bench server failed: {exc!r}")
        # The reply is computed while the latency runs, not after it: a call takes `latency`
        # from the request's arrival, however many requests arrive together.
        if self.latency:
            await asyncio.sleep(max(0.0, arrived + self.latency - time.perf_counter()))
        return reply

    async def other(self, request: web.Request) -> web.Response:
        self.requests += 1
        await request.read()
        return _error(404, f"no route {request.path}")

    def _completion(self, body: dict[str, Any], number: int) -> dict[str, Any]:
        messages = []
        for m in body.get("messages", []):
            role = m.get("role", "user")
            messages.append({"role": "system" if role in ("system", "developer") else role,
                             "content": text_of(m.get("content"))})
        model = str(body.get("model", ""))
        stops = body.get("stop")
        text, finish = limit_reply(str(self.responder(messages, body)),
                              body.get("max_completion_tokens", body.get("max_tokens")),
                              [stops] if isinstance(stops, str) else stops)
        cached = self._cached_tokens(messages)
        prompt = sum(self._count(m["content"]) for m in messages)
        self.input_tokens += prompt
        self.input_chars += sum(len(m["content"]) for m in messages)
        self.cached_tokens += cached
        visible = len(text.split())
        reasoning = 2 * visible + 3 if is_reasoning_model(model) else 0
        return openai_chat_body(number, model, text, finish, prompt, visible, reasoning, cached)


def _error(status: int, message: str) -> web.Response:
    body = {"error": {"message": message, "type": "fake_error", "param": None, "code": str(status)}}
    return web.Response(status=status, body=_dumps(body), content_type="application/json")


def _read_commands(server: ChatServer, loop: asyncio.AbstractEventLoop, done: asyncio.Event) -> None:
    """The stdin command loop, in a thread (blocked on read, so it costs nothing between commands)."""
    for line in sys.stdin:  # bounded by the parent: it sends quit or closes the pipe
        command = line.strip()
        if command == "count":
            print(server.requests, flush=True)
        elif command == "limited":
            print(server.rate_limited, flush=True)
        elif command == "tokens":
            print(json.dumps({"input": server.input_tokens, "cached": server.cached_tokens,
                              "input_chars": server.input_chars}), flush=True)
        elif command == "cpu":
            print(time.process_time(), flush=True)
        elif command == "quit":
            break
    loop.call_soon_threadsafe(done.set)


async def serve(server: ChatServer) -> None:
    app = web.Application(client_max_size=64 * 1024 * 1024)
    app.router.add_post("/v1/chat/completions", server.chat)
    app.router.add_route("*", "/{tail:.*}", server.other)
    runner = web.AppRunner(app, access_log=None, handle_signals=False, keepalive_timeout=75.0)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0, backlog=256)
    await site.start()
    port = runner.addresses[0][1]
    done = asyncio.Event()
    print(json.dumps({"base_url": f"http://127.0.0.1:{port}/v1"}), flush=True)
    threading.Thread(target=_read_commands, args=(server, asyncio.get_running_loop(), done),
                     name="bench-server-stdin", daemon=True).start()
    try:
        await done.wait()
    finally:
        await runner.cleanup()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.1, help="seconds the server waits per request")
    parser.add_argument("--dataset", action="append", required=True, help="JSONL file(s) whose questions it answers")
    parser.add_argument("--limit", type=int, default=None, help="only the first N questions of each file")
    parser.add_argument("--difficulty", default="intermediate",
                        help="what it answers the difficulty classifier (mixed: a level per question)")
    parser.add_argument("--talk-turns", type=int, default=0,
                        help="experts talk in the first N turns of the debate's first round (default: never)")
    parser.add_argument("--rate-limit-every", type=int, default=0,
                        help="answer every Nth request 429 with a retry-after header (default 0: never)")
    parser.add_argument("--retry-after", type=float, default=1.0, help="seconds in the 429's retry-after header")
    args = parser.parse_args()
    lookup = answer_lookup(args.dataset, args.limit)
    responder = (talkative_responder(lookup, args.difficulty, talk_turns=args.talk_turns) if args.talk_turns
                 else good_responder(lookup, args.difficulty))
    asyncio.run(serve(ChatServer(responder, args.latency, args.rate_limit_every, args.retry_after)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
