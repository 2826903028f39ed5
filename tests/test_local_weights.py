"""The embedded model computes from its shipped weights converted once to F16 (mdagents/llm/local_weights.py)."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from mdagents.errors import ConfigError
from mdagents.llm.cache import cache_key
from mdagents.llm.local import EMBEDDED_WRITING_THREADS, READING_THREADS, LocalProvider, embedded_model_path
from mdagents.llm.local_weights import WEIGHTS, fast_weights
from mdagents.llm.types import GenerationParams, Message
from mdagents.paths import SAMPLES_DIR
from mdagents.run.config import RunConfig
from mdagents.run.fingerprint import fingerprint_fields


class FakeLlamaCpp:
    """llama.cpp's conversion entry point: writes a marked copy, and logs on stderr as llama.cpp does."""

    def __init__(self, status: int = 0) -> None:
        self.status = status
        self.calls: list[SimpleNamespace] = []

    def llama_model_quantize_default_params(self) -> SimpleNamespace:
        return SimpleNamespace(ftype=None, allow_requantize=False, nthread=0)

    def llama_model_quantize(self, source: bytes, target: bytes, params: SimpleNamespace) -> int:
        self.calls.append(params)
        Path(target.decode()).write_bytes(b"F16 " + Path(source.decode()).read_bytes())
        print("llama_model_quantize_impl: quant size = 256.63 MiB", file=sys.stderr)
        return self.status


@pytest.fixture
def shipped(tmp_path: Path) -> Path:
    path = tmp_path / "site-packages" / "Model.Q4_1.gguf"
    path.parent.mkdir()
    path.write_bytes(b"GGUF q4_1 weights")
    return path


def test_the_weights_are_converted_once_and_reused(shipped: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("MDAGENTS_CACHE_DIR", str(tmp_path / "cache"))
    llama = FakeLlamaCpp()
    first = fast_weights(llama, shipped, "0.1.2")
    again = fast_weights(llama, shipped, "0.1.2")
    assert first == again and first.parent == tmp_path / "cache" / "models"
    assert first.read_bytes() == b"F16 GGUF q4_1 weights"
    assert len(llama.calls) == 1 and llama.calls[0].ftype == 1 and llama.calls[0].allow_requantize
    assert capsys.readouterr().err == ""  # llama.cpp's per-tensor log is not shown
    assert sorted(p.name for p in first.parent.iterdir()) == [first.name]  # no partial file left
    # a new release of the package, or other weights under the same name, get their own file
    assert fast_weights(llama, shipped, "0.1.3") != first
    shipped.write_bytes(b"GGUF other, longer weights")
    assert fast_weights(llama, shipped, "0.1.2") != first and len(llama.calls) == 3


def test_a_failed_conversion_leaves_no_file_under_the_final_name(shipped: Path, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MDAGENTS_CACHE_DIR", str(tmp_path / "cache"))
    with pytest.raises(ConfigError, match=r"could not convert Model\.Q4_1\.gguf to f16 weights.*quant size"):
        fast_weights(FakeLlamaCpp(status=1), shipped, "0.1.2")
    assert list((tmp_path / "cache" / "models").iterdir()) == []


def test_an_unwritable_cache_falls_back_to_the_temporary_directory(shipped: Path, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("")
    monkeypatch.setenv("MDAGENTS_CACHE_DIR", str(blocker))
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr("tempfile.gettempdir", lambda: str(tmp_path / "tmp"))
    converted = fast_weights(FakeLlamaCpp(), shipped, "0.1.2")
    assert converted.parent == tmp_path / "tmp" / "mdagents-models" and converted.is_file()

    monkeypatch.setattr("tempfile.gettempdir", lambda: str(blocker))
    with pytest.raises(ConfigError, match="set MDAGENTS_CACHE_DIR to a writable directory"):
        fast_weights(FakeLlamaCpp(), shipped, "0.1.3")


def test_the_weights_are_part_of_the_configuration_and_of_the_cache_key(tmp_path: Path) -> None:
    dataset = SAMPLES_DIR / "medqa" / "test.jsonl"
    assert fingerprint_fields(RunConfig(model="local/smollm2-135m"), dataset)["weights"] == WEIGHTS
    own = tmp_path / "own.gguf"
    own.write_bytes(b"GGUF")
    for other in ("openai/gpt-4o-mini", f"local/{own}"):  # no such field: their fingerprints are what they were
        assert "weights" not in fingerprint_fields(RunConfig(model=other), dataset)
    question, params = [Message("user", "Q")], GenerationParams()
    assert cache_key("local", "smollm2-135m", None, question, params, weights=WEIGHTS) != cache_key(
        "local", "smollm2-135m", None, question, params)


def test_the_embedded_model_runs_from_f16_weights_and_writes_on_one_thread(tmp_path: Path) -> None:
    embedded = LocalProvider("smollm2-135m")
    assert embedded.path.name.endswith(f".{WEIGHTS}.gguf") and embedded.weights == WEIGHTS
    # 135M weights in 16 bits against ~5 bits in the shipped Q4_1 file
    assert embedded.path.stat().st_size > 2.5 * embedded_model_path("smollm2-135m").stat().st_size
    assert embedded.writing_threads == EMBEDDED_WRITING_THREADS == 1
    own = tmp_path / "own.gguf"
    own.write_bytes(b"GGUF")
    mine = LocalProvider(str(own))
    assert mine.path == own and mine.weights is None and mine.writing_threads == READING_THREADS
