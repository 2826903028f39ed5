"""Model names: "provider/model" parsing, bare names of the original tool, and keys (prices: llm/prices.py)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from mdagents.errors import ConfigError, MissingKeyError
from mdagents.keys import KEY_VARIABLES
from mdagents.llm.endpoint import effective_base_url


@dataclass(frozen=True)
class CompatibleService:
    """An OpenAI-compatible service a model name may start with: where it usually listens, whether it needs a key."""

    base_url: str
    key_required: bool


# provider -> its usual endpoint (--base-url replaces it); key variables are in mdagents/keys.py.
OPENAI_COMPATIBLE: dict[str, CompatibleService] = {
    "vllm": CompatibleService("http://localhost:8000/v1", key_required=False),
    "ollama": CompatibleService("http://localhost:11434/v1", key_required=False),
    "openrouter": CompatibleService("https://openrouter.ai/api/v1", key_required=True),
    "together": CompatibleService("https://api.together.xyz/v1", key_required=True),
}
PROVIDERS = ("openai", "anthropic", "gemini", "local", "mock", *OPENAI_COMPATIBLE)
DEFAULT_MODEL = "local/smollm2-135m"

# Bare names accepted for compatibility with the original MDAgents code.
_BARE_PREFIXES = (
    ("gpt-", "openai"),
    ("o1", "openai"),
    ("o3", "openai"),
    ("o4", "openai"),
    ("chatgpt-", "openai"),
    ("text-embedding-", "openai"),
    ("gemini-", "gemini"),
    ("claude-", "anthropic"),
    ("smollm", "local"),
)

@dataclass(frozen=True)
class ModelSpec:
    """A parsed model name. `name` is the canonical "provider/model" string."""

    provider: str
    model: str
    base_url: str | None = None  # the effective endpoint (llm/endpoint.py); None: the provider's default

    @property
    def name(self) -> str:
        return f"{self.provider}/{self.model}"

    @property
    def safe_name(self) -> str:
        """The name made filesystem-safe (for run directories)."""
        model = Path(self.model).stem if self.model.endswith(".gguf") else self.model
        keep = "".join(c if c.isalnum() or c in "-._" else "-" for c in f"{self.provider}_{model}")
        return keep.strip("-_.") or "model"


def parse_model(text: str | None, base_url: str | None = None) -> ModelSpec:
    """Parse "provider/model", a bare original name, or "local//path/to/model.gguf".

    The spec's `base_url` is the effective endpoint: `base_url` (--base-url), else the variable the
    provider's SDK reads (OPENAI_BASE_URL, ...), else None for the provider's own endpoint."""
    text = (text or DEFAULT_MODEL).strip()
    if not text:
        raise ConfigError("empty --model")
    if "/" in text:
        provider, _, model = text.partition("/")
        provider = provider.lower()
        if provider == "google":
            provider = "gemini"
        if provider not in PROVIDERS:
            raise ConfigError(f"unknown provider '{provider}' in --model {text!r}; use one of {', '.join(PROVIDERS)}")
        if not model:
            raise ConfigError(f"--model {text!r} names no model after the provider")
        if len(split_urls(base_url)) > 1 and not speaks_openai(provider):
            raise ConfigError(f"several --base-url share the load of an OpenAI-compatible model only, not {provider}/")
        if provider in OPENAI_COMPATIBLE:
            return ModelSpec(provider, model, base_url or OPENAI_COMPATIBLE[provider].base_url)
        return ModelSpec(provider, model, effective_base_url(provider, base_url))
    lowered = text.lower()
    for prefix, provider in _BARE_PREFIXES:
        if lowered.startswith(prefix):
            model = "smollm2-135m" if provider == "local" else text
            return ModelSpec(provider, model, effective_base_url(provider, base_url))
    if base_url:
        # Any OpenAI-compatible server (vLLM, Ollama, llama.cpp server) serves arbitrary names.
        return ModelSpec("openai", text, base_url)
    raise ConfigError(
        f"cannot tell the provider of model {text!r}; write it as provider/model "
        f"(e.g. openai/{text}) or pass --base-url for an OpenAI-compatible server"
    )


def resolve_key(spec: ModelSpec, environ: dict[str, str] | None = None) -> str | None:
    """The API key for a model, or raise MissingKeyError naming the variable.

    With a --base-url (a local or self-hosted server) a key is optional.
    """
    env = os.environ if environ is None else environ
    names = KEY_VARIABLES[spec.provider]
    for name in names:
        value = env.get(name)
        if value and value.strip():
            return value.strip()
    service = OPENAI_COMPATIBLE.get(spec.provider)
    if not names or (spec.base_url and not (service and service.key_required)):
        return None
    raise MissingKeyError(
        f"{names[0]} is not set: export it or put it in .env to use {spec.name}"
        + (f" (also accepted: {', '.join(names[1:])})" if len(names) > 1 else "")
    )


def speaks_openai(provider: str) -> bool:
    """OpenAI itself or an OpenAI-compatible service (one transport: the OpenAI SDK)."""
    return provider == "openai" or provider in OPENAI_COMPATIBLE


def split_urls(text: str | None) -> list[str]:
    """`--base-url` values: several servers of one model are separated by commas."""
    return [part.strip() for part in (text or "").split(",") if part.strip()]


def join_urls(values: list[str] | None) -> str | None:
    """Repeated `--base-url` flags (each possibly comma-separated) as one value, in order, once each."""
    urls = list(dict.fromkeys(url for value in values or () for url in split_urls(value)))
    return ",".join(urls) or None
