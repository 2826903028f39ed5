"""Methods: how a question is answered, chosen with `--method`.

`mdagents` (the default) is the adaptive method of the paper: the runner classifies each question
and runs its level's pipeline (mdagents/pipelines/). Every other method is one small module here
(a baseline of the paper's comparison) or a plugin (mdagents/methods/plugins.py), and shares
everything else with it: datasets, option shuffling, providers, cache, accounting, grading, resume.

A spec is `NAME` or `NAME:p1[:p2]` with positive integer parameters (`cot-sc:7`,
`llm-debate:3:2`); `resolve` returns the Method with its canonical name (defaults filled in:
`cot-sc` is `cot-sc:5`), which is what manifests, fingerprints and records hold.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from mdagents.data.datasets import Question
from mdagents.errors import ConfigError
from mdagents.methods import cot, cot_sc, few_shot, llm_debate, majority_vote, medagents, medprompt, zero_shot
from mdagents.pipelines.base import Decision, PipelineContext

DEFAULT_METHOD = "mdagents"
Solver = Callable[[Question, PipelineContext], Awaitable[Decision | str]]

BUILTIN: dict[str, ModuleType] = {m.NAME: m for m in (zero_shot, few_shot, cot, cot_sc, majority_vote, llm_debate,
                                                       medagents, medprompt)}


@dataclass(frozen=True)
class Method:
    """A resolved `--method`: its canonical name and how it solves a question."""

    name: str
    solve: Solver | None  # None: the default method (the runner's adaptive levels)
    one_final_call: bool = False  # the answer is one call, which --rag and --critic can wrap
    source_sha256: str | None = None  # a plugin file's content hash (its code changes results)
    calls: tuple[int, int] | None = None  # (fewest, most) model calls per question (for --dry-run); None: unknown
    train_pool: int = 0  # train questions the run loads for the method (beyond --num-exemplars)

    @property
    def label(self) -> str:
        """How records and tables name the method (a plugin file by its stem, not its whole path)."""
        return slug(self.name)

    async def decide(self, question: Question, ctx: PipelineContext) -> Decision:
        """Run the method; a plugin may return the final text alone."""
        assert self.solve is not None
        result = await self.solve(question, ctx)
        return result if isinstance(result, Decision) else Decision(text=str(result), level=self.label)


def slug(name: str) -> str:
    """A method's name without path or colons: `cot-sc-5`, `my_method` (a plugin file's stem)."""
    from mdagents.methods import plugins

    if plugins.is_file_spec(name):
        path, _, function = name.rpartition(":") if ".py:" in name else (name, "", "solve")
        name = Path(path).stem + ("" if function == "solve" else f"-{function}")
    return "".join(c if c.isalnum() or c in "-_." else "-" for c in name)


def names() -> list[str]:
    """Every built-in method, with its parameters (for --help and errors)."""
    return [DEFAULT_METHOD, *(name + "".join(f"[:{p}]" for p in getattr(m, "PARAMS", ()))
                              for name, m in BUILTIN.items())]


def _integers(name: str, module: ModuleType, given: list[str]) -> tuple[int, ...]:
    params: tuple[str, ...] = getattr(module, "PARAMS", ())
    defaults: tuple[int, ...] = getattr(module, "DEFAULTS", ())
    usage = name + "".join(f"[:{p}]" for p in params)
    if len(given) > len(params):
        raise ConfigError(f"--method {name} takes {len(params) or 'no'} parameter(s): {usage}")
    values = list(defaults)
    for i, text in enumerate(given):
        if not text.isdigit() or int(text) < 1:
            raise ConfigError(f"--method {usage}: {params[i]} must be a positive integer; got {text!r}")
        values[i] = int(text)
    return tuple(values)


def resolve(spec: str) -> Method:
    """The Method a `--method` value names; a ConfigError (exit 2) for anything else.

    A plugin file is read again every time (an edited file is a new configuration); built-in and
    installed methods are resolved once per process."""
    spec = spec.strip()
    from mdagents.methods import plugins

    if plugins.is_file_spec(spec):
        solve, one_final, digest = plugins.load_file(spec)
        return Method(spec, solve, one_final_call=one_final, source_sha256=digest)
    return _resolve_named(spec)


@functools.cache
def _resolve_named(spec: str) -> Method:
    if spec == DEFAULT_METHOD:
        return Method(DEFAULT_METHOD, None)
    from mdagents.methods import plugins

    name, *given = spec.split(":")
    module = BUILTIN.get(name)
    if module is None and not given and plugins.is_installed(name):
        solve, one_final, installed_digest = plugins.load_installed(name)
        return Method(name, solve, one_final_call=one_final, source_sha256=installed_digest)
    if module is None:
        raise ConfigError(f"unknown --method {spec!r}: use one of {', '.join(names())}, "
                          "a plugin file path/to/file.py:function, or an installed plugin's name")
    values = _integers(name, module, given)
    canonical = ":".join([name, *map(str, values)])
    solve = functools.partial(module.solve, **dict(zip(module.PARAMS, values, strict=True))) if values else module.solve
    kwargs = dict(zip(getattr(module, "PARAMS", ()), values, strict=True))
    count = module.calls(**kwargs) if hasattr(module, "calls") else 1  # no `calls`: a single call
    pool = module.train_pool(**kwargs) if hasattr(module, "train_pool") else 0
    return Method(canonical, solve, one_final_call=getattr(module, "ONE_FINAL_CALL", False),
                  calls=count if isinstance(count, tuple) else (count, count), train_pool=pool)
