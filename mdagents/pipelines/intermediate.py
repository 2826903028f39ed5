"""Intermediate (moderate complexity): a panel of experts debates, a moderator decides (paper §3.3).

1. Recruitment: a recruiter names `num_experts` experts and their hierarchy (fallback panel if unreadable).
2. Initial opinions: every expert answers independently (few-shot exemplars shown), concurrently.
3. Participatory debate: rounds of turns with targeted messages, until consensus, silence or the
   round limit (see debate.py).
4. Final answers: each expert's latest answer -- its update after the last round with talk, else
   its initial opinion. The original asked once more after the debate ("make your final answer")
   with nothing new in the expert's context since its last answer; that call is not made.
5. Moderator (temperature 0): majority vote or synthesis, given the hierarchy and the vote tally.
"""

from __future__ import annotations

import asyncio

from mdagents.data.datasets import Question
from mdagents.pipelines import exemplars, hierarchy
from mdagents.pipelines.answers import answer_letter, answer_params, vote_tally
from mdagents.pipelines.base import Decision, PipelineContext
from mdagents.pipelines.debate import Panelist, debate
from mdagents.pipelines.final import FinalStep
from mdagents.pipelines.question_text import question_text
from mdagents.pipelines.recruitment import Expert, default_panel, parse_experts
from mdagents.prompts import load, render


async def recruit(question: Question, ctx: PipelineContext) -> tuple[list[Expert], bool]:
    """The recruited experts, and whether the recorded default panel replaced an unreadable reply."""
    size = ctx.settings.num_experts
    recruiter = ctx.agent(role="recruiter", instruction=load("intermediate_recruiter_system"), kind="recruiter")
    reply = await recruiter.ask(render("intermediate_recruit", question=question_text(question), num_experts=size))
    experts = parse_experts(reply, size)
    if len(experts) >= min(2, size):
        return experts, False
    ctx.say(f"[intermediate] recruiter reply unreadable ({len(experts)} expert(s)): using the default panel")
    return default_panel(size), True


def _panel(experts: list[Expert], ctx: PipelineContext) -> list[Panelist]:
    return [Panelist(i, expert, ctx.agent(
        role=expert.role, kind="expert", shares_first_message=True,  # the same initial prompt for all
        instruction=render("intermediate_expert_system", role=expert.role,
                           description=expert.description or f"clinical practice as a {expert.role}")))
            for i, expert in enumerate(experts, 1)]


async def _initial_opinions(panel: list[Panelist], question: Question,
                            shots: list[tuple[Question, str]]) -> list[str]:
    examples = render("intermediate_examples", examples=exemplars.as_text(shots)) + "\n" if shots else ""
    prompt = render("intermediate_initial", examples=examples, question=question_text(question))
    return list(await asyncio.gather(*(p.agent.chat(prompt, **answer_params(question)) for p in panel)))


def _moderator_prompt(panel: list[Panelist], finals: list[str], letters: list[str | None],
                      tree_text: str, question: Question) -> str:
    answers = "\n\n".join(f"Expert {p.number} ({p.expert.role}): {text.strip()}"
                          for p, text in zip(panel, finals, strict=True))
    tally = ", ".join(f"({letter}) {votes}" for letter, votes in vote_tally(letters)) or "no readable votes"
    return render("intermediate_moderate", hierarchy=tree_text, answers=answers, tally=tally,
                  question=question_text(question))


async def solve(question: Question, ctx: PipelineContext) -> Decision:
    ctx.say("[intermediate] Step 1. Expert recruitment")
    # recruitment and the exemplars' rationales do not depend on each other
    (experts, fallback), shots = await asyncio.gather(recruit(question, ctx), exemplars.rationales(ctx))
    root = hierarchy.tree(experts)
    tree_text = hierarchy.render_tree(root)
    for i, expert in enumerate(experts, 1):
        ctx.say(f"Expert {i} ({expert.role}): {expert.description}")
    ctx.say(tree_text)

    panel = _panel(experts, ctx)
    ctx.say("[intermediate] Step 2. Initial opinions and participatory debate")
    initial = await _initial_opinions(panel, question, shots)
    outcome = await debate(panel, question, initial, ctx)
    if ctx.verbose:  # rendering the table costs real time at sweep scale
        ctx.say("Interaction log\n" + outcome.log.table([e.role for e in experts]))

    ctx.say("[intermediate] Step 3. Final answers and the moderator's decision")
    finals = outcome.opinions
    letters = [answer_letter(text, question.options) for text in finals]
    moderator = ctx.agent(role="moderator", instruction=load("intermediate_moderator_system"), kind="moderator")
    attempt = FinalStep(moderator, _moderator_prompt(panel, finals, letters, tree_text, question), question,
                        structured=ctx.settings.answer_format == "json")
    text = await ctx.finalize(question, attempt, ctx)
    ctx.say(f"Moderator's decision: {text.strip()}")
    return Decision(text=text, level="intermediate", details={
        "experts": [e.to_dict() for e in experts],
        "hierarchy": root,
        "interactions": outcome.log.to_list(),
        "interaction_matrix": outcome.log.matrix(),
        "rounds_run": outcome.rounds_run,
        "debate_stopped_by": outcome.stopped_by,
        "talk_unparsed": outcome.talk_unparsed,
        "recruitment_fallback": fallback,
        "summaries": outcome.summaries,
        "final_answers": {f"Expert {p.number} ({p.expert.role})": {"answer": letter, "text": reply}
                          for p, letter, reply in zip(panel, letters, finals, strict=True)},
    })
