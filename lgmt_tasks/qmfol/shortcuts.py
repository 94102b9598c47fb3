"""The QMFOL shortcut battery: whether a row's label can be read off its surface, without reasoning.

Each heuristic looks only at the English a model sees (premises and conclusion) and the row's topic, never at a
prover or at the `label`/`construction`/`variant` columns. Most are a surface feature turned into a rule "when the
feature holds, answer L; otherwise one of the other two labels", once for each label L, so that a feature that
tells any one label apart is caught whichever way it leans: the conclusion's quantifier, an if–then, a negation, a
conjunction or disjunction, its length, the number of facts, whether its predicates are stated in the facts or in a
rule's consequent, and its word overlap with the facts; and the topic. Fitted heuristics (`SHAPE_KEYS`) learn the
majority label of each conclusion shape (quantifier × top connective, and finer classes) on two build seeds and
answer the third: a reader who studied the rest of the benchmark (issue #27: 0.431 on builder revision 2).

The paper's constructions fail this battery (True is always an if–then, False always a conjunction with negations,
Unknown never an if–then); the builder gives the three labels of a rule set one conclusion shape
(`construction.conclusion_shape`, `construction.facts_and_conclusion`), and
`tests/qmfol/test_shortcuts.py` checks every score on the committed build.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Hashable, Mapping
from functools import cache
from typing import Any

from lgmt_tasks.qmfol.construction import LABELS
from lgmt_tasks.qmfol.english import TOPICS, load_topic
from lgmt_tasks.verify.shortcuts import Battery, Fitted, Heuristic

Row = Mapping[str, Any]

_RULE = re.compile(r"^For every .+?, if ")
_CLAUSE_SPLIT = re.compile(r", then | and | or |, ")
_NEGATION = re.compile(r"\b(?:not|does not|do not)\b")


def _is_fact(sentence: str) -> bool:
    """A premise that is neither a rule ("For every …, if …") nor an existential: a fact, in either form."""
    return not _RULE.match(sentence) and not sentence.startswith("There exists")


def facts(row: Row) -> list[str]:
    """The fact sentences among a row's premises (recognised by their surface)."""
    return [p for p in row["premises"] if _is_fact(p)]


def _subjects(row: Row) -> tuple[str, ...]:
    entity = str(row.get("entity", ""))
    return (f"the {entity} ", f"{row.get('object', '')} ", f"{str(row.get('object', '')).capitalize()} ")


def verb_phrases(sentence: str, row: Row) -> list[str]:
    """The verb phrases of a sentence, subjects and quantifier openings stripped ("is sour", "does not …")."""
    body = sentence.rstrip(".")
    body = re.sub(r"^(?:For every [^,]+, |There exists an? .+? (?:such that |that ))", "", body)
    body = re.sub(r"^(?:if |If )", "", body)
    out = []
    for part in _CLAUSE_SPLIT.split(body):
        part = re.sub(r"^if ", "", part.strip())
        for subject in _subjects(row):
            if subject.strip() and part.startswith(subject):
                part = part[len(subject) :]
                break
        if part:
            out.append(part)
    return out


@cache
def _affirmatives(topic: str) -> dict[str, str]:
    """Every phrase and negation of a topic's lexicon → its affirmative phrase (the topic file is public text)."""
    out: dict[str, str] = {}
    for p in load_topic(topic).phrases:
        out[p.phrase] = out[p.negation] = p.phrase
    return out


def atom(phrase: str, topic: str | None = None) -> str:
    """A verb phrase's predicate: its affirmative form in the topic's lexicon, else the phrase without "not"."""
    if topic is not None:
        known = _affirmatives(topic).get(phrase)
        if known is not None:
            return known
    return re.sub(r"\s+", " ", _NEGATION.sub("", phrase)).strip()


def atoms(sentence: str, row: Row) -> set[str]:
    """The predicates a sentence names."""
    return {atom(vp, row.get("topic")) for vp in verb_phrases(sentence, row)}


def consequents(row: Row) -> set[str]:
    """The predicates (atoms) in the consequents of the rules among the premises."""
    return {a for p in row["premises"] if ", then " in p for a in atoms(p.split(", then ")[1], row)}


def _overlap(row: Row) -> float:
    words = set(re.findall(r"[a-z]+", row["conclusion"].lower()))
    stated = set(re.findall(r"[a-z]+", " ".join(facts(row)).lower()))
    return len(words & stated) / len(words) if words else 0.0


FEATURES: dict[str, tuple[str, Callable[[Row], bool]]] = {
    "every": ("the conclusion is universal", lambda r: r["conclusion"].startswith("For every")),
    "exists": ("the conclusion is existential", lambda r: r["conclusion"].startswith("There exists")),
    "if-then": ("the conclusion is an if–then", lambda r: ", then " in r["conclusion"]),
    "negation": ("the conclusion has a negation", lambda r: bool(_NEGATION.search(r["conclusion"]))),
    "negated-majority": (
        "most of the conclusion's literals are negated",
        lambda r: (
            2 * sum(bool(_NEGATION.search(vp)) for vp in verb_phrases(r["conclusion"], r))
            > len(verb_phrases(r["conclusion"], r))
        ),
    ),
    "and": ("the conclusion has 'and'", lambda r: " and " in r["conclusion"]),
    "or": ("the conclusion has 'or'", lambda r: " or " in r["conclusion"]),
    "one-literal": ("the conclusion is one literal", lambda r: len(verb_phrases(r["conclusion"], r)) == 1),
    "long": ("the conclusion has four or more literals", lambda r: len(verb_phrases(r["conclusion"], r)) >= 4),
    "two-facts": ("the premises state two or more facts", lambda r: len(facts(r)) >= 2),
    "odd-premises": ("the number of premises is odd", lambda r: len(r["premises"]) % 2 == 1),
    "predicate-in-facts": (
        "a predicate of the conclusion appears in a fact",
        lambda r: bool(atoms(r["conclusion"], r) & {a for f in facts(r) for a in atoms(f, r)}),
    ),
    "literal-in-facts": (
        "a literal of the conclusion appears verbatim in a fact",
        lambda r: bool(set(verb_phrases(r["conclusion"], r)) & {vp for f in facts(r) for vp in verb_phrases(f, r)}),
    ),
    "in-consequent": (
        "a predicate of the conclusion appears in a rule's consequent",
        lambda r: bool(atoms(r["conclusion"], r) & consequents(r)),
    ),
    "overlap": ("over half of the conclusion's words appear in the facts", lambda r: _overlap(r) > 0.5),
}
"""Binary surface features: name → (description, test)."""


def quantifier(row: Row) -> str:
    """The conclusion's quantifier as written: `every`, `exists`, or `none` (a ground conclusion)."""
    conclusion = row["conclusion"]
    return (
        "every" if conclusion.startswith("For every") else "exists" if conclusion.startswith("There exists") else "none"
    )


def top_connective(row: Row) -> str:
    """The conclusion's top connective under its quantifier, as written: `if-then`, `and`, `or` or `literal`."""
    conclusion = row["conclusion"]
    if ", then " in conclusion:
        return "if-then"
    return "and" if " and " in conclusion else "or" if " or " in conclusion else "literal"


def _sides(row: Row) -> tuple[str, str]:
    """The connectives of an if–then's antecedent and consequent (`and`, `or`, `one`); ("", "") when flat."""
    if ", then " not in row["conclusion"]:
        return "", ""
    left, right = row["conclusion"].split(", then ", 1)
    left = re.sub(r"^.*?\bif ", "", left)
    kind = lambda part: "and" if " and " in part else "or" if " or " in part else "one"  # noqa: E731
    return kind(left), kind(right)


SHAPE_KEYS: dict[str, tuple[str, Callable[[Row], Hashable]]] = {
    "shape": ("the conclusion's quantifier and top connective", lambda r: (quantifier(r), top_connective(r))),
    "shape+sides": (
        "the conclusion's quantifier, top connective and an if–then's antecedent and consequent connectives",
        lambda r: (quantifier(r), top_connective(r), *_sides(r)),
    ),
    "shape+literals": (
        "the conclusion's quantifier, top connective and number of literals (1-4, or more)",
        lambda r: (quantifier(r), top_connective(r), min(len(verb_phrases(r["conclusion"], r)), 5)),
    ),
    "shape+negations": (
        "the conclusion's quantifier, top connective and number of negated literals",
        lambda r: (
            quantifier(r),
            top_connective(r),
            sum(bool(_NEGATION.search(vp)) for vp in verb_phrases(r["conclusion"], r)),
        ),
    ),
    "shape+facts": (
        "the conclusion's quantifier, top connective and the number of facts",
        lambda r: (quantifier(r), top_connective(r), min(len(facts(r)), 3)),
    ),
}
"""Surface classes for the fitted heuristics: name → (description, key). Each is learned per class on two build
seeds and scored on the third (`verify.shortcuts.Fitted`)."""


def _rule(feature: str, label: str) -> Heuristic:
    description, test = FEATURES[feature]

    def pick(row: Row) -> Collection[str]:
        return (label,) if test(row) else tuple(other for other in LABELS if other != label)

    return Heuristic(f"{feature}->{label}", f"{description} → {label}, else the other two", pick)


def _topic_rule(topic: str, label: str) -> Heuristic:
    def pick(row: Row) -> Collection[str]:
        return (label,) if row["topic"] == topic else tuple(other for other in LABELS if other != label)

    return Heuristic(f"topic-{topic}->{label}", f"topic {topic} → {label}, else the other two", pick)


BATTERY = Battery(
    answers=lambda row: LABELS,
    gold=lambda row: row["label"],
    heuristics=(
        *(_rule(feature, label) for feature in FEATURES for label in LABELS),
        *(_topic_rule(topic, label) for topic in TOPICS for label in LABELS),
    ),
    fitted=tuple(
        Fitted(f"majority-by-{name}", f"the majority label of {description}, fitted on the other seeds", key)
        for name, (description, key) in SHAPE_KEYS.items()
    ),
    fold=lambda row: row["seed"],
)
"""The QMFOL battery: the three labels, gold `label`, over all rows.

Not grouped: a grid's distractor counts share their facts and conclusion, so the paper's grid has only 144 distinct
conclusions (48 per label), 36 per depth; per-depth scores then swing by about ±0.08 from sampling alone, more than
the margin, and would flag noise rather than shortcuts."""
