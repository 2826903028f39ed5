"""The configuration fingerprint: everything that changes results, hashed, so one run directory
never mixes two configurations.

Built by exclusion: every RunConfig field counts except the few that only change how a run goes
(speed, retries, where files go), so a new option is part of the fingerprint unless it is
listed here. The dataset counts by its path and the sha256 of its content; prompts by their
hashes; grading by the extraction version; a model that lays agents' prompts out its own way
(the embedded model, see llm/types.py) by that layout, and one whose weights are converted (the
embedded model, see llm/local_weights.py) by their layout.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from mdagents import prompts
from mdagents.analysis.variants import differences
from mdagents.errors import UsageError
from mdagents.hashing import file_sha256
from mdagents.llm.factory import prompt_layout_of, weights_of
from mdagents.run.config import RunConfig
from mdagents.scoring import GRADER_VERSION

# Fields that do not change any result (and how a question is asked or graded).
NOT_IN_FINGERPRINT = frozenset({
    "output_dir", "fresh", "retry_failed", "use_cache", "cache_path", "concurrency", "max_connections",
    "timeout", "max_retries", "max_cost", "price_file", "dry_run", "shard", "verbose", "transcripts",
    "data_dir", "dataset", "wait", "new_run", "price_in", "price_out", "quiet", "executor",
    "prompts_dir",  # counted by the content of the prompts it overrides, not by where they are
    "batch", "batch_poll",
})


class ConfigurationChanged(UsageError):
    """Resuming a run directory with a configuration that differs from the one its records used."""


def fingerprint_fields(config: RunConfig, dataset_path: Path) -> dict[str, Any]:
    fields = {k: v for k, v in config.to_dict().items() if k not in NOT_IN_FINGERPRINT}
    if config.method == "mdagents":
        del fields["method"]  # the default method: the fingerprint it had before --method existed
    fields["dataset_path"] = str(dataset_path.resolve())
    fields["dataset_sha256"] = file_sha256(dataset_path)
    fields["extraction_version"] = GRADER_VERSION
    fields["prompt_hashes"] = prompts.hashes()
    if layout := prompt_layout_of(config.model_spec):  # absent for the usual order: fingerprints as before
        fields["prompt_layout"] = layout
    if weights := weights_of(config.model_spec):  # the embedded model's weights, converted (llm/local_weights.py)
        fields["weights"] = weights
    fields |= method_fields(config)
    return json.loads(json.dumps(fields, default=str))  # plain JSON values, as the manifest will hold them


def method_fields(config: RunConfig) -> dict[str, Any]:
    """What a method other than the default adds (its prompts, a plugin's code), and any overridden prompts.

    The default method adds nothing, so its runs keep the fingerprint they had before methods existed."""
    from mdagents.methods import DEFAULT_METHOD, resolve

    fields: dict[str, Any] = {}
    if config.method != DEFAULT_METHOD:
        fields["method_prompt_hashes"] = prompts.method_hashes()
        if digest := resolve(config.method).source_sha256:
            fields["method_source_sha256"] = digest
    if config.prompts_dir is not None:
        fields["prompt_overrides"] = prompts.override_hashes(config.prompts_dir)
    return fields


def short_hash(fields: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()[:12]


def check_resume(existing: dict[str, Any] | None, fields: dict[str, Any], run_dir: Path) -> None:
    """Raise ConfigurationChanged when a run directory's recorded fingerprint is not this configuration's."""
    if not existing or "fingerprint" not in existing:
        return
    old = existing.get("fingerprint_fields") or {}
    if existing["fingerprint"] == short_hash(fields):
        return
    changed = differences(old, fields) or ["(fields not recorded)"]
    raise ConfigurationChanged(
        f"{run_dir} holds a run with a different configuration ({'; '.join(changed)}); "
        "re-run with the same options, add --new-run for a separate run directory, or --fresh to start this one over")
