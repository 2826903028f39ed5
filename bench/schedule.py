"""The best wall time any harness could reach on a run's call structure: a zero-overhead schedule.

`throughput.py`'s ideal bound, max(chains on the slots, calls × L / cap), is a lower bound that
no schedule may reach: it treats the in-flight cap as if every slot were busy from the first
instant to the last. This simulation plays the run itself with zero harness and server time:

- every call takes exactly `latency`; a question's stage k + 1 (e.g. the moderator) starts when
  every call of stage k (e.g. the five experts' opinions) has ended;
- at most `concurrency` questions are in progress; when one ends, the next in order starts;
- at most `max_connections` calls are in flight; waiting calls are served in question order,
  as the harness's limiter does.

All calls start on multiples of `latency`, so the simulation steps through those instants.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Sequence


def stage_widths(start_times: Sequence[float], latency: float) -> list[int]:
    """A question's calls per stage, from their start times in a run at a large `latency`."""
    stages: dict[int, int] = {}
    for start in start_times:
        step = round(start / latency)
        stages[step] = stages.get(step, 0) + 1
    return [stages[step] for step in sorted(stages)]


def stages_of_calls(calls: Sequence[tuple[float, float]]) -> list[int]:
    """A question's calls per stage, from each call's (start, end) in a fault-free run at any latency.

    A call that starts before every call of the current stage has ended cannot depend on them: it
    belongs to that stage. Harness time between the stages does not blur them, as it can for
    `stage_widths` at a small latency."""
    widths: list[int] = []
    first_end = float("inf")
    for start, end in sorted(calls):
        if widths and start < first_end:
            widths[-1] += 1
            first_end = min(first_end, end)
        else:
            widths.append(1)
            first_end = end
    return widths


def makespan_with_rejections(questions: Sequence[Sequence[int]], *, concurrency: int, step: float,
                             reject_every: int, retry_after: float, first: int = 0) -> float:
    """Seconds to run `questions` when the server answers every `reject_every`-th request 429.

    The best any harness can do on the bench's rate-limit scenario: every call (and every 429
    reply) takes `step`, a rejected call is sent again exactly `retry_after` after its 429 (no
    jitter), and lending is perfect: a question counts against `concurrency` only while none of its
    calls waits out a retry, with no cap on the questions in flight. Requests are numbered in the
    order they are sent, from `first` + 1 (0: every `reject_every`-th from the start).
    """
    if concurrency < 1 or reject_every < 0:
        raise ValueError("concurrency must be >= 1 and reject_every >= 0")
    order = itertools.count()
    events: list[tuple[float, int, str, int]] = []  # (time, order, what, question)
    widths = [[w for w in q if w > 0] for q in questions]
    stage = [0] * len(widths)
    pending = [0] * len(widths)  # calls of the current stage not answered yet
    sleeping = [0] * len(widths)  # calls waiting out a retry
    active: set[int] = set()
    sent = first
    upcoming = 0  # the next question to start
    end = 0.0

    def send(question: int, now: float) -> None:
        nonlocal sent
        sent += 1
        rejected = reject_every > 0 and sent % reject_every == 0
        heapq.heappush(events, (now + step, next(order), "429" if rejected else "ok", question))

    def begin_stage(question: int, now: float) -> None:
        pending[question] = widths[question][stage[question]]
        for _ in range(pending[question]):
            send(question, now)

    def start_questions(now: float) -> None:
        nonlocal upcoming
        while upcoming < len(widths) and sum(1 for q in active if not sleeping[q]) < concurrency:
            if widths[upcoming]:
                active.add(upcoming)
                begin_stage(upcoming, now)
            upcoming += 1

    start_questions(0.0)
    while events:
        now, _, what, question = heapq.heappop(events)
        if what == "429":
            sleeping[question] += 1
            heapq.heappush(events, (now + retry_after, next(order), "retry", question))
        elif what == "retry":
            sleeping[question] -= 1
            send(question, now)
        else:
            pending[question] -= 1
            if pending[question] == 0:
                stage[question] += 1
                if stage[question] < len(widths[question]):
                    begin_stage(question, now)
                else:
                    active.discard(question)
                    end = max(end, now)
        start_questions(now)
    return end


def zero_overhead_makespan(questions: Sequence[Sequence[int]], *, concurrency: int, max_connections: int,
                           latency: float) -> float:
    """Seconds to run `questions` (each a list of calls per stage) under the rules above."""
    if concurrency < 1 or max_connections < 1:
        raise ValueError("concurrency and max_connections must be >= 1")
    waiting = [list(q) for q in questions if any(q)]
    waiting.reverse()  # pop() takes the next question in order
    active: list[list[int]] = []  # per question in progress: [stage, calls of that stage not started yet]
    stages: list[list[int]] = []
    steps = 0
    while waiting or active:
        while waiting and len(active) < concurrency:
            widths = [w for w in waiting.pop() if w > 0]
            stages.append(widths)
            active.append([len(stages) - 1, 0, widths[0]])
        free = max_connections
        for state in active:  # in question order
            started = min(free, state[2])
            state[2] -= started
            free -= started
        steps += 1
        still: list[list[int]] = []
        for state in active:
            index, stage, not_started = state
            if not_started == 0:  # the whole stage was started, so it has now ended
                stage += 1
                if stage == len(stages[index]):
                    continue
                state[1], state[2] = stage, stages[index][stage]
            still.append(state)
        active = still
    return steps * latency
