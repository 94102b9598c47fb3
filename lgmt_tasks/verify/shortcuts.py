"""The shortcut battery: form-only heuristics, each scored against a built dataset's answer key.

A benchmark item must not be answerable by its form alone (which option is longest, which mentions a variable the
content does not, which answer is most common). Each multiple-choice or yes/no suite ships a `Battery` in
`lgmt_tasks/<suite>/shortcuts.py` (`BATTERY`): the answers a row allows, its gold answer, and heuristics that look
only at the row's surface (its text or formulas, never a prover). `run_battery` scores every heuristic on every row;
the suite's tests assert, on the committed default build, that each stays within `margin` of chance, and
`lgmt verify` prints the same table.

Scoring. A heuristic returns the answers it picks for a row; ties are kept, and an empty pick means "no preference".
Its credit on the row is the expected accuracy of breaking the tie uniformly at random: 1/|picks| when the gold
answer is among the picks, else 0 (an empty pick counts as picking every allowed answer). So a heuristic that never
prefers anything scores exactly chance, and the figures are deterministic (no random tie-breaking). Chance is the
mean over rows of 1/|allowed answers|. Besides the suite's own heuristics, the battery always includes one constant
heuristic per answer ("always yes", "always option A"), which catches an unbalanced answer key. A suite may also
declare fitted heuristics (`Fitted`): the majority answer per surface class, learned on the other folds of the rows
(e.g. the other build seeds) and scored on each held-out fold, so that a lean that changes sign from one surface class
to another (which no fixed rule sees) is caught too. For multiple choice it may also declare per-answer fitted
heuristics (`FittedOption`): how often an option with a given surface key is the gold one, learned the same way,
picking the options whose key is gold most often. When `fold` leaves every row in one fold (a single-seed build),
`fold_fallback` (e.g. a hash of the row id) splits them instead.

The allowance. Over all rows a heuristic must stay within `margin` (0.05) of chance, the brief's rule. A group (a
question type, a skill category) holds far fewer rows, where one binomial standard error at chance is itself
0.04-0.06, so a flat 0.05 would flag noise: a group's allowance is `margin` plus two standard errors of a chance
guesser on that many rows, 2·sqrt(chance·(1 − chance)/rows). A real lean of a group still shows; sampling noise does
not.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

Row = Mapping[str, Any]

DEFAULT_MARGIN = 0.05
"""How far above chance a heuristic may score over all rows (the brief: chance + 0.05)."""

ALL = "all"
"""The group name of the scores over every row."""


@dataclass(frozen=True)
class Heuristic:
    """One form-only rule for answering a row.

    Attributes:
        name: A short identifier (`consequent-literal`, `longest-option`).
        description: One sentence saying what it looks at, for the report.
        pick: The answers it picks for a row (ties kept; empty: no preference).
    """

    name: str
    description: str
    pick: Callable[[Row], Collection[Any]]


@dataclass(frozen=True)
class Fitted:
    """A heuristic learned from the answer key: the majority answer per value of a surface `key`, cross-fitted.

    A rule fixed in advance catches a feature that leans one way overall; a lean that differs from one surface
    class to the next (∀ with ∧ → False, ∃ with ∨ → True) needs the table of every class, learned from gold
    answers. So the rows are split into folds (`Battery.fold`, e.g. the build seed); each row is answered with the
    most common gold answer among the *other* folds' rows that share its key (ties kept, an unseen key: no
    preference). This is what a reader who studied the rest of the benchmark's surface could score.

    Attributes:
        name: A short identifier (`shape`).
        description: One sentence saying what the key reads, for the report.
        key: A row's surface class (any hashable value).
    """

    name: str
    description: str
    key: Callable[[Row], Hashable]


@dataclass(frozen=True)
class FittedOption:
    """A heuristic learned from the answer key per *answer*: how often an answer with a given surface key is gold.

    `Fitted` reads one key per row; a multiple-choice row has a surface per option (where the option's variables sit
    in the content's rules, say), and a lean can hide in how often an option of one class is the right one. So on the
    other folds' rows (`Battery.fold`) every allowed answer's `key` is tallied with whether it was the gold answer;
    a held-out row picks the answers whose key has the highest gold rate (ties kept). A key unseen in the other
    folds takes their overall gold rate (no preference for or against it), so a row whose answers all share one key,
    or whose keys are all unseen, gets no preference: chance.

    Attributes:
        name: A short identifier (`roles-by-vector`).
        description: One sentence saying what the key reads, for the report.
        key: An answer's surface class within its row, `key(row, answer)` (any hashable value).
    """

    name: str
    description: str
    key: Callable[[Row, Any], Hashable]


@dataclass(frozen=True)
class Battery:
    """A suite's shortcut battery.

    Attributes:
        answers: The answers a row allows (option indices, `yes`/`no`, the three labels).
        gold: A row's gold answer (one of `answers(row)`).
        heuristics: The suite's own heuristics (constant answers are added by `run_battery`).
        margin: How far above chance a heuristic may score.
        group: A row's group (e.g. its question type), when each group must stay near chance on its own too; the
            battery is then scored on all rows and on each group's rows.
        fitted: Heuristics learned from the other folds' answer key (`Fitted`), scored beside `heuristics`.
        fold: A row's fold for `fitted` (rows of one fold are fitted on the others together); required with
            `fitted`, and it should keep rows that share a logical item (topics, distractor counts) in one fold.
        fitted_options: Heuristics learned per answer from the other folds (`FittedOption`); they need `fold` too.
        fold_fallback: The fold to use instead when `fold` puts every scored row in one fold (a single-seed build,
            where nothing would be left to fit on), e.g. a stable hash of the row id into three folds.
    """

    answers: Callable[[Row], Sequence[Any]]
    gold: Callable[[Row], Any]
    heuristics: tuple[Heuristic, ...]
    margin: float = DEFAULT_MARGIN
    group: Callable[[Row], str] | None = None
    fitted: tuple[Fitted, ...] = ()
    fold: Callable[[Row], Hashable] | None = None
    fitted_options: tuple[FittedOption, ...] = ()
    fold_fallback: Callable[[Row], Hashable] | None = None


@dataclass(frozen=True)
class HeuristicScore:
    """One heuristic's expected accuracy on a set of rows (`group`: `all`, or one group's rows), beside chance."""

    group: str
    name: str
    description: str
    accuracy: float
    chance: float
    rows: int
    margin: float

    @property
    def allowance(self) -> float:
        """How far above chance it may score: `margin` over all rows, plus two standard errors within a group."""
        if self.group == ALL or not self.rows or math.isnan(self.chance):
            return self.margin
        return self.margin + 2 * math.sqrt(self.chance * (1 - self.chance) / self.rows)

    @property
    def within(self) -> bool:
        """Whether the heuristic stays within its allowance above chance (NaN accuracy, no rows, count as within)."""
        return math.isnan(self.accuracy) or self.accuracy <= self.chance + self.allowance

    def as_dict(self) -> dict[str, Any]:
        """JSON-serialisable (for `lgmt verify --json`)."""
        return {
            "group": self.group,
            "name": self.name,
            "description": self.description,
            "accuracy": round(self.accuracy, 4),
            "chance": round(self.chance, 4),
            "allowance": round(self.allowance, 4),
            "rows": self.rows,
            "within": self.within,
        }


def _constant(answer: Any) -> Heuristic:
    def pick(row: Row) -> tuple[Any, ...]:
        return (answer,)

    return Heuristic(f"always-{answer}", f"always answer {answer}", pick)


def credit(picks: Collection[Any], allowed: Sequence[Any], gold: Any) -> float:
    """The expected accuracy of one row's picks under a uniform tie-break (see the module docstring).

    Raises:
        ValueError: If a pick is not an allowed answer.
    """
    chosen = set(picks) or set(allowed)
    stray = chosen - set(allowed)
    if stray:
        raise ValueError(f"picked {sorted(map(str, stray))}, not among the allowed answers {list(allowed)}")
    return 1.0 / len(chosen) if gold in chosen else 0.0


def _fold_of(battery: Battery, name: str, rows: Sequence[Row]) -> Callable[[Row], Hashable]:
    """The battery's fold function for `rows`: `fold`, or `fold_fallback` when `fold` leaves a single fold."""
    if battery.fold is None:
        raise ValueError(f"fitted heuristic {name}: the battery needs a fold to fit on other rows")
    fold_of = battery.fold
    if battery.fold_fallback is not None and len({fold_of(row) for row in rows}) < 2:
        return battery.fold_fallback
    return fold_of


def cross_fit(battery: Battery, fitted: Fitted, rows: Sequence[Row]) -> Heuristic:
    """`fitted` as a plain heuristic on `rows`: a row picks its key's majority gold answer in the other folds.

    Raises:
        ValueError: If the battery has fitted heuristics but no `fold`.
    """
    fold_of = _fold_of(battery, fitted.name, rows)
    tables: dict[Hashable, dict[Hashable, Counter[Any]]] = {}
    for row in rows:
        tables.setdefault(fold_of(row), {}).setdefault(fitted.key(row), Counter())[battery.gold(row)] += 1
    picks: dict[tuple[Hashable, Hashable], tuple[Any, ...]] = {}
    for fold in tables:
        keys = {k for other, table in tables.items() if other != fold for k in table}
        for key in keys:
            seen: Counter[Any] = Counter()
            for other, table in tables.items():
                if other != fold:
                    seen.update(table.get(key, Counter()))
            top = max(seen.values())
            picks[(fold, key)] = tuple(sorted((a for a, n in seen.items() if n == top), key=str))

    def pick(row: Row) -> tuple[Any, ...]:
        return picks.get((fold_of(row), fitted.key(row)), ())

    return Heuristic(fitted.name, fitted.description, pick)


def cross_fit_options(battery: Battery, fitted: FittedOption, rows: Sequence[Row]) -> Heuristic:
    """`fitted` as a plain heuristic on `rows`: a row picks the answers whose key is gold most often in the other folds.

    Raises:
        ValueError: If the battery has no `fold`.
    """
    fold_of = _fold_of(battery, fitted.name, rows)
    # Per fold: key -> [answers with that key, of which gold].
    tables: dict[Hashable, dict[Hashable, list[int]]] = {}
    for row in rows:
        table = tables.setdefault(fold_of(row), {})
        gold = battery.gold(row)
        for answer in battery.answers(row):
            tally = table.setdefault(fitted.key(row, answer), [0, 0])
            tally[0] += 1
            tally[1] += answer == gold
    rates: dict[Hashable, tuple[dict[Hashable, float], float]] = {}
    for fold in tables:
        seen: dict[Hashable, list[int]] = {}
        for other, table in tables.items():
            if other != fold:
                for key, (total, golds) in table.items():
                    tally = seen.setdefault(key, [0, 0])
                    tally[0] += total
                    tally[1] += golds
        options = sum(total for total, _ in seen.values())
        base = sum(golds for _, golds in seen.values()) / options if options else 0.0
        rates[fold] = ({key: golds / total for key, (total, golds) in seen.items()}, base)

    def pick(row: Row) -> tuple[Any, ...]:
        rate, base = rates.get(fold_of(row), ({}, 0.0))
        answers = list(battery.answers(row))
        values = [rate.get(fitted.key(row, answer), base) for answer in answers]
        top = max(values, default=base)
        chosen = tuple(a for a, v in zip(answers, values, strict=True) if v == top)
        return () if len(chosen) == len(answers) else chosen

    return Heuristic(fitted.name, fitted.description, pick)


def all_heuristics(battery: Battery, rows: Sequence[Row]) -> tuple[Heuristic, ...]:
    """The suite's heuristics, its fitted ones (fitted on `rows`), then one constant per allowed answer (first seen)."""
    answers = list(dict.fromkeys(a for row in rows for a in battery.answers(row)))
    fitted = (cross_fit(battery, f, rows) for f in battery.fitted)
    per_answer = (cross_fit_options(battery, f, rows) for f in battery.fitted_options)
    return (*battery.heuristics, *fitted, *per_answer, *(_constant(a) for a in answers))


def run_battery(battery: Battery, rows: Iterable[Row]) -> list[HeuristicScore]:
    """Score every heuristic of `battery` (and the constant ones) on all `rows`, then on each group's rows.

    Raises:
        ValueError: Naming the heuristic and row position, if a heuristic picks an answer the row does not allow
            or a row's gold answer is not among its allowed answers.
    """
    rows = list(rows)
    scores = _score(battery, rows, ALL)
    if battery.group is not None:
        groups: dict[str, list[Row]] = {}
        for row in rows:
            groups.setdefault(battery.group(row), []).append(row)
        for name in sorted(groups):
            scores += _score(battery, groups[name], name)
    return scores


def _score(battery: Battery, rows: Sequence[Row], group: str) -> list[HeuristicScore]:
    allowed = [list(battery.answers(row)) for row in rows]
    golds = [battery.gold(row) for row in rows]
    for i, (gold, options) in enumerate(zip(golds, allowed, strict=True)):
        if gold not in options:
            raise ValueError(f"row {i}: gold answer {gold!r} is not among its allowed answers {options}")
    chance = math.fsum(1.0 / len(a) for a in allowed) / len(rows) if rows else math.nan
    scores = []
    for heuristic in all_heuristics(battery, rows):
        total = 0.0
        for i, row in enumerate(rows):
            try:
                total += credit(heuristic.pick(row), allowed[i], golds[i])
            except ValueError as exc:
                raise ValueError(f"heuristic {heuristic.name}, row {i}: {exc}") from exc
        accuracy = total / len(rows) if rows else math.nan
        scores.append(
            HeuristicScore(group, heuristic.name, heuristic.description, accuracy, chance, len(rows), battery.margin)
        )
    return scores


def battery_table(scores: Sequence[HeuristicScore | Mapping[str, Any]]) -> str:
    """Battery scores (`HeuristicScore`s, or their `as_dict`) as a plain-text table (what `lgmt verify` prints)."""
    rows = [s.as_dict() if isinstance(s, HeuristicScore) else s for s in scores]
    group_width = max([len("group"), *(len(str(s["group"])) for s in rows)])
    width = max([len("heuristic"), *(len(str(s["name"])) for s in rows)])
    lines = [f"{'group':<{group_width}}  {'heuristic':<{width}}  {'rows':>5}  accuracy  chance  allowed  within"]
    lines += [
        f"{s['group']:<{group_width}}  {s['name']:<{width}}  {s['rows']:>5}  {s['accuracy']:8.3f}  "
        f"{s['chance']:6.3f}  {s['chance'] + s['allowance']:7.3f}  {'yes' if s['within'] else 'NO'}"
        for s in rows
    ]
    return "\n".join(lines)
