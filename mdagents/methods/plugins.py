"""Your own method as a plugin: `--method path/to/file.py:function`, or an installed entry point.

A plugin is an async function `solve(question, ctx) -> Decision | str` (the API is in
mdagents/methods/api.py and docs/methods.md). It is found

- in a file: `path/to/my_method.py:solve` (`:solve` may be left out); the file's sha256 joins the
  run's fingerprint, so editing the method never mixes two versions in one run directory;
- or by name among the installed entry points of the group `mdagents.methods`
  (`[project.entry-points."mdagents.methods"] my-method = "my_package.module:solve"`).

A module-level `ONE_FINAL_CALL = True` declares that the method's answer comes from one call
through `api.final_answer`, which `--rag` and `--critic` may then wrap; otherwise they are refused.
"""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import sys
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from mdagents.errors import ConfigError

GROUP = "mdagents.methods"


def is_file_spec(spec: str) -> bool:
    return spec.endswith(".py") or ".py:" in spec


def _installed() -> dict[str, Any]:
    return {ep.name: ep for ep in entry_points(group=GROUP)}


def is_installed(name: str) -> bool:
    return name in _installed()


def _checked(function: Any, where: str, module: Any) -> tuple[Any, bool]:
    if not callable(function) or not inspect.iscoroutinefunction(function):
        raise ConfigError(f"--method {where}: must be an async function solve(question, ctx)")
    return function, bool(getattr(module, "ONE_FINAL_CALL", False))


def load_file(spec: str) -> tuple[Any, bool, str]:
    """(the function, its ONE_FINAL_CALL, the file's sha256) of `path.py[:function]`."""
    path_text, _, name = spec.rpartition(":") if ".py:" in spec else (spec, "", "solve")
    path = Path(path_text).expanduser()
    if not path.is_file():
        raise ConfigError(f"--method {spec}: no plugin file {path}")
    data = path.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    module_name = f"mdagents_plugin_{digest[:12]}"
    module = sys.modules.get(module_name)
    if module is None:
        loader_spec = importlib.util.spec_from_file_location(module_name, path)
        if loader_spec is None or loader_spec.loader is None:
            raise ConfigError(f"--method {spec}: {path} is not a Python file")
        module = importlib.util.module_from_spec(loader_spec)
        try:
            loader_spec.loader.exec_module(module)
        except Exception as exc:  # the user's code: its failure is an input error, in one line
            raise ConfigError(f"--method {spec}: {path} failed to load: {type(exc).__name__}: {exc}") from None
        sys.modules[module_name] = module
    if not hasattr(module, name):
        raise ConfigError(f"--method {spec}: {path} defines no {name}()")
    function, one_final = _checked(getattr(module, name), spec, module)
    return function, one_final, digest


def load_installed(name: str) -> tuple[Any, bool, str | None]:
    """(the function, its ONE_FINAL_CALL, its module file's sha256) of an installed entry point."""
    try:
        function = _installed()[name].load()
    except Exception as exc:
        raise ConfigError(f"--method {name}: the installed plugin failed to load: {type(exc).__name__}: {exc}") from None
    module = inspect.getmodule(function)
    source = getattr(module, "__file__", None)
    digest = hashlib.sha256(Path(source).read_bytes()).hexdigest() if source else None
    return (*_checked(function, name, module), digest)
