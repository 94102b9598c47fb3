"""The `qmfol` source: QMFOL problems of controlled reasoning depth and width as LGMT (and lexical) source cases.

Difficulty is an axis of reliability only if the source problems have a known difficulty. QMFOL (Zheng et al.,
2026; `lgmt_tasks/qmfol/`) builds monadic first-order problems whose **depth** (length of the rule chain) and
**width** (number of ∧/∨ connectives in the rules) are set one at a time and measured back from the rules, with a
label proven by Z3. This module reuses that construction unchanged, reached through the suite registry
(`suite("qmfol").module(...)`, ARCHITECTURE.md rule 3), and turns each problem into a `Case`:

- **Which problems.** For every (depth, width) cell of the grid, problem `n` (0 … `per_cell` − 1) is QMFOL's task of
  seed `seed + n // 3` and label `("True", "False", "Unknown")[n % 3]` (labels balanced exactly when `per_cell` is a
  multiple of 3), topic `TOPICS[(seed + n // 3) % 4]`, without distractors (LGMT's MR-P3 adds irrelevant premises
  of its own; distractors would be a third axis) and in QMFOL's **ground form** (facts and conclusion about one named
  object). The ground form, not QMFOL's default quantified one, because it gives LGMT's relations their sites: with
  a constant MR-S1 (constant renaming) applies, and conjunctive ground facts give MR-P5 (premise decomposition)
  something to split; in the quantified form neither has a site (measured in the LGMT README).
- **Proofs.** QMFOL's own checks run first (`build.check_task`: depth and width measured from the rules equal the
  requested ones, every rule is minimal, Z3 proves the label); a problem failing one is dropped and counted under
  bucket `source` with QMFOL's reason. The source stage then proves the label again on the case's FOL
  (`pipeline.prove_sources`), as for every source.
- **English.** QMFOL's template English (`build.template_english`, each sentence read back to its formula) is the
  case's English, sentence for sentence.
- **Symbols.** QMFOL's FOL names its predicates `P0`, `P1`, … and its object `a`. LGMT writes the English of a
  rewritten formula with its template realiser, which speaks a predicate by its name, so the FOL is renamed to
  QMFOL's own phrases in snake case (`P0` → `contains_apples`, read "x contains apples"; `a` → `velmora`, read
  "Velmora"): a realised follow-up sentence then uses the source's own words. A renaming is a bijection on symbols,
  so labels are unchanged (and re-proven anyway).
- **Ids.** `source_id` is `d<depth>-w<width>/<QMFOL task id>`, e.g. `d3-w2/Food_d3_w2_0_1_distract0`: the LGMT
  rows carry the difficulty without a new column (a new column would change the committed datasets' schema).
  `difficulty_of` is the one function that reads it back (the report and the candidate order use it).

Every choice is seeded (QMFOL derives each part of a task from its parameters), so the same grid and seed give the
same cases, byte for byte, whatever the number of processes (one cell is one unit of work).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from lgmt_tasks.builders.stats import BuildStats
from lgmt_tasks.logic.syntax import Formula, rename_constant, rename_predicate
from lgmt_tasks.sources.case import Case
from lgmt_tasks.suites import suite

SOURCE = "qmfol"
"""The source's name (`source_dataset` of its cases; `-T source=qmfol`, `lgmt build lgmt --source qmfol`)."""

DEPTH_RANGE: tuple[int, int] = (1, 20)
"""Allowed depths, inclusive: QMFOL's Algorithm 1 needs one chain rule at least; 20 is the paper's largest depth."""

WIDTH_RANGE: tuple[int, int] = (0, 20)
"""Allowed widths, inclusive: 0 is a bare chain; 20 is the paper's largest width."""

DEFAULT_DEPTHS: tuple[int, ...] = (1, 2, 3)
DEFAULT_WIDTHS: tuple[int, ...] = (1, 2)
"""The default grid, depth 1, 2, 3 × width 1, 2: small problems a small model can read, still with a gradient."""

DEFAULT_PER_CELL = 24
"""Source problems per (depth, width) cell: 8 seeds × 3 labels."""

FORM = "ground"
"""QMFOL's form used here (see the module docstring for why not the quantified one)."""

_ID = re.compile(r"d(\d+)-w(\d+)/")


def cell_id(depth: int, width: int) -> str:
    """The (depth, width) cell's part of a `source_id`: `d3-w2`."""
    return f"d{depth}-w{width}"


def difficulty_of(source_id: str) -> tuple[int, int] | None:
    """The (depth, width) a `qmfol` source id carries (`d3-w2/Food_d3_w2_0_1_distract0` → (3, 2)).

    The one reader of the id format `source_id` writes; None for an id of another source (any id that does not
    start with `d<int>-w<int>/`), so callers can pass every row's id.
    """
    match = _ID.match(source_id)
    return (int(match.group(1)), int(match.group(2))) if match else None


def grid_values(
    name: str, given: Any, default: Sequence[int], bounds: tuple[int, int] | None = None
) -> tuple[int, ...]:
    """A depth or width grid from a task or CLI argument: sorted, without repeats, each value in its range.

    Args:
        name: `depth` or `width` (selects the range and names the argument in errors).
        given: None (the default grid), an int, a string of comma- or space-separated ints (`"1,3"`), or a
            sequence of ints or digit strings (Inspect passes `-T depth=1,3` as `[1, 3]`).
        default: The values when `given` is None.
        bounds: The allowed range, inclusive, when not QMFOL's (another source's grid, e.g. LogicAsker's 1–7).

    Raises:
        ValueError: Naming the argument, the bad value and the allowed range.
    """
    low, high = bounds or {"depth": DEPTH_RANGE, "width": WIDTH_RANGE}[name]
    allowed = f"integers from {low} to {high} (one value or a comma list, e.g. {name}={low},{low + 2})"
    if given is None:
        items: list[Any] = list(default)
    elif isinstance(given, str):
        items = [p for p in re.split(r"[,\s]+", given.strip()) if p]
    elif isinstance(given, (list, tuple)):
        items = list(given)
    else:
        items = [given]
    values: list[int] = []
    for item in items:
        if isinstance(item, bool) or not (
            isinstance(item, int) or (isinstance(item, str) and re.fullmatch(r"[+-]?\d+", item.strip()))
        ):
            raise ValueError(f"{name}={given!r}: expected {allowed}")
        values.append(int(item))
    if not values:
        raise ValueError(f"{name}={given!r}: expected {allowed}")
    outside = sorted({v for v in values if not low <= v <= high})
    if outside:
        raise ValueError(f"{name}={given!r}: {', '.join(map(str, outside))} outside the range; expected {allowed}")
    return tuple(sorted(set(values)))


def check_per_cell(per_cell: int) -> int:
    """Validate the number of problems per cell (at least 1)."""
    if isinstance(per_cell, bool) or not isinstance(per_cell, int) or per_cell < 1:
        raise ValueError(f"per_cell={per_cell!r}: expected an integer of at least 1 (source problems per cell)")
    return per_cell


def symbol_name(phrase: str) -> str:
    """A FOL name for a QMFOL phrase or object name that LGMT's realiser speaks as the same words.

    Lower-case snake case, `^` read as "to the" (`2^3` → `2_to_the_3`), apostrophes dropped, other non-alphanumeric
    characters as word breaks: `has a one in the 2^1 place` → `has_a_one_in_the_2_to_the_1_place`.
    """
    text = phrase.replace("^", " to the ").replace("'", "")
    return "_".join(w.lower() for w in re.split(r"[^A-Za-z0-9]+", text) if w)


def problem(depth: int, width: int, n: int, seed: int) -> tuple[Any, str]:
    """QMFOL's logical task for problem `n` of a cell, and its topic (see the module docstring)."""
    construction = suite("qmfol").module("construction")
    topics = suite("qmfol").module("english").TOPICS
    task_seed = seed + n // 3
    label = construction.LABELS[n % 3]
    task = construction.make_logic_task(depth, width, task_seed, label, 0, FORM)
    return task, topics[task_seed % len(topics)]


def renamed(formulas: Sequence[Formula], predicates: dict[str, str], constants: dict[str, str]) -> list[Formula]:
    """The formulas with QMFOL's symbols renamed (`P0` → phrase name, `a` → object name)."""
    out = []
    for f in formulas:
        for old, new in predicates.items():
            f = rename_predicate(f, old, new)
        for old, new in constants.items():
            f = rename_constant(f, old, new)
        out.append(f)
    return out


def cell_cases(job: tuple[int, int, int, int, int]) -> tuple[list[Case], BuildStats]:
    """The proven cases of one (depth, width) cell (one unit of work of the source stage).

    Args:
        job: `(depth, width, per_cell, seed, timeout_ms)`.

    Returns:
        The cases, in problem order, and the cell's counts under bucket `source` (`records`, `loaded`, and drops by
        QMFOL's reason).
    """
    depth, width, per_cell, seed, timeout_ms = job
    build = suite("qmfol").module("build")
    english = suite("qmfol").module("english")
    stats = BuildStats()
    cases: list[Case] = []
    for n in range(per_cell):
        task, topic = problem(depth, width, n, seed)
        qid = build.task_id(topic, depth, width, task.seed, task.label, 0)
        source_id = f"{cell_id(depth, width)}/{qid}"
        stats.count("source", "records")
        proof = build.check_task(task, timeout_ms)
        if not proof.ok:
            stats.drop("source", f"qmfol: {proof.reason}", ids=[source_id])
            continue
        try:
            text = build.template_english(topic, task)
        except english.EnglishError:
            stats.drop("source", "qmfol: English did not read back", ids=[source_id])
            continue
        lexicon = build.lexicon_of(topic, task)
        predicates = {pred: symbol_name(phrase.phrase) for pred, phrase in lexicon.predicates}
        constants = {const: symbol_name(name) for const, name in lexicon.constants}
        if len(set(predicates.values())) != len(predicates) or len(set(constants.values())) != len(constants):
            stats.drop("source", "qmfol: two phrases give one symbol name", ids=[source_id])
            continue
        *premises, conclusion = renamed((*task.presented, task.conclusion), predicates, constants)
        cases.append(
            Case(
                premises_fol=tuple(premises),
                conclusion_fol=conclusion,
                premises=text.premises,
                conclusion=text.conclusion,
                label=task.label,
                source_dataset=SOURCE,
                source_id=source_id,
            )
        )
        stats.count("source", "loaded")
    return cases, stats


__all__ = [
    "DEFAULT_DEPTHS",
    "DEFAULT_PER_CELL",
    "DEFAULT_WIDTHS",
    "DEPTH_RANGE",
    "SOURCE",
    "WIDTH_RANGE",
    "cell_cases",
    "cell_id",
    "check_per_cell",
    "difficulty_of",
    "grid_values",
    "symbol_name",
]
