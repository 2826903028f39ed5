"""Run options written down: a YAML file of `run` options (`run --config`, a sweep's cells) and
`MDAGENTS_*` environment defaults.

One schema for all of them: keys are the `run` flags without their dashes (`num_samples` or
`num-samples`); a switch takes true/false, a repeatable option (`base_url`, `model_arg`) a value or a
list, `model_args` a mapping. Every entry becomes the flag it names and goes through the run
command's own parser, so a file accepts and rejects exactly what the command line does.
Precedence, lowest first: environment, file, flags.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mdagents.errors import UsageError

ENV_PREFIX = "MDAGENTS_"
# Options whose value is JSON: a file gives them as a mapping.
JSON_OPTIONS = frozenset({"model_args"})
# Options no MDAGENTS_* variable sets: they act on one command rather than configure a run, or (db_url)
# the store reads its own variable, MDAGENTS_DB_URL, without writing it into the run's configuration.
NOT_FROM_ENVIRONMENT = frozenset({"config", "shard", "fresh", "retry_failed", "dry_run", "wait", "new_run", "help",
                                  "db_url"})


@dataclass(frozen=True)
class Option:
    """One `run` option: the flag that sets it, all its spellings, and what it takes."""

    flag: str
    flags: tuple[str, ...]
    takes_value: bool
    repeatable: bool = False


OptionTable = dict[str, Option]


class OptionsFileError(UsageError):
    """A run-options file that cannot be used: `FILE: key: what is wrong`."""

    def __init__(self, path: Path | str, key: str, what: str) -> None:
        super().__init__(f"{path}: {key}: {what}")
        self.key, self.what = key, what


def option_table(parser: argparse.ArgumentParser) -> OptionTable:
    """Every spelling of every option without its dashes (`num_samples`, `num-samples`) -> the option."""
    table: OptionTable = {}
    for action in parser._actions:
        long_flags = [s for s in action.option_strings if s.startswith("--")]
        if not long_flags:
            continue
        option = Option(flag=long_flags[0], flags=tuple(action.option_strings), takes_value=action.nargs != 0,
                        repeatable=isinstance(action, argparse._AppendAction))
        for flag in long_flags:
            table[flag[2:]] = option
    return table


def canonical(key: Any) -> str:
    """`num-samples` and `num_samples` are one option: keep the underscore spelling."""
    return str(key).replace("-", "_")


def check_known(path: Path | str, where: str, options: OptionTable, refused: Mapping[str, str],
                key: str | None = None, extra_keys: Iterable[str] = ()) -> None:
    """An OptionsFileError for a key that is no run option (with the closest one) or that this file may not set."""
    key = key or where
    if key in refused:
        raise OptionsFileError(path, where, refused[key])
    if key not in options:
        names = [k for k in options if "-" not in k] + list(extra_keys)
        close = difflib.get_close_matches(key, names, n=1)
        hint = f" (did you mean {close[0]}?)" if close else ""
        raise OptionsFileError(path, where, f"unknown option{hint}; options are the `run` flags with underscores")


def to_argv(path: Path | str, options: OptionTable, key: str, value: Any, where: str | None = None) -> list[str]:
    """The command-line arguments one entry stands for."""
    option, where = options[key], where or key
    if value is None:
        return []
    if not option.takes_value:
        if not isinstance(value, bool):
            raise OptionsFileError(path, where, f"is a switch: true or false, not {value!r}")
        return [option.flag] if value else []
    if canonical(key) in JSON_OPTIONS and isinstance(value, dict):
        return [option.flag, json.dumps(value)]
    if option.repeatable and isinstance(value, list):
        return [arg for item in value for arg in to_argv(path, options, key, item, where)]
    if isinstance(value, dict | list):
        raise OptionsFileError(path, where, f"must be a single value, not {value!r}")
    return [option.flag, str(value).lower() if isinstance(value, bool) else str(value)]


def read_mapping(path: Path | str, what: str = "run options (model: ..., dataset: ...)") -> dict[Any, Any]:
    """A YAML file's top-level mapping, or a one-line UsageError."""
    import yaml  # here, not at the top: `--help` and runs without a config file never read YAML

    path = Path(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        line = exc.object[:exc.start].count(b"\n") + 1
        raise UsageError(f"{path}: not UTF-8 text (line {line}); save it as UTF-8") from None
    except yaml.YAMLError as exc:
        raise UsageError(f"{path}: not valid YAML ({' '.join(str(exc).split())})") from None
    except RecursionError:
        raise UsageError(f"{path}: nested too deeply to be a mapping of {what}") from None
    if not isinstance(data, dict) or not data:
        raise UsageError(f"{path}: expected a mapping of {what}")
    return data


def file_argv(path: Path | str, options: OptionTable) -> list[str]:
    """`run --config FILE`: the file's options as arguments, in the file's order."""
    argv: list[str] = []
    refused = {"config": "a config file cannot name another one", "help": "not a run option"}
    for raw_key, value in read_mapping(path).items():
        key = canonical(raw_key)
        check_known(path, key, options, refused)
        argv += to_argv(path, options, key, value)
    return argv


def env_argv(options: OptionTable, environ: Mapping[str, str] | None = None) -> list[str]:
    """Arguments from `MDAGENTS_<OPTION>` variables (e.g. MDAGENTS_MODEL, MDAGENTS_OUTPUT_DIR).

    Only options that take a value; an empty variable counts as unset."""
    env = os.environ if environ is None else environ
    argv: list[str] = []
    seen: set[str] = set()
    for key, option in options.items():
        name = canonical(key)
        if name in seen or name in NOT_FROM_ENVIRONMENT or not option.takes_value:
            continue
        seen.add(name)
        value = env.get(ENV_PREFIX + name.upper(), "").strip()
        if value:
            argv += [option.flag, value]
    return argv


def config_path_from_env(environ: Mapping[str, str] | None = None) -> str | None:
    """$MDAGENTS_CONFIG: a config file used when the command names none."""
    env = os.environ if environ is None else environ
    return env.get(ENV_PREFIX + "CONFIG", "").strip() or None


def layered_argv(layers: list[list[str]], options: OptionTable) -> list[str]:
    """Argument lists from lowest to highest precedence, joined: argparse keeps the last value of an
    ordinary option; a repeatable option keeps only the values of the highest layer that gives it."""
    by_flag = {flag: option for option in options.values() for flag in option.flags}
    result: list[str] = []
    for index, layer in enumerate(layers):
        later = [arg for higher in layers[index + 1:] for arg in higher]
        overridden = {id(by_flag[_flag_of(a)]) for a in later if _flag_of(a) in by_flag
                      and by_flag[_flag_of(a)].repeatable}
        skip = False
        for arg in layer:
            if skip:
                skip = False
                continue
            option = by_flag.get(_flag_of(arg))
            if option is not None and id(option) in overridden:
                skip = arg in option.flags and option.takes_value  # its value is the next argument
                continue
            result.append(arg)
    return result


def _flag_of(arg: str) -> str:
    """`--base-url=X` -> `--base-url`, `-Mtop_p=1` -> `-M`, anything else as it is."""
    if arg.startswith("--"):
        return arg.split("=", 1)[0]
    return arg[:2] if arg.startswith("-") and len(arg) > 2 else arg
