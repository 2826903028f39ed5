"""The long-message triage set (data/triage_train_long.jsonl): what a passage reader sees, in every language."""

from __future__ import annotations

from mdagents.guardrails.semantic import CLASSES, DATA_DIR
from mdagents.guardrails.triage_check import HELDOUT_FILES
from mdagents.guardrails.triage_training import TRAINING_FILES, load_labelled

PATH = DATA_DIR / "triage_train_long.jsonl"


def _keys(texts: list[str]) -> set[str]:
    return {" ".join(t.split()).lower() for t in texts}


def test_the_long_message_set_holds_every_language() -> None:
    """Long harmless messages full of alarming words used harmlessly, the sentences lifted from them
    (harmless), and long messages with a sign told mid-way with their decisive sentence (emergency or
    crisis), in each of the seven languages."""
    data = load_labelled([PATH])
    none, critical = CLASSES.index("none"), [CLASSES.index("emergency"), CLASSES.index("mental_health_crisis")]
    for lang in ("en", "es", "fr", "pt", "zh", "ar", "hi"):
        rows = [(t, label) for t, label, lg in zip(data.texts, data.labels, data.languages, strict=True) if lg == lang]
        long_harmless = [t for t, label in rows if label == none and len(t) > (100 if lang == "zh" else 200)]
        sentences = [t for t, label in rows if label == none and len(t) <= 120]
        signs = [t for t, label in rows if label in critical]
        assert len(long_harmless) >= 15 and len(sentences) >= 100 and len(signs) >= 30, lang


def test_the_long_message_set_shares_no_text_with_the_training_or_held_out_sets() -> None:
    """Not among the training files of the shipped weights (docs/guardrails.md says why), and distinct
    from every training and held-out text."""
    texts = _keys(load_labelled([PATH]).texts)
    assert PATH not in TRAINING_FILES and not texts & _keys(load_labelled().texts)
    for held_out in HELDOUT_FILES:
        assert not texts & _keys(load_labelled([held_out]).texts), held_out.name
