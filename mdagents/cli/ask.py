"""`ask "question"` and `ask --chat`: the patient-education assistant with safety guardrails.

Environment (flags win over it): PRIMARY_MODEL (the answering model when --model is not given),
ENABLE_WEB_FETCH (true: web search and fetch on the trusted domains with an anthropic model, as
--web; false: never), ASSISTANT_MODE (only `patient` exists) and ENABLE_GUARDRAILS (the patient
assistant never runs without them: false is refused).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from typing import Any

from mdagents.errors import UsageError
from mdagents.guardrails.assistant import Assistant, AssistantReply
from mdagents.guardrails.checker import Guardrails
from mdagents.guardrails.citations import open_guideline_retriever
from mdagents.guardrails.messages import region as region_of
from mdagents.guardrails.messages import resolve_language
from mdagents.guardrails.session_log import SessionLog
from mdagents.guardrails.trusted import web_tools
from mdagents.guardrails.verdicts import MODES
from mdagents.llm.client import LLM
from mdagents.llm.factory import build_llm, shared_limiter
from mdagents.llm.models import parse_model, resolve_key

_QUIT = {"exit", "quit", ":q", "/exit", "/quit"}


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("query", nargs="?", help="the question (omit with --chat to read lines from stdin)")
    parser.add_argument("--chat", action="store_true", help="multi-turn: read one message per stdin line")
    parser.add_argument("--json", action="store_true", help="print each reply as one JSON object")
    parser.add_argument("--model", default=None,
                        help="answering model (default: $PRIMARY_MODEL, else the embedded local model, which "
                             "writes no answers itself: see docs/guardrails.md)")
    parser.add_argument("--base-url", default=None, help="OpenAI-compatible server for --model")
    parser.add_argument("--mode", choices=("auto", *MODES), default="auto",
                        help="guardrail checks: auto (default) = hybrid with a real model, semantic (patterns + "
                             "the offline embedding classifier) with the embedded one; regex = patterns only")
    parser.add_argument("--guard-model", default=None, help="model of llm/hybrid checks (default: --model)")
    parser.add_argument("--region", default=None, help="emergency numbers of this region (default: US)")
    parser.add_argument("--lang", default="auto", help="message language: auto, en, fr, es, zh, ar, hi, pt")
    parser.add_argument("--web", action=argparse.BooleanOptionalAction, default=None,
                        help="anthropic models: web search/fetch restricted to the trusted domains "
                             "(default: $ENABLE_WEB_FETCH with an anthropic model, else off)")
    parser.add_argument("--no-guidelines", action="store_true", help="do not look for the guideline store")
    parser.add_argument("--db-url", default=None, help="guideline store database (default: $MDAGENTS_DB_URL)")
    parser.add_argument("--max-tokens", type=int, default=700, help="answer length cap (default: 700)")
    parser.add_argument("--log-dir", default=None, help="session logs (default: logs/ or $MDAGENTS_LOG_DIR)")
    parser.add_argument("--log-queries", action="store_true", help="also log the query text")


def _answer_llm(args: argparse.Namespace) -> LLM:
    """The answering model; with --web, an anthropic provider carrying the restricted web tools."""
    if not args.web:
        return build_llm(args.model, base_url=args.base_url)
    spec = parse_model(args.model, args.base_url)
    if spec.provider != "anthropic":
        raise UsageError(f"--web needs an anthropic model (got {spec.name})")
    from mdagents.llm.anthropic import AnthropicProvider

    provider = AnthropicProvider(spec.model, api_key=resolve_key(spec), base_url=spec.base_url, tools=web_tools())
    return LLM(provider, limiter=shared_limiter(spec, 8))


def _env_flag(name: str, environ: dict[str, str]) -> bool | None:
    """A true/false environment variable; None when unset or empty."""
    value = environ.get(name, "").strip().lower()
    if not value:
        return None
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off"):
        return False
    raise UsageError(f"{name}={environ[name]!r}: use true or false")


def apply_environment(args: argparse.Namespace, environ: dict[str, str] | None = None) -> None:
    """Fill what the flags left open from the spec's environment variables; refuse what cannot be."""
    env = dict(os.environ if environ is None else environ)
    mode = env.get("ASSISTANT_MODE", "").strip().lower()
    if mode and mode != "patient":
        raise UsageError(f"ASSISTANT_MODE={env['ASSISTANT_MODE']!r}: only the patient assistant exists")
    if _env_flag("ENABLE_GUARDRAILS", env) is False:
        raise UsageError("ENABLE_GUARDRAILS=false: the patient assistant does not run without its guardrails")
    if args.model is None and env.get("PRIMARY_MODEL", "").strip():
        args.model = env["PRIMARY_MODEL"].strip()
    if args.web is None:
        wanted = _env_flag("ENABLE_WEB_FETCH", env)
        args.web = bool(wanted) and parse_model(args.model, args.base_url).provider == "anthropic"


def _validate(args: argparse.Namespace) -> None:
    apply_environment(args)
    if not args.query and not args.chat:
        raise UsageError("ask needs a question, or --chat to read messages from stdin")
    if args.query is not None and not args.query.strip():
        raise UsageError("the question is empty")
    if args.max_tokens < 1:
        raise UsageError("--max-tokens must be at least 1")
    region_of(args.region)
    resolve_language(args.lang, "")


def _show(reply: AssistantReply, as_json: bool) -> None:
    if as_json:
        print(json.dumps(reply.to_dict(), ensure_ascii=False), flush=True)
        return
    print(reply.content)
    sources = [c for c in reply.citations if c.get("source")]
    if sources:
        print("\nSources:")
        for i, c in enumerate(sources, 1):
            print(f"  [{i}] {c['source']}" + (f" — {c['section']}" if c.get("section") else ""))
    print(flush=True)


def _lines() -> Any:
    """Messages from stdin, one a line; bytes that are not UTF-8 become U+FFFD instead of an error."""
    if hasattr(sys.stdin, "reconfigure"):
        sys.stdin.reconfigure(errors="replace")
    interactive = sys.stdin.isatty()
    while True:
        if interactive:
            print("you> ", end="", flush=True)
        line = sys.stdin.readline()
        if not line:
            return
        text = line.strip()
        if text.lower() in _QUIT:
            return
        if text:
            yield text


def guard_mode(args: argparse.Namespace) -> str:
    """auto: a real model adds its check (hybrid); the embedded smoke-test model is too small to judge, so
    the offline layers (patterns + embedding classifier) decide alone."""
    if args.mode != "auto":
        return str(args.mode)
    return "semantic" if parse_model(args.guard_model or args.model, args.base_url).provider == "local" else "hybrid"


def answer_source(args: argparse.Namespace) -> str:
    """Who writes answers: a hosted or served model does; the in-process local model (the embedded
    135M smoke-test model by default) is too small to be trusted with health text, so the assistant
    quotes guideline sections instead (or says a capable model is needed)."""
    return "guidelines" if parse_model(args.model, args.base_url).provider == "local" else "model"


async def _run(args: argparse.Namespace) -> int:
    args.mode = guard_mode(args)
    llm = _answer_llm(args)
    guard_llm = None
    if args.mode in ("llm", "hybrid"):
        guard_llm = build_llm(args.guard_model, base_url=args.base_url) if args.guard_model else llm
    retriever, close_store = (None, lambda: None) if args.no_guidelines else open_guideline_retriever(args.db_url)
    log = SessionLog(args.log_dir, log_queries=args.log_queries)
    try:
        assistant = Assistant(llm, guardrails=Guardrails(args.mode, llm=guard_llm, region=args.region),
                              retriever=retriever, language=args.lang, region=args.region, web=args.web,
                              log=log, max_tokens=args.max_tokens, answers=answer_source(args))
        if args.query:
            _show(await assistant.ask(args.query), args.json)
        if args.chat:
            for text in _lines():
                _show(await assistant.ask(text), args.json)
        log.event(assistant.session_id, "session_end", turns=len(assistant.history) // 2)
    finally:
        log.close()
        close_store()
        await llm.aclose()
        if guard_llm is not None and guard_llm is not llm:
            await guard_llm.aclose()
    return 0


def execute(args: argparse.Namespace) -> int:
    _validate(args)
    return asyncio.run(_run(args))
