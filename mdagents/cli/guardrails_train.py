"""`guardrails-train`: retrain the offline triage classifier from labelled messages and report cross-validation."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from mdagents.cli.guardrails_eval import print_language_table
from mdagents.errors import UsageError
from mdagents.guardrails.semantic import MODEL_FILE, MODEL_VARIABLE, TriageModel
from mdagents.guardrails.triage_check import HELDOUT_FILES, compare
from mdagents.guardrails.triage_training import (
    TARGET_RECALL,
    TRAINING_FILES,
    embed_all,
    load_labelled,
    train,
)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="*", help="JSONL of {text, lang, expected, severity, note} "
                        "(default: the training files shipped in mdagents/guardrails/data/)")
    parser.add_argument("--out", default=None, help=f"where to write the weights (default: ./{MODEL_FILE.name}; "
                        "use them with MDAGENTS_TRIAGE_MODEL=PATH; with --check nothing is written)")
    parser.add_argument("--into-package", dest="into_package", action="store_true",
                        help="replace the weights shipped inside the package (for maintainers of a checkout)")
    parser.add_argument("--check", action="store_true",
                        help="retrain and compare with the shipped weights on the held-out messages (the same "
                             "decisions, not bit-equal weights) instead of writing them")
    parser.add_argument("--target-recall", type=float, default=TARGET_RECALL,
                        help=f"cross-validated emergency+crisis recall the threshold keeps (default: {TARGET_RECALL})")
    parser.add_argument("--json", action="store_true", help="print the cross-validated table as JSON")


def execute(args: argparse.Namespace) -> int:
    if not 0 < args.target_recall < 1:
        raise UsageError("--target-recall must be between 0 and 1")
    data = load_labelled(args.files or TRAINING_FILES)
    started = time.perf_counter()
    vectors = embed_all(data.texts)
    per_message = (time.perf_counter() - started) / len(data.texts)
    model, report = train(vectors, data, target_recall=args.target_recall)
    if args.json:
        print(json.dumps({"cross_validated": report, "thresholds": [model.critical_threshold,
                                                                     model.out_of_scope_threshold]}))
    else:
        print(f"{len(data.texts)} messages embedded, {1000 * per_message:.0f} ms each")
        print(f"thresholds: emergency+crisis {model.critical_threshold:.4f}, "
              f"out-of-scope {model.out_of_scope_threshold:.2f}")
        print_language_table(report, "cross-validated (grouped folds) on the training data:")
    if args.check:
        shipped = TriageModel.load(Path(args.out) if args.out else MODEL_FILE)
        held_out = load_labelled(HELDOUT_FILES)
        comparison = compare(model, shipped, embed_all(held_out.texts), held_out.labels)
        print(comparison.describe())
        if not comparison.same:
            print("the shipped weights differ from what this training produces")
            return 1
        print("the shipped weights match a fresh training run")
        return 0
    if args.into_package and args.out:
        raise UsageError("--out and --into-package name two places: give one")
    out = MODEL_FILE if args.into_package else Path(args.out or MODEL_FILE.name)
    try:
        model.save(out)
    except OSError as exc:
        raise UsageError(f"cannot write {out}: {exc.strerror or exc}") from None
    print(f"wrote {out}")
    if not args.into_package:
        print(f"use it with: export {MODEL_VARIABLE}={out.resolve()}")
    return 0
