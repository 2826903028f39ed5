"""The plugin API: everything a method of your own needs, in one import.

    from mdagents.methods.api import Question, MethodContext, Decision, answer_letter, final_answer, majority

    async def solve(question: Question, ctx: MethodContext) -> Decision | str:
        agent = ctx.agent(role="medical expert", instruction="You are a careful physician.", kind="my_agent")
        reply = await agent.ask(f"{question_text(question)}\\nEnd with: Answer: (X) option text")
        return reply

- `question`: `id`, `question`, `options` (letter -> text, in the order shown), `context`; the true
  answer is never needed (and must not be used).
- `ctx.agent(role=, instruction=, kind=, examples=)`: an Agent whose calls go through the run's one
  LLM client -- response cache, retries, in-flight limits, budget and the usage ledger apply, and
  every call lands in the question's transcript, booked under `kind`. `agent.ask(text, **params)`
  is a one-off call, `agent.chat(text)` keeps the turn in the agent's history; params are
  `temperature`, `seed`, `max_tokens`, and `**answer_params(question)` for replies that are answers.
- `ctx.exemplars`: train-split questions (with answers) for few-shot methods; `ctx.settings`: the
  run's pipeline settings; `ctx.say(text)`: a line under --verbose.
- The decision: the final text (graded by the project's grader: end it with `Answer: (X) option
  text`), or a `Decision(text=..., level=<your method's name>, details={...})` whose details go into
  the record. `answer_letter(reply, question.options)` reads a reply's letter as the grader does;
  `vote_decision` / `majority` vote over replies with the project's tie rule.
"""

from __future__ import annotations

from mdagents.agent import Agent
from mdagents.data.datasets import Question
from mdagents.methods.common import SAMPLING_TEMPERATURE, answerer, final_answer, sampled
from mdagents.methods.vote import Vote, majority, vote_decision
from mdagents.pipelines.answers import answer_letter, answer_params
from mdagents.pipelines.base import Decision, PipelineContext
from mdagents.pipelines.question_text import answer_line, question_text
from mdagents.prompts import load, render

MethodContext = PipelineContext

__all__ = ["SAMPLING_TEMPERATURE", "Agent", "Decision", "MethodContext", "Question", "Vote", "answer_letter",
           "answer_line", "answer_params", "answerer", "final_answer", "load", "majority", "question_text", "render",
           "sampled", "vote_decision"]
