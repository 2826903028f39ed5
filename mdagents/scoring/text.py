"""Reading a reply as plain text: reasoning blocks, markup, letters inside names, option texts.

Every step of grading works on what `plain` returns, and matches option texts with `options_meant`,
so a reply and its options are compared the same way everywhere.
"""

from __future__ import annotations

import difflib
import html
import json
import re
import unicodedata
from functools import lru_cache
from typing import Any

# gpt-oss's channels: "analysis..." then "assistantfinal..." (or "<|channel|>final<|message|>") is the reply proper.
_CLOSE_REASONING = re.compile(r"</(?:think|thinking|reasoning|thought|scratchpad)>|<\|end_of_thought\|>|assistantfinal|"
                              r"<\|channel\|>\s*final\s*<\|message\|>", re.I)
_OPEN_REASONING = re.compile(r"<(?:think|thinking|reasoning|thought|scratchpad)>|<\|begin_of_thought\|>|\A\s*analysis(?=[A-Z])|"
                             r"<\|channel\|>\s*analysis", re.I)


def after_reasoning(text: str) -> str:
    """The reply after its last closed reasoning block; '' when a block opens and never closes."""
    closes = list(_CLOSE_REASONING.finditer(text))
    if closes:
        return text[closes[-1].end():]
    if _OPEN_REASONING.search(text):
        return ""
    return text


_INVISIBLE = re.compile("[\u200b-\u200f\u2060\ufeff\u202a-\u202e\u2066-\u2069\u00ad]")  # zero-width, bidi marks, BOM
_SSE_DATA = re.compile(r"^data:[ \t]*(\{.*\})[ \t]*$", re.MULTILINE)
_ESCAPES = re.compile(r"\\u([0-9a-fA-F]{4})|\\n(?!(?:eq|abla|u|e|ot|ewline|i|leq|geq|exists|mid|parallel)(?![A-Za-z]))|\\\"")
_TAG = re.compile(r"</?(?:p|br|b|strong|em|i|u|li|ul|ol|td|th|tr|table|thead|tbody|div|span|sub|sup|h[1-6]|code|pre|del|"
                  r"strike|font|small|mark)\b[^<>]*>", re.IGNORECASE)
_HTML = re.compile(_TAG.pattern + r"|&(?:[a-zA-Z]{2,8}|#\d{2,6}|#x[0-9a-fA-F]{2,5});", re.IGNORECASE)
_HTML_BREAK = [(r"(?is)<(del|strike)\b[^>]*>.*?</\1>", ""), (r"(?i)<br\s*/?>|</(?:p|li|tr|div|h[1-6]|table)>", "\n"),
               (r"(?i)<li\b[^>]*>", "\n- "), (r"(?i)<tr\b[^>]*>", "\n|"), (r"(?i)</t[dh]>", " |"), (_TAG, "")]


def unwrapped(text: str) -> str:
    """The reply's own words when it arrives in its transport: a JSON chat envelope (OpenAI, Anthropic, Gemini, a
    conversation log), a stream of server-sent events, a JSON string, a log's escaped repr, HTML; without invisible marks."""
    text = text if text.isascii() else _INVISIBLE.sub("", text)
    chunks = _SSE_DATA.findall(text) if "data:" in text else []
    if len(chunks) >= 2:  # "data: {...delta...}" lines: the deltas' text, in order
        text = "".join(_said(chunk, streamed=True) for chunk in chunks)
    elif text.lstrip()[:1] in ("{", '"'):
        try:
            parsed = json.loads(text)
        except ValueError:
            parsed = None
        said = parsed if isinstance(parsed, str) else _envelope(parsed) if isinstance(parsed, dict) else None
        text = said if said else text
    if "\\n" in text or "\\u" in text:
        text = _ESCAPES.sub(lambda m: chr(int(m.group(1), 16)) if m.group(1) else "\n" if m.group(0) == "\\n" else '"', text)
    if ("<" in text or "&" in text) and _HTML.search(text):
        for pattern, replacement in _HTML_BREAK:
            text = re.sub(pattern, replacement, text)
        text = html.unescape(text)
    return text


def _said(chunk: str, *, streamed: bool = False) -> str:
    try:
        event = json.loads(chunk)
    except ValueError:
        return ""  # a chunk cut by the start of the log
    return _envelope(event, streamed=streamed) or "" if isinstance(event, dict) else ""


def _envelope(reply: dict[str, Any], *, streamed: bool = False) -> str | None:
    """The assistant's text in a provider's response (or stream chunk), or None when `reply` is not one."""
    if isinstance(reply.get("choices"), list):  # OpenAI: message.content, delta.content, a tool call's arguments
        turn = (reply["choices"] or [{}])[0].get("delta" if streamed else "message") or {}
        calls = [call.get("function", {}).get("arguments", "") for call in turn.get("tool_calls") or []]
        return "\n".join(t for t in (turn.get("content"), *calls) if isinstance(t, str)) if turn else None
    if isinstance(reply.get("delta"), dict):  # Anthropic stream: content_block_delta
        return reply["delta"].get("text")
    if isinstance(reply.get("content"), list):  # Anthropic: text blocks, a tool's input
        return "\n".join(b.get("text") or json.dumps(b.get("input", "")) for b in reply["content"] if isinstance(b, dict)
                         and b.get("type") in ("text", "tool_use"))
    if isinstance(reply.get("candidates"), list):  # Gemini: candidates[0].content.parts[].text
        parts = ((reply["candidates"] or [{}])[0].get("content") or {}).get("parts") or []
        return "\n".join(p.get("text", "") for p in parts if isinstance(p, dict))
    if isinstance(reply.get("messages"), list):  # a conversation log: its last assistant turn
        turns = [m.get("content") for m in reply["messages"] if isinstance(m, dict) and m.get("role") == "assistant"]
        return turns[-1] if turns and isinstance(turns[-1], str) else None
    return None


YES_NO_WORDS = {"tak": "yes", "evet": "yes", "có": "yes", "да": "yes", "はい": "yes", "예": "yes", "네": "yes", "ναι": "yes", "ใช่": "yes",
                "हां": "yes", "nie": "no", "không": "no", "нет": "no", "いいえ": "no", "아니요": "no", "아니오": "no", "hayır": "no",
                "όχι": "no", "ไม่": "no", "może": "maybe", "có thể": "maybe", "возможно": "maybe", "たぶん": "maybe", "多分": "maybe",
                "아마": "maybe", "아마도": "maybe", "belki": "maybe", "mungkin": "maybe", "ίσως": "maybe", "อาจจะ": "maybe",
                "forse": "maybe", "sì": "yes", "oui": "yes", "sí": "yes", "si": "yes", "sim": "yes", "ja": "yes", "是": "yes", "是的": "yes", "نعم": "yes",
                 "हाँ": "yes", "non": "no", "não": "no", "nein": "no", "否": "no", "لا": "no", "नहीं": "no",
                 "peut-être": "maybe", "quizás": "maybe", "quizá": "maybe", "tal vez": "maybe", "talvez": "maybe",
                 "vielleicht": "maybe", "也许": "maybe", "可能": "maybe", "ربما": "maybe", "शायद": "maybe"}


_RUNAWAY = re.compile(r"\n\s*(?:#+\s*)?(?:Instruction|Input|Human|User|Question)\s*:?\s*\n|"
                      r"\n\s*#+\s*(?:Instruction|Input|Question)\b|\n(?:Human|User):", re.IGNORECASE)
# The chat template's end of the model's turn, and the header of the next turn: a turn of any role but the
# model's own ("user", "human") was never its reply (a server that let it run on and invent the user's part).
_END_OF_TURN = re.compile(r"<\|(?:im_end|eot_id|end|endoftext|end_of_text)\|>|<end_of_turn>|</s>")
_TURN_HEADER = re.compile(r"(?:<\|start_header_id\|>|<\|im_start\|>|<start_of_turn>)\s*(\w+)")
# After an answer line, the next question a model went on to invent: "Question 2: ...", "Next question: ..."
_NEXT_QUESTION = re.compile(r"\n\s*(?:#+\s*)?(?:\*\*)?(?:(?:next\s+)?(?:question|exercise|problem|case)|q)\s*\d*\s*(?:\*\*)?\s*[:.]"
                            r"\s*(?:\*\*)?\s*\S", re.IGNORECASE)
# An answer given before that question: an answer line, or a reply that opens on its option ("B. Ceftriaxone").
_ANSWERED = re.compile(r"^\s*(?:\*\*)?(?:final\s+)?answer\s*(?:\*\*)?\s*[:：]|\A\s*\(?[A-E][.)][ \t]+\S[^\n]*$",
                       re.IGNORECASE | re.MULTILINE)


# An instruction-tuned model's own template: the prompt echoed under "### Instruction:" / "### Input:", the reply
# under "### Response:" on a line of its own.
_ECHOED_PROMPT = re.compile(r"\A\s*#*[ \t]*(?:Instruction|Input|Question|Response|Assistant|Output)[ \t]*:", re.IGNORECASE)
_RESPONSE_HEADER = re.compile(r"^[ \t]*#*[ \t]*(?:Response|Assistant|Output)[ \t]*:[ \t]*(?:\n|\Z)", re.IGNORECASE | re.MULTILINE)


def own_turn(text: str) -> tuple[str, bool]:
    """The model's own reply, and whether it ended its turn: a turn of another role after an end-of-turn
    token, or the questions a small model invents after its answer, are dropped. A reply that ended its
    turn, or ran on past it, was not cut off by the token limit while answering."""
    end = _END_OF_TURN.search(text)
    ended = end is not None and bool(text[:end.start()].strip())
    if ended:
        other = next((m for m in _TURN_HEADER.finditer(text, end.end()) if m.group(1).lower() not in ("assistant", "model")), None)
        text = text[:other.start()] if other else text
    header = _RESPONSE_HEADER.search(text) if _ECHOED_PROMPT.match(text) else None
    text = text[header.end():] if header else text  # "### Instruction: ... ### Response:\nThe answer is B."
    head = _RUNAWAY.split(text, maxsplit=1)[0]
    next_question = _NEXT_QUESTION.search(head)
    if next_question and _ANSWERED.search(head, 0, next_question.start()):
        head = head[:next_question.start()]
    return head, ended or len(head) < len(text)


# A reply's first word answering a yes/no question in any language ("Нет.", "はい。", "Có thể."); a word that also opens
# ordinary sentences ("Có nhiều ..." is "there are many") counts only when punctuation follows it.
_OPENING_YES_NO = re.compile(r"^\s*(" + "|".join(re.escape(w) for w in sorted(YES_NO_WORDS, key=len, reverse=True))
                             + r")(?=[\s.,!،，。।、（(]|$)", re.IGNORECASE)
_NEEDS_STOP = {"có", "tak", "ไม่", "ja", "si", "e"}


def opening_yes_no(first: str) -> str:
    """The reply's first word as "yes", "no" or "maybe" when it is one in any language, else the line unchanged."""
    match = _OPENING_YES_NO.match(first)
    if match is None:
        return first
    word = match.group(1).lower()
    if word in _NEEDS_STOP and not re.match(r"\s*[.,!。।、]|\s*$", first[match.end():]):
        return first
    return YES_NO_WORDS[word] + first[match.end():]


def yes_no_in_english(text: str) -> str:
    """Yes/no/maybe written in another language, after an answer label, read as the English word."""
    out, end = [], 0
    for word in _YES_NO_WORD.finditer(text):  # the words first (rare), then the label before each (a long alternation)
        if _LABEL_BEFORE.search(text, max(0, word.start() - 60), word.start()):
            out += [text[end:word.start()], YES_NO_WORDS[word.group(1).lower()]]
            end = word.end()
    return "".join(out) + text[end:] if out else text


_ARABIC_LETTERS = {"أ": "A", "ا": "A", "إ": "A", "ب": "B", "ج": "C", "د": "D", "ه": "E"}
# Other scripts' option letters, in order, read as A-E where they stand alone as a letter: Cyrillic "Г)", Devanagari
# "(ग)", Greek, Thai, katakana "エ", Korean "다." and circled numbers "④" (each script's letters are words elsewhere).
_SCRIPT_LETTERS = [("АБВГД", r"[^\W\d_]"), ("कखगघङ", "[\u0900-\u097F]"), ("ΑΒΓΔΕ", r"[^\W\d_]"), ("กขคงจ", "[\u0E00-\u0E7F]"),
                   ("アイウエオ", "[\u30A0-\u30FF\u3040-\u309F\u4E00-\u9FFF]"), ("가나다라마", "[\uAC00-\uD7A3]")]
_LOCAL_LETTER = [(letters, re.compile(rf"(?<!{around})([{letters}])(?!{around})" + (r"(?=\s*[).:]|\s*$)" if letters in ("АБВГД", "가나다라마") else ""),
                                      re.MULTILINE)) for letters, around in _SCRIPT_LETTERS]
_ARABIC_LETTER = re.compile(r"(?<![\u0600-\u06FF])(هـ|[أاإبجده])(?![\u0600-\u06FF])(?!\.\s*[\u0600-\u06FF])")  # not "د. أحمد" (Dr)
_ANY_SCRIPT_LETTER = re.compile("[" + "".join(letters for letters, _ in _SCRIPT_LETTERS) + "أاإبجده]")
_CIRCLED_NUMBER = {chr(0x2460 + i): "ABCDE"[i] for i in range(5)} | {chr(0x2776 + i): "ABCDE"[i] for i in range(5)}


def _latin_letters(text: str) -> str:
    """Option letters of other scripts as A-E: "Ответ: Г)", "उत्तर: (ग)", "答え：エ"."""
    if not _ANY_SCRIPT_LETTER.search(text):
        return text  # most replies: nothing to map
    for letters, pattern in _LOCAL_LETTER:
        text = pattern.sub(lambda m, letters=letters: "ABCDE"[letters.index(m.group(1))], text)
    return _ARABIC_LETTER.sub(lambda m: _ARABIC_LETTERS[m.group(1)[0]], text)
_CIRCLED = {chr(0x1F150 + i): chr(65 + i) for i in range(26)} | {chr(0x1F130 + i): chr(65 + i) for i in range(26)}
_CIRCLED_NUMBER_TABLE, _CIRCLED_TABLE = str.maketrans(_CIRCLED_NUMBER), str.maketrans(_CIRCLED)  # built once, not per reply
# A bare "yes"/"no" after a letter is a yes/no option ("A) yes"), not a rating: it needs a separator.
# A rating word opens the line after a separator, or stands alone: "(B) Right upper quadrant ultrasound" is an option's text.
_GOOD = (r"(?:correct|right(?:\s+answer)?|best(?:\s+answer)?|most\s+likely|match|verdadeir[ao]|verdader[ao]|vrai|vraie|vero|vera|"
         r"richtig|wahr|correct[ao]|correcte|corretta|corretto)\b")
_POSITIVE_MARK = re.compile(rf"[✔✓✅☑]|^\s*[-–—:|]\s*{_GOOD}|^\s*{_GOOD}(?=\s*(?:[.!,;:)\]|]|[-–—]|$))|^\s*[-–—:|]\s*yes\b",
                            re.IGNORECASE)
_NEGATIVE_MARK = re.compile(r"[✗✘❌×]|^\s*(?:[-–—:|]\s*)?(?:incorrect|wrong|unlikely|not|less\s+likely|excluded|fals[ao]|faux|fausse|"
                            r"falsch|errad[ao]|err[óo]ne[ao]|sbagliat[ao]|incorrect[ao]|incorrecte)\b"
                            r"|^\s*[-–—:|]\s*no\b", re.IGNORECASE)
# The letter is marked as one ("(A)", "A.", "A:", "A -", "option A"): "A right shift ..." opens a sentence.
_RATED_LINE = re.compile(r"^[ \t]*(?:[-*•+◦▪▫‣⁃–·][ \t]*)?(?:\*\*)?(?:(?i:option[ \t]+)\(?([A-E])|\(([A-E])|([A-E])(?=\*{0,2}[ \t]*(?:[.:)\]|]|[-–—]\s|[✔✓✅☑✗✘❌×]|$)))"
                         r"(?![A-Za-z])\)?(?:\*\*)?[ \t]*[.:)\]]?(?:\*\*)?(.*)$")

_COUNT = re.compile(r"\s*[-–—:|]?[^:=\n]{0,80}[:=]\s*\d+\s*(?:\(|$)")  # "A - yes: 3 (...)": a vote count


def _rated_lines(text: str) -> str:
    """Lines (or table rows) that rate one option each: the one marked right is a declaration, the
    ones marked wrong are negations ("- B. Insulin ✗ reserved for ...", "| A | ... | ✅ |", "(C) — correct")."""
    out = []
    for line in text.splitlines():
        row = re.match(r"^\s*\|\s*(?:\*\*)?\(?([A-E])\)?\s*\|(.*)$", line)
        named = None if row else re.match(r"^\s*\|\s*(?:\*\*)?\(?([A-E])\)?[.)][ \t][^|\n]*\|(.*)$", line)  # "| A. Gallstones | .. | ✅ |"
        match = row or named or _RATED_LINE.match(line)
        if match is None:
            out.append(line)
            continue
        letter, rest = (match.group(1), match.group(2)) if row or named else (next(g for g in match.groups()[:3] if g), match.group(4))
        plain = re.sub(r"\*+", "", rest)
        kept = f"{line}\n" if named else ""  # a row that names its option stays in its table
        if _COUNT.match(plain):
            out.append(line)  # a count ("A - yes: 3 (...)"), not a rating
        elif _POSITIVE_MARK.search(plain) and not _NEGATIVE_MARK.search(plain):
            out.append(f"{kept}{letter} is correct.\n{letter} {rest}" if not named else f"{kept}{letter} is correct.")
        elif _NEGATIVE_MARK.search(plain):
            out.append(f"{kept}{letter} is wrong: {rest}" if not named else f"{kept}{letter} is wrong.")
        else:
            out.append(line)
    return "\n".join(out)


_JSON_TEXT = (r"(?:\s*,\s*\\*[\"'](?:answer_?text|option_?text|text)\\*[\"']\s*:\s*\\*[\"']([^\"'\\}\n]*)\\*[\"'])?")
_JSON_ANSWER = re.compile(r"\\*[\"'](?:final_?answer|answer|choice|prediction|(?:final_?)?decision|final|selected(?:_option|_answer)?|"
                          r"chosen(?:_option)?|final_choice|final_output|label|letter)\\*[\"']\s*:(?!\s*[{\[])\s*\\*[\"']?([^\"'\\,}\n]*)\\*[\"']?"
                          + _JSON_TEXT, re.IGNORECASE)
_JSON_OPTION = re.compile(r"\\*[\"']option\\*[\"']\s*:\s*\\*[\"']?([^\"'\\,}\n]*)\\*[\"']?" + _JSON_TEXT, re.IGNORECASE)


_FINAL_KEY = re.compile(r"[\"'](?:final|final_?answer|final_?decision|final_?choice|final_output|decision)[\"']\s*:", re.IGNORECASE)


def _json_answer(match: re.Match[str]) -> str:
    """A JSON answer as an answer line; a letter keeps its text beside it, to be checked against it."""
    said, text = match.group(1).strip(), (match.group(2) or "").strip()
    return f"\nFinal answer: ({said}) {text}\n" if re.fullmatch(r"[A-Za-z]", said) else f"\nFinal answer: {said} {text}\n"


_FLAGGED = re.compile(r"\{[^{}]*?[\"'](?:correct|is_correct|selected|chosen)[\"']\s*:\s*true[^{}]*\}", re.IGNORECASE)
_ITEM_KEY = re.compile(r"[\"'](?:letter|option|key|id)[\"']\s*:\s*[\"']([A-E])[\"']")


def _flagged_option(text: str) -> str:
    """A JSON list of the options with a flag on each ("correct": true / false): the flagged one is the answer."""
    flagged = {letter for item in _FLAGGED.findall(text) for letter in _ITEM_KEY.findall(item)}
    if not flagged:
        return text
    text = re.sub(r"([\"'])letter\1(?=\s*:)", r"\1item\1", text)  # each option's own "letter" is not an answer
    return text + (f"\nFinal answer: {flagged.pop()}\n" if len(flagged) == 1 else "")


def clean(text: str) -> str:
    """Plain words: markdown emphasis, headings, LaTeX wrappers and emoji marks removed; a box is a declaration."""
    text = text.translate(_CIRCLED_NUMBER_TABLE)  # before NFKC, which makes "④" a "4"
    text = _latin_letters(unicodedata.normalize("NFKC", text).translate(_CIRCLED_TABLE))  # full-width Ｂ, 𝐀, 🅑 -> B
    text = re.sub(r"\\(?:text|textbf|mathrm|mathbf|textit)\s*\{([^{}]*)\}", r"\1", text)
    text = re.sub(r"\\boxed\s*\{([^{}]*)\}([ \t]*\([^()\n]{2,80}\))?", r"\nFinal answer: \1\2\n", text)  # "(text)" after it kept
    text = re.sub(r"<(answer|final_answer|final|choice|selected|selection)>\s*([^<]*?)\s*</\1>", r"\nFinal answer: \2\n", text,
                  flags=re.IGNORECASE)
    text = _flagged_option(text)
    text = re.sub(r"\b(?:submit_answer|final_answer|finish|submit)\s*[(\[]\s*(?:\w+\s*=\s*)?[\"']?([A-Ea-e]|yes|no|maybe)[\"']?\s*[)\]]|"
                  r"<INFO>\s*([A-E]|yes|no|maybe)\b|\b(?:final_output|final_answer)\s*[=:]\s*[\"']([A-E]|yes|no|maybe)[\"']",
                  lambda m: f"\nFinal answer: {next(g for g in m.groups() if g)}\n", text, flags=re.IGNORECASE)
    text = re.sub(r"\s*\b(?:TERMINATE|APPROVE)\W*\Z", "", text)  # an agent framework's end-of-chat token
    if _FINAL_KEY.search(text):  # {"votes": [{"choice": "D"}, {"choice": "A"}], "final": "D"}: the final one answers
        inside = [m.span() for m in re.finditer(r"[\"']final\w*[\"']\s*:\s*\{[^{}]*\}", text, re.IGNORECASE)]  # "final": {"letter": ..}
        text = _JSON_ANSWER.sub(lambda m: _json_answer(m) if _FINAL_KEY.match(m.group(0)) or any(
            start <= m.start() < end for start, end in inside) else m.group(0).replace(":", " ="), text)
        keyed = 1
    else:
        text, keyed = _JSON_ANSWER.subn(_json_answer, text)  # {"answer": "B", "answer_text": "..."}, a tool call's arguments
    text = text if keyed else _JSON_OPTION.sub(_json_answer, text)  # {"option": "B"}, unless options are only rated
    text = re.sub(r"^[ \t]*(?:letter|selected|selected_option|final_choice)[ \t]*:[ \t]*\(?([A-E])\)?[ \t]*$", r"Final answer: \1",
                  text, flags=re.MULTILINE)  # YAML: "final_answer:\n  letter: A"
    text = re.sub(r"^[ \t]*#+[ \t]*(?:\*\*)?(final\s+answer|answer|final\s+decision)(?:\*\*)?[ \t]*:?[ \t]*\n\s*(?=\S)",
                  r"\1: ", text, flags=re.MULTILINE | re.IGNORECASE)  # "## Final Answer" heading, the answer on the next line
    text = re.sub(r"(?:<\|im_start\|>|<start_of_turn>|<\|start_header_id\|>)[ \t]*(?:assistant|model)\b(?:<\|end_header_id\|>)?|"
                  r"\[/?INST\]", "\n", text)  # a chat template's header of the model's own turn: not words of the reply
    text = re.sub(r"<\|[a-z_]+\|>|</?s>", " ", text)
    text = re.sub(r"(?<![\w'’-])\(?([A-E])\)?[ \t]*([✔✓✅☑✗✘❌×])[ \t]*(?=\(?[A-E]\b|$)", r"\n\1 \2\n", text,
                  flags=re.MULTILINE)  # "A ✗  B ✗  C ✔": one rating a line
    text = re.sub(r"(?<![\u0600-\u06FF])([أاإبجده])\s*\)", lambda m: _ARABIC_LETTERS[m.group(1)] + ")", text)
    text = _rated_lines(text)
    # "Agree: yes", "Talk: no": a vote on a report or on whether to speak, not an answer to a yes/no question
    text = re.sub(r"^[ \t]*(?:agree|talk|participate|continue)[ \t]*:[ \t]*(?:yes|no)\b[ \t,.;:—–-]*", "", text,
                  flags=re.IGNORECASE | re.MULTILINE)
    text = re.sub(r"[✔✓✅☑👉]\uFE0F?[ \t]*(?:\*\*)?\(?([A-E])\b\)?(?![ \t]*\?)", r"\nAnswer: \1\n", text)  # not "✔ E? No"
    text = re.sub(r"\[\s*([A-E])\s*\](?!\()", r"(\1)", text)  # "[C]" as "(C)" (not a markdown link)
    text = re.sub(r"(?<![\w'’])['‘\"“]([A-Ea-e])['’\"”](?![\w'’]|\s*:)", r"(\1)", text)  # "Ans. is 'b'"; not a JSON key
    text = re.sub(r"[✗✘❌]\uFE0F?[ \t]*(?:\*\*)?\(?([A-E])\b\)?", r" \1 is wrong; ", text)
    text = yes_no_in_english(text)
    text = re.sub(r"\\[()\[\]]", " ", text)
    text = text.replace("$", " ")
    text = re.sub(r"~~[^~\n]+~~", "", text)  # struck out: retracted
    text = re.sub(r"\*+|_{2,}|`+|~~", "", text)
    text = re.sub(r"^[ \t]*(?:#+|>+|[-•*+◦▪▫‣⁃–·][ \t]+(?=\S))[ \t]*", "", text, flags=re.MULTILINE).replace("∴", "Therefore")
    text = re.sub(r"(?<=[.!?])[ \t]*(?:[➡→⇒]|=>|-->?)[ \t]*(?=\(?[A-E]\)?[ \t]*[.!]?[ \t]*$)", "\n", text, flags=re.MULTILINE)
    text = re.sub(r"[ \t]*(?:[➡→⇒]|=>|-->?)[ \t]*(?=\(?[A-E]\)?[ \t]*[.!]?[ \t]*$)", ": ", text, flags=re.MULTILINE)  # "Final → C"
    text = re.sub(r"[ \t]*[➡→⇒⟶]\uFE0F?[ \t]*", " -> ", text)
    text = re.sub(r"[✅✔️☑❌✗✘]+", " ", text)
    return text.replace("\u00a0", " ")


def normalise(text: str) -> str:
    text = re.sub(r"(?<=\w)['’]s\b", "", text.lower())  # "Meckel's diverticulum" = "Meckel diverticulum"
    text = re.sub(r"[^\w\s%/+.-]|(?<!\d)\.|\.(?!\d)", " ", text)
    return re.sub(r"\s+", " ", text).strip()


FOREIGN_ANSWER = (r"(?:respuesta|r[ée]ponse|antwort|resposta|risposta|alternativa|seleccionad[ao]|selecionad[ao]|gabarito|"
                   r"(?:la\s+|a\s+|l')?(?:opci[óo]n|op[çc][ãa]o|opzione|alternativa|bonne\s+r[ée]ponse)\s+(?:correcta|correta|corretta|"
                   r"correcte|giusta|certa)|(?<![가-힣])답(?=\s*[:：은])|(?<![\u4e00-\u9fff])选(?=\s*\(?[A-E]\b)|"
                   r"(?:le\s+)?diagnostic\s+le\s+plus\s+probable|(?:el\s+)?diagn[óo]stico\s+m[áa]s\s+probable|(?:o\s+)?diagn[óo]stico\s+mais\s+prov[áa]vel|"
                   r"(?:la\s+)?diagnosi\s+pi[ùu]\s+probabile|wahrscheinlichste\s+diagnose|наиболее\s+вероятный\s+диагноз|"
                   r"en\s+olası\s+tanı|tanı\s+büyük\s+olasılıkla|सबसे\s+संभावित\s+निदान|最も考えられる診断|가장\s+가능성이\s+높은\s+진단|"
                   r"chẩn\s+đoán\s+(?:có\s+khả\s+năng\s+)?nhất|"
                   r"s[ée]lectionn[ée]e?|escolhid[ao]|elegid[ao]|(?:doğru\s+)?cevap|đáp\s+án|câu\s+trả\s+lời|"
                   r"(?:poprawna\s+)?odpowied[źz]|(?:правильный\s+)?ответ|jawaban|antwoord|απάντηση|ค[ำํ]า?ตอบ|정답|"
                   r"正确答案|答案|回答|故选|所以选|应选|选择|選擇|最可能的诊断|答え|正解|解答|正答|答(?=\s*[:：])|"
                   r"الخيار الصحيح|الإجابة الصحيحة|الجواب الصحيح|الإجابة|الجواب|सही उत्तर|उत्तर)"
                   r"(?:\s+(?:correcta|correcte|correta|corretta|giusta|esatta|richtig|richtige|final|finale|définitive|đúng))?")
_YES_NO_WORD = re.compile(r"(?<![\w-])(" + "|".join(re.escape(w) for w in sorted(YES_NO_WORDS, key=len, reverse=True))
                          + r")(?![\w-])", re.IGNORECASE)
_LABEL_BEFORE = re.compile(rf"(?:{FOREIGN_ANSWER})(?:\s*[:：]|\s+(?:es|est|é|ist)\s*[:：]?)\s*\Z", re.IGNORECASE)


# "vitamin A", "hepatitis B", "type A", "class C", "Group B strep": the capital belongs to a name and is
# joined to it ("vitamin_A") in replies and option texts alike, so no step can read it as an option letter.
_NAME_LETTER = re.compile(
    r"\b(vitamins?|vitamin[ae]s?|hepatitis|hepatite|h[ée]patite|hep|type|tipo|class|clase|classe|grade|group|grupo|groupe|"
    r"factor|fator|facteur|stage|stade|estadio|phase|schedule|category|level|zone|protein|"
    r"complex|cluster|plan|panel|figure|exhibit|influenza|blood\s+group|blood\s+type|HLA|Ig|strep|streptococcus|amphotericin|"
    r"hemophilia|haemophilia|polymyxin|bacitracin|botulinum|toxin|antigen|kinase|receptor|hormone)"
    r"[ \t-]+([A-E])(?![\w'’])", re.IGNORECASE)


def join_name_letters(text: str) -> str:
    return _NAME_LETTER.sub(lambda m: f"{m.group(1)}_{m.group(2)}", text)


def plain(text: str) -> str:
    """The part of a reply that grading reads: after any reasoning block, cleaned, letters in names joined."""
    return join_name_letters(clean(join_name_letters(after_reasoning(text))))


def genus_spelled_out(body: str, options: dict[str, str]) -> str:
    """"C. jejuni" written out as "Campylobacter jejuni" where an option names that species: a genus shortened to
    its initial names the option, and its capital is not an option's letter."""
    for short, full in _binomials(tuple(options.values())):
        body = short.sub(full, body)
    return body


@lru_cache(maxsize=4096)
def _binomials(texts: tuple[str, ...]) -> tuple[tuple[re.Pattern[str], str], ...]:
    found = {m.group(0): m for text in texts for m in re.finditer(r"\b([A-Z])[a-z]{2,}\s+([a-z]{3,})\b", text)}
    return tuple((re.compile(rf"\b{m.group(1)}\.\s?{m.group(2)}\b"), name) for name, m in found.items())


def plain_options(options: dict[str, str]) -> dict[str, str]:
    return dict(_plain_options(tuple(options.items())))


@lru_cache(maxsize=4096)
def _plain_options(options: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    return tuple((key, join_name_letters(clean(value)).strip()) for key, value in options)


_STOPWORDS = frozenset("the a an of and or with in to for on by at from as is de la el los las del des du le les y e et "
                       "da do di der die das und".split())


# A drug's international (INN, British) name and its United States name are one word.
_DRUG_NAMES = dict(pair.split("=") for pair in (
    "paracetamol=acetaminophen salbutamol=albuterol adrenaline=epinephrine noradrenaline=norepinephrine "
    "lignocaine=lidocaine frusemide=furosemide pethidine=meperidine ciclosporin=cyclosporine rifampicin=rifampin "
    "glibenclamide=glyburide isoprenaline=isoproterenol suxamethonium=succinylcholine aciclovir=acyclovir "
    "cefalexin=cephalexin colecalciferol=cholecalciferol").split())


_OTHER_NAME = {**_DRUG_NAMES, **{us: intl for intl, us in _DRUG_NAMES.items()}}


@lru_cache(maxsize=4096)
def spelling_regex(text: str) -> re.Pattern[str]:
    """The words of a normalised text, whole, also in British spelling ("oesophageal varices", "haemochromatosis")
    and under a drug's other name ("paracetamol overdose" for "acetaminophen overdose"). Cached compiled: option
    texts recur in every reply of a run, more of them than the re module's own cache holds."""
    words = text.split(" ")
    def word(at: int, w: str) -> str:
        names = [w, _OTHER_NAME[w]] if w in _OTHER_NAME else [w]
        if at and _ROMAN_AFTER.fullmatch(f"{words[at - 1]} {w}"):
            names.append(_ROMAN[w])  # "factor 8" for "factor viii"
        return "(?:" + "|".join(re.sub(r"(?<![ao])e", "[ao]?e", re.escape(name)) for name in names) + ")"
    return re.compile(r"(?<![A-Za-z0-9_-])" + " ".join(word(at, w) for at, w in enumerate(words)) + r"(?![A-Za-z0-9_-])")


@lru_cache(maxsize=4096)
def phrase_regex(text: str) -> re.Pattern[str]:
    """A literal phrase in any case, compiled once (an option's text, looked for in every reply)."""
    return re.compile(re.escape(text), re.IGNORECASE)


@lru_cache(maxsize=1 << 16)
def _canonical(word: str) -> str:
    """One spelling of a word: British/American variants, plurals and drug names fold together ("coeliac" = "celiac")."""
    word = _DRUG_NAMES.get(word, word)
    folded = "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))
    word = folded if folded.isascii() else word  # "deficiência" = "deficiencia"; other scripts keep their marks
    word = word.replace("ae", "e").replace("oe", "e")
    word = re.sub(r"our$", "or", re.sub(r"(?<=[a-z]{3})(is|ys)(e|ed|ing)$", r"iz\2", word))
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("ses", "xes", "zes", "ches", "shes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


# A numeral after a word that counts ("class III" = "class 3", "factor VIII" = "factor 8"); never "IV" alone.
_ROMAN = {r: str(n) for n, r in enumerate("i ii iii iv v vi vii viii ix x xi xii".split(), 1)}
_NUMERAL = "(?:" + "|".join(sorted(_ROMAN, key=len, reverse=True)) + r")\b"
_ROMAN_AFTER = re.compile(r"\b(type|class|stage|grade|factor|phase|level|degree|nyha|cranial nerve|cn)\s+(" + _NUMERAL +
                          r"(?:(?:\s*(?:/|–|-|,|or|and|to)\s*|\s+)" + _NUMERAL + ")*)")  # "class II–III": each numeral


def _arabic_numerals(match: re.Match[str]) -> str:
    numerals = re.sub(r"[ivx]+", lambda roman: _ROMAN.get(roman.group(0), roman.group(0)), match.group(2))
    return f"{match.group(1)} {numerals}"


@lru_cache(maxsize=1 << 16)
def tokens(text: str) -> tuple[str, ...]:
    """Every word of a text, in canonical spelling (hyphens, slashes and "+" split words). Cached: the same
    option texts are compared with every reply of a run."""
    text = _ROMAN_AFTER.sub(_arabic_numerals, normalise(text))
    return tuple(_canonical(w) for w in re.split(r"[\s/+–—-]+", text.replace(".", " ")) if w)


@lru_cache(maxsize=1 << 16)
def words(text: str) -> tuple[str, ...]:
    """Content words of a text, in canonical spelling."""
    return tuple(w for w in tokens(text) if w not in _STOPWORDS)


# Words that differ by a prefix or a letter and mean opposite or different things: never "the same word misspelt".
_CONTRASTS = (("hypo", "hyper"), ("intra", "extra"), ("rubeol", "rubell"), ("pre", "post"), ("sub", "supra"))


def _contrasted(a: str, b: str) -> bool:
    return any({a[:len(x)], b[:len(y)]} == {x, y} or {a[:len(y)], b[:len(x)]} == {x, y} for x, y in _CONTRASTS)


def _close(a: str, b: str) -> bool:
    return a == b or (min(len(a), len(b)) >= 5 and not _contrasted(a, b)
                      and difflib.SequenceMatcher(None, a, b).ratio() >= 0.8)


def _abbreviates(short: str, option: str) -> bool:
    """`short` abbreviates `option`: each word in order gives its first letter and maybe a few more ("NAC",
    N-acetylcysteine; "TMP-SMX"; "CTPA"; "ACEi")."""
    letters = re.sub(r"[-/ ]+", "", short)
    long = [w for w in re.split(r"[\s/–—-]+", re.sub(r"\s*\([^()]*\)", "", option).lower()) if w and w not in _STOPWORDS]
    return len(letters) >= 2 and letters.isalnum() and sum(c.isupper() for c in letters) >= 2 and _initials(letters.lower(), long)


def _spells_out(fragment: str, option: str) -> bool:
    """`fragment` and `option` say the same with one of them shortened: an option that is an abbreviation
    spelled out, or the option's words with the rest as one abbreviation ("increased ICP")."""
    if len(option) <= 12 and " " not in option and _abbreviates(option, fragment):
        return True
    own, said = words(option), fragment.split()
    said_words = {_canonical(normalise(w)) for w in said}
    rest = [w for w in said if _canonical(normalise(w)) not in own and normalise(w) not in _STOPWORDS]
    kept = [w for w in own if w not in said_words]
    if len(kept) == 1 and len(rest) >= 2 and len(own) > 1:  # "primary percutaneous coronary intervention" for "Primary PCI"
        short = next((w for w in option.split() if _canonical(normalise(w)) == kept[0]), "")
        return _abbreviates(short.strip(".,;()"), " ".join(rest))
    return (len(rest) == 1 and 0 < len(kept) < len(own) and len(said) > 1
            and _abbreviates(rest[0].strip(".,;"), " ".join(kept)))


def _initials(letters: str, long: list[str]) -> bool:
    if not long or not letters:
        return not long and not letters
    return letters[0] == long[0][0] and any(_subsequence(letters[:n], long[0]) and _initials(letters[n:], long[1:])
                                            for n in range(1, min(len(letters), len(long[0])) + 1))


def _subsequence(short: str, word: str) -> bool:
    it = iter(word)
    return all(ch in it for ch in short)


def options_worded(fragment: str, options: dict[str, str]) -> set[str]:
    """The options whose content words are exactly the fragment's, in any order ("E. Lithium", "So amoxicillin.")."""
    said = set(words(fragment))
    return {key for key, text in options.items() if said and set(words(text)) == said}


def options_meant(fragment: str, options: dict[str, str]) -> set[str]:
    """The options a short answer text names, from the closest kind of match that finds any:
    the same words in any order; an option's whole text inside the fragment (the longest wins); the
    fragment inside an option's text; an abbreviation; the same words spelled a little differently."""
    said = words(fragment)
    if not said:
        return set()
    said_set = set(said)
    own = {key: words(text) for key, text in options.items() if words(text)}
    same = {key for key, w in own.items() if set(w) == said_set}
    if same:
        return same
    inside = {key for key, w in own.items() if set(w) <= said_set}
    inside = {key for key in inside if not any(key != other and set(own[key]) < set(own[other]) for other in inside)}
    if inside:  # "secondary hypothyroidism" holds "Hypothyroidism", but "Central hypothyroidism" refines it: unsure
        return inside | {k for k, w in own.items() for key in inside if set(own[key]) < set(w)}
    within = {key for key, w in own.items() if said_set < set(w)}
    if within:
        return within
    short = fragment.strip().rstrip(".")
    if len(short) <= 12:
        abbreviated = {key for key, text in options.items() if _abbreviates(short, text)}
        if abbreviated:
            return abbreviated
    spelled = {key for key, text in options.items() if _spells_out(fragment, text.strip())}
    if spelled:  # "Maturity-onset diabetes of the young" for "MODY", "increased ICP" for "Increased intracranial pressure"
        return spelled
    close = {key for key, w in own.items() if all(any(_close(a, b) for b in w) for a in said)}
    return {key for key in close if all(any(_close(a, b) for a in said) for b in own[key])} or {
        key for key, w in own.items() if all(any(_misspelt(a, b) for b in w) for a in said)}  # "Appendisitis"


def _misspelt(a: str, b: str) -> bool:
    """The same long word misspelt or cut short ("appendisitis", "transplant" for "transplantation")."""
    short, long = sorted((a, b), key=len)
    return a == b or (len(short) >= 7 and not _contrasted(a, b)  # "hypokalemia" is not "hyperkalemia" misspelt
                      and (long.startswith(short) or difflib.SequenceMatcher(None, a, b).ratio() >= 0.85))


def options_touched(fragment: str, options: dict[str, str], *, within: bool = False) -> set[str]:
    """Options sharing a distinctive word (five letters or more, spelled alike or nearly) with a fragment
    that matches none outright: "Heparina não fracionada" touches "Unfractionated heparin"; `within`: a word
    the same or inside one of theirs, never only alike ("low phosphate levels" touches "Hypophosphatemia")."""
    said = [w for w in words(fragment) if len(w) >= 5]
    def touch(a: str, b: str) -> bool:
        return a == b or (len(a) >= 6 and a in b) if within else _close(a, b)
    return {key for key, text in options.items() if any(touch(a, b) for a in said for b in words(text) if len(b) >= 5)}


def tally(options: dict[str, str]) -> re.Pattern[str]:
    """An option named by its letter or its text and followed by a count ("B = 2", "yes: 2"): a vote
    tally, not a choice. Cached per option set: every statement of every reply is checked with it."""
    return _tally(tuple(options.items()))


@lru_cache(maxsize=4096)
def _tally(options: tuple[tuple[str, str], ...]) -> re.Pattern[str]:
    names = sorted({*(key for key, _ in options), *(text for _, text in options if text.strip())}, key=len, reverse=True)
    return re.compile(rf"(?<![\w'’])\(?({'|'.join(map(re.escape, names))})\)?\s*[=:]\s*(\d+)\b(?!\s*(?:%|mg|mmol|mL|/|[–-]\s*\d|\.\d))",
                      re.IGNORECASE)

