"""A loopback OpenAI-compatible server for the benchmarks, run in its own process.

Why a separate process: the fake server's threads (HTTP parsing, JSON, the scripted
responder) would otherwise count as harness CPU and compete with the harness for the GIL.

    python bench/_server_process.py --latency 0.1 --dataset /path/test.jsonl

It prints one JSON line {"base_url": ...} when ready, then answers commands on stdin, one
per line: `count` prints the number of requests served so far; `quit` (or EOF) stops it.
Every reply comes from `good_responder` over the questions of the given dataset files (and
the train.jsonl beside each, for exemplar rationales).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mdagents.datasets import load_questions, resolve_dataset  # noqa: E402
from tests.fakes.servers import FakeServer, _Handler  # noqa: E402
from tests.pipelines.responders import good_responder  # noqa: E402

# FakeServer writes the headers and the body of a reply in two sends; with Nagle's algorithm on,
# the body waits for the client's delayed ACK (~40 ms on Linux), which would add ~40 ms to every
# call that no real provider adds. TCP_NODELAY, as real HTTP servers set it, removes that.
_Handler.disable_nagle_algorithm = True


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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.1, help="seconds the server waits per request")
    parser.add_argument("--dataset", action="append", required=True, help="JSONL file(s) whose questions it answers")
    parser.add_argument("--limit", type=int, default=None, help="only the first N questions of each file")
    parser.add_argument("--difficulty", default="intermediate", help="what it answers the difficulty classifier")
    args = parser.parse_args()
    responder = good_responder(answer_lookup(args.dataset, args.limit), args.difficulty)
    with FakeServer("openai", responder, latency=args.latency) as server:
        print(json.dumps({"base_url": server.base_url}), flush=True)
        for line in sys.stdin:  # bounded by the parent: it sends quit or closes the pipe
            command = line.strip()
            if command == "count":
                print(len(server.requests), flush=True)
            elif command == "cpu":
                print(time.process_time(), flush=True)
            elif command == "quit":
                break
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
