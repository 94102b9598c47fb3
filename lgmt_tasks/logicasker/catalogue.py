"""The LogicAsker skill catalogue: one skill per rule, read from `data/rules.json` (the paper's Tables 7-10).

A *skill* is one rule of propositional or predicate logic (an equivalence law, an inference rule or a fallacy) with
the attributes of the paper's rule tree (Figure 1): `logic` (propositional / predicate), `category` (inference /
equivalence / fallacy) and `rule` (its name). The fourth attribute, the *problem type*, belongs to each test: a
non-fallacy rule is tested by `valid` inferences (answer yes) and by the two false kinds of §3.2, `contradiction`
(the negated conclusion) and `unrelated` (a conclusion about a new proposition); a fallacy rule by `fallacy`
inferences (answer no) and, so that its answers can be balanced too, by `valid` instances of the valid form it
imitates (its *counterpart*: modus ponens for affirming the consequent, ...). A (rule, problem type) pair is a
leaf of the rule tree, the unit the paper's weakness search ranks.

The JSON holds the 38 rules of the tables and of the authors' public generator (27 propositional, 11 predicate).
Every propositional rule is also extended to predicate logic (§3.1, Appendix C) as `universal <rule>` (every
premise and the conclusion under ∀x) and `existential <rule>` (one premise under ∃x, the others under ∀x, the
conclusion under ∃x), which gives 92 skills: a superset of the authors' 82 rule names (their 24 propositional and
58 predicate names; we add identity laws, constructive and destructive dilemma and quantifier commutation, each
with its extensions). The extended forms are built at generation time (which premise is existential is drawn per
test), so the catalogue stores the propositional forms and the quantifier.
"""

from __future__ import annotations

import difflib
import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Literal, get_args

from lgmt_tasks.logic.parse import parse
from lgmt_tasks.logic.syntax import Formula

Logic = Literal["propositional", "predicate"]
Category = Literal["inference", "equivalence", "fallacy"]
ProblemType = Literal["valid", "contradiction", "unrelated", "fallacy"]
Quantifier = Literal["universal", "existential"]

LOGICS: tuple[str, ...] = get_args(Logic)
CATEGORIES: tuple[str, ...] = get_args(Category)
PROBLEM_TYPES: tuple[str, ...] = get_args(ProblemType)
QUANTIFIERS: tuple[str, ...] = get_args(Quantifier)

YES_TYPE = "valid"
"""The one problem type whose answer is yes; every other problem type's answer is no."""


def answer_of(problem_type: str) -> str:
    """Return the intended answer of a problem type (`yes` for `valid`, else `no`); the prover has the last word."""
    if problem_type not in PROBLEM_TYPES:
        raise ValueError(f"problem_type={problem_type!r}: expected one of {', '.join(PROBLEM_TYPES)}")
    return "yes" if problem_type == YES_TYPE else "no"


def slug(name: str) -> str:
    """A rule name as an identifier (`De Morgan's laws` → `de_morgans_laws`), used in ids and metric names."""
    return re.sub(r"[^a-z0-9]+", "_", name.lower().replace("'", "").replace("’", "")).strip("_")


@dataclass(frozen=True)
class Form:
    """One form of a rule, `premises ⊢ conclusion`, over schematic symbols.

    Attributes:
        name: The rule this form instantiates (for a counterpart, the valid rule's name).
        premises: Schematic premises (propositions p q r s, predicates P Q R M S, constant a).
        conclusion: Schematic conclusion.
    """

    name: str
    premises: tuple[Formula, ...]
    conclusion: Formula


@dataclass(frozen=True)
class Skill:
    """One rule of the catalogue with its rule-tree attributes.

    Attributes:
        id: `slug(name)`: unique, stable, safe in metric names.
        name: The rule's name as the paper and the authors' code write it (`universal modus ponens`).
        logic: `propositional` or `predicate`.
        category: `inference`, `equivalence` or `fallacy`.
        source: Where the rule comes from (`Table 9`, `Appendix C`, `authors' generator`, ...).
        forms: For a fallacy its fallacious forms, else its valid forms (propositional forms for extended skills).
        counterparts: For a fallacy, the valid forms it imitates; empty otherwise.
        quantifier: `universal` / `existential` for the predicate extension of a propositional rule, else None.
        base: For an extended skill, the id of the propositional rule it extends.
        aliases: Other names of the rule (`hypothetical syllogism`, `Law of quantifier negation`).
    """

    id: str
    name: str
    logic: str
    category: str
    source: str
    forms: tuple[Form, ...]
    counterparts: tuple[Form, ...] = ()
    quantifier: str | None = None
    base: str | None = None
    aliases: tuple[str, ...] = ()

    @property
    def is_fallacy(self) -> bool:
        """Whether the skill's own forms are invalid (category `fallacy`)."""
        return self.category == "fallacy"

    @property
    def no_types(self) -> tuple[str, ...]:
        """The problem types whose answer is no: `fallacy` for fallacies, else `contradiction` and `unrelated`."""
        return ("fallacy",) if self.is_fallacy else ("contradiction", "unrelated")

    @property
    def problem_types(self) -> tuple[str, ...]:
        """Every problem type this skill is tested with (`valid` first)."""
        return (YES_TYPE, *self.no_types)

    def valid_forms(self) -> tuple[Form, ...]:
        """The forms whose instances are valid inferences (answer yes)."""
        return self.counterparts if self.is_fallacy else self.forms

    def explanation(self, problem_type: str, form_name: str | None = None) -> str:
        """One line saying why a test of this skill has its answer, naming the rule (Appendix E).

        Args:
            problem_type: The test's problem type.
            form_name: For a `valid` test of a fallacy skill, the counterpart rule it instantiates.

        Returns:
            e.g. "The conclusion follows by universal modus ponens."
        """
        if problem_type == YES_TYPE:
            if self.is_fallacy:
                rule = form_name or "a valid rule"
                return f"The conclusion follows by {rule}, the valid form that {self.name} imitates."
            return f"The conclusion follows by {self.name}."
        if problem_type == "contradiction":
            return f"By {self.name}, the premises imply the opposite of this conclusion."
        if problem_type == "unrelated":
            return f"The conclusion is not related to the premises; {self.name} does not give it."
        if problem_type == "fallacy":
            return f"This is the logical fallacy of {self.name}."
        raise ValueError(f"problem_type={problem_type!r}: expected one of {', '.join(PROBLEM_TYPES)}")


def _forms(entries: Iterable[dict[str, Any]], name: str) -> tuple[Form, ...]:
    return tuple(
        Form(entry.get("name", name), tuple(parse(p) for p in entry["premises"]), parse(entry["conclusion"]))
        for entry in entries
    )


def _read_rules() -> list[dict[str, Any]]:
    text = resources.files("lgmt_tasks.logicasker").joinpath("data/rules.json").read_text(encoding="utf-8")
    rules: list[dict[str, Any]] = json.loads(text)["rules"]
    return rules


@cache
def catalogue() -> tuple[Skill, ...]:
    """Every skill: the 38 rules of `data/rules.json`, then the ∀ and ∃ extensions of the 27 propositional ones.

    Returns:
        The skills in catalogue order (propositional rules, predicate rules, then the extensions rule by rule).

    Raises:
        ValueError: If the data file is inconsistent (unknown logic or category, duplicate names, a fallacy without
            counterparts).
    """
    skills: list[Skill] = []
    extensions: list[Skill] = []
    for entry in _read_rules():
        name = entry["name"]
        if entry["logic"] not in LOGICS or entry["category"] not in CATEGORIES:
            raise ValueError(f"rules.json: {name!r} has logic={entry['logic']!r}, category={entry['category']!r}")
        counterparts = _forms(entry.get("counterparts", ()), name)
        if (entry["category"] == "fallacy") != bool(counterparts):
            raise ValueError(f"rules.json: {name!r}: fallacies, and only fallacies, need counterparts")
        skill = Skill(
            id=slug(name),
            name=name,
            logic=entry["logic"],
            category=entry["category"],
            source=entry["source"],
            forms=_forms(entry["variants"], name),
            counterparts=counterparts,
            aliases=tuple(entry.get("aliases", ())),
        )
        skills.append(skill)
        if entry.get("extend"):
            if skill.logic != "propositional":
                raise ValueError(f"rules.json: {name!r}: only propositional rules are extended")
            for quantifier in QUANTIFIERS:
                extended = f"{quantifier} {name}"
                extensions.append(
                    Skill(
                        id=slug(extended),
                        name=extended,
                        logic="predicate",
                        category=skill.category,
                        source="Appendix C",
                        forms=tuple(Form(f"{quantifier} {f.name}", f.premises, f.conclusion) for f in skill.forms),
                        counterparts=tuple(
                            Form(f"{quantifier} {f.name}", f.premises, f.conclusion) for f in skill.counterparts
                        ),
                        quantifier=quantifier,
                        base=skill.id,
                        aliases=tuple(f"{quantifier} {alias}" for alias in skill.aliases),
                    )
                )
    every = tuple(skills + extensions)
    duplicates = [i for i, n in Counter(s.id for s in every).items() if n > 1]
    if duplicates:
        raise ValueError(f"rules.json: duplicate rule ids {duplicates}")
    return every


@cache
def _by_name() -> dict[str, Skill]:
    out: dict[str, Skill] = {}
    for skill in catalogue():
        for key in (skill.id, skill.name, *skill.aliases):
            out[key.casefold()] = skill
            out[slug(key)] = skill
    return out


def get_skill(name: str) -> Skill:
    """Look a skill up by name, id or alias, ignoring case: `modus ponens`, `modus_ponens`, `hypothetical syllogism`.

    Raises:
        ValueError: For an unknown name, with the closest names.
    """
    found = _by_name().get(name.casefold()) or _by_name().get(slug(name))
    if found is None:
        close = difflib.get_close_matches(name.casefold(), [s.name.casefold() for s in catalogue()], n=3)
        hint = f" (did you mean {', '.join(close)}?)" if close else ""
        raise ValueError(f"rule={name!r} is not in the LogicAsker catalogue{hint}; see `lgmt build logicasker --list`")
    return found


def as_names(value: str | Sequence[str] | None) -> tuple[str, ...]:
    """A comma-separated string or a sequence of names as a tuple (None: empty, meaning all)."""
    if value is None:
        return ()
    if isinstance(value, str):
        return tuple(v.strip() for v in value.split(",") if v.strip())
    return tuple(value)


def select(
    logic: str | Sequence[str] | None = None,
    category: str | Sequence[str] | None = None,
    rule: str | Sequence[str] | None = None,
) -> tuple[Skill, ...]:
    """The skills matching every given filter, in catalogue order.

    Args:
        logic: `propositional`, `predicate`, or several (a list or a comma-separated string); None for all.
        category: `inference`, `equivalence`, `fallacy`, or several; None for all.
        rule: Rule names, ids or aliases (a list or a comma-separated string); None for all.

    Returns:
        The matching skills (possibly empty when the filters exclude each other).

    Raises:
        ValueError: On an unknown logic, category or rule, listing the valid values.
    """
    logics, categories, rules = as_names(logic), as_names(category), as_names(rule)
    for given, valid, what in ((logics, LOGICS, "logic"), (categories, CATEGORIES, "category")):
        bad = [v for v in given if v not in valid]
        if bad:
            raise ValueError(f"{what}={','.join(bad)!r}: expected one of {', '.join(valid)}")
    ids = {get_skill(r).id for r in rules}
    return tuple(
        s
        for s in catalogue()
        if (not logics or s.logic in logics)
        and (not categories or s.category in categories)
        and (not ids or s.id in ids)
    )


def counts(skills: Sequence[Skill] | None = None) -> dict[tuple[str, str], dict[str, int]]:
    """Rules and leaves per (logic, category): what the README table and `lgmt build logicasker` print.

    Args:
        skills: The skills to count (default: the whole catalogue).

    Returns:
        `{(logic, category): {"rules": n, "leaves": m}}` for every logic × category, where leaves are the
        (rule, problem type) pairs: 3 per non-fallacy rule, 2 per fallacy (fallacy and its valid counterpart).
    """
    out = {(lg, cat): {"rules": 0, "leaves": 0} for lg in LOGICS for cat in CATEGORIES}
    for skill in catalogue() if skills is None else skills:
        cell = out[(skill.logic, skill.category)]
        cell["rules"] += 1
        cell["leaves"] += len(skill.problem_types)
    return out


def counts_markdown(skills: Sequence[Skill] | None = None) -> str:
    """The catalogue counts as a Markdown table (rows: logic; columns: category; cells: rules / leaves)."""
    table = counts(skills)
    lines = [
        "| logic | " + " | ".join(CATEGORIES) + " | total |",
        "|---" * (len(CATEGORIES) + 2) + "|",
    ]
    grand = {"rules": 0, "leaves": 0}
    column = {cat: {"rules": 0, "leaves": 0} for cat in CATEGORIES}
    for lg in LOGICS:
        row = {"rules": 0, "leaves": 0}
        cells = []
        for cat in CATEGORIES:
            cell = table[(lg, cat)]
            cells.append(f"{cell['rules']} / {cell['leaves']}")
            for key in ("rules", "leaves"):
                row[key] += cell[key]
                column[cat][key] += cell[key]
                grand[key] += cell[key]
        lines.append(f"| {lg} | " + " | ".join(cells) + f" | {row['rules']} / {row['leaves']} |")
    totals = " | ".join(f"{column[cat]['rules']} / {column[cat]['leaves']}" for cat in CATEGORIES)
    lines.append(f"| total | {totals} | {grand['rules']} / {grand['leaves']} |")
    return "\n".join(lines)
