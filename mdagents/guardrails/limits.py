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

MAX_MESSAGE_CHARS = 4_000


def excerpt(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """The text if it fits in `limit` characters, else its head and tail (two thirds and one third)
    around a marker that says how long the whole was."""
    if len(text) <= limit:
        return text
    marker = f"\n[... {len(text):,} characters in all; the middle is left out ...]\n"
    room = max(limit - len(marker), 0)
    head = room * 2 // 3
    return text[:head] + marker + text[len(text) - (room - head):]
