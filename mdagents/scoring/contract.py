"""The answer contract: every graded prompt ends with `Answer: (X) option text`, and this reads it strictly.

The last contract line decides. A line whose letter and option text name different options is a
conflict; a line naming two options is ambiguous; an earlier line that named another option counts
against the last one unless the reply revised itself in between ("Wait ...", "Final answer:").
A structured reply (`{"answer": "B"}`), `\\boxed{B}` and `<answer>B</answer>` arrive here as
`Final answer:` lines (see text.clean).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from mdagents.scoring.fallback import AMBIGUOUS as OFFERS_SEVERAL
from mdagents.scoring.fallback import REVISION, UNDECIDED, declared_later
from mdagents.scoring.text import _FOREIGN_ANSWER, options_meant, options_touched, words

CONFLICT = "conflict"
TRUNCATED = "truncated"
AMBIGUOUS = "ambiguous"
REFUSED = "refused"

_LINE = re.compile(
    r"^[ \t]*(?P<label>(?:(?P<final>final|revised|updated|corrected|new)\s+)?(?:correct\s+|best\s+)?(?:answer|ans)"
    r"|" + _FOREIGN_ANSWER + r")[ \t]*(?:is[ \t]*)?[:：=][ \t]*(?P<value>.*)$",
    re.IGNORECASE | re.MULTILINE)
_LETTER = re.compile(r"\s*(?:(?:option|choice|letter|letra|opci[oó]n|op[cç][aã]o|alternativa|विकल्प|选项|الخيار)\s*)?[(\[]?\s*([A-Za-z])\s*[)\]]?(?=$|[\s.,:;!)\]/&。，：-])",
                     re.IGNORECASE)
_ANOTHER_LETTER = re.compile(r"\s*(?:,|/|&|\bor\b|\band\b|\band/or\b|\bvs\.?|\bversus\b)\s*(?:option\s+)?"
                             r"[(\[]?\s*([A-Za-z])\s*[)\]]?(?![\w'’])", re.IGNORECASE)
_TEXT_ENDS = re.compile(r"\s*(?:[,;(]|\s[-–—]\s|\.(?:\s|$)|\b(?:because|since|as|given|due\s+to|which|as\s+the)\b)",
                        re.IGNORECASE)
_REFUSAL_VALUE = re.compile(r"^\s*(?:null|none|n/?a|unknown|-|cannot\b|can['’]t\b|unable\b|no\s+answer|undetermined|"
                            r"none\s+of\s+the)", re.IGNORECASE)


_UNSURE = re.compile(r"\b(?:not\s+sure|unsure|uncertain|could\s+also|might\s+also|may\s+also)\b", re.IGNORECASE)


@dataclass(frozen=True)
class LineReading:
    """One contract line: the option key it names, or None with the reason."""

    key: str | None
    reason: str | None
    start: int
    final: bool


def read_contract(body: str, options: dict[str, str], *, truncated: bool = False) -> LineReading | None:
    """The reply's committed answer by contract, or None when it has no readable contract line. In a reply
    cut by the token limit, a contract line still being written, or one the reply began to revise, is not one."""
    keys = {key.upper(): key for key in options}
    lines = [line for match in _LINE.finditer(body) if (line := _read_line(body, match, options, keys)) is not None]
    if not lines:
        return None
    last = lines[-1]
    if truncated and ((not body[last.start:].rstrip().count("\n") and last.key is not None
                      and set(words(body[last.start:].split(")", 1)[-1])) != set(words(options[last.key])))
                      or REVISION.search(body, last.start)):
        return LineReading(None, TRUNCATED, last.start, last.final)
    if last.key is None:
        return last
    for earlier in lines[:-1]:
        revised = REVISION.search(body, earlier.start, last.start)
        if earlier.key is not None and earlier.key != last.key and not revised:
            return LineReading(None, CONFLICT, last.start, last.final)
    before = body[:lines[0].start]  # "The correct answer is (C) ..." in the reasoning, then "Answer: (B)"
    said = declared_later(before, options)
    if said is not None and said not in (last.key, OFFERS_SEVERAL) and not REVISION.search(body, 0, last.start):
        return LineReading(None, CONFLICT, last.start, last.final)
    return _unless_retracted(body, last, options)


def _unless_retracted(body: str, last: LineReading, options: dict[str, str]) -> LineReading:
    """What follows the last contract line may take it back: a hedge makes it ambiguous, a revision
    ("Edit: ... the better answer is D") replaces it, another declaration without one is a conflict."""
    tail = body[last.start:].split("\n", 1)[1] if "\n" in body[last.start:] else ""
    if not tail.strip():
        return last
    if UNDECIDED.search(tail) or (REVISION.search(tail) and _UNSURE.search(tail)):
        return LineReading(None, AMBIGUOUS, last.start, last.final)  # "Actually, I'm not sure ..."
    later = declared_later(tail, options)
    if later is None or later == last.key:
        return last
    if later != OFFERS_SEVERAL and REVISION.search(tail):
        return LineReading(later, None, last.start, last.final)
    return LineReading(None, CONFLICT, last.start, last.final)


def _read_line(body: str, match: re.Match[str], options: dict[str, str], keys: dict[str, str]) -> LineReading | None:
    value = match.group("value").strip()
    if not value:  # "Answer:" with the answer on the next line
        value = next((line.strip() for line in body[match.end():].splitlines() if line.strip()), "")
        if _LINE.match(value):
            return None
    final = match.group("final") is not None
    at = match.start()
    letter = _letter(value)
    if letter is not None:
        key = keys.get(letter.group(1).upper())
        if key is None:
            return None  # "Answer: (X) option text" echoed from the prompt, or a letter this question lacks
        if _offers_another(value, letter.end(), key, options):
            return LineReading(None, AMBIGUOUS, at, final)
        text = _TEXT_ENDS.split(value[letter.end():].lstrip(" )].:–—-"), maxsplit=1)[0]
        meant = options_meant(text, options) or options_touched(text, options)
        if meant and key not in meant:
            return LineReading(None, CONFLICT, at, final)
        return LineReading(key, None, at, final)
    if _REFUSAL_VALUE.match(value):
        return LineReading(None, REFUSED, at, final)
    short = _TEXT_ENDS.split(value, maxsplit=1)[0]
    for text in (short, value) if len(value.split()) <= 12 else (short,):
        meant = options_meant(text, options)
        if len(meant) == 1:
            return LineReading(meant.pop(), None, at, final)
    return LineReading(None, AMBIGUOUS, at, final)


def _letter(value: str) -> re.Match[str] | None:
    """The option letter a contract value opens with; a lower-case one only when it stands alone ("a 45-year-old")."""
    match = _LETTER.match(value)
    if match is None or match.group(1).isupper():
        return match
    after = value[match.end(1):]
    return match if "(" in match.group(0) or re.match(r"\s*(?:$|[)\].:])", after) else None


_OR_OPTION = re.compile(r"(?:\bor\b|\band\b|/|&)\s*(?:option\s+)?(?:\(([A-Za-z])\)|([A-Z])\b(?![\w'’]))")


def _offers_another(value: str, end: int, key: str, options: dict[str, str]) -> bool:
    """The value goes on to offer a second option: "B or C", "(A) Ceftriaxone or (B) Metronidazole",
    "(A) Ceftriaxone or metronidazole"."""
    keys = {k.upper(): k for k in options}
    another = _ANOTHER_LETTER.match(value, end)
    found = [another.group(1)] if another else []
    found += [m.group(1) or m.group(2) for m in _OR_OPTION.finditer(value, end)]
    if any(keys.get(letter.upper(), key) != key for letter in found):
        return True
    clause = _TEXT_ENDS.split(value[end:], maxsplit=1)[0]
    return bool(re.search(r"\b(?:or|and/or)\b", clause)) and len(options_meant(clause, options)) > 1
