"""The English side of DivLogicEval: a sentence pool, connective templates, and the realiser (§2.1, Appendix C).

Each variable of an instance is instantiated with a distinct natural sentence, a negated variable with the
sentence's negation, and each formula with a connective template picked at random from a deliberately diverse and
often counter-intuitive set ("the fact that A is a sufficient condition for the fact that B", "B unless not A", "if
not B, then neither A nor C"). Since the sentences are unrelated to each other, commonsense cannot stand in for
logic: that is the point of the benchmark.

Data files (package data, `lgmt_tasks/divlogiceval/data/`):

- `sentences.jsonl`: our pool of simple sentences over many topics, one JSON object a line with `sentence`,
  `negation` (written by hand, natural: "does not play", "did not win", "is not", and a few lexical negations),
  `topic`, and `proper_start` when the sentence starts with a name (its first letter stays upper case inside a
  longer sentence). The paper drew its sentences from SNLI and MNLI, which we cannot ship or download.
- `templates.json`: the templates of the three formula shapes. Each carries `reads_as`, what it literally says in
  our notation over its slot letters; the tests prove each equivalent to the form it renders, so a template cannot
  silently say something else.

A user's own pool (`load_pool`) is a text file (one sentence a line, optionally `sentence<TAB>negation`), a JSONL
file, or a column of a Hugging Face dataset (a local folder or a Hub id). Sentences without a negation are negated by
rule (Appendix C negates with a POS tagger, which we do not ship): "not" after the first auxiliary or modal verb
(`is`, `was`, `can`, `will`, ...), and otherwise "it is not the case that ...", which is always correct.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from lgmt_tasks.logic.syntax import And, Atom, Formula, Implies, Not, Or

DATA_PACKAGE = "lgmt_tasks.divlogiceval"
DATA_DIR = "data"

BUILTIN_POOL = "builtin"
"""The name of our own sentence pool (the `pool` column of rows built with it)."""

MIN_WORDS, MAX_WORDS = 3, 30
"""Length limits for sentences of a user's pool (longer ones are rarely 'simple sentences')."""

# Words that start a sentence but are not names: lower-cased when the sentence becomes a clause.
_COMMON_STARTS = frozenset(
    "a an the some two three four five six several many most all every each one no few this that these those "
    "his her my our their its your it there here we they he she i'm someone somebody everyone people children "
    "nobody".split()
)
_AUXILIARIES = frozenset("is are was were am can could will would shall should may might must".split())
_NEGATED = re.compile(r"\b(?:not|never|no longer)\b|n't\b", re.IGNORECASE)


# --------------------------------------------------------------------------------------------------------- pool


@dataclass(frozen=True)
class PoolSentence:
    """One sentence of a pool and its negation.

    Attributes:
        sentence: A simple declarative sentence, with final punctuation.
        negation: Its negation (a sentence that is true exactly when `sentence` is false).
        proper_start: The first word is a name and keeps its capital inside a longer sentence.
    """

    sentence: str
    negation: str
    proper_start: bool = False


@dataclass
class PoolReport:
    """What loading a pool kept and skipped, and why; `skipped_ids` names each skipped row (`file#index`)."""

    kept: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    skipped_ids: dict[str, list[str]] = field(default_factory=dict)

    def skip(self, reason: str, ref: str) -> None:
        """Count one skipped row under `reason` and name it."""
        self.skipped[reason] += 1
        self.skipped_ids.setdefault(reason, []).append(ref)


@cache
def builtin_pool() -> tuple[PoolSentence, ...]:
    """Our sentence pool (`sentences.jsonl`)."""
    text = resources.files(DATA_PACKAGE).joinpath(f"{DATA_DIR}/sentences.jsonl").read_text(encoding="utf-8")
    rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    return tuple(PoolSentence(row["sentence"], row["negation"], bool(row.get("proper_start", False))) for row in rows)


def negate(sentence: str) -> str:
    """Negate a simple sentence by rule (for user pools without negations).

    "not" goes after the first auxiliary or modal verb (`The dog is asleep.` → `The dog is not asleep.`); any
    other sentence, and any sentence that already contains a negation, becomes "It is not the case that ...".

    Args:
        sentence: A simple declarative sentence.

    Returns:
        Its negation, with the sentence's final punctuation (a full stop if it had none).
    """
    body = sentence.strip().rstrip(".!")
    words = body.split()
    if not _NEGATED.search(body):
        for i, word in enumerate(words[1:], start=1):
            if word.lower() in _AUXILIARIES:
                return " ".join([*words[: i + 1], "not", *words[i + 1 :]]) + "."
    return f"It is not the case that {clause(body, proper_start=not _first_word_is_common(body))}."


def _first_word_is_common(sentence: str) -> bool:
    first = sentence.split(maxsplit=1)[0] if sentence.strip() else ""
    return first.lower().strip(",;:") in _COMMON_STARTS


def _check_user_sentence(sentence: str) -> str | None:
    """Why a user's sentence is not used (None if it is)."""
    if not sentence:
        return "empty"
    if "\n" in sentence or "\t" in sentence:
        return "contains a line break or tab"
    if sentence.endswith("?"):
        return "a question"
    words = len(sentence.split())
    if words < MIN_WORDS:
        return f"fewer than {MIN_WORDS} words"
    if words > MAX_WORDS:
        return f"more than {MAX_WORDS} words"
    return None


def pool_from_pairs(
    pairs: Iterable[tuple[object, object]], refs: Sequence[str] | None = None, report: PoolReport | None = None
) -> tuple[list[PoolSentence], PoolReport]:
    """Make a pool from user sentences (negations optional), skipping unusable and duplicate sentences.

    Args:
        pairs: `(sentence, negation or None)`; a value that is not a string is skipped as `wrong type` (a list
            or a number must not become a sentence by `str()`).
        refs: How each pair is named in the report (default `sentence <i>`).
        report: A report to add to (rows already skipped while reading a file).

    Returns:
        The pool and a report of what was skipped and why.
    """
    report = report if report is not None else PoolReport()
    seen: set[str] = set()
    pool: list[PoolSentence] = []
    for i, (raw, raw_negation) in enumerate(pairs):
        ref = refs[i] if refs is not None else f"sentence {i}"
        if not isinstance(raw, (str, type(None))) or not isinstance(raw_negation, (str, type(None))):
            report.skip("wrong type", ref)
            continue
        sentence = " ".join((raw or "").split())
        why = _check_user_sentence(sentence)
        key = sentence.rstrip(".!").casefold()
        if why is None and key in seen:
            why = "duplicate"
        if why is not None:
            report.skip(why, ref)
            continue
        seen.add(key)
        if sentence[-1] not in ".!":
            sentence += "."
        negation = " ".join(raw_negation.split()) if raw_negation and raw_negation.strip() else negate(sentence)
        if negation[-1] not in ".!":
            negation += "."
        first = sentence.split()[0]
        proper = first[:1].isupper() and not _first_word_is_common(sentence)
        pool.append(PoolSentence(sentence[0].upper() + sentence[1:], negation[0].upper() + negation[1:], proper))
        report.kept += 1
    return pool, report


def load_pool(
    source: str | None,
    column: str = "sentence",
    negation_column: str | None = "negation",
    split: str = "train",
) -> tuple[list[PoolSentence], PoolReport]:
    """Load a sentence pool: ours, a text or JSONL file, or a column of a Hugging Face dataset.

    Args:
        source: None or `builtin` for ours; a `.txt` file (one sentence a line, optionally `sentence<TAB>negation`);
            a `.jsonl` file (objects with `column` and optionally `negation_column`); anything else is passed to
            `datasets.load_dataset` (a local dataset folder or a Hub id).
        column: The sentence field or column (JSONL and datasets).
        negation_column: The negation field or column, used when present (negations are made by rule otherwise).
        split: The dataset split (datasets only).

    Returns:
        The pool and a report of what was skipped.

    Raises:
        ValueError: If a dataset or JSONL file has no `column`.
    """
    if source in (None, BUILTIN_POOL):
        pool = list(builtin_pool())
        return pool, PoolReport(kept=len(pool))
    path = Path(str(source))
    if path.suffix == ".txt" and path.is_file():
        pairs: list[tuple[object, object]] = []
        for line in path.read_text(encoding="utf-8").splitlines():
            sentence, _, negation = line.partition("\t")
            pairs.append((sentence, negation or None))
        return pool_from_pairs(pairs, [f"{path.name}#{i}" for i in range(len(pairs))])
    if path.suffix == ".jsonl" and path.is_file():
        # A line that is not a JSON object is skipped and named (`file#index`), never a crash half-way.
        report = PoolReport()
        records: list[Mapping[str, Any]] = []
        refs: list[str] = []
        lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        for i, line in enumerate(lines):
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                report.skip("invalid JSON", f"{path.name}#{i}")
                continue
            if not isinstance(record, Mapping):
                report.skip("not a JSON object", f"{path.name}#{i}")
                continue
            records.append(record)
            refs.append(f"{path.name}#{i}")
        return pool_from_pairs(_column_pairs(records, column, negation_column, str(path)), refs, report)
    import datasets

    dataset = datasets.load_dataset(str(source), split=split)
    assert isinstance(dataset, datasets.Dataset)
    return pool_from_pairs(_column_pairs(list(dataset), column, negation_column, str(source)))


def _column_pairs(
    records: Sequence[Mapping[str, Any]], column: str, negation_column: str | None, origin: str
) -> list[tuple[object, object]]:
    if records and column not in records[0]:
        raise ValueError(f"pool {origin}: no column {column!r}; columns: {sorted(records[0])}")
    return [(r.get(column), r.get(negation_column) if negation_column else None) for r in records]


# ---------------------------------------------------------------------------------------------------- templates


@dataclass(frozen=True)
class Template:
    """A connective template.

    Attributes:
        id: Stable name (recorded per proposition in the dataset).
        text: The template, starting in lower case, with slots `{p}`, `{q}` (implications) or `{a}`, `{b}`, `{c}`
            (rule premises), and `{not_x}` for the negation of slot x.
        reads_as: What the template literally says, in our notation over the upper-case slot letters.
    """

    id: str
    text: str
    reads_as: str


SHAPE_GROUPS: dict[str, str] = {"implication": "implication", "1b": "not_both", "1c": "either"}
"""The template group of each formula shape (`divlogiceval_logic.shape`)."""

GROUP_FORMS: dict[str, str] = {"implication": "P → Q", "not_both": "¬(A ∧ B) → C", "either": "(A ∨ B) → C"}
"""The form each template group renders, over its slot letters."""

_SLOT = re.compile(r"\{(not_)?([a-z])\}")


@cache
def templates() -> dict[str, tuple[Template, ...]]:
    """The connective templates by group (`implication`, `not_both`, `either`), from `templates.json`."""
    text = resources.files(DATA_PACKAGE).joinpath(f"{DATA_DIR}/templates.json").read_text(encoding="utf-8")
    data = json.loads(text)
    return {group: tuple(Template(t["id"], t["text"], t["reads_as"]) for t in data[group]) for group in GROUP_FORMS}


# ----------------------------------------------------------------------------------------------------- realiser


def clause(sentence: str, proper_start: bool = False) -> str:
    """A sentence as a clause to embed: no final punctuation, first letter lower-cased unless it starts a name."""
    body = sentence.strip().rstrip(".!")
    if not body or proper_start:
        return body
    return body[0].lower() + body[1:]


def sentence_case(text: str) -> str:
    """Capitalise the first letter and end with a full stop."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


@dataclass
class Realiser:
    """Puts one instance's formulas into English, with its variable → sentence assignment.

    Templates are drawn at random within a group, without repetition inside the instance until the group is used
    up, so that one instance shows as many different connectives as possible.

    Attributes:
        sentences: The sentence of each variable.
        rng: The instance's random generator.
        used: Template ids used so far in this instance.
    """

    sentences: Mapping[str, PoolSentence]
    rng: random.Random
    used: list[str] = field(default_factory=list)

    def literal(self, formula: Formula) -> str:
        """A literal (``X`` or ``¬X``) as a clause: the sentence of X, or its negation."""
        if isinstance(formula, Atom):
            entry = self.sentences[formula.pred]
            return clause(entry.sentence, entry.proper_start)
        if isinstance(formula, Not) and isinstance(formula.body, Atom):
            entry = self.sentences[formula.body.pred]
            return clause(entry.negation, entry.proper_start)
        raise ValueError(f"not a literal: {formula!r}")

    def negated_literal(self, formula: Formula) -> str:
        """The negation of a literal as a clause (¬¬X is rendered as X)."""
        return self.literal(formula.body if isinstance(formula, Not) else Not(formula))

    def _pick(self, group: str) -> Template:
        options = templates()[group]
        fresh = [t for t in options if t.id not in self.used]
        template = self.rng.choice(fresh or list(options))
        self.used.append(template.id)
        return template

    def render(self, formula: Formula) -> tuple[str, str]:
        """Put a formula into English, as a clause (no capital, no full stop).

        Args:
            formula: A literal, an implication between literals, or a rule premise ``¬(A ∧ B) → C`` /
                ``(A ∨ B) → C`` over literals.

        Returns:
            The clause and the id of the template used (`literal` for a literal).

        Raises:
            ValueError: On any other formula.
        """
        if isinstance(formula, Atom) or (isinstance(formula, Not) and isinstance(formula.body, Atom)):
            return self.literal(formula), "literal"
        if not isinstance(formula, Implies):
            raise ValueError(f"no template renders {formula!r}")
        left, right = formula.left, formula.right
        if isinstance(left, Not) and isinstance(left.body, And) and len(left.body.args) == 2:
            group, slots = "not_both", {"a": left.body.args[0], "b": left.body.args[1], "c": right}
        elif isinstance(left, Or) and len(left.args) == 2:
            group, slots = "either", {"a": left.args[0], "b": left.args[1], "c": right}
        else:
            group, slots = "implication", {"p": left, "q": right}
        template = self._pick(group)

        def fill(match: re.Match[str]) -> str:
            negated, slot = match.group(1), match.group(2)
            return self.negated_literal(slots[slot]) if negated else self.literal(slots[slot])

        return _SLOT.sub(fill, template.text), template.id

    def sentence(self, formula: Formula) -> tuple[str, str]:
        """Put a formula into English as a sentence (capitalised, with a full stop), and name the template."""
        text, template = self.render(formula)
        return sentence_case(text), template
