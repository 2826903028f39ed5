"""The optional last step of grading: ask a model which one option a reply commits to.

It runs only on what the rules could not read (no answer, a letter/text conflict, an alias they
cannot resolve), never on a refusal or a cut-off reply and never to override a reading. Its calls
are cached and counted under the role `extractor`, and its reply goes through the same strict
reader as any other: anything but one valid letter is no answer.
"""

from __future__ import annotations

from mdagents.llm.client import LLM
from mdagents.llm.transcript import Transcript
from mdagents.llm.types import Message
from mdagents.prompts import load, render
from mdagents.scoring.reading import LLM as STEP_LLM
from mdagents.scoring.reading import MODEL_READABLE, NONE, Grade, Reading, read_answer

ROLE = "extractor"


def worth_extracting(graded: Grade) -> bool:
    """Whether a model could read what the rules did not: not for refusals, cut-off replies or answers."""
    return graded.prediction is None and graded.reason in MODEL_READABLE


async def extract_with_llm(reply: str, options: dict[str, str], llm: LLM, transcript: Transcript) -> Reading:
    """The option the model reads in `reply`, as a Reading of step `llm` (no letter: reason `none`)."""
    letters = list(options)
    messages = [Message("system", load("scoring_extract_system")),
                Message("user", render("scoring_extract", letters=", ".join(letters), reply=reply[-6000:]))]
    completion = await llm.complete(messages, temperature=0.0, max_tokens=5, role=ROLE, transcript=transcript)
    found = read_answer(completion.text.strip(), {letter: "" for letter in letters})
    return Reading(found.letter, STEP_LLM, None if found.letter else NONE)
