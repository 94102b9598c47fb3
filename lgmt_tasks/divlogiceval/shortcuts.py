"""DivLogicEval's shortcut battery: whether an option can be picked from its form alone.

Every heuristic reads only a row's surface: the option texts and their formula strings (`options_logic`), the
content's formula strings (`content_logic`), the conclusion, and the recorded template ids. None consults a prover.
A heuristic that scores well above chance (0.25) would mean the builder lets the answer stand out by its form; the
builder's answer to that is to draw every distractor with the answer's surface signature
(`divlogiceval_logic.surface_signature`). Rows are grouped by question type, so each type is scored on its own too.

Most heuristics come in pairs over one option feature (pick the options with the largest value, or the smallest),
plus an "odd one out" reading (pick the single option whose value differs from the three others, which all agree),
the pattern that exposed the old 3e1c and 3c1e builds.

Roles. A reader who never chains anything can still look at WHERE an option's variables sit in the content's rules:
an entailed literal is usually some rule's consequent, a missing premise usually feeds a rule whose consequent holds
a conclusion variable. `roles` reads, per literal of an option (parsed from `options_logic` with the project's
parser), how its variable figures in the shown rules and facts (`ROLE_FEATURES`); the role family (`ROLE_KEYS`) is a
set of option-level fitted heuristics (`verify.shortcuts.FittedOption`), one per single role feature, a few pairs and
the whole role vector, each learning from the other folds (build seeds, or a hash of the row id for a single-seed
build) how often an option with that key is the answer; beside them the reviewer's three direct rules are fixed
heuristics (`role-consequent-literal`, `role-antecedent-to-consequent`, `role-feeds-conclusion`, largest and smallest).
Against the surface signature alone the family found the answer well above chance; the builder now matches the whole
role vector per 3c1e item and balances the family's keys over 3e1c and missing builds (`divlogiceval.balance`, which
reads `ROLE_KEYS` and `ROLE_RULES` from here; `benchmarks/results/divlogiceval_role_battery.json`).
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from functools import lru_cache

from lgmt_tasks.divlogiceval.logic import LITERAL_ROLES, RoleReading, RoleTable, role_key
from lgmt_tasks.logic.parse import parse
from lgmt_tasks.logic.syntax import Formula
from lgmt_tasks.verify.shortcuts import Battery, FittedOption, Heuristic, Row

_VARIABLE = re.compile(r"[A-H]")
_LAST_LITERAL = re.compile(r"¬?[A-H]\)?$")
_NEGATION_WORDS = re.compile(r"\b(?:not|no|never|neither|nor)\b|n't\b", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z']+")

Feature = Callable[[Row, int], float]
"""A number computed from option `k` of a row (booleans count as 0/1)."""


def _variables(formula: str) -> set[str]:
    """The variables a formula string mentions."""
    return set(_VARIABLE.findall(formula))


def _content_variables(row: Row) -> set[str]:
    """Every variable the shown content mentions."""
    return {v for formula in row["content_logic"] for v in _variables(formula)}


def _last_literal(formula: str) -> str:
    """The consequent literal of an implication string (the literal itself for a literal), e.g. `¬B`."""
    match = _LAST_LITERAL.search(formula.strip())
    return match.group(0).rstrip(")") if match else ""


def _facts(row: Row) -> set[str]:
    """The variables the content states as literal facts (`A`, `¬A`)."""
    return {f.strip().lstrip("¬") for f in row["content_logic"] if "→" not in f}


def words(row: Row, k: int) -> float:
    """Length of option k in words."""
    return len(str(row["options"][k]).split())


def characters(row: Row, k: int) -> float:
    """Length of option k in characters."""
    return len(str(row["options"][k]))


def formula_negations(row: Row, k: int) -> float:
    """Negation signs in option k's formula."""
    return str(row["options_logic"][k]).count("¬")


def text_negations(row: Row, k: int) -> float:
    """Negation words in option k's text."""
    return len(_NEGATION_WORDS.findall(str(row["options"][k])))


def is_literal(row: Row, k: int) -> float:
    """Whether option k is a literal fact rather than an implication."""
    return float("→" not in str(row["options_logic"][k]))


def new_variables(row: Row, k: int) -> float:
    """Variables of option k that the shown content does not mention."""
    return len(_variables(row["options_logic"][k]) - _content_variables(row))


def shared_variables(row: Row, k: int) -> float:
    """Variables of option k that the shown content mentions."""
    return len(_variables(row["options_logic"][k]) & _content_variables(row))


def co_occurring(row: Row, k: int) -> float:
    """Whether all of option k's variables occur together in one content formula."""
    mentioned = _variables(row["options_logic"][k])
    return float(len(mentioned) > 1 and any(mentioned <= _variables(f) for f in row["content_logic"]))


def fact_variables(row: Row, k: int) -> float:
    """Variables of option k that the content states as literal facts."""
    return len(_variables(row["options_logic"][k]) & _facts(row))


def conclusion_consequent(row: Row, k: int) -> float:
    """Whether option k's consequent literal is the conclusion's (missing-premise rows; 0 elsewhere)."""
    conclusion = str(row.get("conclusion_logic") or "")
    return float(bool(conclusion) and _last_literal(row["options_logic"][k]) == _last_literal(conclusion))


def conclusion_variables(row: Row, k: int) -> float:
    """Variables option k shares with the conclusion (missing-premise rows; 0 elsewhere)."""
    return len(_variables(row["options_logic"][k]) & _variables(str(row.get("conclusion_logic") or "")))


def content_word_overlap(row: Row, k: int) -> float:
    """Distinct words option k's text shares with the content text (lexical overlap)."""
    content = {w.lower() for w in _WORD.findall(str(row["content"]))}
    return len({w.lower() for w in _WORD.findall(str(row["options"][k]))} & content)


def _extreme(feature: Feature, largest: bool) -> Callable[[Row], list[int]]:
    """Pick the options with the largest (or smallest) value of a feature, ties kept."""

    def pick(row: Row) -> list[int]:
        values = [feature(row, k) for k in range(len(row["options"]))]
        best = max(values) if largest else min(values)
        return [k for k, v in enumerate(values) if v == best]

    return pick


def _odd_one_out(value: Callable[[Row, int], object]) -> Callable[[Row], list[int]]:
    """Pick the one option whose value differs from the others when the others all agree (else no preference)."""

    def pick(row: Row) -> list[int]:
        values = [value(row, k) for k in range(len(row["options"]))]
        counts = Counter(values)
        if len(counts) == 2 and sorted(counts.values()) == [1, len(values) - 1]:
            return [k for k, v in enumerate(values) if counts[v] == 1]
        return []

    return pick


def _template(row: Row, k: int) -> object:
    """The connective template of option k."""
    return row["option_templates"][k]


def _shape(row: Row, k: int) -> object:
    """Option k's formula with the variables blanked (its kind and polarity pattern)."""
    return _VARIABLE.sub("X", str(row["options_logic"][k]))


_FEATURES: tuple[tuple[str, Feature], ...] = (
    ("words", words),
    ("characters", characters),
    ("formula-negations", formula_negations),
    ("text-negations", text_negations),
    ("literal", is_literal),
    ("new-variables", new_variables),
    ("shared-variables", shared_variables),
    ("co-occurring", co_occurring),
    ("fact-variables", fact_variables),
    ("conclusion-consequent", conclusion_consequent),
    ("conclusion-variables", conclusion_variables),
    ("content-word-overlap", content_word_overlap),
)


def _described(feature: Callable[..., object], name: str) -> str:
    """A feature's docstring as a clause for a heuristic's description (lower-case start, no full stop)."""
    what = (feature.__doc__ or name).strip().rstrip(".")
    return what[0].lower() + what[1:]


def _heuristics() -> tuple[Heuristic, ...]:
    """Largest, smallest and odd-one-out over every feature, and odd-one-out by template and by shape."""
    out: list[Heuristic] = []
    for name, feature in _FEATURES:
        first = _described(feature, name)
        out += [
            Heuristic(f"most-{name}", f"pick the options with the largest value of: {first}", _extreme(feature, True)),
            Heuristic(
                f"least-{name}", f"pick the options with the smallest value of: {first}", _extreme(feature, False)
            ),
            Heuristic(
                f"odd-{name}", f"pick the single option that differs from the rest in: {first}", _odd_one_out(feature)
            ),
        ]
    out += [
        Heuristic("odd-template", "pick the single option whose connective template differs", _odd_one_out(_template)),
        Heuristic("odd-shape", "pick the single option whose formula shape differs", _odd_one_out(_shape)),
    ]
    return tuple(out)


# ---------------------------------------------------------------------------------------------------------- roles


@lru_cache(maxsize=65536)
def _formula(text: str) -> Formula:
    return parse(text)


@lru_cache(maxsize=8192)
def _read_rules(content: tuple[str, ...], conclusion: str) -> RoleTable:
    """The shown content (and conclusion) read as rules, from their formula strings (cached per passage)."""
    return RoleTable.of([_formula(text) for text in content], _formula(conclusion) if conclusion else None)


def _rules_of(row: Row) -> RoleTable:
    return _read_rules(tuple(row["content_logic"]), str(row.get("conclusion_logic") or ""))


ROLE_FEATURES: tuple[str, ...] = LITERAL_ROLES
"""The role of one literal of an option, each a number (`divlogiceval_logic.RoleTable.literal_roles`, which the
builder's role matching and balance read too, so the two cannot drift apart):

- `antecedent`: how many shown rules have its variable in the antecedent;
- `consequent`: how many shown rules have its variable as the consequent;
- `antecedent-literal`: how many rules fire on this very literal (its polarity matches the antecedent's);
- `consequent-literal`: how many rules conclude this very literal (polarity match with the consequent);
- `fact`: 1 if the content states the literal, −1 its negation, 0 neither;
- `feeds-conclusion`: how many rules have its variable in the antecedent and a conclusion variable as consequent
  (missing-premise rows; 0 elsewhere);
- `in-conclusion`: whether the conclusion mentions its variable.
"""


def reading(row: Row, k: int) -> RoleReading:
    """Option k's role reading, from the row's formula strings alone."""
    return role_key(_formula(str(row["options_logic"][k])), _rules_of(row))


def roles(row: Row, k: int) -> tuple[tuple[int, ...], ...]:
    """Per literal of option k, left to right, its `ROLE_FEATURES` (read from the formula strings alone)."""
    return reading(row, k)[0]


def linked(row: Row, k: int) -> float:
    """Whether a shown rule leads from one of option k's variables (antecedent) to its last one (consequent)."""
    return float(reading(row, k)[1])


def consequent_literal(r: RoleReading) -> float:
    """Whether the option's last literal is some shown rule's consequent literal (a derived-looking literal)."""
    return float(bool(r[0]) and r[0][-1][3] > 0)


def antecedent_to_consequent(r: RoleReading) -> float:
    """Whether the option's first variable is a rule's antecedent and its last a rule's consequent."""
    return float(bool(r[0]) and r[0][0][0] > 0 and r[0][-1][1] > 0)


def feeds_conclusion(r: RoleReading) -> float:
    """Whether one of the option's variables is an antecedent of a rule whose consequent holds a conclusion variable."""
    return float(any(lit[5] > 0 for lit in r[0]))


RoleView = Callable[[RoleReading], Hashable]
"""A part of a role reading (a key of the role family, or a direct rule's value)."""


def _view(*features: str, with_link: bool = False) -> RoleView:
    """A key: the chosen role features of each of an option's literals (and whether a rule links them)."""
    index = [ROLE_FEATURES.index(f) for f in features]

    def key(r: RoleReading) -> Hashable:
        per_literal = tuple(tuple(lit[i] for i in index) for lit in r[0])
        return (per_literal, r[1]) if with_link else per_literal

    return key


def _link(r: RoleReading) -> Hashable:
    return float(r[1])


ROLE_KEYS: tuple[tuple[str, str, RoleView], ...] = (
    *((f"roles-by-{f}", f"per literal: {f}", _view(f)) for f in ROLE_FEATURES),
    ("roles-by-linked", "whether a rule links the option's variables", _link),
    ("roles-by-antecedent+consequent", "per literal: antecedent and consequent", _view("antecedent", "consequent")),
    (
        "roles-by-consequent-literal+fact",
        "per literal: consequent literal and fact",
        _view("consequent-literal", "fact"),
    ),
    (
        "roles-by-antecedent-literal+consequent-literal",
        "per literal: antecedent and consequent literal",
        _view("antecedent-literal", "consequent-literal"),
    ),
    (
        "roles-by-feeds-conclusion+consequent",
        "per literal: feeds the conclusion, and consequent",
        _view("feeds-conclusion", "consequent"),
    ),
    ("roles-by-vector", "per literal: every role feature, and the link", _view(*ROLE_FEATURES, with_link=True)),
)
"""The role family's keys: one per single role feature, the link, a few pairs, and the whole role vector. The
builder balances the very same keys over a build (`divlogiceval.balance`)."""

ROLE_RULES: tuple[tuple[str, Callable[[RoleReading], float]], ...] = (
    ("role-consequent-literal", consequent_literal),
    ("role-antecedent-to-consequent", antecedent_to_consequent),
    ("role-feeds-conclusion", feeds_conclusion),
)
"""The reviewer's three direct role rules, each a number per option (picked largest and smallest)."""


def _on_rows(view: RoleView) -> Callable[[Row, int], Hashable]:
    """A role view read from a row's option k."""
    return lambda row, k: view(reading(row, k))


def _role_heuristics() -> tuple[Heuristic, ...]:
    """The reviewer's three direct role rules, each as largest and smallest."""
    out: list[Heuristic] = []
    for name, rule in ROLE_RULES:
        first = _described(rule, name)
        feature: Feature = _on_rows(rule)  # type: ignore[assignment]
        out += [
            Heuristic(f"most-{name}", f"pick the options for which: {first}", _extreme(feature, True)),
            Heuristic(f"least-{name}", f"pick the options for which not: {first}", _extreme(feature, False)),
        ]
    return tuple(out)


def hash_fold(row: Row) -> int:
    """A stable fold of a row, 0–2, from its id (its formulas when it has none), for a build of one seed."""
    ident = row.get("id") or repr((row["content_logic"], row["options_logic"], row.get("conclusion_logic")))
    return hashlib.sha256(str(ident).encode()).digest()[0] % 3


def _answers(row: Row) -> Sequence[int]:
    return tuple(range(len(row["options"])))


BATTERY = Battery(
    answers=_answers,
    gold=lambda row: row["answer"],
    heuristics=(*_heuristics(), *_role_heuristics()),
    group=lambda row: str(row["question_type"]),
    fitted_options=tuple(
        FittedOption(
            name, f"the options whose key ({what}) is the answer most often in the other folds", _on_rows(view)
        )
        for name, what, view in ROLE_KEYS
    ),
    fold=lambda row: row.get("seed"),
    fold_fallback=hash_fold,
)
"""DivLogicEval's battery: option indices 0–3, gold `answer`, grouped by question type; the role family is fitted
on the other build seeds (on a hash of the row id into three folds when the rows come from one seed)."""
