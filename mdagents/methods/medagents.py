"""medagents[:experts:option_experts:rounds]: multi-disciplinary collaboration, Tang et al. 2024.

Tang X, Zou A, Zhang Z, Li Z, Zhao Y, Zhang X, Cohan A, Gerstein M. "MedAgents: Large Language
Models as Collaborators for Zero-shot Medical Reasoning", Findings of ACL 2024 (arXiv:2311.10537).
The five steps of the paper:

1. Expert gathering: the model names the fields of medicine the question belongs to (`experts`,
   default 5) and those its options belong to (`option_experts`, default 2): two calls.
2. Individual analyses: each question expert analyses the question; each option expert then
   analyses the options in the light of the question analyses (concurrently within each group).
3. Report summary: an assistant summarises all analyses into a report (key knowledge, total analysis).
4. Collaborative consultation: every question expert votes on the report; if any disagrees, the
   report is revised with their advice and voted on again, for at most `rounds` (default 3) votes.
5. Decision making: a decision maker answers from the final report (temperature 0, through the run's
   final step, so --rag and --critic may wrap it).

Calls: 2 + experts + option_experts + 1 + (experts per vote + 1 per revision) + 1; with agreement at
the first vote, 16 at the defaults. Deviations: a vote is a disagreement only when it says so
("Agree: no"), a reply that is neither counts as agreement; an unreadable list of fields falls back to
general fields (recorded in details); answers end with the project's answer line.
"""

from __future__ import annotations

import asyncio
import re

from mdagents.agent import Agent
from mdagents.data.datasets import Question
from mdagents.methods.common import final_answer
from mdagents.pipelines.base import Decision, PipelineContext
from mdagents.pipelines.question_text import options_line, question_text
from mdagents.prompts import render

NAME = "medagents"
PARAMS = ("experts", "option_experts", "rounds")
DEFAULTS = (5, 2, 3)
ONE_FINAL_CALL = True
FALLBACK_FIELDS = ("Internal Medicine", "Emergency Medicine", "Pharmacology", "Pathology", "Surgery",
                   "Pediatrics", "Neurology", "Cardiology", "Infectious Diseases", "Radiology")
_NUMBERED = re.compile(r"^\s*(?:\d+[.)]|[-*•])\s*(.+?)\s*$")
_AGREE = re.compile(r"agree\s*[:=]?\s*\**\s*(yes|no)\b", re.IGNORECASE)


def calls(experts: int = 5, option_experts: int = 2, rounds: int = 3) -> tuple[int, int]:
    """(fewest, most) calls per question: agreement at the first vote, or a revision after every vote."""
    fixed = 2 + experts + option_experts + 1 + 1
    return fixed + experts, fixed + rounds * experts + (rounds - 1)


def parse_fields(reply: str, n: int) -> list[str]:
    """Up to n distinct field names from a numbered (or bulleted) list."""
    fields: list[str] = []
    for line in reply.splitlines():
        match = _NUMBERED.match(line)
        name = re.sub(r"[*_`#]", "", match.group(1)).strip(" .:") if match else ""
        if name and len(name) <= 60 and name.lower() not in {f.lower() for f in fields}:
            fields.append(name)
    return fields[:n]


async def _fields(ctx: PipelineContext, subject: str, n: int, kind: str) -> tuple[list[str], bool]:
    gatherer = ctx.agent(role="medical expert", instruction=render("method_medagents_system", field="medicine"),
                         kind=kind)
    fields = parse_fields(await gatherer.ask(render("method_medagents_domains", subject=subject, n=n)), n)
    if len(fields) == n:
        return fields, False
    extra = [f for f in FALLBACK_FIELDS if f.lower() not in {x.lower() for x in fields}]
    return (fields + extra)[:n], True


def expert(ctx: PipelineContext, field: str, kind: str) -> Agent:
    return ctx.agent(role=field, instruction=render("method_medagents_system", field=field), kind=kind)


def agrees(reply: str) -> bool:
    found = _AGREE.findall(reply)
    return not found or found[0].lower() == "yes"


async def solve(question: Question, ctx: PipelineContext, experts: int = 5, option_experts: int = 2,
                rounds: int = 3) -> Decision:
    text = question_text(question)
    (q_fields, q_fallback), (o_fields, o_fallback) = await asyncio.gather(
        _fields(ctx, f"Question: {text}", experts, "domain_gatherer"),
        _fields(ctx, f"The options of this question: {options_line(question.options)}\n\nQuestion: {text}",
                option_experts, "domain_gatherer"))
    ctx.say(f"[medagents] question experts: {', '.join(q_fields)}; option experts: {', '.join(o_fields)}")
    q_experts = [expert(ctx, f, "question_expert") for f in q_fields]
    q_analyses = await asyncio.gather(*(e.ask(render("method_medagents_question_analysis", field=e.role,
                                                     question=text)) for e in q_experts))
    shown = "\n\n".join(f"[{e.role}] {a.strip()}" for e, a in zip(q_experts, q_analyses, strict=True))
    o_experts = [expert(ctx, f, "option_expert") for f in o_fields]
    o_analyses = await asyncio.gather(*(e.ask(render("method_medagents_option_analysis", field=e.role,
                                                     analyses=shown, question=text)) for e in o_experts))
    shown += "\n\n" + "\n\n".join(f"[{e.role}] {a.strip()}" for e, a in zip(o_experts, o_analyses, strict=True))
    assistant = ctx.agent(role="report assistant", instruction=render("method_medagents_system", field="medicine"),
                          kind="report_assistant")
    report = await assistant.ask(render("method_medagents_summary", analyses=shown, question=text))
    votes: list[int] = []
    for vote in range(1, rounds + 1):
        replies = await asyncio.gather(*(e.ask(render("method_medagents_vote", field=e.role, report=report.strip(),
                                                      question=text)) for e in q_experts))
        against = [(e, r) for e, r in zip(q_experts, replies, strict=True) if not agrees(r)]
        votes.append(len(replies) - len(against))
        if not against or vote == rounds:
            break
        advice = "\n\n".join(f"[{e.role}] {r.strip()}" for e, r in against)
        report = await assistant.ask(render("method_medagents_revise", report=report.strip(), advice=advice,
                                            question=text))
    decider = ctx.agent(role="decision maker", instruction=render("method_medagents_system", field="medicine"),
                        kind="decision_maker")
    answer = await final_answer(question, ctx, decider, render("method_medagents_decide", report=report.strip(),
                                                                question=text))
    return Decision(text=answer, level=NAME, details={
        "question_experts": q_fields, "option_experts": o_fields, "fields_fallback": q_fallback or o_fallback,
        "votes_in_favour": votes, "consensus": votes[-1] == experts})
