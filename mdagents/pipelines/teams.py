"""Reading the advanced recruiter's reply: multidisciplinary teams (MDTs), members and leads.

The requested format is the original's `Group 1 - Initial Assessment Team (IAT)` followed by
`Member 1: Cardiologist (Lead) - ...` lines; bold, headings, bullets and numbering are
tolerated. Every team gets exactly one lead (the first flagged, else its first member) and a
stage: the Initial Assessment Team runs first, specialist teams next, the Final Review and
Decision Team last. Stages are matched on "initial"/"IAT" and "final"/"FRDT" only (the
original also matched "decision" and "review", so a "Clinical Decision Team" ran twice);
without such names the first team is the IAT and the last the FRDT. Fewer than two readable
teams falls back to DEFAULT_TEAMS, recorded by the pipeline.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Literal

Stage = Literal["initial", "specialist", "final"]

_IAT = ("Initial Assessment Team (IAT)", (
    ("Emergency Physician", "Assesses the acute presentation and prioritises urgent problems."),
    ("General Internist", "Integrates the history, examination and laboratory findings."),
    ("Radiologist", "Interprets the imaging relevant to the case."),
))
_SPECIALISTS = (
    ("Diagnostic Evidence Team (DET)", (
        ("Pathologist", "Interprets laboratory, histological and microbiological evidence."),
        ("Clinical Pharmacologist", "Assesses drug effects, interactions and toxicity."),
        ("Medical Geneticist", "Considers inherited and congenital causes."),
    )),
    ("Treatment Planning Team (TPT)", (
        ("Attending Specialist Physician", "Plans evidence-based management of the condition."),
        ("General Surgeon", "Weighs operative against conservative management."),
        ("Clinical Pharmacist", "Checks dosing, contraindications and monitoring."),
    )),
)
_FRDT = ("Final Review and Decision Team (FRDT)", (
    ("Senior Consultant Physician", "Reviews all teams' findings and leads the final decision."),
    ("Clinical Decision Specialist", "Reconciles the teams' recommendations into one answer."),
    ("Evidence-Based Medicine Specialist", "Checks the decision against current guidelines and evidence."),
))


@dataclass(frozen=True)
class Member:
    role: str
    description: str
    lead: bool = False


@dataclass(frozen=True)
class Team:
    name: str
    members: tuple[Member, ...]
    stage: Stage = "specialist"

    @property
    def lead(self) -> Member:
        return next(m for m in self.members if m.lead)

    @property
    def assistants(self) -> list[Member]:
        return [m for m in self.members if not m.lead]

    def to_dict(self) -> dict[str, object]:
        return {"name": self.name, "stage": self.stage,
                "members": [{"role": m.role, "description": m.description, "lead": m.lead} for m in self.members]}


_MARKUP = re.compile(r"[*_`#]")
_GROUP = re.compile(r"^\W*(?:group|team|mdt)\s*(\d+)\b\s*[:.)\-–—]*\s*(.*)$", re.IGNORECASE)
_MEMBER = re.compile(r"^\s*(?:[-–—•]\s*)?(?:member\s*\d+\s*[:.)\-–—]\s*|\d+\s*[.)]\s+|[-–—•]\s+)(.+)$", re.IGNORECASE)
_SEPARATOR = re.compile(r"\s+[-–—]\s+|:\s+")
_LEAD = re.compile(r"\(\s*(?:team\s+)?lead(?:er)?\s*\)|\[\s*lead\s*\]|,\s*lead\b", re.IGNORECASE)


def _member(text: str) -> Member | None:
    parts = _SEPARATOR.split(text.strip(), maxsplit=1)
    role, description = parts[0], (parts[1] if len(parts) > 1 else "")
    lead = bool(_LEAD.search(role)) or bool(re.match(r"^\s*(?:team\s+)?lead(?:er)?\b", role, re.IGNORECASE))
    role = _LEAD.sub("", role).strip(" .:-–—")
    role = re.sub(r"^(?:team\s+)?lead(?:er)?\s*[:\-–—]\s*", "", role, flags=re.IGNORECASE)
    if not role or len(role.split()) > 10:
        return None
    return Member(role, description.strip(" .-–—"), lead)


def parse_teams(reply: str) -> list[Team]:
    """Teams in the order named, each with at least one member (stages and leads not yet set)."""
    teams: list[tuple[str, list[Member]]] = []
    for raw in reply.splitlines():
        line = _MARKUP.sub("", raw).strip()
        group = _GROUP.match(line)
        if group:
            name = group.group(2).strip(" .:-–—") or f"Team {group.group(1)}"
            teams.append((name, []))
            continue
        member_line = _MEMBER.match(line)
        if member_line and teams:
            member = _member(member_line.group(1))
            if member is not None:
                teams[-1][1].append(member)
    return [Team(name, tuple(members)) for name, members in teams if members]


def _with_one_lead(team: Team, size: int) -> Team:
    members = list(team.members)
    lead_at = next((i for i, m in enumerate(members) if m.lead), 0)
    lead = replace(members[lead_at], lead=True)
    others = [replace(m, lead=False) for i, m in enumerate(members) if i != lead_at]
    return replace(team, members=(lead, *others[: max(0, size - 1)]))


def _stage_of(name: str) -> Stage:
    if re.search(r"\binitial\b|\biat\b", name, re.IGNORECASE):
        return "initial"
    if re.search(r"\bfinal\b|\bfrdt\b", name, re.IGNORECASE):
        return "final"
    return "specialist"


def organise(teams: list[Team], num_teams: int, team_size: int) -> list[Team]:
    """One IAT first, specialists in between, one FRDT last; at most `num_teams` of `team_size`."""
    teams = [_with_one_lead(t, team_size) for t in teams]
    stages = [_stage_of(t.name) for t in teams]
    iat = next((i for i, s in enumerate(stages) if s == "initial"),
               next((i for i, s in enumerate(stages) if s != "final"), 0))
    finals = [i for i, s in enumerate(stages) if s == "final" and i != iat]
    frdt = finals[-1] if finals else (len(teams) - 1 if len(teams) > 1 and len(teams) - 1 != iat else None)
    middle = [i for i in range(len(teams)) if i not in (iat, frdt)]
    keep_middle = max(0, num_teams - 1 - (frdt is not None))
    ordered = [replace(teams[iat], stage="initial")]
    ordered += [replace(teams[i], stage="specialist") for i in middle[:keep_middle]]
    if frdt is not None and num_teams > 1:
        ordered.append(replace(teams[frdt], stage="final"))
    return _unique_names(ordered)


def _unique_names(teams: list[Team]) -> list[Team]:
    """Team names key the reports, so a repeated name gets a number."""
    seen: dict[str, int] = {}
    named = []
    for team in teams:
        seen[team.name] = seen.get(team.name, 0) + 1
        named.append(team if seen[team.name] == 1 else replace(team, name=f"{team.name} ({seen[team.name]})"))
    return named


def default_teams(num_teams: int, team_size: int) -> list[Team]:
    """The recorded fallback structure: IAT, specialist teams, FRDT."""
    middle = [_SPECIALISTS[i] if i < len(_SPECIALISTS)
              else (f"Specialist Team {i + 1}", _SPECIALISTS[i % len(_SPECIALISTS)][1])
              for i in range(max(0, num_teams - 2))]
    plans = [_IAT, *middle, _FRDT] if num_teams > 1 else [_IAT]
    teams = []
    for name, pool in plans:
        roles = [pool[i] if i < len(pool) else (f"Consultant {i + 1}", "Provides broad clinical judgement.")
                 for i in range(max(1, team_size))]
        teams.append(Team(name, tuple(Member(role, desc, lead=(i == 0)) for i, (role, desc) in enumerate(roles))))
    return organise(teams, num_teams, team_size)
