"""Critic layer 1, diagnostic rigor: no definitive treatment before the diagnosis is confirmed.

Recommending surgery, chemotherapy, radiotherapy, hysterectomy... fails when the clinical text
shows no confirmation of the diagnosis (biopsy, pathology, histology...) and the recommendation
does not itself ask for that step first. Mentions that are negated or deferred ("surgery is not
indicated", "antes de la cirugía") are not recommendations. Word lists: prompts/critic/rigor.txt.
"""

from __future__ import annotations

import re

from mdagents.critic.vocab import message, normalize, phrases

_CLAUSE_END = re.compile(r"[.!?;:,\n]|\s[-–]\s")
_WINDOW_BEFORE = 4
_WINDOW_AFTER = 3


def _negated(clause: str, start: int, end: int) -> bool:
    before = " ".join(clause[:start].split()[-_WINDOW_BEFORE:])
    after = " ".join(clause[end:].split()[:_WINDOW_AFTER])
    negation = phrases("rigor", "negation")
    return bool(negation.search(before) or negation.search(after))


def recommended_treatments(text: str) -> list[str]:
    """Definitive treatments the text recommends (not negated or deferred), as written, normalized."""
    found: list[str] = []
    for clause in _CLAUSE_END.split(normalize(text)):
        for match in phrases("rigor", "definitive_treatment").finditer(clause):
            if not _negated(clause, match.start(), match.end()) and match.group(0) not in found:
                found.append(match.group(0))
    return found


def has_confirmation(text: str, *, case: bool = False) -> bool:
    """A biopsy, pathology, histology… in the text; in the clinical text of the case (`case`), also a
    named malignancy ("known adenocarcinoma"), which is the case's diagnosis, not a guess."""
    normalized = normalize(text)
    if phrases("rigor", "confirmation").search(normalized) is not None:
        return True
    return case and phrases("rigor", "diagnosis_in_case").search(normalized) is not None


def rigor_issues(recommendation: str, clinical_text: str) -> list[str]:
    """Fail a definitive treatment when neither the clinical text nor the recommendation confirms the diagnosis."""
    treatments = recommended_treatments(recommendation)
    if not treatments or has_confirmation(clinical_text, case=True) or has_confirmation(recommendation):
        return []
    return [message("unconfirmed_treatment", treatments=", ".join(treatments))]
