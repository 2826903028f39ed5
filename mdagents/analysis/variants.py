"""What a `<name>-2` run directory changes: the configuration fields in which it differs from `<name>`.

`run --new-run` puts a configuration that differs from the one in `output/<name>` into
`output/<name>-2` (then -3, ...). The run records the fields that differ in its manifest
(`variant_of`, `differs_in`); `report` shows them, and works them out from the two manifests for
runs that did not record them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

_VARIANT = re.compile(r"^(?P<base>.+)-(?P<k>\d+)$")


def differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """`field: old -> new` for each field that differs (nested settings flattened one level)."""
    changed = []
    for key in sorted(set(old) | set(new)):
        a, b = old.get(key), new.get(key)
        if a == b:
            continue
        if isinstance(a, dict) and isinstance(b, dict):
            changed += [f"{key}.{k}: {_short(a.get(k))} -> {_short(b.get(k))}"
                        for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
        else:
            changed.append(f"{key}: {_short(a)} -> {_short(b)}")
    return changed


def _short(value: Any) -> str:
    text = json.dumps(value, default=str)
    return text if len(text) <= 40 else text[:37] + "..."


def _fields(run_dir: Path) -> dict[str, Any] | None:
    for path in [run_dir / "manifest.json", *sorted(run_dir.glob("manifest.shard-*.json"))]:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and isinstance(data.get("fingerprint_fields"), dict):
            return data["fingerprint_fields"]
    return None


def variant_record(run_dir: Path, fields: dict[str, Any]) -> dict[str, Any]:
    """For a `<name>-k` directory beside `<name>`: what to record in its manifest; {} otherwise."""
    match = _VARIANT.match(run_dir.name)
    base = run_dir.with_name(match["base"]) if match else None
    old = _fields(base) if base is not None else None
    if base is None or old is None:
        return {}
    return {"variant_of": base.name, "differs_in": differences(old, fields)}


def variant_of(run_dir: Path, manifest: dict[str, Any]) -> dict[str, Any]:
    """What `report` says about a run directory: recorded in its manifest, else worked out from both manifests."""
    if manifest.get("variant_of"):
        return {"variant_of": manifest["variant_of"], "differs_in": list(manifest.get("differs_in") or [])}
    fields = manifest.get("fingerprint_fields")
    return variant_record(run_dir, fields) if isinstance(fields, dict) else {}
