"""Advanced (high complexity): multidisciplinary teams report, a coordinator decides (paper §3.3).

1. Recruitment: `num_teams` teams of `team_size`, one lead each, IAT first and FRDT last
   (recorded default structure if the reply is unreadable).
2. Team assessments. `team_context="isolated"` (default): every team assesses the case from
   the question alone, all teams concurrently -- the method's multidisciplinary teams each
   bring an independent assessment, and only the coordinator sees them side by side.
   `"staged"`: the Initial Assessment Team works first, then the specialist teams
   (concurrently) with the IAT's report, then the Final Review and Decision Team with all
   earlier reports.
3. The coordinator (temperature 0) decides from the compiled report of every team (the
   original passed only the IAT's report on).
"""

from __future__ import annotations

import asyncio

from mdagents.data.datasets import Question
from mdagents.pipelines.base import Decision, PipelineContext
from mdagents.pipelines.final import FinalStep
from mdagents.pipelines.mdt import compile_reports, run_team
from mdagents.pipelines.question_text import question_text
from mdagents.pipelines.teams import Team, default_teams, organise, parse_teams
from mdagents.prompts import load, render


async def recruit(question: Question, ctx: PipelineContext) -> tuple[list[Team], bool]:
    """The organised teams, and whether the recorded default structure replaced an unreadable reply."""
    num_teams, team_size = ctx.settings.num_teams, ctx.settings.team_size
    recruiter = ctx.agent(role="recruiter", instruction=load("advanced_recruiter_system"), kind="recruiter")
    reply = await recruiter.ask(render("advanced_recruit", question=question_text(question),
                                       num_teams=num_teams, team_size=team_size))
    teams = parse_teams(reply)
    if len(teams) >= min(2, num_teams):
        return organise(teams, num_teams, team_size), False
    ctx.say(f"[advanced] recruiter reply unreadable ({len(teams)} team(s)): using the default teams")
    return default_teams(num_teams, team_size), True


async def _assess(teams: list[Team], question: Question, ctx: PipelineContext) -> dict[str, str]:
    """Each team's report, in the teams' order."""
    if ctx.settings.team_context == "isolated":
        done = await asyncio.gather(*(run_team(team, question, {}, ctx) for team in teams))
        return dict(zip([team.name for team in teams], done, strict=True))
    reports: dict[str, str] = {}
    for stage in ("initial", "specialist", "final"):
        working = [team for team in teams if team.stage == stage]
        earlier = dict(reports)
        done = await asyncio.gather(*(run_team(team, question, earlier, ctx) for team in working))
        reports.update(zip([team.name for team in working], done, strict=True))
    return {team.name: reports[team.name] for team in teams}


async def solve(question: Question, ctx: PipelineContext) -> Decision:
    ctx.say("[advanced] Step 1. MDT recruitment")
    teams, fallback = await recruit(question, ctx)
    for team in teams:
        ctx.say(f"{team.name} ({team.stage}): " + ", ".join(
            f"{m.role}{' (Lead)' if m.lead else ''}" for m in team.members))

    ctx.say("[advanced] Step 2. Team assessments")
    reports = await _assess(teams, question, ctx)

    ctx.say("[advanced] Step 3. Coordinator's final decision")
    coordinator = ctx.agent(role="coordinator", instruction=load("advanced_coordinator_system"), kind="coordinator")
    prompt = render("advanced_coordinate", reports=compile_reports(reports), question=question_text(question))
    text = await ctx.finalize(question, FinalStep(coordinator, prompt, question,
                                                    structured=ctx.settings.answer_format == "json"), ctx)
    ctx.say(f"Coordinator's decision: {text.strip()}")
    return Decision(text=text, level="advanced", details={
        "teams": [team.to_dict() for team in teams],
        "reports": reports,
        "recruitment_fallback": fallback,
        "team_context": ctx.settings.team_context,
    })
