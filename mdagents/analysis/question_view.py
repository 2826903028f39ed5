"""What one question's page shows, read from its record and transcript: calls, and the level's story.

Records carry the structure a pipeline decided (experts, hierarchy, interactions, teams,
reports); the transcript carries what each agent said. The calls are attributed to agents by
following conversations (threads.py), so a page needs nothing the run did not write.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from mdagents.analysis.interaction_graph import Graph, round_graph
from mdagents.analysis.report import outcome
from mdagents.analysis.threads import Thread, is_answer_call, last_user, split_threads
from mdagents.scoring import read_answer


@dataclass
class Call:
    number: int  # 1-based, in the order the calls started
    role: str
    who: str
    step: str
    start_s: float
    latency_s: float
    input_tokens: int
    output_tokens: int
    cached_tokens: int
    from_cache: bool
    prompt: str
    reply: str
    error: str | None


@dataclass
class Answer:
    letter: str | None
    text: str
    status: str  # right | wrong | none


@dataclass
class Round:
    number: int
    graph: Graph
    messages: list[dict[str, Any]]
    summary: str | None


@dataclass
class Debate:
    experts: list[dict[str, Any]]
    hierarchy: dict[str, Any] | None
    stages: list[str]
    answers: list[list[Answer | None]]  # by expert, by stage
    rounds: list[Round]
    moderator: Answer | None
    fallback: bool


@dataclass
class TeamView:
    name: str
    stage: str
    members: list[dict[str, Any]]
    delegation: str | None
    investigations: list[tuple[str, str]]
    report: Answer | None


@dataclass
class Teams:
    teams: list[TeamView]
    coordinator: Answer | None
    fallback: bool


@dataclass
class Basic:
    exemplars: list[tuple[str, str]]
    reply: Answer | None


@dataclass
class QuestionView:
    record: dict[str, Any]
    calls: list[Call]
    span_s: float
    classifier: str | None = None
    debate: Debate | None = None
    teams: Teams | None = None
    basic: Basic | None = None
    transcript_missing: str | None = None
    agents: list[str] = field(default_factory=list)
    outcome: str = ""
    extraction: str | None = None
    notes: list[tuple[str, str]] = field(default_factory=list)  # critic / rag entries of the record, as JSON


def _int(value: Any) -> int:
    return int(value or 0)


def extraction_step(record: dict[str, Any]) -> str | None:
    """The grading step a record names, with the reason when it read no answer ("contract",
    "none: conflict"); older records may hold `extraction` as a dict."""
    value = record.get("extraction")
    if isinstance(value, dict):
        value = value.get("step") or value.get("method") or value.get("name")
    if value in (None, ""):
        return None
    reason = record.get("no_answer_reason")
    return f"{value}: {reason}" if reason and record.get("prediction") is None else str(value)


def answer_of(text: str | None, record: dict[str, Any]) -> Answer:
    options = record.get("options") or {}
    letter = read_answer(text, options).letter if options else None
    truth = record.get("answer_idx")
    status = "none" if letter is None or truth is None else ("right" if letter == truth else "wrong")
    return Answer(letter, text or "", status)


class _Attribution:
    """Labels (who, step) per call index, filled in by each level's reader."""

    def __init__(self, calls: list[dict[str, Any]]) -> None:
        self.calls = calls
        self.threads = split_threads(calls)
        self.who: dict[int, str] = {}
        self.step: dict[int, str] = {}

    def of_role(self, *roles: str) -> list[Thread]:
        return [t for t in self.threads if t.role in roles]

    def label(self, thread: Thread, who: str, steps: list[str] | None = None) -> None:
        for position, index in enumerate(thread.calls):
            self.who[index] = who
            if steps and position < len(steps):
                self.step[index] = steps[position]


def _match_threads(threads: list[Thread], names: list[tuple[str, str]]) -> dict[int, Thread]:
    """names[i] = (role, description) -> the thread whose system prompt names them, first come first."""
    matched: dict[int, Thread] = {}
    free = list(threads)
    for i, (role, description) in enumerate(names):
        candidates = [t for t in free if role and role in t.system]
        best = [t for t in candidates if description and description in t.system] or candidates
        if best:
            matched[i] = best[0]
            free.remove(best[0])
    return matched


def _stage_labels(rounds_run: int) -> list[str]:
    return ["Initial", *(f"Round {r}" for r in range(1, rounds_run + 1)), "Final"]


def _debate(record: dict[str, Any], details: dict[str, Any], attr: _Attribution) -> Debate:
    experts = [e for e in details.get("experts") or [] if isinstance(e, dict)]
    roles = [str(e.get("role") or f"Expert {i}") for i, e in enumerate(experts, 1)]
    rounds_run = _int(details.get("rounds_run"))
    stages = _stage_labels(rounds_run)
    threads = _match_threads(attr.of_role("expert"), [(r, str(e.get("description") or "")) for r, e in
                                                      zip(roles, experts, strict=True)])
    answers: list[list[Answer | None]] = []
    for i, role in enumerate(roles):
        row: list[Answer | None] = [None] * len(stages)
        thread = threads.get(i)
        if thread is not None:
            who = f"Expert {i + 1} ({role})"
            answer_calls = [c for c in thread.calls if is_answer_call(attr.calls[c])]
            attr.label(thread, who)
            for c in thread.calls:
                attr.step[c] = _talk_step(last_user(attr.calls[c]))
            separate_final = len(answer_calls) == len(stages)  # runs that asked for a final answer apart
            for position, c in enumerate(answer_calls):
                last = position == len(answer_calls) - 1
                stage = len(stages) - 1 if last and separate_final else min(position, len(stages) - 2)
                row[stage] = answer_of(attr.calls[c].get("reply"), record)
                attr.step[c] = "answer" if stage == 0 else ("final answer" if stage == len(stages) - 1
                                                             else f"updated answer, round {stage}")
            if row[-1] is None and answer_calls:  # an expert's latest answer is its final one
                row[-1] = answer_of(attr.calls[answer_calls[-1]].get("reply"), record)
        finals = (details.get("final_answers") or {}).get(f"Expert {i + 1} ({role})")
        if row[-1] is None and isinstance(finals, dict):
            row[-1] = answer_of(finals.get("text"), record)
        answers.append(row)
    for t in attr.of_role("recruiter"):
        attr.label(t, "Recruiter", ["recruit experts"])
    summaries = [str(s) for s in details.get("summaries") or []]
    for n, t in enumerate(attr.of_role("summariser"), 1):
        attr.label(t, "Summariser", [f"summary of round {n}"])
    moderator = None
    for t in attr.of_role("moderator"):
        attr.label(t, "Moderator", ["decision"] * len(t.calls))
        moderator = answer_of(attr.calls[t.calls[-1]].get("reply"), record)
    interactions = [m for m in details.get("interactions") or [] if isinstance(m, dict)]
    truth = record.get("answer_idx")
    rounds = []
    for number in range(1, max(rounds_run, 1) + 1):
        said = [m for m in interactions if _int(m.get("round")) == number]
        before_after = {i + 1: (_letter(row[number - 1]), _letter(row[min(number, len(row) - 1)]))
                        for i, row in enumerate(answers)} if rounds_run else \
            {i + 1: (_letter(row[0]), _letter(row[0])) for i, row in enumerate(answers)}
        messages = [{**m, "source_name": _name(roles, m.get("source")), "target_name": _name(roles, m.get("target"))}
                    for m in said]
        rounds.append(Round(number, round_graph(roles, said, before_after, truth), messages,
                            summaries[number - 1] if number - 1 < len(summaries) else None))
    return Debate(experts, details.get("hierarchy") if isinstance(details.get("hierarchy"), dict) else None,
                  stages, answers, rounds, moderator, bool(details.get("recruitment_fallback")))


def _letter(answer: Answer | None) -> str | None:
    return answer.letter if answer else None


def _name(roles: list[str], number: Any) -> str:
    n = _int(number)
    return f"Expert {n} ({roles[n - 1]})" if 1 <= n <= len(roles) else f"Expert {n}"


def _talk_step(prompt: str) -> str:
    head = prompt.strip().split(" of the team discussion", 1)[0]
    return f"talk? {head.lower()}" if head.startswith("Round ") and len(head) < 40 else "talk?"


def _teams(record: dict[str, Any], details: dict[str, Any], attr: _Attribution) -> Teams:
    reports = details.get("reports") or {}
    names = [str(t.get("name")) for t in details.get("teams") or [] if isinstance(t, dict)]
    views = []
    leads = attr.of_role("team_lead")
    members = attr.of_role("team_member")
    for team in (t for t in details.get("teams") or [] if isinstance(t, dict)):
        name = str(team.get("name"))
        people = [m for m in team.get("members") or [] if isinstance(m, dict)]
        delegation = None
        for thread in leads:
            if _team_of(attr.calls[thread.calls[0]], names) == name:
                lead = next((m for m in people if m.get("lead")), {})
                attr.label(thread, f"{lead.get('role', 'Lead')} · lead, {name}",
                           ["delegation", "report"] if len(thread.calls) > 1 else ["report"])
                if len(thread.calls) > 1:
                    delegation = attr.calls[thread.calls[0]].get("reply")
        investigations = []
        for thread in members:
            call = attr.calls[thread.calls[0]]
            if _team_of(call, names) == name:
                role = next((str(m.get("role")) for m in people if str(m.get("role")) in thread.system),
                            thread.role)
                attr.label(thread, f"{role} · {name}", ["investigation"])
                investigations.append((role, str(call.get("reply") or "")))
        report = reports.get(name)
        views.append(TeamView(name, str(team.get("stage") or ""), people, delegation, investigations,
                              answer_of(report, record) if report is not None else None))
    for t in attr.of_role("recruiter"):
        attr.label(t, "Recruiter", ["recruit teams"])
    coordinator = None
    for t in attr.of_role("coordinator"):
        attr.label(t, "Coordinator", ["decision"] * len(t.calls))
        coordinator = answer_of(attr.calls[t.calls[-1]].get("reply"), record)
    return Teams(views, coordinator, bool(details.get("recruitment_fallback")))


def _team_of(call: dict[str, Any], names: list[str]) -> str | None:
    """The team a lead's or member's first prompt is about: the team name it mentions first (earlier
    teams' reports come later in the prompt), the longest of names found at the same place."""
    prompt = next((str(m.get("content") or "") for m in call.get("messages") or [] if m.get("role") == "user"), "")
    found = [(prompt.find(name), -len(name), name) for name in names if name and name in prompt]
    return min(found)[2] if found else None


def _basic(record: dict[str, Any], attr: _Attribution) -> Basic:
    exemplars: list[tuple[str, str]] = []
    reply = None
    for t in attr.of_role("basic_agent"):
        attr.label(t, "Medical expert", ["answer"] * len(t.calls))
        call = attr.calls[t.calls[0]]
        messages = (call.get("messages") or [])[1:-1]
        exemplars = [(str(q.get("content") or ""), str(a.get("content") or ""))
                     for q, a in zip(messages[::2], messages[1::2], strict=False)]
        reply = answer_of(attr.calls[t.calls[-1]].get("reply"), record)
    return Basic(exemplars, reply)


def build(record: dict[str, Any], transcript: dict[str, Any] | None, missing: str | None = None) -> QuestionView:
    """The page of one question; `transcript` None (with the reason in `missing`) shows the record only."""
    calls = [c for c in (transcript or {}).get("calls") or [] if isinstance(c, dict)]
    attr = _Attribution(calls)
    details = record.get("details") if isinstance(record.get("details"), dict) else {}
    level = record.get("difficulty")
    view = QuestionView(record, [], 0.0, transcript_missing=missing, outcome=outcome(record),
                        extraction=extraction_step(record))
    view.notes = [(key, json.dumps(record[key], indent=2, ensure_ascii=False, default=str))
                  for key in ("critic", "rag") if record.get(key)]
    classifier = attr.of_role("classifier")
    for t in classifier:
        attr.label(t, "Difficulty classifier", ["classify"])
        view.classifier = str(calls[t.calls[-1]].get("reply") or "")
    if level == "intermediate" and details.get("experts"):
        view.debate = _debate(record, details, attr)
        view.agents = [f"Expert {i} ({e.get('role')})" for i, e in enumerate(view.debate.experts, 1)]
    elif level == "advanced" and details.get("teams"):
        view.teams = _teams(record, details, attr)
        view.agents = [str(m.get("role")) for t in view.teams.teams for m in t.members]
    elif level == "basic":
        view.basic = _basic(record, attr)
    order = sorted(range(len(calls)), key=lambda i: (float(calls[i].get("start_s") or 0.0), i))
    for number, index in enumerate(order, 1):
        call = calls[index]
        usage = call.get("usage") or {}
        view.calls.append(Call(
            number, str(call.get("role") or ""), attr.who.get(index, str(call.get("role") or "")),
            attr.step.get(index, ""), float(call.get("start_s") or 0.0), float(call.get("latency_s") or 0.0),
            _int(usage.get("input_tokens")), _int(usage.get("output_tokens")), _int(usage.get("cached_tokens")),
            bool(call.get("cached")), last_user(call), str(call.get("reply") or ""), call.get("error")))
    view.span_s = max((c.start_s + c.latency_s for c in view.calls), default=0.0)
    return view
