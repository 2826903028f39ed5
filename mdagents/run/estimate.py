"""Rough call/token/cost estimates for --dry-run, from each pipeline's call structure.

Calls are exact bounds from the algorithms (min: nobody debates; max: every round runs all its turns). Tokens are a rough guide: question length plus prompt overhead per
call, output of a typical reasoned reply. Treat them as an order of magnitude, not a quote.
"""

from __future__ import annotations

from dataclasses import dataclass

from mdagents.pipelines.base import PipelineSettings

PROMPT_OVERHEAD_TOKENS = 350
OUTPUT_TOKENS_PER_CALL = 220
HISTORY_FACTOR = {"basic": 1.0, "intermediate": 1.4, "advanced": 2.2}


@dataclass(frozen=True)
class LevelEstimate:
    level: str
    calls_min: int
    calls_max: int

    def tokens(self, question_tokens: int, calls: int) -> tuple[int, int]:
        factor = HISTORY_FACTOR.get(self.level, 1.0)  # a baseline method: no growing history
        return int(calls * (question_tokens + PROMPT_OVERHEAD_TOKENS) * factor), calls * OUTPUT_TOKENS_PER_CALL


def calls_per_question(level: str, s: PipelineSettings, n_questions: int, *, adaptive: bool) -> LevelEstimate:
    classify = 1 if adaptive else 0
    if level == "basic":
        rationales = s.num_exemplars if s.rationales == "per-question" else -(-s.num_exemplars // max(1, n_questions))
        calls = classify + 1 + rationales
        return LevelEstimate(level, calls, classify + 1 + s.num_exemplars if s.rationales == "per-question" else calls)
    if level == "intermediate":
        e = s.num_experts
        fixed = classify + 1 + e + 1  # recruit, initial opinions, moderator (the latest answers are the finals)
        # consensus on the initial opinions skips the debate; else one silent turn of participation checks
        smallest = fixed if s.consensus_stop else fixed + e
        # One call per expert per turn decides whether to talk and writes its messages.
        per_round = s.turns * e + 1 + e  # turns + summariser + updated answers
        return LevelEstimate(level, smallest, fixed + s.rounds * per_round)
    members = max(0, s.team_size - 1)
    calls = classify + 1 + s.num_teams * (2 + members) + 1  # recruit, per team: delegate+members+conclude, coordinator
    return LevelEstimate(level, calls, calls)
