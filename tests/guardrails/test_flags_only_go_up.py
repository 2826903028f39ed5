"""A pattern's emergency or crisis flag is never lowered by the classifier, however sure it is: a sign
told in the middle of a message about something else scores low when the message is read whole."""

from __future__ import annotations

from typing import Any

import pytest

from mdagents.guardrails.checker import Guardrails
from mdagents.guardrails.semantic import SemanticVerdict

FRAMED = "what does 'passive suicidal ideation' mean? saw it in an article"  # the patterns flag it a crisis
BURIED = ("Hi, I wanted to ask about a diabetic diet for my mum, she loves bread. Also my dad just collapsed and "
          "is not breathing, what foods are best for her?")


class SureItIsNothing:
    """Stands in for SemanticTriage: every message is harmless with certainty."""

    def __init__(self) -> None:
        self.read: list[str] = []

    def _verdict(self) -> SemanticVerdict:
        return SemanticVerdict("none", "low", {"emergency": 0.0, "mental_health_crisis": 0.0, "out_of_scope": 0.0,
                                               "none": 1.0})

    def classify_message(self, text: str) -> SemanticVerdict:
        self.read.append(text)
        return self._verdict()

    def classify_many(self, texts: list[str]) -> list[SemanticVerdict]:
        self.read.extend(texts)
        return [self._verdict() for _ in texts]


@pytest.mark.parametrize("text", [FRAMED, BURIED])
async def test_a_sure_classifier_never_lowers_the_patterns_flag(text: str) -> None:
    flagged = (await Guardrails("regex").check_input(text)).intervention_type
    assert flagged in ("emergency", "mental_health_crisis")
    classifier = SureItIsNothing()
    semantic: Any = classifier
    verdict = await Guardrails("semantic", semantic=semantic).check_input(text)
    assert verdict.intervention_type == flagged and verdict.severity == "critical"
    assert classifier.read == []  # it could only have confirmed the flag, so it was not asked
