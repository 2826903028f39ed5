"""Environment variables that hold each provider's API key, in order of preference.

Low in the import graph: the model registry reads keys from them, and redaction hides
their values from every message, log line and record.
"""

from __future__ import annotations

KEY_VARIABLES: dict[str, tuple[str, ...]] = {
    "openai": ("OPENAI_API_KEY", "openai_api_key"),
    "anthropic": ("ANTHROPIC_API_KEY",),
    "gemini": ("GEMINI_API_KEY", "GOOGLE_API_KEY", "genai_api_key"),
    "local": (),
    "mock": (),
    # OpenAI-compatible services (llm/models.py has their default base URLs).
    "vllm": ("VLLM_API_KEY",),
    "ollama": ("OLLAMA_API_KEY",),
    "openrouter": ("OPENROUTER_API_KEY",),
    "together": ("TOGETHER_API_KEY", "TOGETHER_AI_API_KEY"),
}
