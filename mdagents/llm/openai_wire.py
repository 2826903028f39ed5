"""OpenAI-compatible chat completions posted over one pooled aiohttp session.

Why not the SDK's `client.post`: its per-request machinery (request-options models, httpx request,
header and URL objects, response wrappers) costs 1-1.5 ms of CPU per call on a 2-core machine. Through
it the whole harness takes 2-2.6 ms per call, this way 0.6-1 ms (`python bench/throughput.py cpu`).
Against a fast server (vLLM on the next machine) that CPU is what bounds a sweep. The SDK client
still decides what is sent: the URL, key, organisation, project and default headers are read from
it. This module only moves the bytes and reports failures as the SDK path does (HTTP status,
Retry-After, the server's message, never the key), with the same proxy and CA settings.
`MDAGENTS_OPENAI_TRANSPORT=sdk` sends through the SDK instead (see `mdagents/llm/openai.py`).
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import os
import ssl
from typing import Any

import aiohttp
import openai
from aiohttp.helpers import get_env_proxy_for_url
from yarl import URL

from mdagents.errors import ProviderError
from mdagents.llm.base import is_retryable_status
from mdagents.llm.sdk_errors import header_retry_after, scrub

MAX_MESSAGE_CHARS = 500


class ChatPoster:
    """POST {base_url}/chat/completions with the SDK client's headers; the reply's JSON object."""

    def __init__(self, client: openai.AsyncOpenAI, *, where: str, api_key: str | None) -> None:
        self.url = str(client.base_url).rstrip("/") + "/chat/completions"
        # Unset optional headers (organisation, project) are the SDK's `Omit` markers: not strings.
        self.headers = {name: value for name, value in {**client.default_headers, **client.auth_headers}.items()
                        if isinstance(value, str)}
        self._where = where
        self._api_key = api_key
        self._session: aiohttp.ClientSession | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    async def post(self, body: dict[str, Any], *, timeout: float) -> dict[str, Any]:
        data = json.dumps(body, separators=(",", ":")).encode()
        try:
            async with self._session_here().post(self.url, data=data,  # follows redirects, as the SDK does
                                                 timeout=aiohttp.ClientTimeout(total=timeout)) as response:
                raw = await response.read()
        except TimeoutError:
            raise ProviderError(f"{self._where}: request timed out", retryable=True) from None
        except aiohttp.ClientError as exc:
            raise ProviderError(scrub(f"{self._where}: connection error: {exc}", self._api_key),
                                retryable=True) from None
        if response.status >= 400:
            raise self._status_error(response.status, raw, response.headers)
        return json_reply(raw, self._where)

    def _status_error(self, status: int, raw: bytes, headers: Any) -> ProviderError:
        message = f"Error code: {status} - {server_message(raw)}"
        return ProviderError(scrub(f"{self._where}: {message}", self._api_key), status=status,
                             retryable=is_retryable_status(status), retry_after=header_retry_after(headers))

    def _session_here(self) -> aiohttp.ClientSession:
        """The session of the running event loop (a notebook may run several loops one after another)."""
        loop = asyncio.get_running_loop()
        if self._session is not None and self._loop is not loop:
            self._abandon()
        if self._session is None or self._session.closed:
            # No connection cap here: the LLM client's limiter bounds requests in flight. Loading CA
            # certificates takes ~50 ms: only for https. The headers are the session's: merging
            # per-request headers costs aiohttp 0.1 ms a call.
            https = self.url.startswith("https:")
            connector = aiohttp.TCPConnector(limit=0, ssl=ssl_context() if https else True)
            proxy, proxy_auth = env_proxy(self.url)
            self._session = aiohttp.ClientSession(connector=connector, headers=self.headers, proxy=proxy,
                                                  proxy_auth=proxy_auth)
            self._loop = loop
        return self._session

    def _abandon(self) -> None:
        """Drop the session of an earlier event loop: its sockets belong to that loop and cannot be awaited here."""
        session, self._session = self._session, None
        if session is None or session.closed:
            return
        connector = session.connector
        session.detach()
        if connector is not None:
            with contextlib.suppress(Exception):  # the old loop may be closed: its transports go with it
                waiting = connector.close(abort_ssl=True)
                if inspect.iscoroutine(waiting):
                    waiting.close()

    async def aclose(self) -> None:
        if self._session is not None and self._loop is asyncio.get_running_loop():
            await self._session.close()
            self._session = None
        self._abandon()


def json_reply(raw: str | bytes, where: str) -> dict[str, Any]:
    """A 200 reply's JSON object; anything else is a retryable ProviderError (a proxy's HTML page, a cut body)."""
    try:
        reply = json.loads(raw)
    except ValueError as exc:
        raise ProviderError(f"{where} returned a reply that is not JSON: {exc}", retryable=True) from None
    if not isinstance(reply, dict):
        raise ProviderError(f"{where} returned JSON that is not an object", retryable=True)
    return reply


def server_message(raw: bytes) -> str:
    """The error text of an OpenAI-style ({"error": {"message"}}), vLLM ({"message"}) or FastAPI body."""
    text = raw.decode("utf-8", "replace")
    try:
        body = json.loads(text)
    except ValueError:
        return text.strip()[:MAX_MESSAGE_CHARS] or "(empty body)"
    if isinstance(body, dict):
        error = body.get("error")
        for candidate in (error.get("message") if isinstance(error, dict) else error,
                          body.get("message"), body.get("detail")):
            if isinstance(candidate, str) and candidate:
                return candidate[:MAX_MESSAGE_CHARS]
    return text.strip()[:MAX_MESSAGE_CHARS]


def env_proxy(url: str) -> tuple[str | None, aiohttp.BasicAuth | None]:
    """$HTTPS_PROXY / $HTTP_PROXY for `url` (None when $NO_PROXY excludes it), read once per session.

    aiohttp's trust_env reads the environment again on every request (~0.5 ms of CPU each)."""
    try:
        proxy, auth = get_env_proxy_for_url(URL(url))
    except LookupError:
        return None, None
    return str(proxy), auth


def ssl_context() -> ssl.SSLContext:
    """What the SDK trusts: $SSL_CERT_FILE / $SSL_CERT_DIR when set, else certifi's bundle, else the system's."""
    if os.environ.get("SSL_CERT_FILE") or os.environ.get("SSL_CERT_DIR"):
        return ssl.create_default_context()
    try:
        import certifi
    except ImportError:
        return ssl.create_default_context()
    return ssl.create_default_context(cafile=certifi.where())
