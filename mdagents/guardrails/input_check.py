"""Regex input check: triage a patient message into emergency, crisis, out-of-scope or none.

Order matters: a crisis outranks an emergency (its message also gives the emergency number), and
both outrank out-of-scope, so "I have chest pain, do I have a heart problem?" is an emergency.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from mdagents.guardrails import input_patterns as P
from mdagents.guardrails.verdicts import INPUT_SEVERITIES, InputCheck

_F = re.IGNORECASE | re.DOTALL


def _compile(patterns: list[str]) -> list[re.Pattern[str]]:
    return [re.compile(p, _F) for p in patterns]


_EMERGENCY = {label: _compile(ps) for label, ps in P.EMERGENCY.items()}
_EMERGENCY_OTHER = _compile(P.EMERGENCY_OTHER)
_CRISIS = _compile(P.CRISIS)
_CRISIS_OTHER_LANGUAGES = _compile(P.CRISIS_OTHER_LANGUAGES)
_OUT_OF_SCOPE = {label: _compile(ps) for label, ps in P.OUT_OF_SCOPE.items()}
_PERSONAL, _PRESENT, _PAST, _GENERAL, _STATISTICS, _RECOVERED, _NOTHING_SAID, _TAKEN_BACK, _ANIMAL, _HUMAN = (
    re.compile(p, _F) for p in (P.PERSONAL, P.PRESENT, P.PAST, P.GENERAL, P.STATISTICS, P.RECOVERED, P.NOTHING_SAID,
                                P.TAKEN_BACK, P.ANIMAL, P.HUMAN))
_CHRONIC = re.compile(P.CHRONIC, _F)
_DENIED_INTENT, _NOT_ONE_OWN = re.compile(P.DENIED_INTENT, _F), re.compile(P.NOT_ONE_OWN, _F)
_FOR_ME = re.compile(r"\b(?:asking|it'?s|is) for (?:me|myself)\b", _F)
_FIRST_PERSON = re.compile(r"\b(?:i|i'?m|i'?ve|me|my|myself)\b", _F)
_OVERDOSE_SAID = _compile(P.OVERDOSE_SAID)
_OVERDOSE = _compile(P.OVERDOSE_TAKEN) + _EMERGENCY["overdose or poisoning"] + _OVERDOSE_SAID
_ACKNOWLEDGEMENT = re.compile(P.ACKNOWLEDGEMENT, _F)

CRITICAL = ("emergency", "mental_health_crisis")
# Earlier user messages a chat message is read with: a disclosure split over a few messages.
CONTEXT_MESSAGES = 2

# Out-of-scope categories that touch prescribing get "high"; the rest "medium".
_HIGH_OUT_OF_SCOPE = {"dosing or medication changes", "controlled substances"}


def normalise(text: str) -> str:
    """Lower-case, straight apostrophes, single spaces: what every pattern is written against."""
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u00a0", " ")
    return re.sub(r"\s+", " ", text).strip().lower()


def _first(patterns: list[re.Pattern[str]], text: str) -> str | None:
    for pattern in patterns:
        found = pattern.search(text)
        if found:
            return found.group(0)
    return None


def _framed(text: str, statistics: bool = False, past: bool = True) -> bool:
    """Whether `text` asks in general or tells of the past (or, with `statistics`, asks about rates)."""
    return bool(_GENERAL.search(text) or (past and _PAST.search(text)) or (statistics and _STATISTICS.search(text)))


# A sentence ends, or a contrast starts a new clause ("in general I'm fine, but right now ...").
_SENTENCE_END = re.compile(r"[.!?;\n。！？；؟।]|,? (?:but|pero|mais|mas|lekin|magar) |但是|可是|لكن|लेकिन")


def _told_now(text: str, hit: re.Match[str], statistics: bool = False) -> bool:
    """Whether the sentence that tells a sign says it of now, in a message framed as a whole as general or
    past: it says when, and is either not itself framed ("for my biology class: how does insulin work? I
    have a blade hidden and tonight I'll cut deep") or says it of someone ("my dad had a stroke last year
    and now his face is drooping again"). A "my" and a "now" elsewhere in a long story do not count."""
    sentence = _RECOVERED.sub(" ", _sentence(text, hit))
    return bool(_PRESENT.search(sentence)) and (not _framed(sentence, statistics) or bool(_PERSONAL.search(sentence)))


def _sentence(text: str, hit: re.Match[str]) -> str:
    start = max((m.end() for m in _SENTENCE_END.finditer(text, 0, hit.start())), default=0)
    end = next((m.start() for m in _SENTENCE_END.finditer(text, hit.end())), len(text))
    return text[start:end]


def _denied(text: str, hit: re.Match[str], *, emergency: bool = False) -> bool:
    """The sign is named to say it is absent: "she hasn't said anything about hurting herself"; for an `emergency`
    sign (never a crisis: "jk" may hide one), also taken back at once ("overdosed on caffeine lol jk"),
    or told of an animal right before it, with no person named there ("bakri ko saanp ne kaata")."""
    if _NOTHING_SAID.search(_sentence(text, hit)):
        return True
    before = text[max(0, hit.start() - 30):hit.end()]
    return emergency and bool(_TAKEN_BACK.match(text, hit.end()) or (_ANIMAL.search(before) and not _HUMAN.search(before)))


def _said_now(pattern_lists: list[list[re.Pattern[str]]], text: str, statistics: bool = False, *,
              emergency: bool = False, dated: frozenset[int] = frozenset()) -> list[str | None]:
    """For each list of patterns, the first match said of now (or None). Whether the message as a whole
    is said of now is worked out once, and only if something matched. For the lists at the `dated` positions
    a date in the message is the treatment's, and only a general question frames it."""
    whole: bool | None = None
    found: list[str | None] = []
    for at, patterns in enumerate(pattern_lists):
        hit = None
        for match in (m for p in patterns for m in p.finditer(text) if not _denied(text, m, emergency=emergency)):
            if whole is None:
                whole = not _framed(text, statistics)
            if whole or (at in dated and not _framed(text, statistics, past=False)) or _told_now(text, match, statistics):
                hit = match.group(0)
                break
        found.append(hit)
    return found


def emergency_signs(text: str) -> list[tuple[str, str]]:
    """(category, matched text) of every emergency sign described as happening now."""
    text = normalise(text)
    labels = [*_EMERGENCY, "emergency sign"]
    hits = _said_now([*_EMERGENCY.values(), _EMERGENCY_OTHER], text, emergency=True,
                     dated=frozenset(at for at, label in enumerate(_EMERGENCY) if label in P.DATED_BY_TREATMENT))
    found = [(label, hit) for label, hit in zip(labels, hits, strict=True) if hit]
    if found:
        return found
    taken = next((m.group(0) for p in _OVERDOSE_SAID for m in p.finditer(text) if not _denied(text, m, emergency=True)), None)
    return [("overdose or poisoning", taken)] if taken else []  # ten tablets or more, told in the first person


def crisis_signs(text: str) -> list[str]:
    """What matched of the crisis patterns; the other languages' words only when said of someone now. A crisis told
    as one's own intent denied, as long past and recovered from, or of someone in general or in a story is not one."""
    text = normalise(text)
    found = [m.group(0) for p in _CRISIS
             if (m := next((m for m in p.finditer(text) if not _denied(text, m) and not _not_a_crisis(text, m)), None))]
    others = [hit for hit in _said_now([[p] for p in _CRISIS_OTHER_LANGUAGES], text, statistics=True) if hit]
    return found + [hit for hit in others if not _not_a_crisis(text, next(re.finditer(re.escape(hit), text)))]


def _not_a_crisis(text: str, hit: re.Match[str]) -> bool:
    """The crisis words are denied in their sentence ("no tengo ideas de hacerme daño"), told of a past the writer
    has recovered from ("five years ago I attempted suicide ... I'm doing really well now"), or said of someone in
    general or of a story ("warning signs that someone might be thinking about suicide", "a novel where ...")."""
    sentence = _sentence(text, hit)
    own = _SENTENCE_END.split(hit.group(0))[0]
    return bool(_DENIED_INTENT.search(sentence)
                or (_PAST.search(sentence) and not _PRESENT.search(_RECOVERED.sub(" ", sentence)) and _RECOVERED.search(text))
                or (_NOT_ONE_OWN.search(sentence) and not _FIRST_PERSON.search(own) and not _FOR_ME.search(text)))


def denies_or_resolved(text: str) -> bool:
    """The writer says outright they mean no harm to themselves ("no tengo ideas de hacerme daño", "我不会做傻事的"), or
    tells of a past they have recovered from ("hace 10 años intenté suicidarme ... hoy estoy bien")."""
    text = normalise(text)
    return bool(_DENIED_INTENT.search(text) or (_PAST.search(text) and _RECOVERED.search(text)))


def out_of_scope_signs(text: str) -> list[tuple[str, str]]:
    text = normalise(text)
    return [(label, hit) for label, patterns in _OUT_OF_SCOPE.items() if (hit := _first(patterns, text))]


def overdose_taken(text: str) -> str | None:
    """What says an overdose has been taken (any supported language), or None."""
    text = normalise(text)
    return next((m.group(0) for p in _OVERDOSE for m in p.finditer(text) if not _TAKEN_BACK.match(text, m.end())), None)


def escalate_overdose(verdict: InputCheck, text: str) -> InputCheck:
    """An emergency or crisis message telling of an overdose already taken is an emergency first (the
    emergency message goes out) and, when it was read as a crisis, a crisis too (`also`)."""
    if verdict.intervention_type not in CRITICAL:
        return verdict
    hit = overdose_taken(text)
    if hit is None:
        return verdict
    crisis = verdict.intervention_type == "mental_health_crisis" or any(
        layer.get("intervention_type") == "mental_health_crisis" for layer in verdict.layers)
    also = ["mental_health_crisis"] if crisis or crisis_signs(text) else []
    verdict.also = sorted(set(verdict.also) | set(also))
    if verdict.intervention_type != "emergency":
        verdict.intervention_type = "emergency"
        verdict.explanation += "; an overdose already taken is a medical emergency"
    verdict.severity = "critical"
    if hit not in verdict.matched:
        verdict.matched.append(hit)
    return verdict


def mentions_chronic_condition(text: str) -> bool:
    return bool(_CHRONIC.search(normalise(text)))


def is_acknowledgement(text: str) -> bool:
    """True for a short "yes, I acknowledge" in any supported language (a long message is a new request)."""
    text = normalise(text)
    return len(text) <= 80 and bool(_ACKNOWLEDGEMENT.search(text))


def check_input(text: str) -> InputCheck:
    """The regex verdict for one patient message."""
    crisis = crisis_signs(text)
    if crisis:
        return InputCheck(True, "mental_health_crisis", "critical", True,
                          "suicidal thoughts or self-harm described", "regex", crisis)
    emergency = emergency_signs(text)
    if emergency:
        labels = sorted({label for label, _ in emergency})
        severity = min((P.EMERGENCY_SEVERITY.get(label, "high") for label in labels), key=INPUT_SEVERITIES.index)
        return InputCheck(True, "emergency", severity, True,
                          "possible emergency: " + ", ".join(labels), "regex", [hit for _, hit in emergency])
    scope = out_of_scope_signs(text)
    if scope:
        labels = sorted({label for label, _ in scope})
        severity = "high" if _HIGH_OUT_OF_SCOPE & set(labels) else "medium"
        return InputCheck(True, "out_of_scope", severity, True,
                          "outside an educational assistant's scope: " + ", ".join(labels), "regex",
                          [hit for _, hit in scope])
    return InputCheck.none()


def check_in_conversation(text: str, earlier: Sequence[str]) -> InputCheck:
    """The regex verdict for a chat message, read alone and then with the user's previous messages.

    "I feel like such a burden." then "I've been saving my pills." is a crisis only when read
    together. The combined reading counts only when the new message supplies part of what matched:
    a later harmless message is not flagged again for what an earlier one said (that one was
    flagged when it came)."""
    verdict = check_input(text)
    if verdict.intervention_type in CRITICAL or not earlier:
        return verdict
    before = ". ".join(earlier[-CONTEXT_MESSAGES:])
    together = check_input(f"{before}. {text}")
    if together.intervention_type not in CRITICAL:
        return verdict
    context = normalise(before)
    if all(hit in context for hit in together.matched):
        return verdict
    together.explanation += " (read with the previous messages)"
    return together
