"""How one multidisciplinary team works internally (advanced pipeline, paper §3.3).

The lead states what each assistant clinician should investigate; the assistants
investigate concurrently; the lead concludes with the team's report and answer. With
`--team-context staged`, reports of teams that worked earlier are shown to the lead.
"""

from __future__ import annotations

import asyncio

from mdagents.agent import Agent
from mdagents.data.datasets import Question
from mdagents.pipelines.answers import answer_params
from mdagents.pipelines.base import PipelineContext
from mdagents.pipelines.question_text import question_text
from mdagents.pipelines.teams import Member, Team
from mdagents.prompts import render


def _clinician(member: Member, kind: str, ctx: PipelineContext, *, shares_first_message: bool = False) -> Agent:
    return ctx.agent(role=member.role, kind=kind, shares_first_message=shares_first_message,
                     instruction=render("advanced_member_system", role=member.role,
                                        description=member.description or f"clinical practice as a {member.role}"))


def compile_reports(reports: dict[str, str]) -> str:
    """Team reports in the order the teams worked, each under its team's name."""
    return "\n\n".join(f"Team {i} - {name}\n{report.strip()}" for i, (name, report) in enumerate(reports.items(), 1))


async def run_team(team: Team, question: Question, earlier: dict[str, str], ctx: PipelineContext) -> str:
    """The team's report: the lead's conclusion after its assistants' investigations."""
    lead = _clinician(team.lead, "team_lead", ctx)
    context = render("advanced_earlier_reports", reports=compile_reports(earlier)) + "\n" if earlier else ""
    shown = question_text(question)
    ctx.say(f"[advanced] {team.name}: lead {team.lead.role}, {len(team.assistants)} assistant(s)")
    if not team.assistants:
        return await lead.chat(render("advanced_conclude", investigations="(no assistant clinicians)",
                                      context=context, question=shown), **answer_params(question))
    roster = "\n".join(m.role for m in team.assistants)
    delegation = await lead.chat(render("advanced_delegate", goal=team.name, assistants=roster,
                                        context=context, question=shown))
    prompt = render("advanced_investigate", goal=team.name, delegation=delegation.strip(), question=shown)
    investigations = await asyncio.gather(*(_clinician(m, "team_member", ctx, shares_first_message=True).ask(prompt) for m in team.assistants))
    gathered = "\n".join(f"[{m.role}]\n{text.strip()}"
                         for m, text in zip(team.assistants, investigations, strict=True))
    return await lead.chat(render("advanced_conclude", investigations=gathered, context="", question=shown),
                           **answer_params(question))
