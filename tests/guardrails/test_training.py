"""Training of the offline triage classifier: deterministic, recall-first thresholds, shipped weights reproducible."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from mdagents.guardrails.semantic import CLASSES, MODEL_FILE, TriageModel
from mdagents.guardrails.triage_check import HELDOUT_FILES, compare
from mdagents.guardrails.triage_training import (
    TRAINING_FILES,
    Labelled,
    choose_thresholds,
    fit_ensemble,
    fit_network,
    grouped_folds,
    same_model,
    train,
)
from tests.locations import REPO_ROOT


def _toy(n_per_class: int = 40, seed: int = 0) -> tuple[np.ndarray, Labelled]:
    """Four noisy clusters in 8 dimensions, two "languages", scenario notes shared by pairs of rows."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(len(CLASSES), 8)) * 1.5
    labels = np.repeat(np.arange(len(CLASSES)), n_per_class)
    vectors = centres[labels] + rng.normal(size=(len(labels), 8))
    data = Labelled([f"t{i}" for i in range(len(labels))], labels, ["en", "fr"] * (len(labels) // 2),
                    ["critical" if label == 0 else None for label in labels],
                    [f"{CLASSES[label]}:{i // 2}" for i, label in enumerate(labels)])
    return vectors, data


def test_training_is_deterministic_and_keeps_the_target_recall() -> None:
    vectors, data = _toy()
    first, report = train(vectors, data, target_recall=0.95)
    second, _ = train(vectors, data, target_recall=0.95)
    assert same_model(first, second, vectors, tolerance=0.0)
    assert report["all"]["critical_caught"]["rate"] >= 0.95
    assert set(report) == {"en", "fr", "all"}


def test_a_model_saved_without_a_hidden_layer_still_loads(tmp_path) -> None:
    vectors, data = _toy()
    model, _ = train(vectors, data, target_recall=0.95)
    linear = TriageModel(model.mean, model.scale, np.zeros((8, len(CLASSES))), np.array([0.0, 0.0, 0.0, 1.0]),
                         model.severity_weights, model.severity_bias, 0.5, 0.5)
    linear.save(tmp_path / "linear.npz")
    loaded = TriageModel.load(tmp_path / "linear.npz")
    assert loaded.hidden_weights is None
    assert [loaded.decide(row) for row in loaded.probabilities(vectors[:3])] == ["none"] * 3
    assert not same_model(model, loaded, vectors)


def test_the_ensemble_is_one_network_whose_logits_are_the_average_of_its_members() -> None:
    vectors, data = _toy()
    members = [fit_network(vectors, data.labels, len(CLASSES), seed=seed, epochs=50) for seed in (0, 1, 2)]
    ensemble = fit_ensemble(vectors, data.labels, len(CLASSES), seeds=(0, 1, 2), epochs=50)

    def logits(hidden_weights, hidden_bias, weights, bias):
        return np.maximum(vectors @ hidden_weights + hidden_bias, 0) @ weights + bias

    average = np.mean([logits(m.hidden_weights, m.hidden_bias, m.weights, m.bias) for m in members], axis=0)
    combined = logits(ensemble.hidden_weights, ensemble.hidden_bias, ensemble.weights, ensemble.bias)
    assert ensemble.hidden_weights.shape == (8, 3 * members[0].hidden_weights.shape[1])
    assert np.allclose(combined, average)
    assert not np.allclose(combined, logits(members[0].hidden_weights, members[0].hidden_bias, members[0].weights,
                                            members[0].bias))


def test_a_saved_model_gives_the_same_answers_once_loaded(tmp_path) -> None:
    vectors, data = _toy()
    model, _ = train(vectors, data, target_recall=0.95)
    model.save(tmp_path / "model.npz")
    loaded = TriageModel.load(tmp_path / "model.npz")
    assert np.allclose(loaded.probabilities(vectors), model.probabilities(vectors), atol=1e-3)
    assert [loaded.decide(r) for r in loaded.probabilities(vectors)] == [model.decide(r) for r in model.probabilities(vectors)]


def test_folds_keep_a_scenario_together() -> None:
    groups = ["a", "b", "a", "c", "b", "d", "e"]
    folds = grouped_folds(groups, folds=3)
    assert folds[0] == folds[2] and folds[1] == folds[4] and len(set(folds)) == 3


def test_the_critical_threshold_is_the_highest_that_keeps_the_recall() -> None:
    labels = np.array([0] * 10 + [3] * 10)
    probs = np.zeros((20, len(CLASSES)))
    probs[:10, 0] = np.linspace(0.1, 1.0, 10)  # emergencies scored 0.1 … 1.0
    probs[:, 3] = 1 - probs[:, 0]
    critical, _ = choose_thresholds(probs, labels, target_recall=0.9)
    assert critical == pytest.approx(0.2)  # 9 of 10 at or above it


def test_the_shipped_model_loads_with_its_thresholds() -> None:
    model = TriageModel.load(MODEL_FILE)
    assert model.hidden_weights is not None and model.hidden_weights.shape[0] == 384
    assert model.weights.shape == (model.hidden_weights.shape[1], len(CLASSES)) and 0 < model.critical_threshold < 1
    assert MODEL_FILE.stat().st_size < 1_000_000


def test_a_retrained_model_is_judged_by_its_decisions_not_its_weights() -> None:
    vectors, data = _toy()
    model, _ = train(vectors, data, target_recall=0.95)
    nudged = replace(model, weights=model.weights * 1.01, critical_threshold=model.critical_threshold + 0.005)
    assert not same_model(model, nudged, vectors)  # another BLAS build: the outputs move by more than 1e-3
    assert compare(nudged, model, vectors, data.labels).same  # ... and the answers stay the same
    careless = replace(model, critical_threshold=0.999)
    verdict = compare(careless, model, vectors, data.labels)
    assert not verdict.same and verdict.fresh.critical_caught < verdict.shipped.critical_caught
    assert "held-out (160 messages)" in verdict.describe()


def test_the_check_reads_the_held_out_sets_the_training_never_reads() -> None:
    assert sorted(p.name for p in HELDOUT_FILES) == ["heldout_c.jsonl", "heldout_d.jsonl", "heldout_e.jsonl", "heldout_f.jsonl", "heldout_g.jsonl",
                                                  "heldout_h.jsonl", "heldout_i.jsonl", "heldout_j.jsonl", "heldout_k.jsonl",
                                                  "heldout_l.jsonl", "heldout_long_none.jsonl", "heldout_m.jsonl",
                                                  "heldout_n.jsonl", "heldout_o.jsonl", "heldout_p.jsonl",
                                                  "heldout_q.jsonl", "heldout_r.jsonl",
                                                  "heldout_s.jsonl", "heldout_t.jsonl", "heldout_u.jsonl",
                                                  "heldout_v.jsonl", "heldout_w.jsonl", "heldout_x.jsonl",
                                                  "heldout_y.jsonl", "heldout_z.jsonl", "heldout_za.jsonl"]
    assert not set(HELDOUT_FILES) & {Path(p) for p in TRAINING_FILES}


@pytest.mark.slow
def test_retraining_from_the_shipped_data_reproduces_the_shipped_weights() -> None:
    # Its own process, as a maintainer runs it: the embedding engine then uses every core.
    done = subprocess.run([sys.executable, str(REPO_ROOT / "main.py"), "guardrails-train", "--check"],
                          capture_output=True, text=True, timeout=1800, cwd=REPO_ROOT)
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    assert "the shipped weights match a fresh training run" in out and "all " in out
    held_out = sum(1 for path in HELDOUT_FILES for line in path.read_text(encoding="utf-8").splitlines() if line.strip())
    assert held_out == 833 + 487 + 4 * 490 - 2 + 420 + 419 + 420 + 420 + 418 + 420 + 420 + 419 + 420 + 420 + 420 + 420 + 420 + 420 + 420 + 420 + 420 + 420 + 210 and f"held-out ({held_out} messages): same class for" in out
