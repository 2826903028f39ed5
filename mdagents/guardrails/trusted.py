"""Which sources count as trusted (prompts/trusted_domains.yaml), and the web tools restricted to them."""

from __future__ import annotations

from functools import cache
from typing import Any
from urllib.parse import urlparse

import yaml

from mdagents.errors import ConfigError
from mdagents.prompts import PROMPT_DIR

TRUSTED_FILE = PROMPT_DIR / "trusted_domains.yaml"
# Sources from the guideline store are trusted by construction.
STORE_SOURCE = "guideline_store"


@cache
def _config() -> dict[str, Any]:
    try:
        data = yaml.safe_load(TRUSTED_FILE.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise ConfigError(f"cannot read {TRUSTED_FILE}: {exc}") from exc
    if not isinstance(data, dict) or not data.get("domains"):
        raise ConfigError(f"{TRUSTED_FILE} must list `domains`")
    return data


def trusted_domains() -> tuple[str, ...]:
    return tuple(str(d).lower().strip() for d in _config()["domains"])


def max_source_age_years() -> int:
    return int(_config().get("max_source_age_years", 5))


def domain_of(url: str) -> str:
    """The host of a URL (scheme optional), lower-cased, without a leading www."""
    host = urlparse(url if "://" in url else f"https://{url}").hostname or ""
    return host.lower().removeprefix("www.")


def is_trusted_url(url: str, domains: tuple[str, ...] | None = None) -> bool:
    """True when the URL's host is a listed domain or a subdomain of one."""
    host = domain_of(url)
    allowed = trusted_domains() if domains is None else domains
    return bool(host) and any(host == d or host.endswith("." + d) for d in allowed)


def is_trusted_citation(citation: dict[str, Any]) -> bool:
    """A citation is trusted when it comes from the guideline store or a trusted domain."""
    if citation.get("origin") == STORE_SOURCE:
        return True
    url = str(citation.get("url") or citation.get("source") or "")
    return is_trusted_url(url)


def web_tools(domains: tuple[str, ...] | None = None, max_uses: int = 5) -> list[dict[str, Any]]:
    """Anthropic server tools for web search and fetch, both limited to the trusted domains."""
    allowed = list(trusted_domains() if domains is None else domains)
    return [
        {"type": "web_search_20250305", "name": "web_search", "max_uses": max_uses, "allowed_domains": allowed},
        {"type": "web_fetch_20250910", "name": "web_fetch", "max_uses": max_uses, "allowed_domains": allowed,
         "citations": {"enabled": True}},  # the answer cites fetched pages: those are its sources
    ]
