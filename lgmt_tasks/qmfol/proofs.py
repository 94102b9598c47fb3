"""Re-check built QMFOL rows from their columns alone: the issue's quality bars, independent of the builder.

Everything is read back from the row's strings (FOL parsed by `lgmt_tasks.logic.parse`, English read by
`lgmt_tasks.qmfol.english.read`), so a bug in the builder's bookkeeping cannot hide behind the objects it kept:

- the id is the paper's id of the row's parameters, and `premises_fol` is a permutation of rules, distractors and
  facts;
- depth and width measured from `rules_fol` equal the `depth` and `width` columns, and every basic rule is minimal;
- the label is re-proven by Z3 with the distractors, and again without them (the distractor property: the same
  label, and consistent premises, since unsatisfiable premises give `Contradictory`, never a label);
- template English reads back to `premises_fol` and `conclusion_fol` sentence by sentence, with the lexicon rebuilt
  from the row's topic, seed, depth and width, whose mapping list must equal the row's `predicates`;
- over a grid: ids are unique, every requested configuration is present, and every configuration has each requested
  label exactly once (labels balanced).

Identical proof obligations (the four topics of a configuration share their FOL) are proven once; `GridReport`
counts both rows and distinct Z3 obligations.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from lgmt_tasks.logic.parse import parse
from lgmt_tasks.logic.prover import DEFAULT_TIMEOUT_MS, Contradictory, Label, entailment
from lgmt_tasks.qmfol.construction import LABELS, measure, rule_of
from lgmt_tasks.qmfol.english import EnglishError, read, task_lexicon

ProofKey = tuple[tuple[str, ...], str]
"""A proof obligation: the premises (sorted FOL strings) and the conclusion."""


def task_id_of(row: Mapping[str, Any]) -> str:
    """The paper's id of a row's parameters."""
    label = LABELS.index(row["label"])
    return f"{row['topic']}_d{row['depth']}_w{row['width']}_{row['seed']}_{label}_distract{row['distractors']}"


def structural_problems(row: Mapping[str, Any]) -> list[str]:
    """Everything wrong with a row that needs no prover (empty when it passes)."""
    problems: list[str] = []
    where = row.get("id", "?")
    if row["id"] != task_id_of(row):
        problems.append(f"{where}: id differs from {task_id_of(row)}")
    if sorted(row["premises_fol"]) != sorted([*row["rules_fol"], *row["distractors_fol"], *row["facts_fol"]]):
        problems.append(f"{where}: premises_fol is not the rules, distractors and facts")
    if len(row["distractors_fol"]) != row["distractors"]:
        problems.append(f"{where}: {len(row['distractors_fol'])} distractor rules, expected {row['distractors']}")
    if len(row["premises"]) != len(row["premises_fol"]):
        problems.append(f"{where}: {len(row['premises'])} English premises for {len(row['premises_fol'])} formulas")
    try:
        shape = measure(rule_of(parse(text)) for text in row["rules_fol"])
        for distractor in row["distractors_fol"]:
            rule_of(parse(distractor))
    except ValueError as exc:
        return [*problems, f"{where}: {exc}"]
    if (shape.depth, shape.width) != (row["depth"], row["width"]):
        problems.append(
            f"{where}: measured depth {shape.depth}, width {shape.width}; parameters {row['depth']}, {row['width']}"
        )
    if not shape.minimal:
        problems.append(f"{where}: a basic rule is not minimal")
    if row.get("translator", "template") == "template":
        problems += english_problems(row)
    return problems


def english_problems(row: Mapping[str, Any]) -> list[str]:
    """Template English that does not read back to the row's formulas, or a mapping list that is not the lexicon's."""
    where = row.get("id", "?")
    count = 1 + max(int(line.split("(")[0][1:]) for line in row["predicates"] if line.startswith("P"))
    lx = task_lexicon(row["topic"], count, row["seed"], row["depth"], row["width"])
    if lx.mapping() != list(row["predicates"]):
        return [f"{where}: the mapping list is not the lexicon of its topic, seed, depth and width"]
    problems = []
    pairs = [*zip(row["premises"], row["premises_fol"], strict=True), (row["conclusion"], row["conclusion_fol"])]
    for text, fol in pairs:
        try:
            if read(text, lx) != parse(fol):
                problems.append(f"{where}: {text!r} does not read back to {fol}")
        except EnglishError as exc:
            problems.append(f"{where}: {exc}")
    return problems


def proof_keys(row: Mapping[str, Any]) -> tuple[ProofKey, ProofKey]:
    """The row's two obligations: with distractors, and without (rules and facts only)."""
    full = (tuple(sorted(row["premises_fol"])), str(row["conclusion_fol"]))
    basic = (tuple(sorted([*row["rules_fol"], *row["facts_fol"]])), str(row["conclusion_fol"]))
    return full, basic


def prove_key(key: ProofKey, timeout_ms: int = DEFAULT_TIMEOUT_MS) -> str:
    """Prove one obligation from its strings: `True`, `False`, `Unknown`, `contradictory` or `undecided: …`."""
    premises, conclusion = key
    result = entailment([parse(p) for p in premises], parse(conclusion), timeout_ms=timeout_ms)
    if isinstance(result, Label):
        return result.value
    if isinstance(result, Contradictory):
        return "contradictory"
    return f"undecided: {result.reason}"


@dataclass
class GridReport:
    """What `verify_rows` checked and found.

    Attributes:
        rows: Rows checked.
        proofs: Distinct Z3 obligations proven (each row has two: with and without distractors).
        problems: One line per failed check (empty when everything passed).
        labels: Rows per label.
        constructions: Rows per construction.
        seconds: Wall-clock time of the check.
    """

    rows: int = 0
    proofs: int = 0
    problems: list[str] = field(default_factory=list)
    labels: dict[str, int] = field(default_factory=dict)
    constructions: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        """Whether every check passed."""
        return not self.problems


def verify_rows(
    rows: Iterable[Mapping[str, Any]], workers: int = 1, timeout_ms: int = DEFAULT_TIMEOUT_MS
) -> GridReport:
    """Check rows (structure, English, and both proofs of every row).

    Args:
        rows: Dataset rows.
        workers: Processes for the proofs.
        timeout_ms: Z3 limit per check.

    Returns:
        The report.
    """
    import time

    start = time.perf_counter()
    rows = [dict(r) for r in rows]
    report = GridReport(rows=len(rows))
    for row in rows:
        report.problems += structural_problems(row)
    keys = sorted({key for row in rows for key in proof_keys(row)})
    report.proofs = len(keys)
    if workers > 1:
        import multiprocessing
        from functools import partial

        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            outcomes = dict(
                zip(keys, pool.map(partial(prove_key, timeout_ms=timeout_ms), keys, chunksize=8), strict=True)
            )
    else:
        outcomes = {key: prove_key(key, timeout_ms) for key in keys}
    for row in rows:
        full, basic = proof_keys(row)
        if outcomes[basic] != row["label"]:
            report.problems.append(f"{row['id']}: the basic task proves {outcomes[basic]}, not {row['label']}")
        if outcomes[full] != row["label"]:
            report.problems.append(f"{row['id']}: with distractors it proves {outcomes[full]}, not {row['label']}")
    report.labels = dict(sorted(Counter(r["label"] for r in rows).items()))
    report.constructions = dict(sorted(Counter(r["construction"] for r in rows).items()))
    report.seconds = round(time.perf_counter() - start, 2)
    return report


def grid_problems(
    rows: Sequence[Mapping[str, Any]],
    depths: Sequence[int],
    widths: Sequence[int],
    distractors: Sequence[int],
    labels: Sequence[str],
    topics: Sequence[str],
    seeds: Sequence[int],
) -> list[str]:
    """Completeness, uniqueness and label balance of a grid's rows."""
    problems: list[str] = []
    ids = [r["id"] for r in rows]
    repeated = sorted(i for i, n in Counter(ids).items() if n > 1)
    if repeated:
        problems.append(f"repeated ids: {repeated[:5]}")
    expected = {
        f"{t}_d{d}_w{w}_{s}_{LABELS.index(lab)}_distract{n}"
        for t, d, w, s, lab, n in itertools.product(topics, depths, widths, seeds, labels, distractors)
    }
    missing = sorted(expected - set(ids))
    if missing:
        problems.append(f"{len(missing)} tasks of the grid are missing, e.g. {missing[:3]}")
    extra = sorted(set(ids) - expected)
    if extra:
        problems.append(f"{len(extra)} rows are not in the grid, e.g. {extra[:3]}")
    per_config = Counter((r["topic"], r["depth"], r["width"], r["seed"], r["distractors"]) for r in rows)
    unbalanced = [c for c, n in per_config.items() if n != len(labels)]
    if unbalanced:
        problems.append(f"{len(unbalanced)} configurations do not have each label once, e.g. {unbalanced[:3]}")
    return problems
