"""Throughput, harness CPU per call and cache replay of whole runs against a loopback server (issue 4).

    python bench/throughput.py                 # all three measurements
    python bench/throughput.py throughput      # or: cpu, replay (each runs alone)

Every run goes through `mdagents.cli.main([...])` with `--model openai/gpt-4o-mini --base-url`
pointing at bench/_server_process.py: an asyncio (aiohttp) OpenAI-compatible server in a
separate process (so its CPU is not counted as the harness's) that answers every pipeline step
correctly (good_responder) after a fixed latency. Questions come from --dataset (default: ../shared/datasets/medqa/test.jsonl when
present, else the project's sample set repeated up to the number needed). Not a test: it prints
numbers and ratios, and says which target each misses.

1. throughput: N questions at --level and --concurrency, no cache, server latency L.
   The ideal bound is what a harness with zero overhead would take:
     chain_i  = the longest path of calls question i must make one after another (its depth),
                measured as round(latency_s_i / 1 s) of a probe run of the first --chain-probe
                questions against a server with 1 s latency (there the harness's few ms per step
                cannot round up, as they do at 100 ms); the other questions get the median;
     schedule = the questions, in dataset order, each taking chain_i × L, greedily placed on
                --concurrency slots (a slot takes the next question when its question ends);
     ideal    = max(schedule, total_calls × L / max_connections)  (the in-flight cap: no more
                than max_connections calls can be waiting on the server at once).
   Targets: wall ≤ 1.25 × ideal; wall ≥ 10× faster than the --concurrency 1 run.
2. cpu: server latency 0; the harness process's CPU time (time.process_time, after a warm-up
   run so imports and first-use costs are excluded) / calls served. Target < 2 ms per call.
   Breakdown: the same requests sent straight through OpenAIProvider (the SDK + httpx + the
   event loop, no harness) give the SDK's share; the rest is the harness's.
3. replay: fill a cache with --replay-n basic questions (latency 0), then run them again into a
   new output dir from that cache; the server's request count must not move. Target < 30 s.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import heapq
import json
import os
import pstats
import select
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# A dummy key: the loopback server ignores it, and a real key is never sent anywhere.
os.environ["OPENAI_API_KEY"] = "sk-bench-loopback"

from mdagents.cli import main as cli_main  # noqa: E402

SHARED_MEDQA = ROOT.parent / "shared" / "datasets" / "medqa" / "test.jsonl"
SAMPLE_MEDQA = ROOT / "data" / "medqa" / "test.jsonl"
SERVER_SCRIPT = Path(__file__).resolve().parent / "_server_process.py"
MODEL = "openai/gpt-4o-mini"
STARTUP_TIMEOUT = 60.0
COMMAND_TIMEOUT = 30.0


class ServerProcess:
    """The loopback server in a child process; `count()` asks it how many requests it has served."""

    def __init__(self, latency: float, datasets: list[Path], difficulty: str, limit: int) -> None:
        cmd = [sys.executable, str(SERVER_SCRIPT), "--latency", str(latency), "--difficulty", difficulty,
               "--limit", str(limit)]
        for dataset in datasets:
            cmd += ["--dataset", str(dataset)]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT)
        self.base_url = json.loads(self._readline(STARTUP_TIMEOUT))["base_url"]

    def _readline(self, timeout: float) -> str:
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        line = self.proc.stdout.readline() if ready else ""
        if not line:
            self.close()
            raise RuntimeError(f"bench server did not answer within {timeout:g}s (exit code {self.proc.poll()})")
        return line

    def count(self) -> int:
        assert self.proc.stdin is not None
        self.proc.stdin.write("count\n")
        self.proc.stdin.flush()
        return int(self._readline(COMMAND_TIMEOUT))

    def cpu(self) -> float:
        """CPU seconds the server process has used so far (it shares the machine's cores with the harness)."""
        assert self.proc.stdin is not None
        self.proc.stdin.write("cpu\n")
        self.proc.stdin.flush()
        return float(self._readline(COMMAND_TIMEOUT))

    def close(self) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(BrokenPipeError, OSError):
                assert self.proc.stdin is not None
                self.proc.stdin.write("quit\n")
                self.proc.stdin.close()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)

    def __enter__(self) -> ServerProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass
class RunResult:
    """One CLI run: wall and CPU seconds around main(), its run directory and server requests served."""

    wall_s: float
    cpu_s: float
    run_dir: Path
    requests: int
    server_cpu_s: float = 0.0

    @property
    def summary(self) -> dict[str, Any]:
        return json.loads((self.run_dir / "summary.json").read_text())  # type: ignore[no-any-return]

    def records(self) -> list[dict[str, Any]]:
        lines = (self.run_dir / "results.jsonl").read_text().splitlines()
        return [json.loads(line) for line in lines if line.strip()]


def run_cli(server: ServerProcess, dataset: Path, out: Path, *, n: int, level: str, concurrency: int,
            max_connections: int, cache: Path | None, profile: cProfile.Profile | None = None) -> RunResult:
    """One `python main.py run ...` in this process; its output goes to out/cli.log, not the terminal."""
    args = ["--dataset", str(dataset), "--model", MODEL, "--base-url", server.base_url,
            "--num-samples", str(n), "--difficulty", level, "--concurrency", str(concurrency),
            "--max-connections", str(max_connections), "--output-dir", str(out / "runs")]
    args += ["--cache-path", str(cache)] if cache is not None else ["--no-cache"]
    out.mkdir(parents=True, exist_ok=True)
    before, server_cpu = server.count(), server.cpu()
    with open(out / "cli.log", "w") as log, contextlib.redirect_stdout(log), contextlib.redirect_stderr(log):
        cpu0, wall0 = time.process_time(), time.perf_counter()
        if profile is not None:
            profile.enable()
        code = cli_main(args)
        if profile is not None:
            profile.disable()
        wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    if code != 0:
        tail = "\n".join((out / "cli.log").read_text().splitlines()[-15:])
        raise RuntimeError(f"run exited {code}: python main.py {' '.join(args)}\n{tail}")
    run_dirs = [p for p in (out / "runs").iterdir() if p.is_dir()]
    return RunResult(wall, cpu, run_dirs[0], server.count() - before, server.cpu() - server_cpu)


def questions_file(dataset: str | None, n: int, tmp: Path) -> tuple[Path, str]:
    """A JSONL file with at least n questions, and a note saying where they come from."""
    path = Path(dataset) if dataset else (SHARED_MEDQA if SHARED_MEDQA.is_file() else SAMPLE_MEDQA)
    lines = [line for line in path.read_text().splitlines() if line.strip()]
    if len(lines) >= n:
        return path, f"{path} ({len(lines)} questions, first {n} used)"
    repeated = tmp / "repeated"
    repeated.mkdir(parents=True, exist_ok=True)
    target = repeated / "medqa_repeated.jsonl"
    with target.open("w") as fh:
        for i in range(n):
            record = json.loads(lines[i % len(lines)])
            record["realidx"] = f"r{i // len(lines)}-{record.get('realidx', i % len(lines))}"
            fh.write(json.dumps(record) + "\n")
    return target, f"{path} has only {len(lines)} questions: repeated to {n} in {target}"


def schedule(durations: list[float], slots: int) -> float:
    """Makespan of jobs taken in order by the first free of `slots` slots (how the runner starts them)."""
    free = [0.0] * max(1, slots)
    end = 0.0
    for d in durations:
        start = heapq.heappop(free)
        end = max(end, start + d)
        heapq.heappush(free, start + d)
    return end


def total_calls(result: RunResult) -> int:
    """Calls booked by the run (per question plus run overhead such as per-run rationales)."""
    summary = result.summary
    return int(summary["calls"]) + int((summary.get("overhead") or {}).get("calls") or 0)


def verdict(ok: bool) -> str:
    return "MET" if ok else "MISSED"


def bench_throughput(args: argparse.Namespace, tmp: Path) -> bool:
    dataset, note = questions_file(args.dataset, args.n, tmp)
    lat = args.latency
    print(f"== throughput: {args.n} {args.level} questions, --concurrency {args.concurrency}, "
          f"--max-connections {args.max_connections}, server latency {lat * 1000:g} ms, --no-cache")
    print(f"questions: {note}")
    seq_n = min(args.n, args.sequential_n) if args.sequential_n else args.n
    # Each run gets its own server (and so its own base_url, limiter and request count).
    with ServerProcess(lat, [dataset], args.level, args.n) as server:
        seq = run_cli(server, dataset, tmp / "seq", n=seq_n, level=args.level, concurrency=1,
                      max_connections=args.max_connections, cache=None)
    with ServerProcess(lat, [dataset], args.level, args.n) as server:
        par = run_cli(server, dataset, tmp / "par", n=args.n, level=args.level, concurrency=args.concurrency,
                      max_connections=args.max_connections, cache=None)

    # The chain of each question, from a probe at a latency that dwarfs any overhead, in dataset order.
    probe_n = min(args.n, args.chain_probe)
    with ServerProcess(args.chain_latency, [dataset], args.level, args.n) as server:
        probe = run_cli(server, dataset, tmp / "chain-probe", n=probe_n, level=args.level, concurrency=probe_n,
                        max_connections=args.max_connections, cache=None)
    measured = [max(1, round(r["latency_s"] / args.chain_latency))
                for r in sorted(probe.records(), key=lambda r: _position(r["id"]))]
    typical = round(statistics.median(measured))
    chains = measured + [typical] * (args.n - len(measured))
    par_records = par.records()
    calls = par.requests
    slots_bound = schedule([c * lat for c in chains], args.concurrency)
    cap_bound = calls * lat / args.max_connections
    ideal = max(slots_bound, cap_bound)
    seq_time = seq.wall_s * args.n / seq_n
    seq_how = "measured" if seq_n == args.n else f"estimated: {seq.wall_s:.2f} s for {seq_n} × {args.n}/{seq_n}"
    errors = sum(1 for r in par_records if r["error"])
    accuracy = sum(1 for r in par_records if r["correct"]) / max(1, len(par_records))

    print(f"calls served: {calls} (booked by the run: {total_calls(par)}; {calls / args.n:.1f}/question)"
          f" · accuracy {accuracy:.0%} · errors {errors}")
    print(f"dependent-call chain per question: {sorted(set(measured))} (round(latency_s / {args.chain_latency:g} s) "
          f"of a probe run of the first {probe_n} questions at server latency {args.chain_latency:g} s; "
          f"the other {args.n - probe_n} get the median, {typical})")
    print(f"ideal = max(chains × L greedily on {args.concurrency} slots = {slots_bound:.2f} s, "
          f"calls × L / max_connections = {calls} × {lat:g} / {args.max_connections} = {cap_bound:.2f} s)"
          f" = {ideal:.2f} s")
    print(f"wall (main() end to end): {par.wall_s:.2f} s · runner only: {par.summary.get('wall_s')} s")
    print(f"CPU during the run: harness {par.cpu_s:.2f} s + bench server {par.server_cpu_s:.2f} s "
          f"on {os.cpu_count()} cores ({(par.cpu_s + par.server_cpu_s) / par.wall_s / (os.cpu_count() or 1):.0%} busy)")
    print(f"wall / ideal = {par.wall_s / ideal:.2f}  (target ≤ 1.25: {verdict(par.wall_s <= 1.25 * ideal)})")
    print(f"sequential (--concurrency 1, {seq_how}): {seq_time:.2f} s · speed-up {seq_time / par.wall_s:.1f}×"
          f"  (target ≥ 10×: {verdict(seq_time >= 10 * par.wall_s)})")
    seq_latency = statistics.mean(r["latency_s"] for r in seq.records())
    print(f"sequential: {seq_latency:.3f} s per question vs chain × L = {typical * lat:.3f} s: "
          f"{(seq_latency / typical - lat) * 1000:.1f} ms per dependent step beyond the server's latency")
    return par.wall_s <= 1.25 * ideal and seq_time >= 10 * par.wall_s


def _position(sample_id: str) -> tuple[int, str]:
    """Dataset order of an id `<dataset>-<split>-<index>` (other ids sort by text)."""
    tail = sample_id.rsplit("-", 1)[-1]
    return (int(tail), "") if tail.isdigit() else (sys.maxsize, sample_id)


def sdk_cpu_per_call(base_url: str, transcripts: list[Path], limit: int, in_flight: int) -> tuple[float, int]:
    """CPU seconds per call for the same requests sent straight through OpenAIProvider (no harness)."""
    from mdagents.llm.openai import OpenAIProvider
    from mdagents.llm.types import GenerationParams, Message

    requests: list[tuple[list[Message], GenerationParams]] = []
    for path in transcripts:
        for call in json.loads(path.read_text())["calls"]:
            params = {k: v for k, v in call["params"].items() if k in GenerationParams.__dataclass_fields__}
            for key in ("stop", "answer_letters"):
                if params.get(key) is not None:
                    params[key] = tuple(params[key])
            requests.append(([Message(m["role"], m["content"]) for m in call["messages"]],
                             GenerationParams(**params)))
            if len(requests) >= limit:
                break
        if len(requests) >= limit:
            break

    async def send_all() -> None:
        provider = OpenAIProvider(MODEL.split("/", 1)[1], api_key="sk-bench-loopback", base_url=base_url)
        gate = asyncio.Semaphore(in_flight)

        async def one(messages: list[Message], params: GenerationParams) -> None:
            async with gate:
                await provider.complete(messages, params, timeout=60)

        await asyncio.gather(*(one(m, p) for m, p in requests[:in_flight]))  # warm-up: connections, imports
        cpu0 = time.process_time()
        await asyncio.gather(*(one(m, p) for m, p in requests))
        timing.append(time.process_time() - cpu0)
        await provider.aclose()

    timing: list[float] = []
    asyncio.run(send_all())
    return timing[0] / len(requests), len(requests)


def bench_cpu(args: argparse.Namespace, tmp: Path) -> bool:
    dataset, note = questions_file(args.dataset, args.cpu_n, tmp)
    print(f"== harness CPU per call: {args.cpu_n} {args.level} questions, --concurrency {args.concurrency}, "
          "server latency 0, --no-cache")
    print(f"questions: {note}")
    with ServerProcess(0.0, [dataset], args.level, args.cpu_n) as server:
        run_cli(server, dataset, tmp / "cpu-warm", n=min(3, args.cpu_n), level=args.level,
                concurrency=args.concurrency, max_connections=args.max_connections, cache=None)
        run = run_cli(server, dataset, tmp / "cpu", n=args.cpu_n, level=args.level, concurrency=args.concurrency,
                      max_connections=args.max_connections, cache=None)
        per_call = run.cpu_s / run.requests
        transcripts = sorted((run.run_dir / "transcripts").glob("*.json"))
        sdk, sdk_calls = sdk_cpu_per_call(server.base_url, transcripts, run.requests,
                                          min(args.max_connections, args.concurrency * 5))
    profile = None
    if args.profile:
        # A new server (new base_url): see the limiter note in bench/README.md.
        with ServerProcess(0.0, [dataset], args.level, args.cpu_n) as server:
            profile = cProfile.Profile()
            run_cli(server, dataset, tmp / "cpu-profile", n=args.cpu_n, level=args.level,
                    concurrency=args.concurrency, max_connections=args.max_connections, cache=None,
                    profile=profile)
    print(f"calls served: {run.requests} · wall {run.wall_s:.2f} s · harness process CPU {run.cpu_s:.2f} s")
    print(f"CPU per call: {per_call * 1000:.2f} ms  (target < 2 ms: {verdict(per_call < 0.002)})")
    print(f"  of which SDK + httpx + event loop (same {sdk_calls} requests via OpenAIProvider alone): "
          f"{sdk * 1000:.2f} ms · harness (the rest): {(per_call - sdk) * 1000:.2f} ms")
    if profile is not None:
        print_profile(profile)
    return per_call < 0.002


def print_profile(profile: cProfile.Profile, top: int = 20) -> None:
    """Own time by package (cProfile inflates totals; the shares are what matter) and the top functions."""
    stats = pstats.Stats(profile)
    by_package: dict[str, float] = {}
    for (filename, _, _), (_, _, tottime, _, _) in stats.stats.items():  # type: ignore[attr-defined]
        by_package[_package(filename)] = by_package.get(_package(filename), 0.0) + tottime
    total = sum(by_package.values()) or 1.0
    print("profile (own time by package, under cProfile): " + " · ".join(
        f"{name} {share / total:.0%}" for name, share in sorted(by_package.items(), key=lambda kv: -kv[1])[:10]))
    stats.sort_stats("tottime").print_stats(top)


def _package(filename: str) -> str:
    if filename.startswith("~") or filename.startswith("<"):
        return "builtins/C"
    parts = Path(filename).parts
    for marker in ("site-packages", "mdagents"):
        if marker in parts:
            i = parts.index(marker)
            return parts[i + 1] if marker == "site-packages" and i + 1 < len(parts) else "mdagents"
    return "stdlib" if "python3" in filename else Path(filename).name


def bench_replay(args: argparse.Namespace, tmp: Path) -> bool:
    dataset, note = questions_file(args.dataset, args.replay_n, tmp)
    cache = tmp / "replay-cache.sqlite"
    print(f"== cache replay: {args.replay_n} basic questions, --concurrency {args.concurrency}, "
          f"server latency 0, --cache-path {cache}")
    print(f"questions: {note}")
    # One server for both runs: the base_url is part of the cache key.
    with ServerProcess(0.0, [dataset], "basic", args.replay_n) as server:
        fill = run_cli(server, dataset, tmp / "fill", n=args.replay_n, level="basic", concurrency=args.concurrency,
                       max_connections=args.max_connections, cache=cache)
        replay = run_cli(server, dataset, tmp / "replay", n=args.replay_n, level="basic",
                         concurrency=args.concurrency, max_connections=args.max_connections, cache=cache)
    same = {r["id"]: r["response"] for r in fill.records()} == {r["id"]: r["response"] for r in replay.records()}
    print(f"fill: {fill.wall_s:.2f} s, {fill.requests} requests served")
    print(f"replay: {replay.wall_s:.2f} s wall, {replay.cpu_s:.2f} s CPU, {replay.requests} requests served, "
          f"cache hits {replay.summary.get('cache_hits')}, same responses as the fill: {same}")
    ok = replay.wall_s < 30 and replay.requests == 0 and same
    print(f"replay of {args.replay_n}: {replay.wall_s:.2f} s  (target < 30 s, no request: {verdict(ok)})")
    return ok


@contextlib.contextmanager
def workdir(keep: str | None) -> Iterator[Path]:
    if keep:
        path = Path(keep)
        path.mkdir(parents=True, exist_ok=True)
        yield path
    else:
        with tempfile.TemporaryDirectory(prefix="mdagents-bench-") as name:
            yield Path(name)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("which", nargs="*", metavar="{throughput,cpu,replay,all}",
                        help="measurements to run (default: all)")
    parser.add_argument("--dataset", default=None,
                        help="questions JSONL (default: ../shared/datasets/medqa/test.jsonl, else the sample set)")
    parser.add_argument("-n", type=int, default=50, help="throughput: questions (default 50)")
    parser.add_argument("--level", default="intermediate", choices=["basic", "intermediate", "advanced"],
                        help="throughput and cpu: pipeline level (default intermediate)")
    parser.add_argument("--concurrency", type=int, default=16, help="questions in flight (default 16)")
    parser.add_argument("--max-connections", type=int, default=32, help="requests in flight (default 32)")
    parser.add_argument("--latency", type=float, default=0.1, help="throughput: server seconds per call (default 0.1)")
    parser.add_argument("--sequential-n", type=int, default=0,
                        help="throughput: run the --concurrency 1 baseline on this many questions and "
                             "extrapolate (default 0 = all -n questions, measured)")
    parser.add_argument("--chain-probe", type=int, default=4,
                        help="throughput: questions whose dependent-call chain is measured (default 4)")
    parser.add_argument("--chain-latency", type=float, default=1.0,
                        help="throughput: server latency of the chain probe, seconds (default 1.0)")
    parser.add_argument("--cpu-n", type=int, default=50, help="cpu: questions (default 50)")
    parser.add_argument("--replay-n", type=int, default=1000, help="replay: basic questions (default 1000)")
    parser.add_argument("--profile", action="store_true", help="cpu: also profile a run with cProfile")
    parser.add_argument("--keep", default=None, help="keep run directories and logs here instead of a temp dir")
    args = parser.parse_args(argv)
    names = {"throughput", "cpu", "replay"}
    if unknown := set(args.which) - names - {"all"}:
        parser.error(f"unknown measurement(s): {', '.join(sorted(unknown))}")
    which = names if not args.which or "all" in args.which else set(args.which)
    results: dict[str, bool] = {}
    with workdir(args.keep) as tmp:
        for name, bench in (("throughput", bench_throughput), ("cpu", bench_cpu), ("replay", bench_replay)):
            if name in which:
                results[name] = bench(args, tmp)
                print()
    print("targets: " + " · ".join(f"{name} {verdict(ok)}" for name, ok in results.items()))
    return 0 if all(results.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
