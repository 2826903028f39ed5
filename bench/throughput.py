"""Throughput, harness CPU per call and cache replay of whole runs against a loopback server.

    python bench/throughput.py                 # all three measurements
    python bench/throughput.py throughput      # or: cpu, replay (each runs alone)

Every run goes through `mdagents.cli.main([...])` with `--model openai/gpt-4o-mini --base-url`
pointing at bench/_server_process.py: an asyncio (aiohttp) OpenAI-compatible server in a
separate process (so its CPU is not counted as the harness's) that answers every pipeline step
correctly (good_responder) after a fixed latency. Questions come from --dataset (default: ../shared/datasets/medqa/test.jsonl when
present, else the project's sample set repeated up to the number needed). Not a test: it prints
numbers and ratios, and says which target each misses.

1. throughput: N questions at --level and --concurrency, no cache, server latency L.
   Each question's calls per stage (e.g. intermediate, run with --no-consensus-stop so that the
   mock's agreeing experts still hold a debate turn: recruiter 1, opinions 5, debate 5, moderator 1) come from the call start times in the transcripts of a probe run
   of the first --chain-probe questions against a server with 1 s latency (there the harness's
   few ms per step cannot blur the stages); the other questions are taken to be like the most
   common one. Bounds:
     ideal      = max(schedule, total_calls × L / max_connections): `schedule` places each
                  question's chain (its number of stages) × L greedily on --concurrency slots in
                  dataset order; the second term says no more than max_connections calls can be
                  waiting on the server at once. This is the target's bound; no schedule reaches it
                  when the cap binds, because it counts the cap as full from the first instant.
     achievable = the same calls played with zero harness and server time under the same rules
                  (slots, cap, earlier questions first): bench/schedule.py.
   Targets: wall ≤ 1.15 × ideal; at least 10× faster than the --concurrency 1 run. The latter is
   reported as not attainable when sequential / achievable < 10 (then the cap, not the harness,
   is the limit), and a second run with a cap that does not bind (--concurrency × the widest
   stage; skip it with --no-unbound) checks it.
2. cpu: server latency 0; the harness process's CPU time (time.process_time, after a warm-up
   run so imports and first-use costs are excluded) / calls served, median of --cpu-repeat runs.
   Target < 2 ms per call. Breakdown: the same requests sent straight through OpenAIProvider
   (provider + SDK + HTTP + event loop, no harness); the rest is the harness's.
4. ratelimit: --ratelimit-n questions run twice (after a small warm-up run, so that imports and
   first-use costs land in neither) against servers that differ only in answering every 20th
   request 429 with `retry-after: 1` (--ratelimit-share, --retry-after); prints the wall-time
   ratio. Target ≤ 1.5 (each rejected call delays its own question by its retry-after, not the
   run: the question lends its place meanwhile). The default of 256 questions gives each of the 16
   slots sixteen, as a researcher's run of a few hundred questions does; with 64 (four a slot) the
   questions that start last decide the wall, and the best any harness can do is about 2.25 (below).
   Beside it, the best ratio of any
   harness on the same calls (bench/schedule.py's makespan_with_rejections: perfect lending, no
   jitter, zero overhead): the questions that start last and meet several 429s on their chain
   of dependent calls end long after the rest, and no scheduler shortens that.
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
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# A dummy key: the loopback server ignores it, and a real key is never sent anywhere.
os.environ["OPENAI_API_KEY"] = "sk-bench-loopback"

from schedule import makespan_with_rejections, stage_widths, stages_of_calls, zero_overhead_makespan  # noqa: E402

from mdagents.analysis.runs import load_run  # noqa: E402
from mdagents.cli import main as cli_main  # noqa: E402
from mdagents.run.config import RunConfig  # noqa: E402

SHARED_MEDQA = ROOT.parent / "shared" / "datasets" / "medqa" / "test.jsonl"
SAMPLE_MEDQA = ROOT / "mdagents" / "data" / "samples" / "medqa" / "test.jsonl"
SERVER_SCRIPT = Path(__file__).resolve().parent / "_server_process.py"
MODEL = "openai/gpt-4o-mini"
STARTUP_TIMEOUT = 60.0
COMMAND_TIMEOUT = 30.0
PROBE_CONNECTIONS = 1000  # the probe must not wait on the cap: it measures the call structure
WALL_OVER_IDEAL = 1.15  # throughput target: wall ≤ 1.15 × ideal


class ServerProcess:
    """The loopback server in a child process; `count()` asks it how many requests it has served."""

    def __init__(self, latency: float, datasets: list[Path], difficulty: str, limit: int,
                 extra: tuple[str, ...] = (), *, rate_limit_every: int = 0, retry_after: float = 1.0) -> None:
        cmd = [sys.executable, str(SERVER_SCRIPT), "--latency", str(latency), "--difficulty", difficulty,
               "--limit", str(limit), "--rate-limit-every", str(rate_limit_every), "--retry-after", str(retry_after),
               *extra]
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
        return int(self._ask("count"))

    def limited(self) -> int:
        """Requests answered 429 so far."""
        return int(self._ask("limited"))

    def _ask(self, command: str) -> str:
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"{command}\n")
        self.proc.stdin.flush()
        return self._readline(COMMAND_TIMEOUT)

    def tokens(self) -> dict[str, int]:
        """Input tokens the server was sent so far, and how many of them its prompt cache served."""
        assert self.proc.stdin is not None
        self.proc.stdin.write("tokens\n")
        self.proc.stdin.flush()
        return json.loads(self._readline(COMMAND_TIMEOUT))  # type: ignore[no-any-return]

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
    args += ["--no-consensus-stop"] if level == "intermediate" else []
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


def call_structure(run: RunResult, latency: float) -> dict[str, list[int]]:
    """Per question id: its calls per stage, from the start times in its transcript."""
    saved = load_run(run.run_dir)
    return {record["id"]: stage_widths([c["start_s"] for c in saved.transcript(record["id"])["calls"]], latency)
            for record in saved.records}


@dataclass
class Parallel:
    """One concurrent run and its bounds."""

    max_connections: int
    run: RunResult
    ideal: float  # the target's bound: max(chains on the slots, calls × L / cap)
    achievable: float  # zero-overhead schedule of the same calls (bench/schedule.py)


def bench_throughput(args: argparse.Namespace, tmp: Path) -> bool:
    dataset, note = questions_file(args.dataset, args.n, tmp)
    lat = args.latency
    print(f"== throughput: {args.n} {args.level} questions, --concurrency {args.concurrency}, "
          f"server latency {lat * 1000:g} ms, --no-cache")
    print(f"questions: {note}")

    # Each question's calls per stage, from a probe at a latency that dwarfs any overhead.
    probe_n = min(args.n, args.chain_probe)
    with ServerProcess(args.chain_latency, [dataset], args.level, args.n) as server:
        probe = run_cli(server, dataset, tmp / "chain-probe", n=probe_n, level=args.level, concurrency=probe_n,
                        max_connections=PROBE_CONNECTIONS, cache=None)
    probed = [widths for _, widths in sorted(call_structure(probe, args.chain_latency).items(),
                                             key=lambda item: _position(item[0]))]
    typical = list(Counter(tuple(w) for w in probed).most_common(1)[0][0])
    structures = probed + [typical] * (args.n - len(probed))
    widest = max(max(widths) for widths in structures)
    print(f"calls per stage (probe of the first {probe_n} questions at server latency {args.chain_latency:g} s; "
          f"the other {args.n - probe_n} are taken to be like the most common): "
          + ", ".join(sorted({str(w) for w in probed})))

    seq_n = min(args.n, args.sequential_n) if args.sequential_n else args.n
    with ServerProcess(lat, [dataset], args.level, args.n) as server:
        seq = run_cli(server, dataset, tmp / "seq", n=seq_n, level=args.level, concurrency=1,
                      max_connections=args.max_connections, cache=None)
    seq_time = seq.wall_s * args.n / seq_n
    seq_how = "measured" if seq_n == args.n else f"estimated: {seq.wall_s:.2f} s for {seq_n} × {args.n}/{seq_n}"
    seq_latency = statistics.mean(r["latency_s"] for r in seq.records())
    chain = len(typical)
    print(f"sequential (--concurrency 1, {seq_how}): {seq_time:.2f} s; {seq_latency:.3f} s per question vs "
          f"chain × L = {chain * lat:.3f} s: {(seq_latency / chain - lat) * 1000:.1f} ms per dependent step "
          "beyond the server's latency")

    # The requested cap, and (when it binds) one that does not: questions in flight × the widest stage.
    caps = [args.max_connections]
    if args.unbound and args.concurrency * widest > args.max_connections:
        caps.append(args.concurrency * widest)
    ok = True
    attainable_anywhere = False
    for cap in caps:
        with ServerProcess(lat, [dataset], args.level, args.n) as server:
            par = run_cli(server, dataset, tmp / f"par-{cap}", n=args.n, level=args.level,
                          concurrency=args.concurrency, max_connections=cap, cache=None)
        slots_bound = schedule([len(w) * lat for w in structures], args.concurrency)
        ideal = max(slots_bound, par.requests * lat / cap)
        achievable = zero_overhead_makespan(structures, concurrency=args.concurrency, max_connections=cap,
                                            latency=lat)
        result = Parallel(cap, par, ideal, achievable)
        run_ok, attainable = report_parallel(args, result, slots_bound, seq_time)
        ok = ok and run_ok
        attainable_anywhere = attainable_anywhere or attainable
        if cap != caps[-1]:
            print()
    return ok and attainable_anywhere


def report_parallel(args: argparse.Namespace, result: Parallel, slots_bound: float, seq_time: float
                    ) -> tuple[bool, bool]:
    """Print one concurrent run against its bounds; (its targets met, the speed-up target attainable)."""
    par, lat, cap = result.run, args.latency, result.max_connections
    records = par.records()
    errors = sum(1 for r in records if r["error"])
    accuracy = sum(1 for r in records if r["correct"]) / max(1, len(records))
    speedup, best = seq_time / par.wall_s, seq_time / result.achievable
    print(f"-- --max-connections {cap}: calls served {par.requests} (booked by the run: {total_calls(par)}; "
          f"{par.requests / args.n:.1f}/question) · accuracy {accuracy:.0%} · errors {errors}")
    print(f"ideal = max(chains × L greedily on {args.concurrency} slots = {slots_bound:.2f} s, "
          f"calls × L / max_connections = {par.requests} × {lat:g} / {cap} = {par.requests * lat / cap:.2f} s)"
          f" = {result.ideal:.2f} s")
    print(f"zero-overhead schedule of the same calls (bench/schedule.py): {result.achievable:.2f} s "
          f"= {result.achievable / result.ideal:.2f} × ideal")
    print(f"wall (main() end to end): {par.wall_s:.2f} s · runner only: {par.summary.get('wall_s')} s")
    print(f"CPU during the run: harness {par.cpu_s:.2f} s ({par.cpu_s / par.requests * 1000:.2f} ms/call) + bench "
          f"server {par.server_cpu_s:.2f} s on {os.cpu_count()} cores "
          f"({(par.cpu_s + par.server_cpu_s) / par.wall_s / (os.cpu_count() or 1):.0%} busy)")
    within = par.wall_s <= WALL_OVER_IDEAL * result.ideal
    print(f"wall / ideal = {par.wall_s / result.ideal:.2f}  (target ≤ {WALL_OVER_IDEAL}: {verdict(within)}) · "
          f"wall / zero-overhead schedule = {par.wall_s / result.achievable:.2f}")
    attainable = best >= 10
    if attainable:
        print(f"speed-up vs --concurrency 1: {speedup:.1f}×  (target ≥ 10×: {verdict(speedup >= 10)}; "
              f"at most {best:.1f}× with zero overhead)")
    else:
        print(f"speed-up vs --concurrency 1: {speedup:.1f}×  (target ≥ 10×: NOT ATTAINABLE at --max-connections "
              f"{cap}: even with zero overhead, {seq_time:.2f} s / {result.achievable:.2f} s = {best:.1f}×)")
    return within and (speedup >= 10 or not attainable), attainable


def _position(sample_id: str) -> tuple[int, str]:
    """Dataset order of an id `<dataset>-<split>-<index>` (other ids sort by text)."""
    tail = sample_id.rsplit("-", 1)[-1]
    return (int(tail), "") if tail.isdigit() else (sys.maxsize, sample_id)


def provider_cpu_per_call(base_url: str, transcripts: list[Path], limit: int, in_flight: int
                          ) -> tuple[float, int]:
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
    in_flight = min(args.max_connections, args.concurrency * 5)

    with ServerProcess(0.0, [dataset], args.level, args.cpu_n) as server:
        run_cli(server, dataset, tmp / "cpu-warm", n=min(3, args.cpu_n), level=args.level,
                concurrency=args.concurrency, max_connections=args.max_connections, cache=None)
        runs = [run_cli(server, dataset, tmp / f"cpu-{i}", n=args.cpu_n, level=args.level,
                        concurrency=args.concurrency, max_connections=args.max_connections, cache=None)
                for i in range(args.cpu_repeat)]
        transcripts = sorted((runs[0].run_dir / "transcripts").glob("*.json"))
        alone, _ = provider_cpu_per_call(server.base_url, transcripts, runs[0].requests, in_flight)
    samples = sorted(r.cpu_s / r.requests for r in runs)
    per_call = statistics.median(samples)
    print(f"{runs[0].requests} calls per run · CPU per call, median of {len(runs)} runs: "
          f"{per_call * 1000:.2f} ms (" + ", ".join(f"{x * 1000:.2f}" for x in samples) + ")")
    print(f"  of which the provider + SDK + HTTP + event loop (the same requests through OpenAIProvider alone): "
          f"{alone * 1000:.2f} ms · harness (the rest): {(per_call - alone) * 1000:.2f} ms")
    ok = per_call < 0.002
    print(f"CPU per call: {per_call * 1000:.2f} ms  (target < 2 ms: {verdict(ok)})")
    if args.profile:
        # A new server, so that the profiled run is alone on it.
        with ServerProcess(0.0, [dataset], args.level, args.cpu_n) as server:
            profile = cProfile.Profile()
            run_cli(server, dataset, tmp / "cpu-profile", n=args.cpu_n, level=args.level,
                    concurrency=args.concurrency, max_connections=args.max_connections, cache=None,
                    profile=profile)
        print_profile(profile)
    return ok


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


def bench_ratelimit(args: argparse.Namespace, tmp: Path) -> bool:
    """The same run with and without 429s (every 20th request, retry-after 1 s): wall-time ratio."""
    n, every = args.ratelimit_n, round(1 / args.ratelimit_share)
    dataset, note = questions_file(args.dataset, n, tmp)
    print(f"== rate limits: {n} {args.level} questions (experts talk in two turns), --concurrency {args.concurrency}, latency "
          f"{args.latency:g} s, 1 request in {every} answered 429 with retry-after {args.retry_after:g} s")
    print(f"questions: {note}")
    with ServerProcess(args.latency, [dataset], args.level, n, ("--talk-turns", "2")) as server:
        # Imports and first-use costs (0.5-0.8 s) would otherwise land in the fault-free run alone.
        run_cli(server, dataset, tmp / "ratelimit-warm", n=min(3, n), level=args.level,
                concurrency=args.concurrency, max_connections=args.max_connections, cache=None)
    walls, runs = {}, {}
    for label, rate_limit_every in (("fault-free", 0), ("with 429s", every)):
        # The experts really talk (two turns of round 1), as the debates the limits were measured on.
        with ServerProcess(args.latency, [dataset], args.level, n, ("--talk-turns", "2"),
                           rate_limit_every=rate_limit_every, retry_after=args.retry_after) as server:
            result = run_cli(server, dataset, tmp / f"ratelimit-{rate_limit_every}", n=n, level=args.level,
                             concurrency=args.concurrency, max_connections=args.max_connections, cache=None)
            walls[label], runs[label] = result.wall_s, result
            print(f"{label}: wall {result.wall_s:.2f} s · {result.requests} requests · {server.limited()} answered 429")
    ratio = walls["with 429s"] / walls["fault-free"]
    best = best_with_rejections(args, runs["fault-free"], every)
    ok = ratio <= 1.5
    print(f"wall with 429s / fault-free: {ratio:.2f}  (target ≤ 1.5: {verdict(ok)}; "
          f"{'NOT ATTAINABLE for a harness without overhead: ' if best > 1.5 else 'a harness without overhead: '}"
          f"{best:.2f})")
    return ok


def best_with_rejections(args: argparse.Namespace, fault_free: RunResult, every: int) -> float:
    """Print and return the best ratio any harness could reach: bench/schedule.py's
    makespan_with_rejections (perfect lending, no jitter) on the calls of the fault-free run."""
    saved = load_run(fault_free.run_dir)
    structures = [stages_of_calls([(c["start_s"], c["start_s"] + c["latency_s"])
                                   for c in saved.transcript(record["id"])["calls"]])
                  for record in sorted(saved.records, key=lambda r: _position(r["id"]))]

    def ratios(step: float, fault_free_s: float) -> list[float]:
        # Where the server's count of requests starts moves which calls it rejects: every start.
        return sorted(makespan_with_rejections(structures, concurrency=args.concurrency, step=step,
                                               reject_every=every, retry_after=args.retry_after, first=first)
                      / fault_free_s for first in range(every))

    ideal_ff = makespan_with_rejections(structures, concurrency=args.concurrency, step=args.latency,
                                        reject_every=0, retry_after=args.retry_after)
    zero = ratios(args.latency, ideal_ff)
    # Each call plus the harness's time around it as one longer step, as long as the fault-free run's:
    # an estimate (a loaded machine slows the fault-free run more, with more questions at work at once).
    step = args.latency * fault_free.wall_s / ideal_ff
    measured = ratios(step, fault_free.wall_s)
    print(f"best with 429s / fault-free (bench/schedule.py: perfect lending, no jitter; median over where the "
          f"server's count starts): {statistics.median(zero):.2f} ({zero[0]:.2f}–{zero[-1]:.2f}) with zero "
          f"overhead; {statistics.median(measured):.2f} ({measured[0]:.2f}–{measured[-1]:.2f}) with steps as "
          f"long as this fault-free run's ({step * 1000:.0f} ms)")
    return statistics.median(zero)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("which", nargs="*", metavar="{throughput,cpu,replay,ratelimit,all}",
                        help="measurements to run (default: all)")
    parser.add_argument("--dataset", default=None,
                        help="questions JSONL (default: ../shared/datasets/medqa/test.jsonl, else the sample set)")
    parser.add_argument("-n", type=int, default=50, help="throughput: questions (default 50)")
    parser.add_argument("--level", default="intermediate", choices=["basic", "intermediate", "advanced"],
                        help="throughput and cpu: pipeline level (default intermediate)")
    parser.add_argument("--concurrency", type=int, default=16, help="questions in flight (default 16)")
    parser.add_argument("--max-connections", type=int, default=None,
                        help="requests in flight (default: the run's own default, --concurrency x 9)")
    parser.add_argument("--latency", type=float, default=0.1, help="throughput: server seconds per call (default 0.1)")
    parser.add_argument("--sequential-n", type=int, default=0,
                        help="throughput: run the --concurrency 1 baseline on this many questions and "
                             "extrapolate (default 0 = all -n questions, measured)")
    parser.add_argument("--chain-probe", type=int, default=4,
                        help="throughput: questions whose calls per stage are measured (default 4)")
    parser.add_argument("--no-unbound", dest="unbound", action="store_false",
                        help="throughput: skip the second run with a cap that does not bind "
                             "(--concurrency × the widest stage)")
    parser.add_argument("--chain-latency", type=float, default=1.0,
                        help="throughput: server latency of the chain probe, seconds (default 1.0)")
    parser.add_argument("--cpu-n", type=int, default=50, help="cpu: questions (default 50)")
    parser.add_argument("--cpu-repeat", type=int, default=3, help="cpu: measured runs per transport (default 3)")
    parser.add_argument("--replay-n", type=int, default=1000, help="replay: basic questions (default 1000)")
    parser.add_argument("--profile", action="store_true", help="cpu: also profile a run with cProfile")
    parser.add_argument("--ratelimit-n", type=int, default=256,
                        help="ratelimit: questions (default 256: sixteen per slot, a run of a few hundred questions)")
    parser.add_argument("--ratelimit-share", type=float, default=0.05,
                        help="ratelimit: share of requests answered 429 (default 0.05)")
    parser.add_argument("--retry-after", type=float, default=1.0, help="ratelimit: retry-after seconds (default 1)")
    parser.add_argument("--keep", default=None, help="keep run directories and logs here instead of a temp dir")
    args = parser.parse_args(argv)
    if args.max_connections is None:  # what a run without --max-connections gets
        args.max_connections = RunConfig(concurrency=args.concurrency).in_flight_cap()
    names = {"throughput", "cpu", "replay", "ratelimit"}
    if unknown := set(args.which) - names - {"all"}:
        parser.error(f"unknown measurement(s): {', '.join(sorted(unknown))}")
    which = names if not args.which or "all" in args.which else set(args.which)
    results: dict[str, bool] = {}
    with workdir(args.keep) as tmp:
        for name, bench in (("throughput", bench_throughput), ("cpu", bench_cpu), ("replay", bench_replay),
                            ("ratelimit", bench_ratelimit)):
            if name in which:
                results[name] = bench(args, tmp)
                print()
    print("targets: " + " · ".join(f"{name} {verdict(ok)}" for name, ok in results.items()))
    return 0 if all(results.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
