"""Where a reply states its answer, and what each statement says.

A statement is an answer line (`Answer: (C) ...`, the contract), a marker in a sentence ("the correct
answer is C", "I'd go with C", "C is correct", "Decision: C"), or the reply's first or last line when it
is only a letter or an option. One reader (`value`) reads every statement: a letter, an option's text or
both; two options ("B or D") are AMBIGUOUS, a letter and a text naming different options a CONFLICT.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from mdagents.scoring.text import (
    FOREIGN_ANSWER,
    YES_NO_WORDS,
    opening_yes_no,
    options_meant,
    options_touched,
    options_worded,
    tally,
    tokens,
    words,
)

AMBIGUOUS, CONFLICT, REFUSED, UNREAD = "ambiguous", "conflict", "refused", "none"
CONTRACT, STRONG, WEAK = "contract", "strong", "weak"  # statement kinds, the most binding first

_LINE = re.compile(r"^[ \t]*(?:(?:final|revised|updated|corrected|new)[\s_]+)?(?:(?:correct|best)\s+)?(?:answer|ans|"
                   + FOREIGN_ANSWER + r")[ \t]*(?:is[ \t]*)?(?:[:：=]|[-–—](?=[ \t]))[ \t]*(?P<value>.*)$", re.IGNORECASE | re.MULTILINE)
_STRONG = [
    r"(?:final|correct|best|better|right|true|preferred|agreed|most\s+(?:likely|appropriate|accurate|correct))\s+(?:initial\s+|next\s+)?"
    r"(?:answer|option|choice|response|selection|call|pick|move|diagnos[ie]s)s?",
    r"(?:final|team|panel|group|experts?|experts['’]|mdt|committee|board|moderator['’]?s?|consensus|majority)"
    r"(?:['’]s)?\s+(?:decision|verdict|conclusion|consensus|answer|choice|recommendation|vote|pick|opinion)",
    r"(?:team|panel|group|expert|mdt)\s+consensus|consensus(?:\s+(?:answer|choice|option))?|majority(?:\s+(?:vote|view))?",
    r"(?:revis(?:e|ed|ing)|chang(?:e|ed|ing)|switch(?:ed|ing)?)\s+(?:(?:the|my|our)\s+(?:answer|choice)\s+)?to(?=\s+\(?[A-E]\b)",
    r"(?:decision|answer|choice)\s+(?:is|was|has\s+been)\s+(?:revised|changed)\s+(?:from\s+\(?[A-E]\)?\s+)?to",
    r"(?-i:[Kk]eep(?:ing)?)(?=\s+\(?[A-E]\)?\s*(?:[.!,;]|$))",
    r"final(?=\s+\(?[A-E]\)?[ \t]*[.!]?[ \t]*$)",  # "C... no wait. A. final A"
    r"ans\.?(?:\s+is)?(?=\s*[-:.]?\s*\(?[a-eA-E]\)?(?![\w'’-]))|(?-i:def|Def|DEF)(?:initely)?(?=\s+\(?[A-E]\)?(?![\w'’-]))|"
    r"going\s+w/",  # typed: "ans c", "def D, ...", "going w/ A"
    r"(?:i|we)\s*(?:would|'d|’d)\s+(?:use|give|start|prescribe|recommend|order)(?=\s)",
    r"(?:i|we)\s*(?:would|will|'d|’d|'ll|’ll|am\s+going\s+to|shall|am|are|'m|’m)?\s*(?:choose|select|pick|go\s+with|"
    r"opt\s+for|favou?r|settle\s+on|stick\s+with|stand\s+by|maintain|uphold|adopt|vote(?:\s+for)?|choosing|selecting|picking|"
    r"confident\s+in|supporting|advocate(?:\s+for)?|endorse|endorsing|"
    r"going\s+with|changing\s+(?:my|our)\s+answer\s+to)",
    r"(?:the\s+)?(?:panel|team|experts?|group|board|committee|moderator|coordinator|team\s+lead|lead)\s+(?:therefore\s+|thus\s+|now\s+|all\s+|unanimously\s+)*"
    r"(?:has\s+)?(?:agreed|agrees|decided|decides|adopts|adopted|"
    r"settled|converged|concluded|chose|chooses|selected|selects|voted|votes|picked|went)(?:\s+(?:on|for|upon|with|that))?",
    r"(?:my|our)\s+(?:final\s+)?(?:answer|choice|pick|selection|vote)",
    r"chang(?:e|ed|ing)\s+(?:my|our)\s+(?:previous\s+|earlier\s+|initial\s+|original\s+)?(?:answer|choice|vote)\s+"
    r"(?:from\s+)?(?:\(?[A-E]\)?\s+)?to",
    r"(?:corrected|revised|updated|amended|new)\s+(?:final\s+)?(?:answer|choice|decision)"
    r"(?:\s+(?:after|following|upon|on)(?:\s+[\w-]+){1,3}(?=\s*:))?",
    r"(?:the\s+)?(?:only\s+)?(?:remaining|last\s+standing)\s+(?:option|answer|choice)",
    r"(?:most\s+)?(?:defensible|supported|appropriate|fitting)\s+(?:label|answer|option|choice)",
    r"(?m:(?:^|(?<=[.!?]\s)|(?<=[:\]]\s))[ \t]*(?:choice|option|decision|judge|arbiter|selected|selection|pick|verdict|conclusion(?:\s+from\s+my\s+side)?|conclus[ãa]o|conclusión|结论|結論|결론|vote|final|correction|corrected|edit|"
    r"(?:most\s+likely\s+|final\s+|working\s+)?diagnos[ie]s|diagn[oó]stico|most\s+likely|next|"
    r"update[sd]?|revised|revision|tl;?\s?dr|bottom\s+line|task\s+output|solution|winner)(?=[ \t]*(?:[:=：]|[-–—][ \t])))",
    FOREIGN_ANSWER, r"selected|selection|chosen|(?-i:pick)",  # not "Pick disease"
    r"(?:let['’]?s\s+)?go(?:ing)?\s+with", r"it['’]?s(?=\s*\(?[A-Za-z]\)?\s*(?:[.!]|$|[-–—]\s))",
]
_MARKER = re.compile(r"(?<![A-Za-z0-9_-])(?:(?P<strong>" + "|".join(_STRONG) + r")|answer|decision|verdict|conclusion|next\s+step|(?P<identity>that['’]s|that\s+is(?=\s+(?:option|choice|answer|\(?[A-E]\b))|this\s+is))"
                     r"(?:(?<![A-Za-z])|(?![A-Za-z0-9_-]))", re.IGNORECASE)
_FILLER = re.compile(
    r"(?:\s*(?:(?:is|was|are|would\s+be|should\s+be|will\s+be|must\s+be|remains|stays|becomes|of|as|to|be|here|now|then|"
    r"therefore|thus|so|either|probably|likely|most\s+likely|definitely|clearly|certainly|indeed|actually|still|finally|"
    r"ultimately|overall|unanimously|on|for|upon|with|that|the|letter|option|choice|answer|number|keep|revise\s+to|"
    r"proceed(?:ing)?\s+with|recorded\s+as|es(?:\s+la|\s+el)?|"
    r"est(?:\s+la|\s+le)?|ist|è(?:\s+la|\s+il)?|é(?:\s+(?:a|o)(?=\s+\(?[A-E]\b))?|là|jest|это|adalah|sind|zijn)(?![\w'’])|"
    r"[:=\-–—>→⇒,'\"“”‘’]|是|为|為|[은는]|は|が|إما|اما|อาจ(?:จะ)?เป็น|คือ|เป็น|\(\s*\d+\s*/\s*\d+[^)]*\))\s*)*",
    re.IGNORECASE)
HYPOTHETICAL = re.compile(
    r"\b(?:if|unless|might|may|could|tempting|(?:some|many|most)\s+(?:might|would|may)|one\s+might|others?\s+(?:might|"
    r"may|would)|wrongly|incorrectly|whether|were|otherwise|else|(?<!best\s)initial(?:ly)?|draft|original|preliminary|tentative|"
    r"earlier|previous(?:ly)?|prior|original(?:ly)?|"
    r"suggest\w*|propos\w*|depending\s+on|would\s+(?:also\s+)?be\s+a\s+poor|(?:wrong|incorrect|a\s+mistake)\s+to|at\s+first\s+glance)\b(?:[^.!?;\n]|\.\d)*$", re.IGNORECASE)
# Another party as the subject just before an answer marker: what the report, an expert or a colleague said.
_OTHERS = re.compile(r"\b(?:the\s+)?(?:report|experts?(?:\s+\d+(?:\s*(?:,|and|&)\s*\d+)*)?|colleagues?|\w+ologists?|\w+icians?|"
                     r"surgeons?|other\s+experts?|students?|candidates|trainees|residents|people|many|some|others|"
                     r"(?<!if\s)(?:he|she|they))(?:['’]s?)?\s+(?:\w+\s+){0,2}$", re.IGNORECASE)
_SENTENCE_BREAK = re.compile(r"(?<!\d)\.|\.(?!\d)|[!?;\n]|\s[—–]\s")
# "C is correct", "(C) is the best answer", "This is A, not B", "not B but C": the letter comes first.
_LETTER_FIRST = re.compile(
    r"(?:\b(?:option|choice|answer)\s+\(?([A-Za-z])\)?|\(([A-Za-z])\)|(?<![\w'’-])([A-Z])\)?)(?:\s*\([^)]*\))?\s+(?:is|remains|"
    r"seems|looks|would\s+be|must\s+be)\s+(?:the\s+|my\s+|our\s+)?(?:most\s+(?:likely|appropriate)\s+|best\s+|only\s+)?(?:correct|right|"
    r"best|answer|true|most\s+appropriate|the\s+one|better|preferred)\b(?!\s+(?:for|if|when|in\s+a|than\s+nothing))"
    r"|(?:^|(?<=[\s(]))(?<![Nn]ot\s)(?:(?:this\s+is|it['’]?s|so)\s+)?\(?([A-E])\)?,?\s+not\s+\(?[A-E]\)?(?![\w'’-])"
    r"|(?<!not\s)\bnot\s+\(?[A-E]\)?,?\s+but\s+\(?([A-E])\)?(?![\w'’-])", re.MULTILINE)
# A letter standing as a value: "(C)", "[C]", "option C", "C." and a lower-case one only when it stands alone.
_LETTER = re.compile(r"\s*(?:(?i:option|choice|letter|letra|opci[oó]n|op[cç][aã]o|alternativa|se[cç]enek|विकल्प|选项|الخيار)\s*)?"
                     r"(?:[(\[]\s*(?P<b>[A-Za-z])\s*[)\]]|(?P<u>[A-Z])(?![A-Za-z0-9_’]|'\w|-\w)|(?P<l>[a-z])(?=\s*(?:[).:;,!?]|$|\s+[-–—]|[ \t]*\n|[ \t]+\([^()\n]{2,60}\)|"
                     r"\s+(?:because|since|as|given|due)\b)))")
_ANOTHER = re.compile(r"\s*(?:,|/|&|\+|\(?\s*\bor\b|\band\b|\band/or\b|\bvs\.?|\bversus\b|\.\s*or\b|\b(?:o|ou|y|et|e|und|oder|hoặc|và|lub|albo|veya|ya\s+da|ve|или|и|atau|dan|ή|και)\b|、|，|或者?|和|及|と|または|"
                      r"หรือ|และ|또는|혹은|و|أو|या|और)\s*(?:then\s+|option\s+|choice\s+|"
                      r"possibly\s+|maybe\s+|perhaps\s+)?(?:[(\[]\s*([A-Za-z])\s*[)\]]|([A-E])(?![\w'’]))")
# An option's text, then its letter: "ectopic ACTH (B)", "Cross-linking of DNA (A), because ..."
_TRAILING_LETTER = re.compile(r"([^(\[\n]{2,60}?)\s*(?:[(\[](?:(?i:option|choice)\s+)?([A-Za-z])[)\]]|[-–—]\s*(?i:option|choice)\s+"
                              r"\(?([A-Za-z])\b\)?)(?=\s*(?:$|[.!,;:]|\s[-–—]\s|(?i:because|since|as|given|due|which|or|and)\b))")
_DASH_LETTER = re.compile(r"([^(\[\n]{2,60}?)\s+[-–—]\s*()\(?([A-Z])\)?(?=\s*[.!]?\s*$)")  # an answer line's "Letrozole — B"
_TEXT_THEN_OPTION = re.compile(r"[^.;\n(\[]{2,60}?,\s*(?:i\.?e\.?,?\s+|that\s+is,?\s+)?(?:option|choice)\s+\(?([A-E])\b(?![\w'’])")
# A second letter closing a later clause of the same sentence, not ruled out: "I'd choose A, in a child under 12 B."
_CLAUSE_LETTER = re.compile(r",[^,;\n]{3,40}?(?<!\bnot)(?<!\bthan)(?<!\bover)(?<!\bof)(?<!\bnor)(?<!\bvs)(?<!\bversus)\s\(?([A-E])\)?\s*$")
_OR_LATER = re.compile(r"(?:\b(?i:or|ou|oder|bzw|oppure|o|hoặc|lub|albo|veya|или|atau)\b\.?|\band\b|/|&|\botherwise\b|\belse\b|\bunless\b|"
                       r"或者?|または|หรือ|또는|혹은|أو|या)\s*,?\s*(?:option\s+)?(?:\(([A-Za-z])\)|([A-E])\b(?![\w'’]))")
_TEXT_ENDS = re.compile(r"\s*(?:[,;(]|\s[-–—]\s|\.(?:\s|$)|\b(?:because|since|as|given|due\s+to|which|as\s+the)\b)",
                        re.IGNORECASE)
_REFUSAL_VALUE = re.compile(r"\s*(?:null|none|n/?a|unknown|-|cannot|can['’]t|unable|no\s+answer|undetermined)(?![\w/-])",
                            re.IGNORECASE)  # not "NAC" (N-acetylcysteine)
# The first or last line is a letter: "C", "(B) Insulin", "B. Because ...", "So: D.", "That leaves A."
_OPTION_WORD = r"(?:option|choice|opci[oó]n|op[cç][aã]o|alternativa|se[cç]enek)\s+"
_EDGE = re.compile(r"^\s*(?:=+>|-+>|»|:)?\s*(?:(?:so|thus|hence|therefore|overall|in\s+summary|in\s+conclusion|that\s+leaves|"
                   r"leaving|which\s+leaves|answer)\b[\s,:]*)?(?=(?:" + _OPTION_WORD + r")?\(?\s*[A-Za-z]\s*(?:\)|\.|:|,|\s+[-–—]|"
                   r"\s*$|\s*(?:,|&|/|\band\b|\bor\b)|\s+\([^()\n]{2,60}\)(?:\s*[.!]?\s*$|\s+[-–—:]\s)|(?=\s+(?:rather\s+than|over|not|instead\s+of|"
                   r"is\s+(?:the\s+)?(?:answer|correct|right|best))\b)))", re.IGNORECASE)
# An option by its number, standing alone: "3", "2. Furosemide", "number 4 (alcohol)" (options are lettered in order).
_NUMBERED = re.compile(r"\s*(?P<word>(?i:option|choice|number|no\.)\s*)?#?(?P<n>[1-9])(?=[.)]?[ \t]*(?:$|\n)|[.),][ \t]+\S|[ \t]+\()")
_ORDINAL = re.compile(r"\s*(?:the\s+)?(first|second|third|fourth|fifth|last)\s+(?:option|choice|one|answer)\b", re.IGNORECASE)
_WHICH_IS_LETTER = re.compile(r"\b(?:which|that)\s+(?:is|would\s+be)\s+(?:(?:choice|option|answer|letter)\s+\(?([A-Ea-e])\b"
                               r"|\(?([A-E])\)?(?=\s*(?:[.!,;]|$)))")
_SO_OPTION = re.compile(r"(?:^|(?<=[.!?]\s))[ \t]*(?:so|thus|hence|therefore)[ \t]*,?[ \t]+(?:it['’]?s[ \t]+|it[ \t]+is[ \t]+)?"
                        r"([^.!?\n]{2,80}?)[ \t]*[.!](?=\s|$)", re.IGNORECASE | re.MULTILINE)
_IS_BEST = re.compile(r"\s+(?:is|remains)\s+(?:the|my|our)\s+(?:best|correct|right|preferred|most\s+appropriate)\s+"
                      r"(?:answer|choice|option)\b(?!\s+(?:for|if|when|in|here\s+if))", re.IGNORECASE)
_ARROW_OPTION = re.compile(r"->[ \t]*([^.;:,\n()>]{2,80}?)[ \t]*(?=[.;(]|$)", re.MULTILINE)
_THEIRS = re.compile(r"\s*(?:the\s+)?(?:teams?|reports?|experts?|panel(?:ists?)?|groups?|members?|\w+ologists?|\w+icians?|"
                     r"surgeons?|votes?|samples?)\b", re.IGNORECASE)  # "Team 1: ... -> placenta previa": their position
_ABBREVIATION = re.compile(r"[A-Za-z][\w-]*[A-Z][\w-]*")
_SO_LETTER = re.compile(r"(?<![\w'’-])(?i:so|hence|thus)\s+\(?([A-E])\)?(?=[.!](?:\s|$))")
SPLIT_YES_NO = re.compile(r"\b(?:yes|no)\s+(?:for|in|at|when|if|among|with)\b[^.!?]*\b(?:yes|no)\s+(?:for|in|at|when|if|among|with)\b",
                          re.IGNORECASE)  # "yes for long-term outcomes, no for short-term outcomes"
OPTION_LIST = re.compile(r"(?:^|(?<=[.!?]\s))\s*(?:option\s+|choice\s+)?\(?([A-E])\s*[.:)]\s", re.MULTILINE | re.IGNORECASE)
NEGATED_AFTER = re.compile(
    r"^\s*(?:\([^)]*\)\s*)?(?:(?:is|are|was|were|would\s+be|seems|remains|does|do|did|has|have|would|can|could|should)\s+(?:not|never)\b"
    r"|(?:isn|aren|wasn|doesn|don|wouldn|can|couldn|shouldn)['’ ]?t\b|(?:(?:is|are|was|would\s+be|seems|remains|looks)\s+)?"
    r"(?:also\s+)?(?:incorrect|wrong|unlikely|less\s+likely|inappropriate|ruled\s+out|excluded|out\b|contraindicated|reserved|"
    r"insufficient|irrelevant|a\s+distractor|too\s+\w+|a\s+poor|not\s+(?:first|the|indicated|appropriate|correct|right|needed))"
    r"|(?:was|were|is|has\s+been|have\s+been)\s+(?:withdrawn|dropped|abandoned|discarded|rejected|retracted)\b"
    r"|(?:is|are|would\s+be)\s+(?:harmful|dangerous|unsafe)\b|(?:is|are|was|were)\s+absent\b"
    r"|(?:has|have)\s+no\b|(?:acts|works)\s+(?:far\s+)?too|would\s+(?:only|be\s+(?:appropriate|correct|right|reasonable|"
    r"preferred|considered)\s+(?:if|only|when|in)\b)|can\s+be\s+excluded|is\s+used\s+for|is\s+for\b"
    r"|(?:must|should|is\s+to)\s+be\s+avoided|(?:only\s+)?(?:if|unless)\b|[- ]?(?:resistan(?:ce|t)|failure|allergy|intolerance)\b"
    r"|[^.!?\n]{0,30}?(?:\s[—–-]|\?)?\s+no\b,?\s+(?:that|it|this)\b)",  # "... could be involved — no, that's ..."
    re.IGNORECASE)
REVISION = re.compile(r"\b(?:edit|update|wait|actually|on\s+(?:second\s+thought|reflection)|correct(?:ion|ed|ing)|"
                      r"reconsider\w*|re-?reading|scratch\s+that|changing|change\s+my|revis\w*|updated|amended|"
                      r"instead|anzi|rileggendo|correggo|en\s+fait|finalement|je\s+corrige|rectifi\w*|en\s+realidad|mejor\s+dicho|"
                      r"corrijo|corrigiendo|na\s+verdade|corrigindo|corrijo|eigentlich|korrigier\w*|doch\s+nicht|"
                      r"на\s+самом\s+деле|исправл\w*|aslında|düzelt\w*|właściwie|poprawiam|thực\s+ra|sửa\s+lại|sebenarnya)\b"
                      r"|不对|更正|改为|改選|修正|訂正|いや、|やっぱり|정정|다시\s*보니|잠깐|عذرا|عذراً|خطأ في إجابتي|تصحيح|"
                      r"रुकिए|रुको|सुधार|yanlış\s+okudum|poprawka|подожд\w*|погод\w*|хотя\s+нет|me\s+equivoqu[ée]|un\s+momento|"
                      r"je\s+me\s+suis\s+tromp[ée]|mi\s+sono\s+sbagliat[oa]|me\s+enganei|ich\s+habe\s+mich\s+geirrt", re.IGNORECASE)


@dataclass(frozen=True)
class Statement:
    """One place the reply states an answer: its position, kind, and value (an option key or a reason)."""

    at: int
    kind: str
    value: str
    end: int = 0


def value(text: str, options: dict[str, str], *, whole: bool = False, loose: bool = True, label: bool = False) -> str | None:
    """What a statement's text says: an option key, AMBIGUOUS, CONFLICT, REFUSED, or None for nothing.
    `whole`: the text is an answer line's value, so any option text in it counts; otherwise an option's
    text must open it (a marker inside a running sentence); `loose` also takes words found only in one option's text;
    `label`: the text follows a label and a colon ("Diagnosis: frozen shoulder (B)"), so a letter may close it."""
    keys = {key.upper(): key for key in options}
    if {v.lower() for v in options.values()} <= {"yes", "no", "maybe"}:
        if re.match(r"\s*(?:yes|no|maybe)\s*(?:/|,\s*(?:or\s+)?|\s+or\s+)(?:yes|no|maybe)\b", text, re.IGNORECASE):
            return AMBIGUOUS  # "yes/no/maybe", "yes, no, or maybe": the choices, not one
        if SPLIT_YES_NO.search(re.split(r"[.!?\n]", text.lstrip(" \"“'"), maxsplit=1)[0]):
            return AMBIGUOUS  # "the honest answer is "yes for men, no for women.""
        text = opening_yes_no(text)  # "结论：否", "Cevap: belki"
    ordinal = _ORDINAL.match(text)
    if ordinal:  # "I'd pick the first option."
        order = list(options)
        at = {"first": 0, "second": 1, "third": 2, "fourth": 3, "fifth": 4, "last": len(order) - 1}[ordinal.group(1).lower()]
        return order[at] if at < len(order) else None
    numbered = _NUMBERED.match(text)
    nth = list(options)[int(numbered.group("n")) - 1] if numbered and int(numbered.group("n")) <= len(options) else None
    if nth and (numbered.group("word") or options_meant(text[numbered.end():].split("\n", 1)[0], options) == {nth} or not any(  # type: ignore[union-attr]
            re.match(r"\s*\d", v) for v in options.values())) and (
            not text[numbered.end():].strip(" .)\n") or options_meant(text[numbered.end():].split("\n", 1)[0], options)) and not (
            re.match(r"[^\n]*\n\s*\d[.)]", text[numbered.end():])):  # not an item of a numbered list
        text = f"({list(options)[int(numbered.group('n')) - 1]})" + text[numbered.end():]  # "The answer is: 3" is the third
    labelled = re.match(r"\s*(?:\(?[A-Za-z]\)?\s*[-–—]\s*)?", text)  # "A - Factor V Leiden: 2"
    if not whole and tally(options).match(text, labelled.end()):  # type: ignore[union-attr]
        return None  # a count ("votes: A: 2, B: 2", "yes = 2, no = 2"), not a choice
    if whole and _REFUSAL_VALUE.match(text):
        return REFUSED  # "Answer: N/A" (not the letter N)
    letter = _LETTER.match(text)
    if letter and letter.group("u") and re.match(r"[AI]\s+[a-z0-9']", text[letter.start("u"):]) and not re.match(
            r"A\s+(?:is|was|because|as|since|yes|no|maybe|or|and|vs|versus|over|rather|not|nor|o|ou|y|et|e|oder|und|hoặc|và|"
            r"lub|albo|veya|ve|atau|dan)(?![\w-])", text[letter.start("u"):]):
        letter = None  # "A 45-year-old ...", "I think ..."
    first = text.split("\n", 1)[0]
    trailing = None if letter or not (whole or label) else _TRAILING_LETTER.match(first) or (whole and _DASH_LETTER.match(first))
    if letter or trailing:  # "(B) Insulin", "B", or "ectopic ACTH (B)"
        key = keys.get((trailing.group(2) or trailing.group(3) if trailing else next(g for g in letter.group("b", "u", "l") if g)).upper())
        if key is None:
            return None  # "Answer: (X) option text" echoed from the prompt, or a letter this question lacks
        rest = first[trailing.end():] if trailing else text[letter.end():]
        if not trailing and re.match(r"\s*[.!][ \t]+(?!(?:Or|Otherwise|Unless|Else|If|But)\b)[A-Z]", rest) and not (
                options_worded(rest.split("\n", 1)[0].strip(" .!"), options)):
            rest = rest[:1]  # "Keep C. The expert noted ...": the next sentence is not C's text, but "E. Lithium" is
        rest = re.sub(r"^\s*[,;]?\s*(?:i\.\s?e\.|that\s+is|viz\.?|namely)\s*,?", " ", rest)  # "Ans. is (d) i.e., Mucor"
        clause = trailing.group(1) if trailing else _TEXT_ENDS.split(rest.lstrip(" )].:–—-").split("\n", 1)[0], maxsplit=1)[0]
        clause = YES_NO_WORDS.get(clause.strip().lower(), clause)  # "Resposta: A) não": the word says no
        aside = None if trailing or clause else re.match(r"\s*\(([^()\n]{2,80})\)|\s*,[ \t]*(?!(?:with|plus|and|or|but|then|given|as|"
                                                        r"because|since|which|who|that|followed|in|on|for|after|before|if|unless|"
                                                        r"while|although|not|so|i|we)\b)([^\s,;:()][^,;:()\n]{2,49}?)[ \t]*[.!]?[ \t]*$",
                                                        rest.split("\n", 1)[0], re.IGNORECASE)
        if aside:  # "Answer: A (Rheumatic fever)", "The answer is (C), low phosphate levels.": the text beside the letter
            clause = aside.group(1) or aside.group(2)
        stripped, own = rest.lstrip(" \t)].:–—-"), options[key].strip()
        after = stripped[len(own):] if not trailing and own and stripped[:len(own)].lower() == own.lower() else rest  # "C — Both A and B"
        others = [m.group(1) or m.group(2) for m in (*_listed(after), *_OR_LATER.finditer(after.split("\n\n", 1)[0][:80])) if m]
        others += re.findall(r"[(\[]([A-Za-z])[)\]]", re.split(r"\n|\.\s", after)[0][:60]) if whole else []  # "(B) if stable, (C) if not"
        others += _CLAUSE_LETTER.findall(re.split(r"\n|[.;!?](?:\s|$)", after)[0][:80])  # "A in an adult, in a child B"
        if any(keys.get(o.upper(), key) != key for o in others) or (
                re.search(r"\b(?:or|and/or)\b", clause) and len(options_meant(clause, options)) > 1):
            return AMBIGUOUS
        line = clause if trailing else rest.lstrip(" )].:–—-").split("\n", 1)[0].rstrip(" .")
        exact = {k for k, v in options.items() if words(line) and words(v) == words(line)}  # in order: "Decreased PTH, increased calcium"
        meant = exact or options_meant(clause, options) or options_touched(clause, options, within=bool(aside and aside.group(2)))
        if meant and key not in meant and any(options_touched(aside, options) == {key} for aside in re.findall(r"\(([^()]{3,40})\)", rest.split("\n", 1)[0])):
            return key  # "(C) Magnesium ammonium phosphate (struvite)": the aside names C and only C
        return CONFLICT if meant and key not in meant else key
    if whole:
        if len({value(part, options) for part in re.split(r"[,;]|\bbut\b", first)} - {None}) > 1:
            return AMBIGUOUS  # "yes for screening, no for diagnosis"
        short = _TEXT_ENDS.split(text, maxsplit=1)[0]
        for part in (short, text) if len(text.split()) <= 12 else (short,):
            if len(meant := options_meant(part, options)) == 1:
                return meant.pop()
        return AMBIGUOUS
    clause = _TEXT_ENDS.split(first[:400], maxsplit=1)[0]
    sentence = re.split(r"[.;!?]\s", first[:400])[0]  # "increased temperature (C) or increased pH (B)"
    if re.search(r"\bor\b", sentence) and len({*re.findall(r"[(\[]([A-E])[)\]]", sentence)} & set(keys)) > 1:
        return AMBIGUOUS
    head = [w for w in tokens(clause) if w not in ("the", "a", "an", "to")] or [""]
    found = [(len(w), key) for key, w in ((k, [t for t in tokens(v) if t not in ("the", "a", "an", "to")]) for k, v in options.items())
             if w and set(head[:len(w)]) == set(w) and (len(head) == len(w) or head[len(w)] != w[-1])]
    if not found and loose and len(head) == 1 and len(meant := options_meant(clause, options)) == 1:
        found = [(0, meant.pop())]  # "The answer is MODY."
    if not found and loose and len(said := set(words(clause))) >= 2 and len(inside := [k for k, v in options.items()
                                                                          if said <= set(words(v))]) == 1:
        found = [(0, inside[0])]  # "the thyroglossal cyst" of "Thyroglossal duct cyst"
    named = None if found else _TEXT_THEN_OPTION.match(first)
    if named and (key := keys.get(named.group(1).upper())) and not options_meant(named.group(0), options) - {key}:
        return key  # "oral rehydration therapy, option A" (the text an alias of A's)
    if not found:
        return None
    if re.search(r"\b(?:or|and/or)\b", clause) and len(options_meant(clause, options)) > 1:
        return AMBIGUOUS
    key = max(found)[1]
    named = _WHICH_IS_LETTER.search(sentence)
    return CONFLICT if named and keys.get((named.group(1) or named.group(2)).upper()) not in (None, key) else key  # "X, which is E"


def _texts_called_best(body: str) -> list[tuple[int, str, int]]:
    """(start, text, end) for each "<text> is the best choice": the text is what precedes it in its sentence, at most
    80 characters (found from the phrase backwards, which is linear, not from every position forwards)."""
    found, floor = [], 0
    for match in _IS_BEST.finditer(body):
        start = max(floor, match.start() - 80, *(body.rfind(c, 0, match.start()) + 1 for c in ".;!?\n"))
        if match.start() - start >= 2:
            found.append((start, body[start:match.start()], match.end()))
            floor = match.end()
    return found


LIST_ITEM = r"(?:[-*•]|\d+[.)])"  # a bullet or a number opening a list's line
_MARKED = re.compile(r"^[ \t]*(?:" + LIST_ITEM + r"|\|)?[ \t]*(?P<item>[^\n|]{1,80}?)[ \t]*(?:(?:←|<-+|<=+)[ \t]*(?:chosen|selected|"
                     r"my\s+(?:answer|pick|choice)|answer|pick|final)\b|\((?:chosen|selected|my\s+answer)\)|\|[ \t]*(?:chosen|selected)\b|[⟵←][ \t]*$)"
                     r"[^\n]*$", re.IGNORECASE | re.MULTILINE)
_BOX = re.compile(r"^[ \t]*" + LIST_ITEM + r"?[ \t]*\[(?P<mark>[ xX✓✔])\][ \t]*(?P<item>[^\n]+)$", re.MULTILINE)


_TABLE_ROW = re.compile(r"^[ \t]*\|(?P<first>[^|\n]*)\|(?:[^|\n]*\|)*?(?P<last>[^|\n]*)\|[ \t]*$", re.MULTILINE)
_CHOSEN_CELL = re.compile(r"\s*[✓✔✅☑]?\s*(?:best(?:\s+(?:fit|answer|choice|match))?|most\s+likely|yes|correct|chosen|selected)\s*[.!]?\s*",
                          re.IGNORECASE)


def _table_verdict(body: str, options: dict[str, str]) -> list[Statement]:
    """A table of the options whose last column picks exactly one of them ("✓ Best fit", "Yes", "Most likely")."""
    rows = []
    for row in _TABLE_ROW.finditer(body):
        letter = re.match(r"\s*\(?([A-Ea-e])[.)]\s", row.group("first"))
        meant = {letter.group(1)} & set(options) if letter else options_meant(row.group("first"), options)
        if len(meant) == 1:
            rows.append((row, meant.pop(), _CHOSEN_CELL.fullmatch(row.group("last")) is not None))
    chosen = [(row, key) for row, key, picked in rows if picked]
    if len(chosen) != 1 or len(rows) < 3:
        return []
    row, key = chosen[0]
    return [Statement(row.start(), STRONG, key, row.end())]


_TABLE = re.compile(r"(?:^[ \t]*\|.*\|[ \t]*(?:\n|\Z)){2,}", re.MULTILINE)
_ANSWER_HEADER = re.compile(r"(?:final\s+|best\s+)?(?:answer|decision|choice|verdict|conclusion|diagnosis|pick)|final", re.IGNORECASE)


def _answer_cells(body: str, options: dict[str, str]) -> list[Statement]:
    """A table's answer: the cells of its "Answer" (or "Decision", "Diagnosis") column, when they all name one
    option, or a row labelled so ("| Diagnosis | ARDS |")."""
    found = []
    for table in _TABLE.finditer(body):
        rows = [[cell.strip() for cell in line.strip().strip("|").split("|")] for line in table.group(0).strip().splitlines()]
        rows = [row for row in rows if not all(re.fullmatch(r":?-+:?", cell) for cell in row if cell)]
        column = next((at for at, cell in enumerate(rows[0]) if _ANSWER_HEADER.fullmatch(cell)), None)
        said = {value(row[column], options, whole=True) for row in rows[1:] if column is not None and column < len(row)}
        said |= {value(row[1], options, whole=True) for row in rows if len(row) == 2 and _ANSWER_HEADER.fullmatch(row[0])}
        if len(said) == 1 and (key := said.pop()) in options:
            found.append(Statement(table.start(), STRONG, key, table.end()))
    return found


def _marked_items(body: str, options: dict[str, str]) -> list[Statement]:
    """A list with its chosen item marked: "2. Neuroblastoma ← chosen", one ticked box among empty ones, or a table
    whose verdict column picks one option."""
    found = [Statement(m.start(), STRONG, said, m.end()) for m in _MARKED.finditer(body)
             if (said := value(m.group("item"), options, whole=True)) in options] + _table_verdict(body, options) + (
                 _answer_cells(body, options) if "|" in body else [])
    boxes = list(_BOX.finditer(body))
    ticked = [m for m in boxes if m.group("mark") != " "]
    if ticked and len(ticked) < len(boxes):
        said = {value(m.group("item"), options, whole=True) for m in ticked}
        found.append(Statement(ticked[-1].start(), STRONG, said.pop() if len(said) == 1 else AMBIGUOUS, ticked[-1].end()))
    return found


def _listed(rest: str) -> list[re.Match[str]]:
    """The letters listed after a first one: "A, A, B, B" (expert votes), "B or D"."""
    found = []
    while (match := _ANOTHER.match(rest, found[-1].end() if found else 0)) is not None:
        found.append(match)
    return found


def statements(body: str, options: dict[str, str]) -> list[Statement]:
    """Every statement in `body`, in order."""
    found = [*_answer_lines(body, options), *_declarations(body, options), *_edges(body, options)]
    return sorted(found, key=lambda s: (s.at, s.kind != CONTRACT))


def _answer_lines(body: str, options: dict[str, str]) -> list[Statement]:
    lines = []
    for match in _LINE.finditer(body):
        text = match.group("value").strip()
        if not text:  # "Answer:" with the answer on the next line
            text = next((line.strip() for line in body[match.end():].splitlines() if line.strip()), "")
            if not text or _LINE.match(text):
                continue  # nothing after it: the reply stopped there
        text = re.sub(r"^(?:the\s+)?(?:final\s+|correct\s+|best\s+)?answer\s+is\s*:?\s*", "", text, flags=re.IGNORECASE)
        if re.search(r"\b(?:has been|was|were) (?:submitted|recorded|sent|logged)\b|\b(?:see|as) above\b", text, re.IGNORECASE):
            continue  # "Final Answer: The answer has been submitted via the tool.": the answer is elsewhere
        said = value(text, options, whole=True)  # "Final Answer: The final answer is D."
        if said is not None:
            lines.append(Statement(match.start(), CONTRACT, said, match.start("value")))
    return lines


def _declarations(body: str, options: dict[str, str]) -> list[Statement]:
    found = []
    keys = {key.upper(): key for key in options}
    for match in _MARKER.finditer(body):
        before = body[max(0, match.start() - 200):match.start()]
        if HYPOTHETICAL.search(_SENTENCE_BREAK.split(before)[-1]) or re.search(r"\bwho\s+(?:\w+\s+)?$", before) or (
                _OTHERS.search(before) and not re.search(r"\bagree\w*\s+with\b[^.;\n]*$", before)):
            continue  # supposed, or what others did: "the two experts who selected apixaban", "The report states the answer is"
        if re.match(r"[ \t]*\?", body[match.end():]) or (match.group(0).lower() == "answer" and re.search(r"\bto\s+$", before)):
            continue  # "Which is the most likely diagnosis?" asks; "both must hold to answer yes" is the verb
        start = _FILLER.match(body, match.end()).end()  # type: ignore[union-attr]
        label = ":" in body[match.end():start] and "\n" not in body[match.end():start]
        said = value(body[start:start + 400], options, loose=match.group("identity") is None, label=label)  # "This is sprue."
        if said in options and _named_before(before, options) - {said}:
            said = CONFLICT  # "It's Gilbert's — answer D" where Gilbert syndrome is C
        strong = match.group("strong") is not None or REVISION.search(before[-120:]) is not None
        if said is not None or (label and "\n" not in body[match.end():start + 1]):
            found.append(Statement(match.start(), STRONG if strong else WEAK, said or UNREAD, match.end()))
    for match in _LETTER_FIRST.finditer(body):
        letter = next(g for g in match.groups() if g).upper()
        sentence = _SENTENCE_BREAK.split(body[max(0, match.start() - 200):match.start()])[-1]
        if letter in keys and not HYPOTHETICAL.search(sentence):
            found.append(Statement(match.start(), STRONG, keys[letter], match.end()))
    for match in _SO_LETTER.finditer(body):  # "... = vit A def so C."
        key = keys.get(match.group(1))
        if key is not None and not REVISION.search(body, match.end()):  # not "So D. Wait, ..."
            found.append(Statement(match.start(), WEAK, key, match.end()))
    for start, text, end in _texts_called_best(body):  # "I agree with the report that amoxicillin is the best choice."
        fragment = re.split(r"\b(?:that|think|believe|agree|so|thus|therefore)\b|[,:(]", text)[-1]
        said = options_meant(fragment, options)
        sentence = _SENTENCE_BREAK.split(body[max(0, start - 200):start])[-1]
        if len(said) == 1 and not HYPOTHETICAL.search(sentence) and not re.search(r"\b(?:not|never)\b", fragment, re.IGNORECASE):
            found.append(Statement(start, STRONG, said.pop(), end))
    for match in _ARROW_OPTION.finditer(body):  # "... 4T score high -> heparin-induced thrombocytopenia.", "-> SIADH."
        phrase = match.group(1).strip()
        said = options_worded(phrase, options) or (options_meant(phrase, options) if _ABBREVIATION.fullmatch(phrase) else set())
        opening = _SENTENCE_BREAK.split(body[max(0, match.start() - 200):match.start()])[-1]
        sentence = re.split(r"[.!?\n]", body[:match.start()])[-1] + re.split(r"[.!?\n]", body[match.end():])[0]
        around = body[body.rfind("\n", 0, max(body.rfind("\n", 0, match.start()), 0)) + 1:body.find("\n", body.find("\n", match.end()) + 1)]
        mapping = "->" in sentence or around.count("->") > 1  # "X -> a; Y -> b", a list of them: associations, not a conclusion
        if len(said) == 1 and not mapping and not _THEIRS.match(opening) and not HYPOTHETICAL.search(opening):
            found.append(Statement(match.start(), WEAK, said.pop(), match.end()))
    for match in _SO_OPTION.finditer(body):  # "So amoxicillin." (an option's words and nothing else)
        said = list(options_worded(match.group(1), options))
        if len(said) == 1:
            found.append(Statement(match.start(), WEAK, said[0], match.end()))
    found += _marked_items(body, options)
    lines = [line for line in body.strip().splitlines() if line.strip()]
    labelled = re.match(r"^\s*[^:\n]{2,60}[:：]\s*(\(?[A-E]\)?\s*(?:[-–—.)]\s*(.*?))?)\s*[.!]?\s*$", lines[-1]) if lines else None
    if labelled and (key := restates(labelled.group(1), options)):  # "Best next step: A", "Conclusion: D. Teriparatide"
        found.append(Statement(len(body) - len(lines[-1]), STRONG, key))
    return found


_LEAD = re.compile(r"(?:^|\n)[ \t]*(?:(?:it['’]?s|it\s+is|this\s+is|that['’]?s|so|probably|likely|most\s+likely)\s+)*"
                   r"([^\n.!?:,;—–]{2,60}?)[ \t]*(?:[—–,:]|\s-)[ \t]*$", re.IGNORECASE)


def _named_before(before: str, options: dict[str, str]) -> set[str]:
    """The options a line's opening names right before its answer marker: "It's Gilbert's — answer D"."""
    lead = _LEAD.search(before)
    if not lead or len(lead.group(1).split()) > 6:
        return set()
    fragment = lead.group(1)
    return options_meant(fragment, options) or (options_touched(fragment, options) if len(fragment.split()) <= 3 else set())


def _edges(body: str, options: dict[str, str]) -> list[Statement]:
    """The reply opens, or ends, on its answer: a letter, or one option restated ("C) Cross-linking of DNA")."""
    lines = [line for line in body.strip().splitlines() if line.strip()]
    if not lines:
        return []
    if len(lines) > 1 and _REMARK.fullmatch(lines[-1]):
        lines = lines[:-1]  # "A.\n\n(A hypertrophic scar would stay within the wound.)": a remark after the answer
    found = []
    quoted = sum(restates(line, options) is not None for line in lines[:len(options) + 2])
    if len(set(OPTION_LIST.findall(body))) < 2 or (restates(lines[0], options) and quoted < 2):
        said = _edge_value(lines[0], options) or _opening_name(lines[0], options, alone=len(lines) == 1)
        if said is not None:
            found.append(Statement(-1, WEAK, said))
    last = restates(lines[-1], options)
    alone = "\n" not in re.split(r"\n\s*\n", body.strip())[-1] and last in {restates(line, options) for line in lines[:-1]}
    if len(lines) > 1 and restates(lines[-2], options) and last and not alone:
        return found  # the reply ends on a list of options (not on one of them again, after a blank line)
    opening = re.split(r"(?<=[.!?])\s+", lines[-1].strip(), maxsplit=1)[0]
    for line in dict.fromkeys((lines[-1], re.split(r"(?<=[.!?])\s+", lines[-1].strip())[-1], *([opening] if len(opening.split()) > 1 and restates(opening, options) else []))):
        said = _edge_value(line, options, closing=True)
        if said is not None:
            found.append(Statement(len(body), WEAK, said))
            break
    else:
        said = _closing_phrase(lines[-1], options) or _concluded_yes_no(lines[-1], options)
        if said is not None:
            found.append(Statement(len(body), WEAK, said))
    return found


def _concluded_yes_no(line: str, options: dict[str, str]) -> str | None:
    """A yes/no question answered by the reply's closing sentence: "Therefore yes, probiotics prevent it."."""
    yes_no = {v.strip().lower(): k for k, v in options.items() if v.strip().lower() in ("yes", "no", "maybe")}
    said = re.match(r"\s*(?:so|therefore|thus|hence|overall|in\s+(?:short|conclusion|summary))\s*,?\s*(yes|no|maybe)\b(?!\s*(?:/|or\b))",
                    re.split(r"(?<=[.!?])\s+", line.strip())[-1], re.IGNORECASE)
    return yes_no.get(said.group(1).lower()) if said and len(yes_no) == 3 else None


_REMARK = re.compile(r"\s*\((?![^()]*\b(?:also|or|if|might|may|could|but|unless|though|although|maybe|perhaps|possibly)\b)"
                     r"[^()]{15,}\)\s*[.!]?\s*", re.IGNORECASE)


def _opening_name(line: str, options: dict[str, str], *, alone: bool) -> str | None:
    """A reply that opens on a bare name of one option, as a sentence of its own, maybe with an aside: "TRALI. Onset
    within 6 hours ...", "COPD (FEV1/FVC 0.58, ...)", "Crescentic GN (RPGN)." (the aside may be the name). A reply
    that is only a name, `alone`, is the option-text step's."""
    if {v.strip().lower() for v in options.values()} <= {"yes", "no", "maybe"}:
        return None
    sentence = re.split(r"(?<=[.!])\s+", line.strip(), maxsplit=1)[0]
    asides = re.findall(r"\(([^()]*)\)", sentence)
    if alone and sentence == line.strip() and not asides:
        return None
    name = re.sub(r"\s*\([^()]*\)", "", sentence).strip().rstrip(".!")
    if not (sentence.endswith((".", "!", ")")) or sentence == line.strip()) or not re.fullmatch(r"[\w'’ /-]{2,40}", name) \
            or len(name.split()) > 4 or re.search(r"_[A-E]\b|\b(?i:and|or|not|no|vs|is|are|with)\b", name):
        return None
    meant = {key for part in (name, *(a for a in asides if len(a.split()) <= 4)) if len(m := options_meant(part, options)) == 1
             for key in m if set(words(part)) <= set(words(options[key])) or _ABBREVIATION.fullmatch(part)}
    return meant.pop() if len(meant) == 1 else None


def _closing_phrase(line: str, options: dict[str, str]) -> str | None:
    """A reply that ends on a bare phrase of two or more words found in one option's text and no other:
    "... IgM antibody. Cold agglutinins.", "smoking/alcohol -> squamous cell." (cleaning drops "→" and "⇒")."""
    sentence = re.split(r"(?<=[.!?])\s+", line.strip())[-1]
    if len(re.findall(r"=>|->", sentence)) > 1:
        return None  # "low ACTH -> adrenal adenoma; high ACTH -> pituitary adenoma": associations
    phrase = re.split(r"=>|->", sentence)[-1].strip()
    if not phrase.endswith((".", "!")):
        return None  # a finished sentence, not a reply cut mid-list
    phrase = re.sub(r"^(?:it['’]?s|it\s+is|this\s+is|that['’]?s)\s+", "", phrase.strip(" .!"), flags=re.IGNORECASE)
    if re.fullmatch(r"[A-Z][A-Za-z0-9]*[A-Z][A-Za-z0-9-]*", phrase):  # an abbreviation: "→ COPD.", "It's DKA."
        meant = options_meant(phrase, options)
        return meant.pop() if len(meant) == 1 else None
    said = set(words(phrase))
    if not said or len(phrase) > 60 or not re.fullmatch(r"[\w' -]+", phrase):
        return None
    if len(said) == 1 and (len(phrase) < 5 or line.strip().strip(" .!") != phrase):
        return None  # one word only as the whole last line ("Posterior."), not the end of "... or S. pneumoniae."
    holders = [key for key, text in options.items() if said <= set(words(text))]
    return holders[0] if len(holders) == 1 else None


def restates(line: str, options: dict[str, str]) -> str | None:
    """The option a line is only the letter of, or the letter and text of: "E", "(E) Empagliflozin."."""
    match = re.fullmatch(r"\s*(?:" + _OPTION_WORD + r")?\(?\s*([A-Za-z])\s*(?:[.):–—-]\s*(.*?)|\s+\((.*?)\))?\s*[.!]?\s*", line, re.I)
    key = {k.upper(): k for k in options}.get(match.group(1).upper()) if match else None
    if key is None or (match.group(1).islower() and not re.search(r"[().:]", line)):  # type: ignore[union-attr]
        return None
    text = match.group(2) or match.group(3)  # type: ignore[union-attr]
    return key if not text or set(words(text)) == set(words(options[key])) else None


def _edge_value(line: str, options: dict[str, str], *, closing: bool = False) -> str | None:
    if len(set(re.findall(r"(?<![\w(])([A-E])\)", line))) > 1:
        return None  # "A) yes — B) no": options listed on one line
    edge = _EDGE.match(line)
    if edge is None:
        return None if closing else _yes_no_opening(line, options)
    rest = line[edge.end():]
    bare = re.fullmatch(r"\s*\(?\s*([A-Za-z])\s*\)?\s*[.:!]?\s*", rest)
    if bare and any(key.upper() != bare.group(1).upper() and re.search(rf"_{bare.group(1).upper()}\b", text)
                    for key, text in options.items()):
        return None  # a bare "A." where another option is "Vitamin A": the letter may be either
    if NEGATED_AFTER.match(re.sub(r"^\s*(?:option\s+|choice\s+)?\(?\s*[A-Za-z]\s*\)?", "", rest)[:60]):
        return None  # "(C) is incorrect; ..."
    said = value(rest, options, whole=True)
    after = re.match(r"\s*\(?([A-E])\)?\s*,(.+)$", rest)
    parts = re.split(r"\s+[-—–]\s+|,", after.group(2)) if said in (*options, CONFLICT) and after else []
    if any(options_worded(part, options) - {after.group(1)} for part in parts):  # type: ignore[union-attr]
        return CONFLICT  # "E, ketamine — keeps the BP up", where ketamine is A
    if closing and said in options and not restates(rest, options) and not _shortened(rest, options[said]):
        return None  # a closing line names its option and nothing else (its text may be shortened)
    if said == CONFLICT:  # a short line that is a letter and another option's text: "C. spironolactone"
        return said if len(line.split()) <= 6 else None
    return said if said in options or said == AMBIGUOUS else None


def _shortened(line: str, option: str) -> bool:
    """A letter, then two or more of its option's words and no others: "Option D: 100% oxygen via non-rebreather"."""
    text = re.match(r"\s*(?:" + _OPTION_WORD + r")?\(?\s*[A-Za-z]\s*[.):–—-]\s*(.*?)\s*[.!]?\s*$", line, re.IGNORECASE)
    said = set(words(text.group(1))) if text else set()
    return len(said) >= 2 and said <= set(words(option))


def _yes_no_opening(first: str, options: dict[str, str]) -> str | None:
    """A yes/no/maybe question answered by the reply's first word: "Yes.", "No, the trial ...", "Probably not"."""
    yes_no = {v.strip().lower(): k for k, v in options.items() if v.strip().lower() in ("yes", "no", "maybe")}
    if not yes_no:
        return None
    first = re.sub(r"^\s*(?:probably|likely|most\s+likely)\s+not\b", "no", first, flags=re.IGNORECASE)
    first = re.sub(r"^\s*(?:i['’]?d\s+say|i\s+would\s+say|(?:most\s+)?likely|probably|in\s+short)\s*,?\s*", "", first,
                   flags=re.IGNORECASE)
    first = re.sub(r"^\s*(?:def(?:initely)?|defo)\s+(?=\w+\b)", "", first, flags=re.IGNORECASE)
    first = re.sub(r"^\s*(?:yes{2,}|yep|yeah|yup)\b", "yes", re.sub(r"^\s*(?:nope|nah)\b", "no", first, flags=re.IGNORECASE),
                   flags=re.IGNORECASE)  # typed: "yesss", "nope, no effect"
    first = opening_yes_no(first)
    word = re.match(r"\s*[\[(]?\s*(yes|no|maybe)\b\s*[\])]?(?![ \t]*(?:significant|difference|evidence|effect|association|"
                    r"changes?|concerns?|objections?|issues?|problems?|comments?|one|more|longer|data|clear|statistically))",
                    first, re.IGNORECASE)
    if word is None or word.group(1).lower() not in yes_no:
        return None
    return AMBIGUOUS if re.match(r"\s*(?:or|/|and)\s*(?:yes|no|maybe)\b", first[word.end():], re.I) else yes_no[word.group(1).lower()]


# The reply's own odds or scores for each option: "P(C)=0.70", "C: 0.82", "A: 5%", "B — 9/10", "yes 0.55", a JSON
# object of probabilities, "I estimate C at about 65%"; or its ranking: "Ranking: C > A > D", "1. C" under "ranked".
_WEIGHT = re.compile(r"(?<![\w(])(?:P\(\s*)?[\"']?(?P<key>[A-E]|yes|no|maybe)[\"']?\s*\)?\s*(?:[:=≈~]|[—–-]|at(?:\s+about)?)?\s*~?\s*"
                     r"(?P<value>\d{1,3}(?:\.\d+)?\s*%|0?\.\d+|1\.0|\d{1,2}\s*/\s*10)(?![\d.%/])", re.IGNORECASE)
_RANKING = re.compile(r"\b(?i:rank)\w*[^\n:]*:?\s*(?:\n\s*1[.)]\s*)?\(?([A-E])\)?(?:\s*>|\s*[-–—:]\s)")


def favoured(body: str, options: dict[str, str]) -> str | None:
    """The option the reply's own odds, scores or ranking put first, AMBIGUOUS for a tie at the top, or None when
    it gives no such figures for at least three options (or for every option, if fewer)."""
    keys = {key.upper(): key for key in options} | {text.strip().lower(): key for key, text in options.items()
                                                   if text.strip().lower() in ("yes", "no", "maybe")}
    weights: dict[str, float] = {}
    for match in _WEIGHT.finditer(body):
        key, said = keys.get(match.group("key").upper()) or keys.get(match.group("key").lower()), match.group("value")
        if key is None or key in weights or (match.group("key").islower() and len(match.group("key")) == 1):
            continue
        number = float(re.sub(r"[\s%]|/\s*10", "", said))
        weights[key] = number / 100 if "%" in said else number / 10 if "/" in said else number
    if len(weights) >= min(3, len(options)) and max(weights.values()) <= 1:
        best = max(weights.values())
        top = [key for key, weight in weights.items() if weight == best]
        return top[0] if len(top) == 1 else AMBIGUOUS
    ranked = _RANKING.search(body)
    return keys.get(ranked.group(1)) if ranked else None
