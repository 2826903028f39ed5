"""A pattern's emergency or crisis flag on a short message is set aside only when the classifier, reading
all of it, is confident that it is neither; never for a long message or a turn read with earlier ones."""

from __future__ import annotations

from typing import Any

import pytest

from mdagents.guardrails.checker import Guardrails
from mdagents.guardrails.semantic import SemanticVerdict
from mdagents.guardrails.triage import PATTERN_VETO

FRAMED = "what does 'passive suicidal ideation' mean? saw it in an article"  # the patterns flag it a crisis
OVERDOSE_PAST = "my brother overdosed two years ago and is in recovery now, how can I help him avoid relapse?"


class FixedClassifier:
    """Stands in for SemanticTriage: the same probabilities for every message."""

    def __init__(self, critical: float, *, whole: bool = True) -> None:
        rest = 1.0 - critical
        self.probabilities = {"emergency": critical / 2, "mental_health_crisis": critical / 2, "out_of_scope": 0.0,
                              "none": rest}
        self.whole = whole
        self.read: list[str] = []

    def reads_whole(self, text: str) -> bool:
        return self.whole

    def _verdict(self) -> SemanticVerdict:
        critical = self.probabilities["emergency"] + self.probabilities["mental_health_crisis"]
        kind = "mental_health_crisis" if critical >= 0.5 else "none"
        return SemanticVerdict(kind, "critical" if kind != "none" else "low", dict(self.probabilities))

    def classify_message(self, text: str) -> SemanticVerdict:
        self.read.append(text)
        return self._verdict()

    def classify_many(self, texts: list[str]) -> list[SemanticVerdict]:
        self.read.extend(texts)
        return [self._verdict() for _ in texts]


def _guardrails(classifier: FixedClassifier) -> Guardrails:
    semantic: Any = classifier
    return Guardrails("semantic", semantic=semantic)


@pytest.mark.parametrize("text", [FRAMED, OVERDOSE_PAST])
async def test_a_confident_classifier_sets_the_patterns_flag_aside(text: str) -> None:
    assert (await Guardrails("regex").check_input(text)).intervention_type in ("emergency", "mental_health_crisis")
    verdict = await _guardrails(FixedClassifier(PATTERN_VETO / 2)).check_input(text)
    assert verdict.intervention_type == "none" and verdict.also == []
    regex = next(layer for layer in verdict.layers if layer["layer"] == "regex")
    assert regex["intervention_type"] == "none" and "set aside" in regex["why"] and regex["matched"]


async def test_a_classifier_that_is_not_sure_leaves_the_flag() -> None:
    verdict = await _guardrails(FixedClassifier(PATTERN_VETO * 1.5)).check_input(FRAMED)
    assert verdict.intervention_type == "mental_health_crisis" and "regex" in verdict.source


async def test_a_message_read_through_a_window_keeps_the_flag_without_asking_the_classifier() -> None:
    classifier = FixedClassifier(0.0, whole=False)
    verdict = await _guardrails(classifier).check_input(FRAMED)
    assert verdict.intervention_type == "mental_health_crisis" and classifier.read == []


async def test_a_chat_turn_with_earlier_turns_keeps_the_flag() -> None:
    from mdagents.llm.types import Message

    classifier = FixedClassifier(0.0)
    verdict = await _guardrails(classifier).check_input(FRAMED, [Message("user", "hello")])
    assert verdict.intervention_type == "mental_health_crisis" and classifier.read == []


async def test_regex_mode_never_sets_a_flag_aside() -> None:
    assert (await Guardrails("regex").check_input(FRAMED)).intervention_type == "mental_health_crisis"
