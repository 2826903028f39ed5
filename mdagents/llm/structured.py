"""The structured final answer (`--answer-format json`): `{"reasoning": str, "answer": "A".."E" | null}`.

Each provider asks for it through its SDK's own mechanism (OpenAI `response_format` json_schema,
Anthropic a forced tool, Gemini `response_schema`, llama.cpp a JSON-schema grammar); the reply
arrives as that JSON object in the completion's text, and grading reads its `answer`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

JSON = "json"
TOOL_NAME = "final_answer"


def answer_schema(letters: Sequence[str]) -> dict[str, Any]:
    """A JSON Schema every provider accepts: the reasoning, then one of the letters or null (no answer)."""
    return {
        "type": "object",
        "properties": {
            "reasoning": {"type": "string", "description": "step-by-step reasoning before the answer"},
            "answer": {"anyOf": [{"type": "string", "enum": list(letters)}, {"type": "null"}],
                       "description": "the letter of the one option chosen, or null when none can be chosen"},
        },
        "required": ["reasoning", "answer"],
        "additionalProperties": False,
    }


def gemini_schema(letters: Sequence[str]) -> dict[str, Any]:
    """The same schema in the OpenAPI subset Gemini's `response_schema` takes (nullable instead of a type list)."""
    return {
        "type": "OBJECT",
        "properties": {"reasoning": {"type": "STRING"},
                       "answer": {"type": "STRING", "enum": list(letters), "nullable": True}},
        "required": ["reasoning", "answer"],
        "property_ordering": ["reasoning", "answer"],
    }


def as_text(arguments: dict[str, Any]) -> str:
    """A forced tool call's arguments as the reply text grading reads."""
    return json.dumps(arguments, ensure_ascii=False)
