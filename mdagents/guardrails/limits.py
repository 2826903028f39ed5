"""How much of a patient's message the assistant hands to a model.

Triage reads every message whole (the patterns all of it, the embedding classifier its head and
tail), so an emergency or a crisis at any place in a long paste is still answered. A message
longer than MAX_MESSAGE_CHARS that triage did not flag as one is not answered: the patient gets
`message_too_long` (its length and the limit) and the chat goes on. Models only ever see an
excerpt of a longer message: the llm triage layer, and the chat history of later turns.

4,000 characters is about 600 English words (a page and a half): a question with the lab values
or the letter it is about fits. It also keeps the embedded model (SmolLM2-135M, 8,192-token
window, 700 tokens kept for the answer) within its window for the Latin, Arabic and Devanagari
scripts (0.2 to 1.0 tokens per character, measured with its tokenizer). Chinese (1.7) and emoji
(3) can still overflow it: the local provider then refuses the prompt before reading it
(ContextOverflow), and the assistant answers with the same message and an estimated limit.
"""

from __future__ import annotations

import re

MAX_MESSAGE_CHARS = 4_000
# Passages of a long message the embedding classifier reads on their own for an emergency or a crisis.
PASSAGE_CHARS, MAX_PASSAGES = 300, 16
_SENTENCE = re.compile(r"(?<=[.!?…])\s+|(?<=[。！？؟।])\s*|\n+")


def excerpt(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """The text if it fits in `limit` characters, else its head and tail (two thirds and one third)
    around a marker that says how long the whole was."""
    if len(text) <= limit:
        return text
    marker = f"\n[... {len(text):,} characters in all; the middle is left out ...]\n"
    room = max(limit - len(marker), 0)
    head = room * 2 // 3
    return text[:head] + marker + text[len(text) - (room - head):]


def passages(text: str, longer_than: int) -> list[str]:
    """The passages of a message longer than `longer_than` characters (none for a shorter one):
    consecutive sentences packed into pieces of at most PASSAGE_CHARS (a longer sentence is cut), at
    most MAX_PASSAGES of them, spread evenly over the message."""
    text = " ".join(text.split())
    if len(text) <= longer_than:
        return []
    pieces: list[str] = []
    for sentence in _SENTENCE.split(text):
        for start in range(0, len(sentence), PASSAGE_CHARS):
            part = sentence[start:start + PASSAGE_CHARS].strip()
            if not part:
                continue
            if pieces and len(pieces[-1]) + 1 + len(part) <= PASSAGE_CHARS:
                pieces[-1] += " " + part
            else:
                pieces.append(part)
    if len(pieces) > MAX_PASSAGES:
        step = len(pieces) / MAX_PASSAGES
        pieces = [pieces[int(i * step)] for i in range(MAX_PASSAGES)]
    return pieces
