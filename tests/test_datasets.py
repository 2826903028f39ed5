"""Dataset resolution, per-format loading, bad-line errors, option shuffling, and the `datasets` command."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from mdagents.cli import main
from mdagents.data.datasets import (
    DatasetSource,
    Question,
    iter_questions,
    load_exemplars,
    load_questions,
    resolve_dataset,
    shuffle_options,
)
from mdagents.errors import DatasetError, UsageError
from tests.locations import SAMPLES, SHARED_DATASETS

DATA = SAMPLES
SHARED = SHARED_DATASETS


def write_jsonl(path: Path, lines: list[Any]) -> Path:
    """Objects become JSON lines; strings are written as they are (for broken lines)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        "".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines), encoding="utf-8"
    )
    return path


def mcq(i: int, **extra: Any) -> dict[str, Any]:
    return {
        "question": f"Question number {i}?",
        "options": {"A": f"alpha {i}", "B": f"bravo {i}", "C": f"charlie {i}", "D": f"delta {i}"},
        "answer_idx": "C",
        "answer": f"charlie {i}",
        **extra,
    }


def source_of(path: Path, name: str = "demo", split: str = "test") -> DatasetSource:
    return DatasetSource(name=name, split=split, path=path)


def shared(relative: str) -> Path:
    path = SHARED / relative
    if not path.is_file():
        pytest.skip(f"public dataset {path} not present")
    return path


# ---------------------------------------------------------------- the sample sets shipped in data/


@pytest.mark.parametrize(("name", "split", "minimum"), [("medqa", "test", 24), ("medqa", "train", 10)])
def test_medqa_samples_are_valid_four_option_questions(name: str, split: str, minimum: int) -> None:
    questions = load_questions(resolve_dataset(name, split=split, data_dir=DATA))
    assert len(questions) >= minimum
    assert len({q.id for q in questions}) == len(questions)
    for q in questions:
        assert q.id.startswith(f"{name}-{split}-")
        assert list(q.options) == ["A", "B", "C", "D"]
        assert q.options[q.answer_idx] == q.answer
        assert len(set(q.options.values())) == 4
        assert q.meta["sample"] is True
    # the true answer is not always in the same place
    assert len(Counter(q.answer_idx for q in questions)) == 4


@pytest.mark.parametrize(("split", "minimum"), [("test", 10), ("train", 5)])
def test_pubmedqa_samples_have_context_and_yes_no_maybe(split: str, minimum: int) -> None:
    questions = load_questions(resolve_dataset("pubmedqa", split=split, data_dir=DATA))
    assert len(questions) >= minimum
    for q in questions:
        assert q.options == {"A": "yes", "B": "no", "C": "maybe"}
        assert q.answer in ("yes", "no", "maybe") and q.options[q.answer_idx] == q.answer
        assert q.context and len(q.context) > 200 and "fictional" in q.context
        assert q.question.endswith("?")
        assert q.meta["sample"] is True


# ---------------------------------------------------------------- the public sets, when present


def test_all_of_public_medqa_loads_with_unique_ids_and_valid_answers() -> None:
    questions = load_questions(resolve_dataset(str(shared("medqa/test.jsonl"))))
    assert len(questions) == 1273
    assert len({q.id for q in questions}) == 1273
    assert questions[0].id == "medqa-test-0"  # named after the directory: same ids as `--dataset medqa`
    for q in questions:
        assert len(q.options) == 4 and q.options[q.answer_idx] == q.answer
    assert "metamap_phrases" in questions[0].meta


def test_public_medqa_five_options_without_realidx_uses_line_index() -> None:
    questions = load_questions(resolve_dataset(str(shared("medqa_5options/test.jsonl"))))
    assert len(questions) == 1273 and len({q.id for q in questions}) == 1273
    assert questions[10].id == "medqa_5options-test-10"
    assert all(list(q.options) == ["A", "B", "C", "D", "E"] for q in questions)


def test_public_pubmedqa_context_is_split_from_the_question() -> None:
    questions = load_questions(resolve_dataset(str(shared("pubmedqa/test.jsonl"))))
    assert len(questions) == 500 and len({q.id for q in questions}) == 500
    first = questions[0]
    assert first.id == "pubmedqa-test-12377809"
    assert first.question == "Is anorectal endosonography valuable in dyschesia?"
    assert first.context is not None and first.context.startswith("Dyschesia can be provoked")
    assert first.answer == "yes" and first.answer_idx == "A"
    assert sum(1 for q in questions if q.context) >= 495
    assert "answer_rationale" in first.meta


def test_public_medmcqa_converted_form_loads() -> None:
    questions = load_questions(resolve_dataset(str(shared("medmcqa/test.jsonl"))))
    assert len(questions) == 2816 and len({q.id for q in questions}) == 2816
    assert questions[1].id == "medmcqa-test-17360c6c-2c98-4fe2-aa85-487dcf4678df"
    assert questions[1].answer == "0.01" and questions[1].answer_idx == "A"


def test_public_option_texts_are_one_line_without_a_stray_quote() -> None:
    """38 MedQA and 58 MedQA-5 options end in a line break and an unpaired quote ('Propranolol\\n"'): left in,
    they split the one options line a model reads, and the answer it gives matches no option."""
    for name in ("medqa/test.jsonl", "medqa_5options/test.jsonl"):
        raw = [json.loads(line) for line in shared(name).read_text(encoding="utf-8").splitlines() if line.strip()]
        marked = [i for i, r in enumerate(raw) if any("\n" in v for v in r["options"].values())]
        assert len(marked) >= 35
        questions = load_questions(resolve_dataset(str(shared(name))))
        for i in marked:
            q = questions[i]
            assert all("\n" not in t and not t.endswith('"') for t in q.options.values()), q.options
            assert q.options[q.answer_idx] == q.answer


def test_an_option_keeps_its_own_quotes_and_loses_only_the_stray_one(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "q.jsonl", [{
        "question": "Which is it?", "answer_idx": "A", "answer": "Propranolol\n\"",
        "options": {"A": "Propranolol\n\"", "B": 'The "silent" type', "C": "Lesion > 2\"", "D": "Two\n  lines"}}])
    (q,) = load_questions(resolve_dataset(str(path)))
    assert q.options == {"A": "Propranolol", "B": 'The "silent" type', "C": 'Lesion > 2"', "D": "Two lines"}
    assert q.answer == "Propranolol"


# ---------------------------------------------------------------- formats


def test_medmcqa_hugging_face_form_uses_zero_based_cop(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "mm.jsonl", [{
        "id": "abc-1", "question": "Which nerve supplies the deltoid muscle?", "opa": "Radial nerve",
        "opb": "Axillary nerve", "opc": "Musculocutaneous nerve", "opd": "Suprascapular nerve", "cop": 1,
        "subject_name": "Anatomy", "exp": "The axillary nerve (C5, C6).",
    }])
    (q,) = load_questions(source_of(path, "mm"))
    assert q.id == "mm-test-abc-1"
    assert q.options == {"A": "Radial nerve", "B": "Axillary nerve", "C": "Musculocutaneous nerve",
                         "D": "Suprascapular nerve"}
    assert (q.answer_idx, q.answer) == ("B", "Axillary nerve")
    assert q.meta["subject_name"] == "Anatomy" and "opa" not in q.meta


def test_pubmedqa_minimal_form_gets_default_options_and_keeps_context(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "p.jsonl", [
        {"realidx": "9", "question": "Does X help?", "context": ["First paragraph.", "Second paragraph."],
         "final_decision": "Maybe"},
    ])
    (q,) = load_questions(source_of(path, "p"))
    assert q.options == {"A": "yes", "B": "no", "C": "maybe"}
    assert (q.answer_idx, q.answer) == ("C", "maybe")
    assert q.context == "First paragraph.\nSecond paragraph."
    assert q.question == "Does X help?"


def test_generic_jsonl_list_options_lowercase_letter_and_answer_only(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "g.jsonl", [
        {"question": "Pick two?", "options": ["one", "two", "three"], "answer_idx": "b"},
        {"question": "Pick three?", "options": {"a": "one", "b": "two", "c": "three"}, "answer": "Three"},
        {"question": "Unsorted keys?", "options": {"B": "second", "A": "first"}, "answer_idx": "A"},
    ])
    first, second, third = load_questions(source_of(path))
    assert first.options == {"A": "one", "B": "two", "C": "three"} and first.answer_idx == "B"
    assert (second.answer_idx, second.answer) == ("C", "three")
    assert list(third.options) == ["A", "B"] and third.answer == "first"


def test_ids_use_realidx_else_line_index_counting_blank_lines(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "ids.jsonl", [mcq(0, realidx=41), "", mcq(2)])
    questions = load_questions(source_of(path, "ids", "dev"))
    assert [q.id for q in questions] == ["ids-dev-41", "ids-dev-2"]
    assert questions[1].meta["line"] == 3


# ---------------------------------------------------------------- names, paths and splits


def test_name_resolves_to_split_file_with_train_beside_it() -> None:
    source = resolve_dataset("medqa", data_dir=DATA)
    assert (source.name, source.split) == ("medqa", "test")
    assert source.path == DATA / "medqa" / "test.jsonl"
    assert source.train_path == DATA / "medqa" / "train.jsonl"
    train = resolve_dataset("medqa", split="train", data_dir=DATA)
    assert train.path.name == "train.jsonl" and train.train_path is None


def test_path_and_name_give_the_same_ids() -> None:
    by_name = load_questions(resolve_dataset("medqa", data_dir=DATA), limit=3)
    by_path = load_questions(resolve_dataset(str(DATA / "medqa" / "test.jsonl")), limit=3)
    assert [q.id for q in by_name] == [q.id for q in by_path]


def test_a_path_with_another_stem_is_named_by_its_stem(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "hard_cases.jsonl", [mcq(0)])
    source = resolve_dataset(str(path))
    assert (source.name, source.split, source.train_path) == ("hard_cases", "test", None)
    write_jsonl(tmp_path / "train.jsonl", [mcq(1)])
    assert resolve_dataset(str(path)).train_path == tmp_path / "train.jsonl"


def test_default_data_dir_works_from_another_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    source = resolve_dataset("medqa")
    assert source.path == DATA / "medqa" / "test.jsonl" and source.sample


def test_a_prepared_dataset_wins_over_the_shipped_sample(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    write_jsonl(tmp_path / "data" / "medqa" / "test.jsonl", [mcq(0)])
    source = resolve_dataset("medqa")
    assert source.path == Path("data") / "medqa" / "test.jsonl" and not source.sample


def test_missing_dataset_names_what_was_looked_for_and_what_exists(tmp_path: Path) -> None:
    write_jsonl(tmp_path / "alpha" / "test.jsonl", [mcq(0)])
    write_jsonl(tmp_path / "alpha" / "train.jsonl", [mcq(1)])
    with pytest.raises(DatasetError) as missing:
        resolve_dataset("medmcqa", data_dir=tmp_path)
    message = str(missing.value)
    assert str(tmp_path / "medmcqa" / "test.jsonl") in message
    assert "alpha [test, train]" in message and "datasets prepare medmcqa" in message
    with pytest.raises(DatasetError, match=r"no 'dev' split.*splits: test, train"):
        resolve_dataset("alpha", split="dev", data_dir=tmp_path)
    with pytest.raises(DatasetError, match="does not exist"):
        resolve_dataset(str(tmp_path / "nothing.jsonl"))


# ---------------------------------------------------------------- limit, streaming, exemplars


def test_limit_takes_the_first_questions_in_file_order(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "d.jsonl", [mcq(i) for i in range(10)])
    assert [q.question for q in load_questions(source_of(path), limit=3)] == [
        "Question number 0?", "Question number 1?", "Question number 2?"]
    assert len(load_questions(source_of(path))) == 10
    assert load_questions(source_of(path), limit=0) == []
    assert len(load_questions(source_of(path), limit=50)) == 10
    with pytest.raises(UsageError):
        load_questions(source_of(path), limit=-1)


def test_reading_stops_at_the_limit_and_is_lazy(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "d.jsonl", [mcq(0), mcq(1), mcq(2), "{broken"])
    assert len(load_questions(source_of(path), limit=3)) == 3  # the broken 4th line is never read
    stream = iter_questions(source_of(path))
    assert next(stream).question == "Question number 0?"
    with pytest.raises(DatasetError, match=r"d\.jsonl:4: invalid JSON"):
        list(stream)


def test_exemplars_come_from_the_train_split() -> None:
    source = resolve_dataset("medqa", data_dir=DATA)
    exemplars = load_exemplars(source, 3)
    assert len(exemplars) == 3 and all(q.id.startswith("medqa-train-") for q in exemplars)
    assert load_exemplars(source, 0) == []


def test_no_train_split_means_no_exemplars(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "solo.jsonl", [mcq(0)])
    assert load_exemplars(resolve_dataset(str(path)), 5) == []


# ---------------------------------------------------------------- bad lines


BAD_LINES: list[tuple[str, Any, str]] = [
    ("invalid json", '{"question": "x", ', "invalid JSON"),
    ("not an object", "[1, 2, 3]", "expected a JSON object"),
    ("missing question", {"options": {"A": "a", "B": "b"}, "answer_idx": "A"}, "missing field 'question'"),
    ("empty question", {**mcq(0), "question": "  "}, "'question' must be non-empty"),
    ("missing options", {"question": "q?", "answer_idx": "A"}, "missing field 'options'"),
    ("empty options", {"question": "q?", "options": {}, "answer_idx": "A"}, "'options' is empty"),
    ("one option", {"question": "q?", "options": {"A": "a"}, "answer_idx": "A"}, "at least 2 options"),
    ("empty option text", {**mcq(0), "options": {"A": "a", "B": ""}, "answer_idx": "A", "answer": "a"},
     "option B is empty"),
    ("bad option key", {**mcq(0), "options": {"A": "a", "BB": "b"}, "answer_idx": "A", "answer": "a"},
     "option key 'BB' is not a letter"),
    ("answer_idx not an option", {**mcq(0), "answer_idx": "E"}, "answer_idx 'E' is not among the options"),
    ("missing answer_idx", {"question": "q?", "options": {"A": "a", "B": "b"}},
     "missing field 'answer_idx'"),
    ("answer text mismatch", {**mcq(0), "answer": "alpha 0"}, "is not the text of option C"),
    ("answer matches nothing", {"question": "q?", "options": {"A": "a", "B": "b"}, "answer": "z"},
     "matches no option"),
    ("medmcqa cop out of range", {"question": "q?", "opa": "a", "opb": "b", "opc": "c", "opd": "d", "cop": 4},
     "'cop' must be 0-3"),
    ("medmcqa missing opd", {"question": "q?", "opa": "a", "opb": "b", "opc": "c", "cop": 0},
     "missing 'opd'"),
    ("duplicate id", {**mcq(9), "realidx": 7}, "id demo-test-7 repeats line 1"),
]


@pytest.mark.parametrize(("line", "expected"), [(b[1], b[2]) for b in BAD_LINES], ids=[b[0] for b in BAD_LINES])
def test_bad_line_is_reported_with_file_and_line(tmp_path: Path, line: Any, expected: str) -> None:
    path = write_jsonl(tmp_path / "bad.jsonl", [mcq(0, realidx=7), "", line, mcq(3)])
    with pytest.raises(DatasetError) as error:
        load_questions(source_of(path))
    message = str(error.value)
    assert message.startswith(f"{path}:3: "), message
    assert expected in message


def test_non_utf8_file_is_a_dataset_error(tmp_path: Path) -> None:
    path = tmp_path / "latin.jsonl"
    path.write_bytes(b'{"question": "caf\xe9?"}\n')
    with pytest.raises(DatasetError, match="not UTF-8"):
        load_questions(source_of(path))


# ---------------------------------------------------------------- option shuffling


def sample_questions() -> list[Question]:
    return load_questions(resolve_dataset("medqa", data_dir=DATA))


def test_same_seed_same_order() -> None:
    for q in sample_questions():
        assert shuffle_options(q, 7) == shuffle_options(q, 7)


def test_different_seeds_reorder_most_questions() -> None:
    questions = sample_questions()
    changed = sum(shuffle_options(q, 1).options != shuffle_options(q, 2).options for q in questions)
    assert changed >= 0.75 * len(questions)
    # and one seed does not apply the same permutation to every question
    positions = {tuple(list(q.options.values()).index(t) for t in shuffle_options(q, 1).options.values())
                 for q in questions}
    assert len(positions) > 5


def test_order_depends_on_seed_and_id_not_on_position(tmp_path: Path) -> None:
    target = {**mcq(5), "realidx": "x1"}
    alone = write_jsonl(tmp_path / "a" / "set.jsonl", [target])
    later = write_jsonl(tmp_path / "b" / "set.jsonl", [{**mcq(i), "realidx": f"o{i}"} for i in range(9)] + [target])
    first = load_questions(resolve_dataset(str(alone)))[0]
    last = load_questions(resolve_dataset(str(later)))[-1]
    assert first.id == last.id
    assert shuffle_options(first, 3).options == shuffle_options(last, 3).options


def test_shuffle_keeps_letters_and_maps_the_true_answer() -> None:
    for seed in (0, 1, 2):
        for q in sample_questions():
            shown = shuffle_options(q, seed)
            assert list(shown.options) == list(q.options)
            assert sorted(shown.options.values()) == sorted(q.options.values())
            assert shown.options[shown.answer_idx] == q.answer == shown.answer
            assert shown.meta["original_options"] == q.options
            assert shown.meta["original_answer_idx"] == q.answer_idx
            assert q.meta.get("original_options") is None  # the input is not modified


def test_shuffling_twice_is_the_same_as_once() -> None:
    q = sample_questions()[0]
    once = shuffle_options(q, 4)
    assert shuffle_options(once, 4) == once
    assert shuffle_options(once, 5) == shuffle_options(q, 5)


def test_shuffle_order_is_stable_across_versions() -> None:
    """Resumed runs rely on this exact order: changing the algorithm must be a deliberate decision."""
    q = Question(id="medqa-test-0", question="q?", options={"A": "a", "B": "b", "C": "c", "D": "d"},
                 answer_idx="B", answer="b")
    shown = shuffle_options(q, 0)
    assert "".join(shown.options.values()) == "cdba"
    assert shown.answer_idx == "C"


def test_yes_no_maybe_are_shuffled_by_the_same_rule() -> None:
    questions = load_questions(resolve_dataset("pubmedqa", data_dir=DATA))
    shown = [shuffle_options(q, 1) for q in questions]
    assert any(s.options != q.options for s, q in zip(shown, questions, strict=True))
    assert all(s.options[s.answer_idx] == q.answer for s, q in zip(shown, questions, strict=True))


# ---------------------------------------------------------------- the `datasets` command


def test_datasets_list_shows_splits_and_counts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["datasets", "list", "--data-dir", str(DATA)]) == 0
    out = capsys.readouterr().out
    medqa_line = next(line for line in out.splitlines() if line.strip().startswith("medqa"))
    count = len(load_questions(resolve_dataset("medqa", data_dir=DATA)))
    assert f"test ({count})" in medqa_line and "[sample]" in medqa_line


def test_datasets_list_of_a_missing_directory_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["datasets", "list", "--data-dir", str(tmp_path / "nowhere")]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_datasets_check_missing_dataset_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["datasets", "check", "nosuchset", "--data-dir", str(DATA)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nosuchset" in err and "medqa [test, train]" in err
    assert "Traceback" not in err


def test_datasets_check_reports_a_bad_line_and_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_jsonl(tmp_path / "broken.jsonl", [mcq(0), {**mcq(1), "answer_idx": "Q"}])
    assert main(["datasets", "check", str(path)]) == 2
    assert f"{path}:2: answer_idx 'Q'" in capsys.readouterr().err


def test_datasets_check_valid_file_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["datasets", "check", "pubmedqa", "--data-dir", str(DATA)]) == 0
    assert "all valid" in capsys.readouterr().out
