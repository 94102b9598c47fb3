"""Topic lexicons: no hidden dependencies (Mathematics by computation, the others by family) and no dominant family."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from lgmt_tasks.qmfol.construction import predicate_count
from lgmt_tasks.qmfol.english import MIN_PHRASES, TOPICS, load_topic
from lgmt_tasks.qmfol.lexicons import (
    MAX_FAMILY_SHARE,
    family_problems,
    load_raw,
    math_dependencies,
    math_predicate,
)


def test_mathematics_phrases_are_pairwise_independent_on_the_natural_numbers() -> None:
    raw = load_raw("Mathematics")
    specs = [p["spec"] for p in raw["phrases"]]
    assert len(specs) == len(set(specs)) == len(load_topic("Mathematics").phrases)
    assert math_dependencies(specs) == []


def test_the_check_finds_real_dependencies() -> None:
    """The former lexicon's pair, and pairs implied by a divisibility rule or by nested digits."""
    assert ("square", "bit:1") in math_dependencies(["square", "bit:1"])  # squares are 0 or 1 mod 4
    assert math_dependencies(["multiple:3", "digitsum:10:3"]) == [("multiple:3", "digitsum:10:3")]
    assert math_dependencies(["block:12", "digit:10:1"]) == [("block:12", "digit:10:1")]
    assert math_dependencies(["multiple:3", "multiple:5"]) == []


def test_math_predicates_compute_what_they_say() -> None:
    n = np.arange(1, 50, dtype=np.int64)
    picked = {spec: [int(v) for v in n[math_predicate(spec)(n)]] for spec in ("square", "triangular", "happy")}
    assert picked["square"] == [1, 4, 9, 16, 25, 36, 49]
    assert picked["triangular"] == [1, 3, 6, 10, 15, 21, 28, 36, 45]
    assert picked["happy"] == [1, 7, 10, 13, 19, 23, 28, 31, 32, 44, 49]
    assert [int(v) for v in n[math_predicate("digit:3:2")(n)]][:4] == [2, 5, 6, 7]  # 2, 12, 20, 21 in base three
    with pytest.raises(ValueError, match="unknown kind"):
        math_predicate("prime")


def test_mathematics_phrases_say_their_spec() -> None:
    phrases = {p["spec"]: p["phrase"] for p in load_raw("Mathematics")["phrases"]}
    assert phrases["multiple:3"] == "is a multiple of 3"
    assert all(" not " not in f" {p} " for p in phrases.values())


def test_mathematics_families_are_balanced() -> None:
    raw = load_raw("Mathematics")
    assert family_problems(raw) == []
    assert len({p["family"] for p in raw["phrases"]}) >= 8


def test_family_problems_are_reported() -> None:
    raw = {
        "exclusive": ["cooking method"],
        "phrases": [
            {"phrase": "is grilled", "family": "cooking method"},
            {"phrase": "is steamed", "family": "cooking method"},
            {"phrase": "is sour"},
        ],
    }
    problems = family_problems(raw)
    assert "'is sour' has no family" in problems
    assert any("exclusive family 'cooking method' holds 2" in p for p in problems)
    assert any(f"over {MAX_FAMILY_SHARE:.0%}" in p for p in problems)


@pytest.mark.parametrize("topic", TOPICS)
def test_every_topic_loads(topic: str) -> None:
    assert len(load_topic(topic).phrases) >= 200


READ_TOPICS = ("Food", "Animal", "University")
"""The topics whose families were assigned by reading (Mathematics is checked by computation)."""

LARGEST_TASK = predicate_count(depth=20, width=20, distractors=20)
"""Predicates of the paper's largest configuration (depth 20, width 20, 20 distractors)."""

KNOWN_DEPENDENT_PAIRS: dict[str, list[tuple[str, str]]] = {
    "Food": [
        ("is priced above ten dollars", "has a low price"),  # antonyms
        ("is sour", "is tangy"),  # synonyms
        ("is perishable", "is aged for several months"),
        ("is crunchy", "is creamy"),
        ("is breaded", "contains wheat"),  # breading is wheat
        ("is salty", "is low in sodium"),
        ("has a floral aroma", "is aromatic"),  # hyponym
        ("is imported", "is locally sourced"),
        ("originates from an island", "comes from a coastal region"),
        ("is glazed", "is glossy"),
        ("is stuffed", "is filled with a sweet paste"),
        ("is hand-made", "is hand-rolled"),
        ("is a street food", "is sold in street markets"),
        ("is award-winning", "is tasted by a jury"),
        ("is packed in a glass jar", "is packaged in recyclable materials"),
        ("is suitable for freezing", "has been frozen before sale"),
        ("has a protected designation of origin", "is listed as a regional specialty"),
        ("has a secret recipe", "is featured in a famous cookbook"),
        ("contains chocolate", "contains caffeine"),
        ("contains wheat", "contains soy sauce"),
        ("is fermented", "is pickled"),
        ("is steamed", "fills the kitchen with steam"),
        ("is sliced before serving", "is cut into small cubes"),
        ("is popular with children", "is on the kids menu"),
        ("is easy to reheat", "can be cooked in a microwave"),
    ],
    "Animal": [
        ("has a beak", "lays eggs"),  # every beaked animal lays eggs
        ("has a beak", "has a broken tooth"),  # beaks exclude teeth
        ("has horns", "has antlers"),  # never together
        ("purrs", "has whiskers"),
        ("produces silk", "lays eggs"),
        ("is carnivorous", "is an apex predator"),
        ("is agile", "is clumsy"),
        ("is solitary", "travels in pairs"),
        ("is protective of its young", "is a good parent"),
        ("is endangered", "is protected by law"),
        ("is tagged by researchers", "is monitored by satellite"),
        ("is nocturnal", "is afraid of the dark"),
        ("is a strong swimmer", "is afraid of water"),
        ("is fitted with a collar", "has a name tag"),
        ("is microchipped", "has a passport"),
        ("has an owner", "is owned by a celebrity"),
        ("is domesticated", "is used in farming work"),
        ("is vocal", "howls at the moon"),
        ("is a skilled climber", "can climb walls"),
        ("is sensitive to noise", "fears thunder"),
        ("is prone to ear infections", "is resistant to disease"),
        ("builds nests", "has an underground den"),
    ],
    "University": [
        ("is living in a dormitory", "is a resident advisor"),  # RAs live in the dormitory
        ("is living in a dormitory", "lives with relatives"),
        ("is an international student", "is registered to vote on campus"),
        ("is an international student", "has lived abroad"),
        ("is an international student", "is a part-time student"),  # student visas require full time
        ("is a licensed driver", "can drive a bus"),
        ("is a licensed driver", "owns a car"),
        ("is interested in graduate school", "is preparing for a medical school application"),
        ("is interested in studying abroad", "has a study abroad offer"),
        ("is a certified lifeguard", "is a holder of a first-aid certificate"),
        ("is a skilled programmer", "writes code for a lab"),
        ("is a member of a study group", "organizes study sessions"),
        ("is a member of the film society", "runs the film screenings"),
        ("is a research assistant in a biology lab", "has completed the safety training"),
        ("is fluent in French", "is exempt from the language requirement"),
        ("is eligible to graduate", "has an incomplete grade in physics"),
        ("is a regular at the campus gym", "has a locker in the gym"),
        ("has a meal plan", "eats at the dining hall"),
    ],
}
"""Pairs linked in the real world (one implies, excludes or restates the other); at most one of each may stay."""


def co_occurring(raw: dict[str, Any], pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The pairs whose two phrases are both in a lexicon."""
    present = {p["phrase"] for p in raw["phrases"]}
    return [(a, b) for a, b in pairs if a in present and b in present]


@pytest.mark.parametrize("topic", READ_TOPICS)
def test_read_topics_pass_the_family_rule(topic: str) -> None:
    raw = load_raw(topic)
    assert family_problems(raw) == []
    families = {p["family"] for p in raw["phrases"]}
    assert len(families) >= 20
    assert set(raw["exclusive"]) <= families  # every exclusive family names phrases (no typo hides a family)


@pytest.mark.parametrize("topic", READ_TOPICS)
def test_read_topics_have_enough_phrases_for_the_largest_task(topic: str) -> None:
    assert LARGEST_TASK == 121
    assert len(load_topic(topic).phrases) >= max(MIN_PHRASES, LARGEST_TASK)


@pytest.mark.parametrize("topic", READ_TOPICS)
def test_known_dependent_pairs_never_co_occur(topic: str) -> None:
    assert co_occurring(load_raw(topic), KNOWN_DEPENDENT_PAIRS[topic]) == []


def test_a_known_dependent_pair_is_caught() -> None:
    """The regression check fails on a lexicon that keeps both phrases of a pair (as the former Food list did)."""
    raw = {"phrases": [{"phrase": "is sour"}, {"phrase": "is tangy"}, {"phrase": "is spicy"}]}
    assert co_occurring(raw, KNOWN_DEPENDENT_PAIRS["Food"]) == [("is sour", "is tangy")]


PARTICIPLES = {"been", "had", "met", "won", "lost", "taken", "paid", "retaken"}
"""Irregular past participles that follow "has" in a phrase (the regular ones end in -ed)."""

ED_ADJECTIVES = {"webbed"}
"""Words after "has" that end in -ed but are not participles ("has webbed feet")."""


def expected_negation(phrase: str) -> str:
    """The negation a phrase should carry: the auxiliary negated, or "does not" + the base verb."""
    head, _, rest = phrase.partition(" ")
    first = rest.split(" ")[0]
    if head in {"is", "was"}:
        return f"{head} not {rest}"
    if head == "can":
        return f"cannot {rest}"
    if head == "has":
        perfect = first in PARTICIPLES or (first.endswith("ed") and first not in ED_ADJECTIVES)
        return f"has not {rest}" if perfect else f"does not have {rest}"
    base = head[:-3] + "y" if head.endswith("ies") else head[:-2] if head.endswith(("shes", "ches")) else head[:-1]
    return f"does not {base} {rest}".rstrip()


def test_expected_negation_handles_the_perfect() -> None:
    assert expected_negation("has had surgery") == "has not had surgery"
    assert expected_negation("has a limp") == "does not have a limp"
    assert expected_negation("carries its young") == "does not carry its young"


@pytest.mark.parametrize("topic", READ_TOPICS)
def test_read_topics_negations_match_their_phrases(topic: str) -> None:
    """A wrong negation ("does not have had surgery") would read badly and could leak the phrase's polarity."""
    wrong = [(p["phrase"], p["negation"]) for p in load_raw(topic)["phrases"]]
    assert [(a, b) for a, b in wrong if b != expected_negation(a)] == []
