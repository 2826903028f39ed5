"""The effective endpoint of a model: the --base-url flag, else the base-URL variable its SDK reads.

Each official SDK honours an environment variable for its server (OPENAI_BASE_URL,
ANTHROPIC_BASE_URL, GOOGLE_GEMINI_BASE_URL). The harness resolves the same value once per model
and uses it for everything that depends on where calls go: the provider, the manifest, the
configuration fingerprint, the response-cache key, the in-flight limiter and the price (a
non-default endpoint has no list price). A variable naming the provider's own default URL is the
default endpoint.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

BASE_URL_VARIABLES: dict[str, str] = {
    "openai": "OPENAI_BASE_URL",
    "anthropic": "ANTHROPIC_BASE_URL",
    "gemini": "GOOGLE_GEMINI_BASE_URL",
}
DEFAULT_ENDPOINTS: dict[str, str] = {
    "openai": "https://api.openai.com/v1",
    "anthropic": "https://api.anthropic.com",
    "gemini": "https://generativelanguage.googleapis.com",
}


def _environment_url(provider: str, environ: Mapping[str, str] | None) -> str | None:
    variable = BASE_URL_VARIABLES.get(provider)
    value = (os.environ if environ is None else environ).get(variable or "", "").strip()
    if not value or value.rstrip("/") == DEFAULT_ENDPOINTS.get(provider):
        return None
    return value


def effective_base_url(provider: str, flag: str | None, environ: Mapping[str, str] | None = None) -> str | None:
    """The URL calls to `provider` go to: `flag`, else the SDK's variable; None for the provider's default."""
    if flag:
        return flag
    return _environment_url(provider, environ)


def endpoint_source(provider: str, flag: str | None, environ: Mapping[str, str] | None = None) -> str:
    """Where the effective endpoint came from, for messages: "--base-url" or the variable's name."""
    if flag or _environment_url(provider, environ) is None:
        return "--base-url"
    return BASE_URL_VARIABLES[provider]
