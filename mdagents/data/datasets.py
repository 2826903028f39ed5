"""Question record, dataset resolution, JSONL loaders for each supported format, seeded option shuffle.

One JSONL line is one question. The format is detected per line: MedQA-style
(`question`/`options`/`answer_idx`), PubMedQA (yes/no/maybe, with a context), MedMCQA in
the Hugging Face form (`opa`..`opd`, `cop` 0-3), or any line with a question, options and
an answer letter. Files are streamed: sweeps read thousands of questions.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mdagents.data.sources import SOURCES
from mdagents.errors import DatasetError, UsageError
from mdagents.jsonl import BadLine, numbered_objects
from mdagents.paths import SAMPLES_DIR


@dataclass
class Question:
    """One multiple-choice medical question as presented to the model.

    `id` is stable: `<dataset>-<split>-<index or realidx>`. `options` is ordered
    letter -> text in the order shown; `answer_idx` is the letter of the true answer in
    that order. `meta` keeps the source's extra fields (and, after shuffling, the
    original order and letter).
    """

    id: str
    question: str
    options: dict[str, str]
    answer_idx: str
    answer: str
    context: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class DatasetSource:
    """Where a dataset split lives: `path` is the JSONL to run, `train_path` the exemplars beside it."""

    name: str
    split: str
    path: Path
    train_path: Path | None = None
    sample: bool = False  # one of the small sample sets shipped with the package, not a public benchmark


SPLIT_NAMES = frozenset({"train", "test", "dev", "validation", "val"})
PUBMEDQA_OPTIONS: dict[str, str] = {"A": "yes", "B": "no", "C": "maybe"}
MEDMCQA_RAW_KEYS: tuple[str, ...] = ("opa", "opb", "opc", "opd")
# Fields a format consumes; everything else on a line goes to Question.meta.
_CONSUMED = {"question", "options", "answer_idx", "answer", "context", "realidx", "id", "meta"}


# ---------------------------------------------------------------- resolving names and paths


def resolve_dataset(dataset: str, *, split: str = "test", data_dir: str | Path = "data") -> DatasetSource:
    """`NAME` means `<data_dir>/NAME/<split>.jsonl`; anything ending in .jsonl or holding a slash is a file.

    A file is named by its stem (`hard.jsonl` -> "hard"), or, when the stem is a split
    name (`medqa/test.jsonl`), by its directory with the stem as split, so both
    spellings give the same question ids.

    A NAME that is not in data_dir falls back to the sample set of that name shipped
    inside the package (`sample=True`), so a fresh install runs without any download.
    """
    if not dataset:
        raise UsageError("--dataset is empty: give a dataset name (e.g. medqa) or a .jsonl file")
    if dataset.endswith(".jsonl") or "/" in dataset or "\\" in dataset:
        path = Path(dataset).expanduser()
        if not path.is_file():
            raise DatasetError(f"dataset file {path} does not exist")
        train = path.parent / "train.jsonl"
        if path.stem in {*SPLIT_NAMES, split}:
            # data/medqa/test.jsonl names the same questions (and ids) as `--dataset medqa`
            name, split = path.parent.resolve().name or path.stem, path.stem
        else:
            name = path.stem
        return DatasetSource(
            name=name,
            split=split,
            path=path,
            train_path=train if train.is_file() and train.resolve() != path.resolve() else None,
        )
    root = find_data_dir(data_dir)
    path = root / dataset / f"{split}.jsonl"
    sample = not path.is_file() and (SAMPLES_DIR / dataset / f"{split}.jsonl").is_file()
    if sample:
        root = SAMPLES_DIR
        path = root / dataset / f"{split}.jsonl"
    if not path.is_file():
        raise DatasetError(_missing_message(dataset, split, path, find_data_dir(data_dir)))
    train = root / dataset / "train.jsonl"
    return DatasetSource(
        name=dataset,
        split=split,
        path=path,
        train_path=train if train.is_file() and split != "train" else None,
        sample=sample,
    )


def find_data_dir(data_dir: str | Path) -> Path:
    """The data directory as given (relative to the working directory)."""
    return Path(data_dir).expanduser()


def available_datasets(data_dir: str | Path) -> dict[str, list[Path]]:
    """Dataset name -> its split files (`*.jsonl`), for every sub-directory of data_dir that has some."""
    root = find_data_dir(data_dir)
    if not root.is_dir():
        return {}
    found: dict[str, list[Path]] = {}
    for sub in sorted(p for p in root.iterdir() if p.is_dir()):
        splits = sorted(sub.glob("*.jsonl"))
        if splits:
            found[sub.name] = splits
    return found


def _missing_message(dataset: str, split: str, path: Path, root: Path) -> str:
    found = available_datasets(root)
    if dataset in found:
        splits = ", ".join(p.stem for p in found[dataset])
        return f"dataset '{dataset}' has no '{split}' split: {path} does not exist (splits: {splits})"
    listing = ", ".join(
        f"{name} [{', '.join(p.stem for p in files)}]" for name, files in found.items()
    )
    where = f"available in {root}: {listing}" if listing else f"no datasets in {root}"
    hint = f"; `python main.py datasets prepare {dataset}` fetches it" if dataset in SOURCES else ""
    samples = ", ".join(available_datasets(SAMPLES_DIR))
    hint += f"; shipped sample sets: {samples}" if samples else ""
    return f"dataset '{dataset}' not found: {path} does not exist ({where}{hint})"


# ---------------------------------------------------------------- loading


def iter_questions(source: DatasetSource, *, limit: int | None = None) -> Iterator[Question]:
    """The first `limit` questions (all when None) in file order, read line by line.

    Raises DatasetError("path:LINE: what is wrong") on the first bad line, including a
    repeated id (the run's resume logic relies on ids being unique).
    """
    if limit is not None and limit < 0:
        raise UsageError(f"the number of questions must be zero or more, not {limit}")
    if limit == 0:
        return
    seen: dict[str, int] = {}
    count = 0
    try:
        numbered = numbered_lines(source.path)
        for line_no, record in numbered:
            where = f"{source.path}:{line_no}"
            question = parse_record(record, where=where, prefix=f"{source.name}-{source.split}", index=line_no - 1)
            if question.id in seen:
                raise DatasetError(f"{where}: id {question.id} repeats line {seen[question.id]}")
            seen[question.id] = line_no
            question.meta.setdefault("line", line_no)
            yield question
            count += 1
            if limit is not None and count >= limit:
                return
    except OSError as exc:
        raise DatasetError(f"cannot read dataset file {source.path}: {exc.strerror or exc}") from exc


def numbered_lines(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) of a dataset file, streamed; the first damaged line is a DatasetError."""
    return numbered_objects(path, raise_bad_line, torn_tail_ok=False)


def raise_bad_line(bad: BadLine) -> None:
    """For strict readers: a damaged line is an input error naming file:line."""
    raise DatasetError(str(bad))


def load_questions(source: DatasetSource, *, limit: int | None = None) -> list[Question]:
    return list(iter_questions(source, limit=limit))


def load_exemplars(source: DatasetSource, n: int) -> list[Question]:
    """The first n questions of the training split beside the dataset ([] when there is none)."""
    if n <= 0 or source.train_path is None:
        return []
    train = DatasetSource(name=source.name, split="train", path=source.train_path)
    return load_questions(train, limit=n)


def parse_record(record: dict[str, Any], *, where: str, prefix: str, index: int) -> Question:
    """Detect the format of one record and normalise it."""
    if "options" not in record and "opa" in record:
        return _medmcqa_raw(record, where, prefix, index)
    if _is_pubmedqa(record):
        return _pubmedqa(record, where, prefix, index)
    return _multiple_choice(record, where, prefix, index)


def _multiple_choice(record: dict[str, Any], where: str, prefix: str, index: int) -> Question:
    """MedQA (4 or 5 options), converted MedMCQA, and any question/options/answer_idx line."""
    question = _text_field(record, "question", where)
    options = _options(record, where)
    letter = _answer_letter(record, options, where)
    return _build(record, prefix, index, question, options, letter, context=_context(record, where))


def _medmcqa_raw(record: dict[str, Any], where: str, prefix: str, index: int) -> Question:
    """MedMCQA as the Hugging Face dataset stores it: opa..opd and `cop`, the 0-based correct option.

    The official release's JSON files count `cop` from 1; `datasets prepare medmcqa`
    converts those, so a raw line here is always the 0-based form.
    """
    question = _text_field(record, "question", where)
    options: dict[str, str] = {}
    for letter, key in zip("ABCD", MEDMCQA_RAW_KEYS, strict=True):
        if key not in record:
            raise DatasetError(f"{where}: MedMCQA line (has 'opa') is missing '{key}'")
        options[letter] = _option_text(record[key], letter, where)
    cop = record.get("cop")
    if isinstance(cop, str) and cop.strip().isdigit():
        cop = int(cop)
    if not isinstance(cop, int) or isinstance(cop, bool) or not 0 <= cop <= 3:
        raise DatasetError(
            f"{where}: MedMCQA 'cop' must be 0-3 (the Hugging Face form), got {cop!r}; "
            "official release files count from 1: convert them with `datasets prepare medmcqa`"
        )
    consumed = {*MEDMCQA_RAW_KEYS, "cop"}
    rest = {k: v for k, v in record.items() if k not in consumed}
    return _build(rest, prefix, index, question, options, "ABCD"[cop], context=None, fmt="medmcqa")


def _is_pubmedqa(record: dict[str, Any]) -> bool:
    options = record.get("options")
    if isinstance(options, dict) and options:
        values = {str(v).strip().lower() for v in options.values()}
        return values == set(PUBMEDQA_OPTIONS.values())
    answer = record.get("answer", record.get("final_decision"))
    return options is None and isinstance(answer, str) and answer.strip().lower() in PUBMEDQA_OPTIONS.values()


def _pubmedqa(record: dict[str, Any], where: str, prefix: str, index: int) -> Question:
    """yes/no/maybe questions about an abstract.

    The context comes from `context` (a string or list of paragraphs); the shared
    MDAgents form has none and puts the abstract before the question, one paragraph per
    line, so there the last line is the question and the lines before it the context.
    """
    text = _text_field(record, "question", where)
    context = _context(record, where)
    if context is None and "\n" in text.strip():
        head, _, tail = text.strip().rpartition("\n")
        if tail.strip() and head.strip():
            context, text = head.strip(), tail.strip()
    options = _options(record, where) if "options" in record else dict(PUBMEDQA_OPTIONS)
    data = dict(record)
    if "answer" not in data and "final_decision" in data:
        data["answer"] = data.pop("final_decision")
    letter = _answer_letter(data, options, where)
    return _build(data, prefix, index, text, options, letter, context=context, fmt="pubmedqa")


def _build(
    record: dict[str, Any],
    prefix: str,
    index: int,
    question: str,
    options: dict[str, str],
    letter: str,
    *,
    context: str | None,
    fmt: str = "multiple-choice",
) -> Question:
    key = record.get("realidx", record.get("id"))
    suffix = str(key).strip() if isinstance(key, str | int) and not isinstance(key, bool) else ""
    meta: dict[str, Any] = {k: v for k, v in record.items() if k not in _CONSUMED}
    if isinstance(record.get("meta"), dict):
        meta.update(record["meta"])
    meta["format"] = fmt
    return Question(
        id=f"{prefix}-{suffix or index}",
        question=question,
        options=options,
        answer_idx=letter,
        answer=options[letter],
        context=context,
        meta=meta,
    )


def _text_field(record: dict[str, Any], name: str, where: str) -> str:
    value = record.get(name)
    if value is None:
        raise DatasetError(f"{where}: missing field '{name}'")
    if not isinstance(value, str) or not value.strip():
        raise DatasetError(f"{where}: field '{name}' must be non-empty text")
    return value.strip()


def _context(record: dict[str, Any], where: str) -> str | None:
    value = record.get("context")
    if value is None:
        return None
    if isinstance(value, list) and all(isinstance(p, str) for p in value):
        value = "\n".join(p.strip() for p in value if p.strip())
    if not isinstance(value, str):
        raise DatasetError(f"{where}: field 'context' must be text or a list of paragraphs")
    return value.strip() or None


def _options(record: dict[str, Any], where: str) -> dict[str, str]:
    """Options as letter -> text, letters upper-case and in alphabetical order.

    A list is lettered A, B, C... in its order.
    """
    raw = record.get("options")
    if raw is None:
        raise DatasetError(f"{where}: missing field 'options'")
    if isinstance(raw, list):
        if len(raw) > 26:
            raise DatasetError(f"{where}: {len(raw)} options is more than the 26 letters")
        raw = {chr(ord("A") + i): text for i, text in enumerate(raw)}
    if not isinstance(raw, dict):
        raise DatasetError(f"{where}: 'options' must map letters to text")
    if not raw:
        raise DatasetError(f"{where}: 'options' is empty")
    options: dict[str, str] = {}
    for key, text in raw.items():
        letter = str(key).strip().upper()
        if len(letter) != 1 or not "A" <= letter <= "Z":
            raise DatasetError(f"{where}: option key {key!r} is not a letter A-Z")
        if letter in options:
            raise DatasetError(f"{where}: option {letter} appears twice")
        options[letter] = _option_text(text, letter, where)
    if len(options) < 2:
        raise DatasetError(f"{where}: a question needs at least 2 options, got {len(options)}")
    return dict(sorted(options.items()))


def _option_text(value: Any, letter: str, where: str) -> str:
    if isinstance(value, int | float) and not isinstance(value, bool):
        value = str(value)
    text = _one_line(value) if isinstance(value, str) else ""
    if not text:
        raise DatasetError(f"{where}: option {letter} is empty")
    return text


_STRAY_QUOTE = re.compile(r'\n\s*"\s*$')


def _one_line(text: str) -> str:
    """An option as the one line prompts show it on: whitespace collapsed, and without the unpaired
    closing quote some public sets carry after a line break (MedQA's `'Propranolol\\n"'`), which would
    split the options line a model reads and leave its answer matching no option."""
    return " ".join(_STRAY_QUOTE.sub("", text).split())


def _answer_letter(record: dict[str, Any], options: dict[str, str], where: str) -> str:
    """The true answer's letter: `answer_idx`, checked against `answer` when both are given.

    Without `answer_idx`, the letter of the one option whose text equals `answer`.
    """
    answer = record.get("answer")
    answer_text = _norm(_one_line(answer)) if isinstance(answer, str) and answer.strip() else None
    raw_letter = record.get("answer_idx")
    if raw_letter is None:
        if answer_text is None:
            raise DatasetError(f"{where}: missing field 'answer_idx' (and no 'answer' text to find it by)")
        matches = [k for k, v in options.items() if _norm(v) == answer_text]
        if len(matches) != 1:
            how = "matches no option" if not matches else f"matches options {', '.join(matches)}"
            raise DatasetError(f"{where}: no 'answer_idx', and answer {answer!r} {how}")
        return matches[0]
    letter = str(raw_letter).strip().upper()
    if letter not in options:
        raise DatasetError(
            f"{where}: answer_idx {raw_letter!r} is not among the options ({', '.join(options)})"
        )
    if answer_text is not None and _norm(options[letter]) != answer_text:
        raise DatasetError(
            f"{where}: answer {answer!r} is not the text of option {letter} ({options[letter]!r})"
        )
    return letter


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


# ---------------------------------------------------------------- option shuffling


def shuffle_options(q: Question, seed: int) -> Question:
    """The question with its option texts in a seeded order; letters stay A, B, C...

    The order depends only on (seed, q.id) -- not on the other questions -- so
    concurrent and resumed runs present each question the same way. The permutation
    is always taken from the dataset order (`meta["original_options"]` when the
    question was shuffled before), so shuffling twice with one seed changes nothing.
    PubMedQA's yes/no/maybe are shuffled by the same rule.
    """
    original = dict(q.meta.get("original_options") or q.options)
    original_letter = str(q.meta.get("original_answer_idx", q.answer_idx))
    letters = list(original)
    texts = list(original.values())
    order = list(range(len(texts)))
    digest = hashlib.sha256(f"{seed}\x00{q.id}".encode()).digest()
    random.Random(int.from_bytes(digest[:8], "big")).shuffle(order)
    options = {letter: texts[i] for letter, i in zip(letters, order, strict=True)}
    new_letter = letters[order.index(letters.index(original_letter))]
    meta = {**q.meta, "original_options": original, "original_answer_idx": original_letter}
    return dataclasses.replace(q, options=options, answer_idx=new_letter, answer=options[new_letter], meta=meta)
