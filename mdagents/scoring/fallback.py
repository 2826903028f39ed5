"""The free-text fallback for replies without a contract line: declarations, option text, a lone letter.

Each step may only accept an answer that nothing else in the reply contradicts:
1. `declaration`: an anchored final declaration ("The correct answer is", "Final decision:", "I'd go
   with", "C is correct", a reply that opens or closes with its letter ...); a later revised
   declaration wins over an earlier one; a declaration of two answers ("B or D") is ambiguous.
2. `option_text`: exactly one option's text named outside a negation or contrast.
3. `letter`: exactly one option letter named outside a negation ("not A", "B is wrong") or a hedge.
Anything in doubt is AMBIGUOUS, never a guess.
"""

from __future__ import annotations

import re

from mdagents.scoring.text import _FOREIGN_ANSWER, normalise, words

AMBIGUOUS = "?"
DECLARATION = "declaration"
OPTION_TEXT = "option_text"
LETTER = "letter"

_STRONG_MARKERS = [
    r"(?:final|correct|best|better|right|true|preferred|most\s+(?:likely|appropriate|accurate|correct))\s+"
    r"(?:answer|option|choice|response|selection|call|pick|move)s?",
    r"(?:final|team|panel|group|expert|experts['’]?|mdt|committee|board|moderator['’]?s?|consensus|majority)"
    r"(?:['’]s)?\s+(?:decision|verdict|conclusion|consensus|answer|choice|recommendation|vote|pick|opinion)",
    r"(?:team|panel|group|expert|mdt)\s+consensus",
    r"consensus(?:\s+(?:answer|choice|option))?",
    r"majority(?:\s+(?:vote|view))?",
    r"(?:i|we)\s*(?:would|will|'d|’d|'ll|’ll|am\s+going\s+to|shall|am|are|'m|’m)?\s*(?:choose|select|pick|go\s+with|opt\s+for|"
    r"favou?r|settle\s+on|stick\s+with|choosing|selecting|picking|going\s+with|changing\s+(?:my|our)\s+answer\s+to)",
    r"(?:the\s+)?(?:panel|team|experts?|group|board|committee|moderator)\s+(?:has\s+)?(?:agreed|agrees|decided|"
    r"decides|settled|converged|concluded|chose|chooses|selected|selects|voted|votes|picked|went)"
    r"(?:\s+(?:on|for|upon|with|that))?",
    r"(?:my|our)\s+(?:final\s+)?(?:answer|choice|pick|selection|vote)",
    r"(?:corrected|revised|updated|amended|new)\s+(?:final\s+)?(?:answer|choice|decision)"
    r"(?:\s+(?:after|following|upon|on)(?:\s+[\w-]+){1,3}(?=\s*:))?",
    r"(?:the\s+)?(?:only\s+)?(?:remaining|last\s+standing)\s+(?:option|answer|choice)",
    r"(?:most\s+)?(?:defensible|supported|appropriate|fitting)\s+(?:label|answer|option|choice)",
    _FOREIGN_ANSWER,
    r"(?:selected|selection|chosen|pick|vote\s+tally\s*[^\n]*\n\s*selected)",
    r"going\s+with",
    r"it['’]?s",
]
_WEAK_MARKERS = [
    r"answer",
    r"(?:decision|verdict|conclusion)",
]
# A line that starts with a label: "Answer: C", "Choice - B", "Selected: D", "Verdict: A".
_LABEL = re.compile(r"^[ \t]*(?:(?:final|correct|best)\s+)?(?:answer|ans|choice|option|decision|selected|selection|pick|"
                    r"verdict|conclusion|vote|final|" + _FOREIGN_ANSWER + r")"
                    r"[ \t]*(?:[:=：]|[-–—][ \t])", re.IGNORECASE | re.MULTILINE)
_MARKER = re.compile(
    r"(?<![A-Za-z0-9_-])(?:" + "|".join(f"(?P<s{i}>{p})" for i, p in enumerate(_STRONG_MARKERS))
    + "|" + "|".join(f"(?P<w{i}>{p})" for i, p in enumerate(_WEAK_MARKERS)) + r")(?:(?<![A-Za-z])|(?![A-Za-z0-9_-]))",
    re.IGNORECASE,
)
_FILLER = re.compile(
    r"\s*(?:\s*(?:is|was|are|would\s+be|should\s+be|will\s+be|must\s+be|remains|stays|becomes|of|as|to|be|"
    r"here|now|then|therefore|thus|so|probably|likely|most\s+likely|definitely|clearly|certainly|indeed|"
    r"actually|still|finally|ultimately|overall|unanimously|on|for|upon|with|that|the|letter|option|choice|"
    r"answer|number|es(?:\s+la|\s+el)?|est(?:\s+la|\s+le)?|ist|è|é(?:\s+(?:a|o)(?=\s+\(?[A-E]\b))?|[:=\-–—>→⇒,'\"“”‘’]|是|为|為|\(\s*\d+\s*/\s*\d+[^)]*\))\s*)*",
    re.IGNORECASE,
)
_NEGATION_AFTER = re.compile(r"\s*(?:is\s+|would\s+be\s+|should\s+be\s+)?(?:not|n['’]t|never|neither)\b", re.I)
_HYPOTHETICAL_BEFORE = re.compile(
    r"\b(?:if|unless|might|may|could|tempting|(?:some|many|most)\s+(?:might|would|may)|one\s+might|"
    r"others?\s+(?:might|may|would)|"
    r"wrongly|incorrectly|whether|were|otherwise|else|initial(?:ly)?|draft|original|preliminary|tentative|"
    r"would\s+(?:also\s+)?be\s+a\s+poor)\b"
    r"(?:[^.!?;\n]|\.\d)*$", re.IGNORECASE)
_SENTENCE_BREAK = re.compile(r"(?<!\d)\.|\.(?!\d)|[!?;\n]|\s[—–]\s")
# Words by which a reply takes back what it said before: a later answer after one of them replaces the earlier.
REVISION = re.compile(r"\b(?:edit|update|wait|actually|on\s+(?:second\s+thought|reflection)|correct(?:ion|ed)|"
                      r"reconsider\w*|re-?reading|scratch\s+that|changing|change\s+my|revis\w*|updated|amended|"
                      r"instead|however)\b", re.IGNORECASE)
_LETTER_TOKEN = re.compile(
    r"\(\s*(?P<p>[A-Za-z])\s*\)"
    r"|\[\s*(?P<b>[A-Za-z])\s*\]"
    r"|(?P<u>[A-Z])(?![\w’]|'\w|-\w)"
    r"|(?P<l>[a-z])(?=\s*(?:[).:;,!?]|$|\s+[-–—]|\s*\n|\s+(?:because|since|as|given|due)\b))",
)
_MORE_LETTERS = re.compile(r"\s*(?:,|/|&|\bor\b|\band\b|\(\s*or\b|\bor\s+possibly\b|\bversus\b|\bvs\.?|\.\s*or\b)\s*"
                           r"(?:option\s+|choice\s+|possibly\s+|maybe\s+|perhaps\s+)?\(?\s*([A-Za-z])\s*\)?(?![\w'’])")
# "C is correct", "(C) is the best answer", "Option D is right": the letter comes first.
_LETTER_IS_CORRECT = re.compile(
    r"(?:\b(?:option|choice|answer)\s+\(?([A-Za-z])\)?|\(([A-Za-z])\)|(?<![\w'’-])([A-Z])\)?)"
    r"(?:\s*\([^)]*\))?\s+(?:is|remains|seems|looks|would\s+be|must\s+be)\s+(?:the\s+)?"
    r"(?:most\s+(?:likely|appropriate)\s+|best\s+|only\s+)?"
    r"(?:correct|right|best|answer|true|most\s+appropriate|the\s+one|better|preferred)\b"
    r"(?!\s+(?:for|if|when|in\s+a|than\s+nothing))",
)
# A reply (or its last line) that is a letter: "C", "(C) Lisinopril", "**B.** Because...", "So: D."
_LEADING_LETTER = re.compile(
    r"^\s*(?:option\s+|choice\s+)?\(?\s*([A-Za-z])\s*(?:\)|\.|:|,|\s+[-–—]|\s*$"
    r"|(?=\s+(?:rather\s+than|over|not|instead\s+of|is\s+(?:the\s+)?(?:answer|correct|right|best))\b))", re.I)
_CLOSING_LINE = re.compile(
    r"^\s*(?:=+>|-+>|»)?\s*(?:(?:so|thus|hence|therefore|overall|in\s+summary|in\s+conclusion|that\s+leaves|leaving|"
    r"which\s+leaves|answer)\b[\s,:]*)?(?:option\s+|choice\s+)?\(?\s*([A-Za-z])\s*\)?"
    r"(?:\s*(?:,|&|/|\band\b|\bor\b)\s*(?:option\s+)?\(?\s*([A-Za-z])\s*\)?)?\s*[.!]?\s*$",
    re.IGNORECASE,
)
# The last line restates one option: "C) Cross-linking of DNA", "(B) Insulin glargine.", "D. Thyroid ultrasound".
_OPTION_LINE = re.compile(r"^\s*\(?([A-E])[.)]\s*(.*?)\s*[.!]?\s*$")


def read_free_text(body: str, options: dict[str, str], *, declarations_only: bool = False) -> tuple[str | None, str]:
    """(option key, step), (AMBIGUOUS, step) when the reply offers several, or (None, "none")."""
    letters = {key.upper(): key for key in options}
    if _conditional_letters(body) > 1 or re.search(r"\bit\s+depends\b", body, re.IGNORECASE):
        return AMBIGUOUS, DECLARATION
    steps = ((DECLARATION, _declared),) if declarations_only else (
        (DECLARATION, _declared), (OPTION_TEXT, _option_text), (LETTER, _lenient))
    for step, finder in steps:
        found = finder(body, options, letters)
        if found is not None:
            return found, step
    return None, "none"


def declared_later(tail: str, options: dict[str, str]) -> str | None:
    """A declaration in the text after a contract line (a reply's opening letter does not count there)."""
    return _declared(tail, options, {key.upper(): key for key in options}, opening=False)


def _declared(body: str, options: dict[str, str], letters: dict[str, str], *, opening: bool = True) -> str | None:
    strong: list[tuple[int, str]] = []
    weak: list[tuple[int, str]] = []
    for match in _MARKER.finditer(body):
        kind = next(name for name, value in match.groupdict().items() if value is not None)
        before = body[max(0, match.start() - 200):match.start()]
        sentence = _SENTENCE_BREAK.split(before)[-1]
        if _HYPOTHETICAL_BEFORE.search(sentence):
            continue
        if re.fullmatch(r"it['’]?s", match.group(), re.IGNORECASE) and not _looks_like_its_answer(body, match):
            continue
        value = _value_after(body, match.end(), options, letters)
        if value is None:
            continue
        revised = bool(REVISION.search(before[-120:]))
        (strong if kind.startswith("s") or revised else weak).append((match.start(), value))
    for match in _LETTER_IS_CORRECT.finditer(body):
        letter = next(g for g in match.groups() if g)
        sentence = _SENTENCE_BREAK.split(body[max(0, match.start() - 200):match.start()])[-1]
        if letter.upper() in letters and not _HYPOTHETICAL_BEFORE.search(sentence):
            strong.append((match.start(), letters[letter.upper()]))
    for match in _LABEL.finditer(body):
        value = _value_after(body, match.end(), options, letters)
        if value is not None:
            strong.append((match.start(), value))
    for match in _X_NOT_Y.finditer(body):
        letter = (match.group(1) or match.group(2)).upper()
        if letter in letters and not re.search(r"\bnot\s*$", body[max(0, match.start() - 8):match.start()], re.I):
            strong.append((match.start(), letters[letter]))
    last = body.strip().splitlines()[-1] if body.strip() else ""
    labelled = _LABELLED_LAST_LINE.match(last)
    if labelled and labelled.group(1).upper() in letters:
        key = letters[labelled.group(1).upper()]
        after = normalise(labelled.group(2) or "")
        if not after or after == normalise(options[key]) or normalise(options[key]).startswith(after):
            strong.append((len(body) - len(last), key))
    lead = _leading_declaration(body, options, letters) if opening else None
    if lead is not None:
        weak.append((-1, lead))
    closing = _closing_declaration(body, options, letters)
    if closing is not None:
        weak.append((len(body), closing))
    chosen = strong or weak
    if _ends_mid_declaration(body) and len({value for _, value in chosen}) != 1:
        return AMBIGUOUS  # cut off while declaring: an earlier "answer" may be the one it was revising
    if not chosen:
        return None
    position, value = max(chosen)
    for earlier, other in chosen:
        asked = re.match(r"[^.!\n]*\?", body[max(earlier, 0):])  # "D, not C? No - ..." asks, does not declare
        if (other != value and AMBIGUOUS not in (other, value) and earlier < position and not asked
                and not REVISION.search(body, max(earlier, 0), max(position, 0))):
            return AMBIGUOUS  # "the answer is yes ... so the answer is no": two answers, no revision
    if UNDECIDED.search(body, max(position, 0)):
        return AMBIGUOUS  # "Final answer: A ... I'm torn between the two"
    return value


# "This is A, not B", "A, not B —", "the answer is not A but C", "not B; it's C" is handled by declarations.
_X_NOT_Y = re.compile(
    r"(?:^|(?<=[\s(]))(?:(?:this\s+is|it['’]?s|so)\s+)?\(?([A-E])\)?,?\s+not\s+\(?[A-E]\)?(?![\w'’-])"
    r"|\bnot\s+\(?[A-E]\)?,?\s+but\s+\(?([A-E])\)?(?![\w'’-])", re.MULTILINE)
# The last line is a label and a letter: "Best next step: A", "Conclusion of the team: D — Teriparatide."
_LABELLED_LAST_LINE = re.compile(r"^\s*[^:\n]{2,60}[:：]\s*\(?([A-E])\)?\s*(?:[-–—.)]\s*(.*?))?\s*[.!]?\s*$")


def _ends_mid_declaration(body: str) -> bool:
    """The reply stops right after an answer marker ("... the answer is the"): cut off before answering."""
    tail = body.rstrip()[-40:]
    return bool(re.search(r"\b(?:(?:answer|choice|option)\s*(?:is|:|would\s+be)?\s*(?:(?-i:the|a|an)|option)?|"
                          r"i\s+think|i\s+would\s+(?:choose|say)|so)\s*$", tail, re.I))


def _looks_like_its_answer(body: str, match: re.Match[str]) -> bool:
    """`It's D.`: only when "it's" is followed directly by a lone letter that ends the sentence."""
    return bool(re.match(r"\s*(?:\(?[A-Z]\)?\s*(?:[.!]|$)|\(?[a-z]\)?\s*(?:[.!]\s*)?$)", body[match.end():]))


def _value_after(body: str, at: int, options: dict[str, str], letters: dict[str, str]) -> str | None:
    """The option a marker declares: a letter, an option's text, or AMBIGUOUS for "B or D"."""
    if _NEGATION_AFTER.match(body, at):
        return None
    filler = _FILLER.match(body, at)
    start = filler.end() if filler else at
    if _NEGATION_AFTER.match(body, start):
        return None
    token = _LETTER_TOKEN.match(body, start)
    if token is not None:
        letter = next(g for g in token.groups() if g).upper()
        if letter in letters:
            following = body[token.end():token.end() + 60]
            more = _MORE_LETTERS.match(following)
            if more and more.group(1).upper() in letters and more.group(1).upper() != letter:
                if not re.match(r"\s*,\s*(?:[Ww]hich|[Bb]ecause|as|since|the|a|an|this|given|due)\b", following):
                    return AMBIGUOUS
            if token.group("u") and not _lone_capital(body, token, options, letter):
                return _option_text_at(body, start, options)
            return letters[letter]
    return _option_text_at(body, start, options)


def _lone_capital(body: str, token: re.Match[str], options: dict[str, str], letter: str) -> bool:
    """A bare capital after a marker is a letter unless it opens an option's own text ("A 45-year-old")."""
    rest = body[token.start():token.start() + 80]
    if letter == "A" and re.match(r"A\s+[a-z0-9]", rest) and not re.match(r"A\s+(?:is|was|because|as|since)\b", rest):
        return False
    if letter == "I" and re.match(r"I\s+[a-z']", rest):
        return False
    return True


def _option_text_at(body: str, start: int, options: dict[str, str]) -> str | None:
    """The option whose text the declaration starts with (longest wins: "no" vs "no change")."""
    head = normalise(body[start:start + 400])
    head = re.sub(r"^(?:the|a|an|to)\s+", "", head)
    best: tuple[int, str] | None = None
    for key, value in options.items():
        norm = normalise(value)
        norm_bare = re.sub(r"^(?:the|a|an|to)\s+", "", norm)
        for candidate in {norm, norm_bare}:
            if candidate and (head == candidate or head.startswith(candidate + " ") or head.startswith(candidate + ".")):
                if best is None or len(candidate) > best[0]:
                    best = (len(candidate), key)
    if best is None:
        return None
    rest = normalise(body[start:start + 400])
    more = re.match(r"\s*(?:or|and|/)\s+(.*)", rest[len(normalise(options[best[1]])):])
    others = [normalise(v) for k, v in options.items() if k != best[1] and normalise(v)]
    if more and any(more.group(1).startswith(other) for other in others):
        return AMBIGUOUS
    return best[1]


def _leading_declaration(body: str, options: dict[str, str], letters: dict[str, str]) -> str | None:
    """A reply that opens with its answer: "C", "(B) Insulin", "B. Because ...", "Yes.", "No, the trial ..."."""
    first = body.lstrip()
    match = _LEADING_LETTER.match(first)
    if match and _enumerates(first) and (not _line_is_the_option(first, match, options)
                                         or _quotes_the_options(first, options)):
        match = None  # "Option A: ... Option B: ..." walks through the options
    if match and match.group(1).upper() in letters:
        letter = letters[match.group(1).upper()]
        token_end = match.end()
        rest = first[token_end:]
        if match.group(1).islower() and not re.match(r"\s*(?:[).:]|$)", first[match.end(1):]):
            return None
        if match.group(1) in "AI" and re.match(r"\s+[a-z0-9]", first[match.end(1):]):
            return None  # "A 45-year-old ..." / "I think ..."
        if _NEGATING_AFTER.match(rest[:60]):
            return None  # "(C) is incorrect; ..."
        more = _MORE_LETTERS.match(rest[:40])
        if more and more.group(1).upper() in letters and more.group(1).upper() != match.group(1).upper():
            return AMBIGUOUS
        return letter
    yes_no = {normalise(v): k for k, v in options.items() if normalise(v) in ("yes", "no", "maybe")}
    if yes_no:
        first = re.sub(r"^\s*(?:probably|likely|most\s+likely)\s+not\b", "no", first, flags=re.IGNORECASE)
        first = re.sub(r"^\s*(?:i['’]?d\s+say|i\s+would\s+say|(?:most\s+)?likely|probably|in\s+short)\s*,?\s*", "", first,
                       flags=re.IGNORECASE)
        word = re.match(r"\s*[\[(]?\s*(yes|no|maybe)\b\s*[\])]?(?!\s+(?:significant|difference|evidence|effect|association|"
                        r"change|one|more|longer|data|clear|statistically))", first, re.I)
        if word and word.group(1).lower() in yes_no:
            if re.match(r"\s*(?:or|/|and)\s*(?:yes|no|maybe)\b", first[word.end():], re.I):
                return AMBIGUOUS
            return yes_no[word.group(1).lower()]
    return None


def _line_is_the_option(text: str, match: re.Match[str], options: dict[str, str]) -> bool:
    """The first line is only the letter and (optionally) that option's text: "E. Empagliflozin"."""
    key = {k.upper(): k for k in options}.get(match.group(1).upper())
    rest = normalise(text[match.end():].split("\n", 1)[0])
    return key is not None and rest in ("", normalise(options[key]))


def _quotes_the_options(text: str, options: dict[str, str]) -> bool:
    """The reply begins by repeating the options list ("A) yes / B) no / C) maybe")."""
    quoted = 0
    for line in text.splitlines()[:len(options) + 2]:
        match = re.match(r"\s*\(?([A-Za-z])[.):]\s*(.*)$", line)
        key = {k.upper(): k for k in options}.get(match.group(1).upper()) if match else None
        quoted += key is not None and normalise(match.group(2)) == normalise(options[key])  # type: ignore[union-attr]
    return quoted >= 2


def _enumerates(text: str) -> bool:
    """The reply walks through the options ("A. ... B. ...", "Option A: ... Option B: ...")."""
    found = re.findall(r"(?:^|(?<=[.!?]\s))\s*(?:option\s+|choice\s+)?\(?([A-E])\s*[.:)]\s", text, re.MULTILINE | re.I)
    return len(set(found)) >= 2


def _closing_declaration(body: str, options: dict[str, str], letters: dict[str, str]) -> str | None:
    """The reply ends on its answer: a lone letter ("**D**", "That leaves A.", "So: (C)"), two letters
    ("So A and D.": ambiguous), or one option restated ("C) Cross-linking of DNA") after no other."""
    lines = [line for line in body.strip().splitlines() if line.strip()]
    if not lines:
        return None
    restated = _OPTION_LINE.match(lines[-1])
    if restated and restated.group(1) in letters and not (len(lines) > 1 and _OPTION_LINE.match(lines[-2])):
        key = letters[restated.group(1)]
        if set(words(restated.group(2))) == set(words(options[key])):
            return key
    for last in (lines[-1], re.split(r"(?<=[.!?])\s+", lines[-1].strip())[-1]):
        match = _CLOSING_LINE.match(last)
        if match and match.group(1).upper() in letters:
            if match.group(1).islower() and not re.search(r"[().:]", last):
                continue
            if match.group(1) in "AI" and re.match(r"\s*[AI]\s+\w", last):
                continue
            other = match.group(2)
            if other and other.upper() in letters and other.upper() != match.group(1).upper():
                return AMBIGUOUS
            return letters[match.group(1).upper()]
    return None


# ---------------------------------------------------------------- steps 3 and 4: option text, lenient letter

_NEGATING_BEFORE = re.compile(
    r"(?:\bnot|n['’]t|\brather\s+than|\binstead\s+of|\bunlike|\bover|\brule\s+out|\bruled\s+out|\bruling\s+out|"
    r"\bexclude[sd]?|\bexcluding|\beliminate[sd]?|\bagainst|\bavoid|\bno\s+role\s+for|\bless\s+likely|\bwithout|"
    r"\bno\s+need\s+for|\bneither|\bnor|\bwhereas|\bbut\s+not|\bvs\.?|\bversus|\bthan)\s+(?:\w+\s+){0,2}$",
    re.IGNORECASE,
)
_NEGATING_AFTER = re.compile(
    r"^\s*(?:\([^)]*\)\s*)?(?:"
    r"(?:is|are|was|were|would\s+be|seems|remains|does|do|would|can|could|should)\s+(?:not|never)\b"
    r"|(?:isn|aren|wasn|doesn|don|wouldn|can|couldn|shouldn)['’]?t\b"
    r"|(?:(?:is|are|was|would\s+be|seems|remains|looks)\s+)?(?:also\s+)?(?:incorrect|wrong|unlikely|less\s+likely|"
    r"inappropriate|ruled\s+out|excluded|out\b|contraindicated|reserved|insufficient|irrelevant|a\s+distractor|"
    r"too\s+\w+|a\s+poor|not\s+(?:first|the|indicated|appropriate|correct|right|needed))"
    r"|(?:has|have)\s+no\b|(?:acts|works)\s+(?:far\s+)?too"
    r"|would\s+(?:only|be\s+(?:appropriate|correct|right|reasonable|preferred|considered)\s+(?:if|only|when|in)\b)"
    r"|can\s+be\s+excluded|is\s+used\s+for|is\s+for\b)",
    re.IGNORECASE,
)


def _negated(text: str, start: int, end: int) -> bool:
    before = text[max(0, start - 40):start]
    before = re.split(r"[.;!?\n]", before)[-1]
    return bool(_NEGATING_BEFORE.search(before) or _NEGATING_AFTER.match(text[end:end + 60]))


def _option_text(body: str, options: dict[str, str], letters: dict[str, str]) -> str | None:
    """Exactly one option's text named outside a negation (a text inside a longer option's text counts once)."""
    text = normalise(body)
    hits: dict[str, str] = {}
    offered = False  # an option named only as one of two ("X or Y"), under a condition, or beside another
    for key, value in options.items():
        norm = normalise(value)
        if len(norm) < 3 or norm in ("yes", "no", "maybe"):
            continue
        for match in re.finditer(rf"(?<![A-Za-z0-9_-]){re.escape(norm)}(?![A-Za-z0-9_-])", text):
            if _negated(text, match.start(), match.end()):
                continue
            if _offered_with_another(text, match.start(), match.end(), key, options):
                offered = True
            else:
                hits[key] = norm
    if offered and not hits:
        return AMBIGUOUS
    kept = [k for k, v in hits.items()
            if not any(v != other and re.search(rf"(?<![\w-]){re.escape(v)}(?![\w-])", other) for other in hits.values())]
    if kept and (UNDECIDED.search(body) or re.search(r"\beither\b", body, re.I) or _offers_two(body)
                 or _conditional_letters(body) > 1):
        return AMBIGUOUS
    if len(kept) > 1 and not _enumerates(body):
        kept = _named_in_the_conclusion(body, options)
    if len(kept) == 1:
        letter = _lenient(body, options, letters)
        if letter is not None and letter != kept[0]:
            return AMBIGUOUS  # the text names one option, a letter another: no guess
        return kept[0]
    if len(kept) > 1:
        return None
    return _yes_no_word(body, options)


def _named_in_the_conclusion(body: str, options: dict[str, str]) -> list[str]:
    """The options named (outside negations) in the reply's last sentence, when it concludes."""
    sentences = [x for x in re.split(r"(?<=[.!?。])\s+|\n", body.strip()) if x.strip()]
    if not sentences:
        return []
    last = normalise(sentences[-1])
    named = []
    for key, value in options.items():
        norm = normalise(value)
        if len(norm) < 3 or norm in ("yes", "no", "maybe"):
            continue
        for match in re.finditer(rf"(?<![A-Za-z0-9_-]){re.escape(norm)}(?![A-Za-z0-9_-])", last):
            if not _negated(last, match.start(), match.end()) and not re.search(
                    r"\b(?:would\s+be\s+acceptable|alternatives?|also|or)\b", last[max(0, match.start() - 30):match.end() + 30]):
                named.append((key, norm))
                break
    kept = [k for k, v in named if not any(v != o and re.search(rf"(?<![\w-]){re.escape(v)}(?![\w-])", o) for _, o in named)]
    return kept


def _yes_no_word(body: str, options: dict[str, str]) -> str | None:
    """Yes/no/maybe questions: one of the three words ending a clause ("The evidence suggests maybe.")."""
    yes_no = {normalise(v): k for k, v in options.items() if normalise(v) in ("yes", "no", "maybe")}
    if not yes_no:
        return None
    plain = " ".join(sentence for sentence in re.split(r"(?<=[.;!?])\s+|\n", body)
                     if not re.search(r"\b(?:if|would(?!\s+say)|between|whether|either)\b", sentence, re.I)
                     and not re.fullmatch(r"\s*\(?[A-Ca-c][.)]\s*(?:yes|no|maybe)\s*", sentence, re.I))  # "C) maybe": a listed option
    if UNDECIDED.search(body):
        return AMBIGUOUS
    found = {m.group(1).lower() for m in re.finditer(r"(?<![\w-])(?<!not )(yes|no|maybe)\s*(?:[.!:—–]|$)", plain,
                                                     re.I | re.M)}
    found |= {m.group(1).lower() for m in re.finditer(
        r"\b(?:so|thus|hence|therefore|overall|in\s+short|in\s+summary|short\s+answer|suggests?|indicates?|"
        r"supports?|i\s+would\s+say|i['’]d\s+say)\s*[,:]?\s*(yes|no|maybe)\b(?!\s+(?:significant|difference|evidence|effect|association|change))",
        plain, re.I)}
    found &= set(yes_no)
    if len(found) > 1:
        return AMBIGUOUS
    return yes_no[found.pop()] if found else None


_MENTION = re.compile(
    r"\(\s*([A-Za-z])\s*\)"
    r"|(?<![\w(])([A-Z])\)"
    r"|\b(?:option|choice|answer|letter)\s+\(?([A-Za-z])\b\)?"
    r"|^\s*([A-Z])[.:)]?\s*(?:[-–—]\s|$|(?=\s+(?:is|would|seems|does|and|or)\b))"
    r"|(?<![\w'’-])([A-Z])(?=\s*(?:[.!?]\s*$|$))",
    re.MULTILINE,
)


def _lenient(body: str, options: dict[str, str], letters: dict[str, str]) -> str | None:
    """Exactly one letter named outside negations; two named as alternatives is ambiguous."""
    masked = body
    for value in sorted(options.values(), key=len, reverse=True):
        if len(value) >= 3:
            masked = re.sub(re.escape(value), " ~ ", masked, flags=re.IGNORECASE)
    named: set[str] = set()
    enumerated = _enumerates(masked)
    for match in _MENTION.finditer(masked):
        letter = next(g for g in match.groups() if g).upper()
        if letter not in letters:
            continue
        if match.group(5) and letter in "AI" and not re.search(r"(?:[—–:,-]|\b(?:is|be|leaves|with))\s*$",
                                                               masked[max(0, match.start() - 12):match.start()]):
            continue
        if match.group(4) and enumerated:
            continue  # "A. Insulin — ..." lines of a list of options are not answers
        start, end = match.span()
        if _negated(masked, start, end):
            continue
        named.add(letters[letter])
    if named and (_offers_two(masked) or UNDECIDED.search(masked) or _conditional_letters(masked) > 1):
        return AMBIGUOUS
    if len(named) == 1:
        return named.pop()
    return AMBIGUOUS if named else None


def _offers_two(text: str) -> bool:
    """Two letters offered as alternatives, not both ruled out ("not C or A")."""
    for match in _TWO_LETTERS_OFFERED.finditer(text):
        if not re.search(r"\b(?:not|neither|nor|none\s+of|rule\s+out|ruled\s+out|excluding|except)\s+"
                         r"(?:\w+\s+)?(?:[A-E],\s*)*$",
                         text[max(0, match.start() - 30):match.start()], re.IGNORECASE):
            return True
    return False


def _conditional_letters(text: str) -> int:
    """Distinct letters given as answers under conditions: "If stable, B; if not, D", "... otherwise, (B)"."""
    found = set(re.findall(r"\bif\b[^.;:\n]{0,80}?,\s*(?:then\s+)?\(?([A-E])\)?(?![\w'’-])", text, re.I))
    for sentence in re.split(r"(?<=[.;!?])\s+|\n", text):
        if re.search(r"\b(?:if|otherwise|unless|else)\b", sentence, re.I):
            found |= set(re.findall(r"(?:\(|\b(?:is|be|choose|option)\s+)([A-E])\b(?![\w'’-])", sentence))
    return len(found)


UNDECIDED = re.compile(
    r"\b(?:it\s+depends\b|(?:are|is)\s+both\s+(?:equally\s+)?(?:plausible|possible|reasonable|defensible|correct)|"
    r"not\s+enough\s+information|cannot\s+(?:determine|choose|pick|decide|tell)|can['’]t\s+(?:determine|"
    r"choose|pick|decide|tell)|unable\s+to\s+(?:determine|choose|pick|decide)|accept\s+either|either\s+could\s+be|"
    r"(?:both|either)\s+(?:are|is|could\s+be|seem|would\s+be)\s+(?:equally\s+)?(?:defensible|reasonable|correct|right|"
    r"acceptable|plausible|possible|valid)|torn\s+between|somewhere\s+between|won['’]?t\s+(?:choose|commit|pick)|"
    r"will\s+not\s+(?:choose|commit|pick)|can(?:not|['’]t)\s+(?:commit|select|choose)|depend(?:s|ing)\s+on\s+which|"
    r"before\s+committing|not\s+yet\s+(?:reached|decided|agreed)|no\s+consensus|without\s+(?:a\s+)?consensus|"
    r"none\s+of\s+the\s+(?:listed\s+|given\s+)?(?:options|answers|choices)\s+(?:is|are|fits?)|"
    r"would\s+not\s+commit|undecided)\b",
    re.IGNORECASE)
# "either B or A", "B or D", "both A and C", "A/B": two answers offered (not "neither ... nor").
_TWO_LETTERS_OFFERED = re.compile(
    r"(?<!neither )(?:\b(?:either|both)\s+)?(?:option\s+)?\(?\b([A-E])\b\)?\s*(?:or|/|and/or)\s*(?:option\s+)?"
    r"\(?\b([A-E])\b\)?(?![\w'’-])|\b(?i:both)\s+\(?([A-E])\)?\s+and\s+\(?([A-E])\)?(?![\w'’-])")



def _offered_with_another(text: str, start: int, end: int, key: str, options: dict[str, str]) -> bool:
    """An option text offered as one of two ("Group B Streptococcus or E. coli", "either X or Y"), with
    another treatment under a condition ("the vaccine, and HBIG if ..."), or beside another option's
    words in one sentence ("activated charcoal and N-acetylcysteine" when one option is "charcoal only")."""
    before = re.split(r"[.;!?\n]", text[max(0, start - 60):start])[-1]
    after = re.split(r"[.;!?\n]", text[end:end + 120])[0]
    if (re.match(r"\s*(?:or|and/or)\b", after) or re.search(r"\b(?:either|or)\s+$", before)
            or re.match(r"\s*,?\s*(?:and|or|plus)\s+[^.;:]{0,40}?\b(?:if|unless)\b", after)):
        return True
    sentence = set(words(before + " " + text[start:end] + " " + after))
    own = set(words(options[key]))
    for other, value in options.items():
        core = set(words(value)) - {"only", "alone"}
        if other != key and core and not core <= own and core <= sentence and core != set(words(value)):
            return True
    return False
