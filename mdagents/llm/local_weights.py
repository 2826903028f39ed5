"""The embedded model's weights in the layout llama.cpp computes fastest on a CPU.

SmolLM2-135M-Instruct ships as Q4_1. llama.cpp's fast CPU matrix kernels (llamafile's tinyBLAS)
do not cover Q4_1, so on two cores it reads prompts at ~275 tokens/s from the shipped file and at
~450 from the same weights stored as F16, and reading prompts is most of a question's time there.
The conversion is made once (under a second), kept per user, and named by the package version
and the shipped file's size, so a new release of the weights gets a new file. F16 holds every
Q4_1 weight to within 2^-11 of its value, and with F16 weights llama.cpp no longer rounds the
activations to 8 bits either: the same model, computed more precisely, with replies that may
differ from the shipped file's. The layout is part of a run's configuration (`WEIGHTS`).
"""

from __future__ import annotations

import contextlib
import io
import os
import tempfile
from pathlib import Path
from typing import Any

from mdagents.errors import ConfigError

# What the embedded model computes from: its shipped weights, converted to 16-bit floats.
WEIGHTS = "f16"
_LLAMA_FTYPE_MOSTLY_F16 = 1


def weights_dir() -> Path:
    """$MDAGENTS_CACHE_DIR/models if set, else the user's cache directory (one copy for every project)."""
    if configured := os.environ.get("MDAGENTS_CACHE_DIR"):
        return Path(configured) / "models"
    import platformdirs

    return platformdirs.user_cache_path("mdagents") / "models"


def converted_path(shipped: Path, version: str, directory: Path) -> Path:
    return directory / f"{shipped.stem}-{version}-{shipped.stat().st_size}.{WEIGHTS}.gguf"


def convert(llama_cpp: Any, shipped: Path, target: Path) -> None:
    """Write `shipped` as F16 to `target` atomically (a file under its final name is always whole)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    params = llama_cpp.llama_model_quantize_default_params()
    params.ftype = _LLAMA_FTYPE_MOSTLY_F16
    params.allow_requantize = True
    params.nthread = 2
    handle, partial = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
    os.close(handle)
    log = io.StringIO()  # llama.cpp reports each tensor through llama-cpp-python's logger, on sys.stderr
    try:
        with contextlib.redirect_stderr(log):
            status = llama_cpp.llama_model_quantize(str(shipped).encode(), partial.encode(), params)
        if status != 0:
            raise ConfigError(f"could not convert {shipped.name} to {WEIGHTS} weights "
                              f"(llama.cpp status {status}): {log.getvalue().strip()[-300:]}")
        os.chmod(partial, 0o644)  # public weights, as readable as the shipped file
        os.replace(partial, target)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(partial)


def fast_weights(llama_cpp: Any, shipped: Path, version: str) -> Path:
    """The F16 copy of an embedded model's shipped GGUF file, converted on first use.

    Kept in `weights_dir()`, else, when that cannot be written (a read-only home), in the
    system's temporary directory; a ConfigError if neither can hold it."""
    places = [weights_dir(), Path(tempfile.gettempdir()) / "mdagents-models"]
    failures = []
    for directory in places:
        target = converted_path(shipped, version, directory)
        if target.is_file():
            return target
        try:
            convert(llama_cpp, shipped, target)
            return target
        except OSError as exc:
            failures.append(f"{directory}: {exc.strerror or exc}")
    raise ConfigError(f"cannot write the embedded model's {WEIGHTS} weights ({'; '.join(failures)}); "
                      "set MDAGENTS_CACHE_DIR to a writable directory")
