"""Keep API keys out of every message, log line and record."""

from __future__ import annotations

import os
import re
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from mdagents.keys import KEY_VARIABLES

_KEY_PATTERNS = re.compile(
    r"(sk-ant-[A-Za-z0-9_\-]{8,}|sk-[A-Za-z0-9_\-]{16,}|AIza[0-9A-Za-z_\-]{20,})"
)


def _secret_values() -> list[str]:
    names = {n for group in KEY_VARIABLES.values() for n in group}
    values = [os.environ.get(n, "") for n in names]
    return sorted({v for v in values if len(v) >= 6}, key=len, reverse=True)


def redact(text: str) -> str:
    """Replace any configured key value, and anything shaped like a provider key, with ***."""
    for secret in _secret_values():
        text = text.replace(secret, "***")
    return _KEY_PATTERNS.sub("***", text)


# Query parameters that carry a credential in a URL (?key=..., ?api_key=..., ?token=...).
_SECRET_PARAMETER = re.compile(r"(^|[_-])(key|apikey|token|secret|password|passwd|sig|signature|auth)$", re.I)


def redact_url(url: str | None) -> str | None:
    """`url` with its credentials hidden: a user:password@ part and secret-looking query parameters."""
    if not url:
        return url
    try:
        parts = urlsplit(url)
        netloc = parts.netloc
        if "@" in netloc:
            netloc = "***@" + netloc.rsplit("@", 1)[1]
        query = urlencode([(k, "***" if _SECRET_PARAMETER.search(k) else v)
                           for k, v in parse_qsl(parts.query, keep_blank_values=True)], safe="*")
        return redact(urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment)))
    except ValueError:
        return "***"
