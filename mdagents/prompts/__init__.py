"""Prompt templates are the .txt files beside this module (shipped with the package); this loads and fills them ($name placeholders).

`--prompts-dir DIR` overrides shipped templates by name: `DIR/basic_answer.txt` replaces
`basic_answer.txt` (and `DIR/critic/x.txt` replaces `critic/x.txt`) for the run that set it
(`overridden`, a context variable, so concurrent runs in other threads keep their own).
The templates of the baseline methods (`method_*.txt`) are hashed apart (`method_hashes`): a run
of the default method keeps the fingerprint it had before they existed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from string import Template

from mdagents.errors import ConfigError

PROMPT_DIR = Path(__file__).resolve().parent
METHOD_PREFIX = "method_"
_SUFFIXES = (".txt", ".yaml", ".yml")

# The override directory of the run in progress (None: the shipped templates only).
_overrides: ContextVar[Path | None] = ContextVar("prompt_overrides", default=None)


def load(name: str) -> str:
    return _load(name, _overrides.get())


@cache
def _load(name: str, overrides: Path | None) -> str:
    path = PROMPT_DIR / f"{name}.txt"
    if overrides is not None and (overrides / f"{name}.txt").is_file():
        path = overrides / f"{name}.txt"
    try:
        return path.read_text(encoding="utf-8").rstrip("\n")
    except OSError as exc:
        raise ConfigError(f"prompt template {path} is missing") from exc


def render(name: str, **values: object) -> str:
    """Fill a template; a placeholder without a value is an error, not a silent '$x' in a prompt."""
    try:
        return Template(load(name)).substitute({k: str(v) for k, v in values.items()})
    except KeyError as exc:
        raise ConfigError(f"prompt {name} needs a value for ${exc.args[0]}") from exc


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


def _files(directory: Path) -> list[Path]:
    return [p for p in sorted(directory.rglob("*")) if p.is_file() and p.suffix in _SUFFIXES]


def hashes() -> dict[str, str]:
    """sha256 (first 12 hex) of every prompt and vocabulary file of the default method, for the run manifest."""
    return {str(p.relative_to(PROMPT_DIR)): _digest(p) for p in _files(PROMPT_DIR)
            if not p.name.startswith(METHOD_PREFIX)}


def method_hashes() -> dict[str, str]:
    """sha256 (first 12 hex) of the baseline methods' templates (`method_*.txt`)."""
    return {p.name: _digest(p) for p in _files(PROMPT_DIR) if p.name.startswith(METHOD_PREFIX)}


def override_hashes(directory: str | Path) -> dict[str, str]:
    """sha256 (first 12 hex) of each template `directory` overrides; a file that matches no shipped
    template (a typo would otherwise be ignored without a word) is a ConfigError."""
    root = Path(directory)
    if not root.is_dir():
        raise ConfigError(f"--prompts-dir {directory}: not a directory")
    found = {str(p.relative_to(root)): _digest(p) for p in _files(root) if p.suffix == ".txt"}
    unknown = sorted(name for name in found if not (PROMPT_DIR / name).is_file())
    if unknown:
        raise ConfigError(f"--prompts-dir {directory}: {', '.join(unknown)} override no shipped prompt "
                          f"(names as in {PROMPT_DIR}, e.g. basic_answer.txt)")
    if not found:
        raise ConfigError(f"--prompts-dir {directory} holds no .txt prompt to override")
    return found


@contextmanager
def overridden(directory: str | Path | None) -> Iterator[None]:
    """Within the block, `load` reads templates from `directory` first (None: the shipped templates only)."""
    token = _overrides.set(None if directory is None else Path(directory).resolve())
    try:
        yield
    finally:
        _overrides.reset(token)
