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

from collections.abc import Sequence


def stage_widths(start_times: Sequence[float], latency: float) -> list[int]:
    """A question's calls per stage, from their start times in a run at a large `latency`."""
    stages: dict[int, int] = {}
    for start in start_times:
        step = round(start / latency)
        stages[step] = stages.get(step, 0) + 1
    return [stages[step] for step in sorted(stages)]


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
