"""The last resort for a reply that states no answer: the one option it names and does not rule out.

An option counts when its text (`option_text`) or its letter (`letter`) is named outside a negation
("not C", "B is wrong", "rather than metformin"), a condition or an offer of two ("X or Y"). One option
named is the answer; one text and another letter, or two options offered, are AMBIGUOUS; several named
without a conclusion are none.
"""

from __future__ import annotations

import re

from mdagents.scoring.statements import AMBIGUOUS, LIST_ITEM, NEGATED_AFTER, OPTION_LIST, SPLIT_YES_NO
from mdagents.scoring.text import (
    normalise,
    options_meant,
    options_touched,
    phrase_regex,
    spelling_regex,
    words,
)

OPTION_TEXT, LETTER = "option_text", "letter"
_NEGATED_BEFORE = re.compile(
    r"(?:\bnot|n['’]t|\brather\s+than|\binstead\s+of|\bunlike|\bover|\brule\s+out|\bruled\s+out|\bruling\s+out|"
    r"\bexclude[sd]?|\bexcluding|\beliminate[sd]?|\bagainst|\bavoid|\bno\s+role\s+for|\bless\s+likely|\bwithout|"
    r"\bno\s+need\s+for|\bneither|\bnor|\bwhereas|\bbut\s+not|\bvs\.?|\bversus|\bthan)\s+(?:\w+\s+){0,2}$", re.IGNORECASE)
UNDECIDED = re.compile(
    r"\b(?:it\s+depends\b|either\s+[\"“]?(?:yes|no|maybe)[\"”]?\s+or\s+[\"“]?(?:yes|no|maybe)\b|(?:are|is)\s+both\s+(?:equally\s+)?(?:plausible|possible|reasonable|defensible|correct)|"
    r"are\s+(?:essentially\s+|basically\s+|effectively\s+)?tied\b|"
    r"not\s+enough\s+information|(?:cannot|can['’]t|unable\s+to)\s+(?:determine|choose|pick|decide|tell|commit|select)|"
    r"accept\s+either|report(?:ing)?\s+both\s+(?:positions|answers|views|options)|(?:won['’]t|will\s+not)\s+override|(?:would|could)\s+be\s+equally\s+(?:valid|correct|reasonable|acceptable|defensible)|"
    r"(?:i['’]?ll|i\s+will|let['’]?s)\s+leave\s+(?:it\s+at\s+)?both\b|"
    r"\bor\s+(?:yes|no|maybe|\(?[A-E]\)?),?\s+(?:it['’]?s\s+)?(?:hard|difficult)\s+to\s+(?:say|tell)|hard\s+to\s+(?:say|tell|decide)\s+which|leave\s+(?:both|it|the\s+(?:choice|decision))\s+(?:\w+\s+)?to\s+the\s+reader|either\s+could\s+be|\(?[A-E]\)?\s+(?:is|seems|looks)\s+(?:just\s+)?(?:as|equally)\s+(?:plausible|likely|"
    r"possible|valid|defensible|reasonable)|(?:both|either)\s+(?:are|is|could\s+be|seem|would\s+be)\s+(?:equally\s+)?"
    r"(?:defensible|reasonable|correct|right|acceptable|plausible|possible|valid)|torn\s+between|somewhere\s+between|"
    r"(?:won['’]?t|will\s+not)\s+(?:choose|commit|pick)|(?:would\s+not|wouldn['’]t)\s+commit|"
    r"(?:could\s+not|couldn['’]t|did\s+not|didn['’]t|failed\s+to|unable\s+to)\s+reach\s+(?:a\s+|an\s+|any\s+)?(?:consensus|decision|agreement|"
    r"verdict|conclusion|majority)|depend(?:s|ing)\s+on\s+which|before\s+committing(?!\s+to\s+(?!(?:an?\s+|one\s+)?(?:answer|option|choice)))|"
    r"(?:choice|answer|decision)\s+depends\s+on|\(?[A-E]\)?\s+and\s+\(?[A-E]\)?\s+(?:are\s+)?(?:equally|both)\s+(?:valid|correct|"
    r"reasonable|acceptable|defensible|plausible)|"
    r"not\s+yet\s+(?:reached|decided|agreed)|no\s+consensus|without\s+(?:a\s+)?consensus|undecided|(?:a|is\s+|the\s+)tie[ds]?|(?:evenly|equally)\s+split|"
    r"none\s+of\s+the\s+(?:listed\s+|given\s+)?(?:options|answers|choices)\s+(?:is|are|fits?)|"
    r"j'h[ée]site\s+entre|dudo\s+entre|estoy\s+entre|fico\s+entre|em\s+d[úu]vida\s+entre|schwanke\s+zwischen|sono\s+indecis[oa]|"
    r"indeciso\s+entre|les\s+deux\s+(?:diagnostics\s+)?(?:restent|sont)\s+d[ée]fendables)\b|犹豫|拿不准|迷って|고민", re.IGNORECASE)
_TWO_OFFERED = re.compile(  # "either B or A", "B or D", "both A and C", "A/B" (not "neither ... nor")
    r"(?<!neither )(?:\b(?:either|both)\s+)?(?:option\s+)?\(?\b([A-E])\b\)?\s*(?:or|/|and/or)\s*(?:option\s+)?"
    r"\(?\b([A-E])\b\)?(?![\w'’-])|\b(?i:both|between)\s+\(?([A-E])\)?\s+and\s+\(?([A-E])\)?(?![\w'’-])"
    r"|(?<![\w'’-])([A-E]),\s*([A-E]),?\s*(?:and|or|&)\s*\(?([A-E])\b\)?(?![\w'’-])"  # "the hepatotoxic drugs are A, B and C"
    r"|(?<![\w'’-])\(?([A-E])\)?\s*\+\s*\(?([A-E])\)?(?![\w'’-])")  # "A + B + C": a combination
_MENTION = re.compile(
    r"\(\s*([A-Za-z])\s*\)|(?<![\w(])([A-Z])\)|\b(?:option|choice|answer|letter)\s+\(?([A-Za-z])\b\)?"
    r"|^\s*([A-Z])[.:)]?\s*(?:[-–—]\s|$|(?=\s+(?:is|would|seems|does|and|or)\b))|(?<![\w'’-])([A-Z])(?=\s*(?:[.!?]\s*$|$))"
    r"|(?:^|(?<=[.!?;]\s))([B-E])(?=\s+[a-z])"  # a sentence about a letter: "C shortens the QT." (not "A 45-year-old")
    # typed in a hurry: "ans c", "def D", "going w/ A", "its A bro", "La C, definitivamente", "我选A", "A obv"
    r"|\b(?i:ans)\s*(?:(?i:is)\s*)?[-:.]?\s*\(?([a-eA-E])\)?(?![\w'’-])"
    r"|(?:\b(?i:def(?:initely)?|prob(?:ably)?|going\s+(?:w/|with)|i['’]?m\s+going|it['’]?s|its|la|letra|opci[oó]n)\s+|我?选|应该是)"
    r"\(?([A-E])\)?(?![\w'’-])"
    r"|^\s*\(?([A-E])\)?(?=\s+(?i:obv\w*|for\s+sure|bro|lol|def(?:initely)?)\b|[ \t]*[💯😂👍✅])",
    re.MULTILINE)


# An option described in general, not concluded: "Intussusception usually gives colicky pain ...".
_DESCRIBED_AFTER = re.compile(r"\s+(?:usually|typically|classically|generally|tends?\s+to|is\s+(?:when|where|defined|"
                              r"characteri[sz]ed|caused))\b", re.IGNORECASE)  # "... is when a child inhales an object"
# Options attributed to others in a report of positions: "Experts 1 and 2 support SIADH", "Expert 3 chose ...".
_ATTRIBUTED = re.compile(r"\b(?:experts?(?:\s+\d+(?:\s*(?:,|and|&)\s*\d+)*)?|no\s+expert|nobody|no\s+one|all\s+experts|"
                         r"the\s+report|\w+ologists?)\s+(?:\w+\s+){0,2}(?:support\w*|chose|choose|chooses|favou?r\w*|prefer\w*|"
                         r"maintain\w*|argue\w*|vote\w*|pick\w*|select\w*|suggest\w*|propos\w*|recommend\w*|said|says)\b[^.;\n]*$",
                         re.IGNORECASE)
_LISTED_LINE = re.compile(r"\s*" + LIST_ITEM + r"\s")  # "4. Hepatoblastoma": an item of a list, not a conclusion


def negated(text: str, start: int, end: int) -> bool:
    before = re.split(r"[.;!?\n]", text[max(0, start - 40):start])[-1]
    after = re.sub(r"^\s+[a-e](?=\s)", "", text[end:end + 62])  # "diltiazem d is harmful": the letter "(D)" normalised
    return bool(_NEGATED_BEFORE.search(before) or NEGATED_AFTER.match(after))


def in_doubt(text: str) -> bool:
    """Two letters offered as alternatives (not both ruled out), two under conditions, or no decision."""
    offered = any(not re.search(r"\b(?:not|neither|nor|none\s+of|rule\s+out|ruled\s+out|excluding|except)\s+(?:\w+\s+)?"
                                r"(?:[A-E],\s*)*$", text[max(0, m.start() - 30):m.start()], re.IGNORECASE)
                  for m in _TWO_OFFERED.finditer(text))
    return offered or conditional_letters(text) > 1 or UNDECIDED.search(text) is not None


def conditional_letters(text: str) -> int:
    """Distinct letters given as answers under conditions: "If stable, B; if not, D", "... otherwise, (B)"."""
    found = set(re.findall(r"\bif\b[^.;:\n]{0,80}?,\s*(?:then\s+)?\(?([A-E])\)?(?![\w'’-])", text, re.I))
    for sentence in re.split(r"(?<=[.;!?])\s+|\n", text):
        if re.search(r"\b(?:if|otherwise|unless|else)\b", sentence, re.I):
            found |= set(re.findall(r"(?:\(|\b(?:is|be|choose|option)\s+)([A-E])\b(?![\w'’-])", sentence))
    for line in text.splitlines():  # "So: for the acute episode, A; if the question means ..., D." / "B, unless ..., in which case D."
        if re.search(r"\b(?:if|unless|in\s+which\s+case)\b", line, re.I):
            clause_ends = set(re.findall(r"(?:^|[\s,:;(])\(?([A-E])\)?(?=\s*(?:[.;,!]|$))", line))
            found |= clause_ends if len(clause_ends) > 1 else set()
    return len(found)


def _texts_named(text: str, options: dict[str, str], *, offers: list[str] | None = None) -> list[str]:
    """Options whose text is named outside a negation (a text inside a longer named one counts once)."""
    hits: dict[str, str] = {}
    for key, option in options.items():
        norm = normalise(option)
        if len(norm) < 3 or norm in ("yes", "no", "maybe"):
            continue
        for match in spelling_regex(norm).finditer(text):
            if (negated(text, match.start(), match.end()) or _DESCRIBED_AFTER.match(text, match.end())
                    or _ATTRIBUTED.search(text, max(0, match.start() - 120), match.start())):
                continue
            if offers is not None and _offered_with_another(text, match.start(), match.end(), key, options):
                offers.append(key)
            elif offers is not None or not re.search(r"\b(?:would\s+be\s+acceptable|alternatives?|also|or)\b",
                                                     text[max(0, match.start() - 30):match.end() + 30]):
                hits[key] = norm
    return [k for k, v in hits.items() if not any(v != o and re.search(rf"(?<![\w-]){re.escape(v)}(?![\w-])", o)
                                                 for o in hits.values())]


def read_mentions(body: str, options: dict[str, str]) -> tuple[str | None, str]:
    """(option key or AMBIGUOUS, step), or (None, "none"). The option must be named in the first or the last
    sentence: a reply that states no answer commits, if at all, where it opens or where it concludes."""
    closing = body.strip().splitlines()[-1] if body.strip() else ""
    if {v.lower() for v in options.values()} == {"yes", "no", "maybe"} and SPLIT_YES_NO.search(closing):
        return AMBIGUOUS, OPTION_TEXT  # "So: yes for long-term outcomes, no for short-term outcomes."
    phrase = body.strip().rstrip(".!")
    if len(phrase.split()) <= 4 and re.fullmatch(r"[\w'’ /-]+", phrase) and not re.search(
            r"_[A-E]\b|\b(?i:and|or|not|no|nor|plus|with|vs|is|are)\b", phrase):  # "Class A": the letter, or class A?
        meant = options_meant(phrase, options)  # the whole reply is a name: "Thiamine", "NMS", "D-dimer"
        if len(meant) == 1:
            return meant.pop(), OPTION_TEXT
    closing = body.strip().splitlines()[-1].strip() if body.strip() else ""
    if re.fullmatch(r"[A-Za-z][\w'’ -]{2,40}[.!]", closing) and not _texts_named(normalise(closing), options) \
            and len(closing.split()) <= 4 and not re.search(r"\b[A-E]\b", closing) \
            and not set(normalise(closing).split()) & {normalise(v) for v in options.values()}:
        return None, "none"  # "Devic disease.": a conclusion in words no option has (an alias: the extractor's)
    offers: list[str] = []
    named = _texts_named(normalise(body), options, offers=offers)
    if offers and not named:
        return AMBIGUOUS, OPTION_TEXT
    if named and (in_doubt(body) or re.search(r"\beither\b", body, re.I)):
        return AMBIGUOUS, OPTION_TEXT
    sentences = [s for s in re.split(r"(?<=[.!?。])\s+|\n", body.strip()) if s.strip()] or [""]
    last = sentences[-1]
    if len(named) > 1 and len(set(OPTION_LIST.findall(body))) < 2:  # several named: the ones in the conclusion
        if re.search(r"\b(?:if|unless|otherwise|in\s+which\s+case|(?:be\s+)?ruled\s+out)\b", last, re.I) \
                or _LISTED_LINE.match(last):
            return AMBIGUOUS, OPTION_TEXT  # "X. However, Y must be ruled out: if ..., the answer would be C instead."
        named = _texts_named(normalise(last), options)
    letter = _letter(body, options)
    said, step = (None, "none")
    if len(named) == 1 and letter not in (None, named[0]) and options_touched(last, options) == {letter}:
        said, step = letter, LETTER  # "... S. aureus in early childhood ... The organism is Pseudomonas — option A."
    elif len(named) == 1:
        said, step = (AMBIGUOUS if letter not in (None, named[0]) else named[0]), OPTION_TEXT
    elif not named and (yes_no := _yes_no_word(body, options)) is not None:
        said, step = (AMBIGUOUS if letter not in (None, yes_no) else yes_no), OPTION_TEXT  # "... no. Maybe C, or B"
    elif letter is not None:
        said, step = letter, LETTER
    concluded = said not in options or any(normalise(options[said]) in normalise(end) or set(words(options[said])) <= set(words(end)) or re.search(
        rf"(?<![\w'’-])\(?{said}\)?(?![\w'’-])", end) for end in (sentences[0], last))
    return (said, step) if concluded else (None, "none")


def _offered_with_another(text: str, start: int, end: int, key: str, options: dict[str, str]) -> bool:
    """An option text offered as one of two ("X or Y", "either X or Y"), with another treatment under a
    condition ("the vaccine, and HBIG if ..."), or beside another option's words in one sentence."""
    before = re.split(r"[.;!?\n]", text[max(0, start - 60):start])[-1]
    after = re.split(r"[.;!?\n]", text[end:end + 120])[0]
    if (re.match(r"\s*(?:or|and/or)\b", after) or re.search(r"\b(?:either|or)\s+$", before)
            or re.match(r"\s*,?\s*(?:and|or|plus)\s+[^.;:]{0,40}?\b(?:if|unless)\b", after)):
        return True
    sentence, own = set(words(f"{before} {text[start:end]} {after}")), set(words(options[key]))
    return any(other != key and (core := set(words(value)) - {"only", "alone"}) and not core <= own and core <= sentence
               and core != set(words(value)) for other, value in options.items())


def _letter(body: str, options: dict[str, str]) -> str | None:
    """Exactly one letter named outside negations and option lists; two named as alternatives is ambiguous."""
    keys = {key.upper(): key for key in options}
    masked = body
    for text in sorted(options.values(), key=len, reverse=True):
        masked = phrase_regex(text).sub(" ~ ", masked) if len(text) >= 3 else masked
    listing = len(set(OPTION_LIST.findall(masked))) >= 2
    listed = re.search(r"(?<![\w'’-])[A-E](?:\s*,\s*[A-E](?![\w'’-])){3,}", masked)
    if listed and len(set(re.findall(r"[A-E]", listed.group(0)))) >= 4:
        return None  # "Options reviewed: A, B, C, D, E.": every letter listed, none chosen
    named = set()
    for match in _MENTION.finditer(masked):
        letter = next(g for g in match.groups() if g).upper()
        if letter not in keys or ((match.group(4) or match.group(6)) and listing) or negated(masked, *match.span()):
            continue
        if (match.group(4) or match.group(5)) and any(re.search(rf"_{letter}\b", text) for text in options.values()):
            continue  # a bare "A." where an option is "Vitamin A": the letter may be either
        if match.group(5) and letter in "AI" and not re.search(r"(?:[—–:,-]|\b(?:is|be|leaves|with))\s*$",
                                                               masked[max(0, match.start() - 12):match.start()]):
            continue
        named.add(keys[letter])
    if named and (len(named) > 1 or in_doubt(masked)):
        return AMBIGUOUS
    return named.pop() if named else None


_YES_NO_SAID = re.compile(
    r"(?<![\w-])(?<!not )(?<!says )(?<!say )(?<!said )(yes|no|maybe)\s*(?:[.!:;—–]|$)|\b(?:so|thus|hence|therefore|overall|"
    r"in\s+short|in\s+summary|short\s+answer|suggests?|indicates?|supports?|i\s+would\s+say|i['’]d\s+say)\s*[,:—–-]?\s*"
    r"(yes|no|maybe)\b(?!\s+(?:significant|difference|evidence|effect|association|change))", re.IGNORECASE | re.MULTILINE)


def _yes_no_word(body: str, options: dict[str, str]) -> str | None:
    """Yes/no/maybe questions: one of the three words ending a clause ("The evidence suggests maybe."); another
    one given under a condition ("if per protocol, yes; in the intention-to-treat analysis, no") is ambiguous."""
    yes_no = {normalise(v): k for k, v in options.items() if normalise(v) in ("yes", "no", "maybe")}
    if not yes_no:
        return None
    if UNDECIDED.search(body):
        return AMBIGUOUS
    sentences = [s for s in re.split(r"(?<=[.;!?])\s+|\n", body)
                 if not re.fullmatch(r"\s*\(?[A-Ca-c][.)]\s*(?:yes|no|maybe)\s*", s, re.I)]  # "C) maybe": listed
    supposed = {s for s in sentences if re.search(r"\b(?:if|would(?!\s+say)|between|either)\b", s, re.I) or (
        re.search(r"\bwhether\b", s, re.I) and not re.search(r"\b(?:is|was)\s+(?:a\s+)?(?:yes|no|maybe)\s*[.!]?\s*$", s, re.I))}
    found, conditional = ({(m.group(1) or m.group(2)).lower() for m in _YES_NO_SAID.finditer(" ".join(part))} & set(yes_no)
                          for part in ([s for s in sentences if s not in supposed], supposed))
    if len(found) > 1 or (found and conditional - found):
        return AMBIGUOUS
    return yes_no[found.pop()] if found else None
