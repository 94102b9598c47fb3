"""The built-in generated source: determinism, exact label balance, proven labels, English, and that every one
of LGMT's 20 relations finds sites in the generated problems."""

from __future__ import annotations

import glob
import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from lgmt_tasks.lgmt.relations import RELATIONS
from lgmt_tasks.logic.phrasing import natural_template
from lgmt_tasks.logic.prover import Undecided, entails, satisfiable
from lgmt_tasks.logic.syntax import (
    And,
    Atom,
    Bottom,
    Exists,
    Forall,
    Formula,
    Iff,
    Implies,
    Not,
    Or,
    Top,
    all_vars,
    children,
    is_sentence,
    signature,
    subformulas,
)
from lgmt_tasks.sources.case import Case
from lgmt_tasks.sources.generated import (
    LABELS,
    GenerationReport,
    Vocabulary,
    generate_cases,
    load_vocabulary,
)

N = 150
SEED = 20240611


@pytest.fixture(scope="module")
def generated() -> tuple[list[Case], GenerationReport]:
    return generate_cases(N, SEED)


@pytest.fixture(scope="module")
def cases(generated: tuple[list[Case], GenerationReport]) -> list[Case]:
    return generated[0]


# --------------------------------------------------------------------------- determinism and balance


def test_same_seed_gives_identical_cases() -> None:
    first, report1 = generate_cases(9, 5)
    second, report2 = generate_cases(9, 5)
    assert first == second
    assert report1.to_dict() == report2.to_dict()


def test_different_seeds_give_different_cases() -> None:
    a, _ = generate_cases(9, 5)
    b, _ = generate_cases(9, 6)
    assert all(x.premises_fol != y.premises_fol for x, y in zip(a, b, strict=True))


def test_a_shorter_run_is_a_prefix_of_a_longer_one() -> None:
    """Case i depends only on (seed, i): asking for more cases never changes the first ones."""
    short, _ = generate_cases(5, 11)
    long, _ = generate_cases(10, 11)
    assert long[:5] == short


def test_labels_are_balanced_exactly_and_round_robin(generated: tuple[list[Case], GenerationReport]) -> None:
    cases, report = generated
    assert len(cases) == N
    assert report.exhausted == []
    assert Counter(c.label for c in cases) == {label: N // 3 for label in LABELS}
    assert [c.label for c in cases] == [LABELS[i % 3] for i in range(N)]
    assert dict(report.accepted) == {label: N // 3 for label in LABELS}


def test_balance_for_n_not_divisible_by_three() -> None:
    cases, _ = generate_cases(4, 1)
    assert [c.label for c in cases] == ["True", "False", "Unknown", "True"]


def test_report_counts_and_serialises(generated: tuple[list[Case], GenerationReport]) -> None:
    _, report = generated
    data = report.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["generated"] == N
    assert data["attempts"] >= N
    assert data["premise_sets"] >= N
    assert data["attempts"] - N == sum(
        n for reason, n in report.rejected.items() if reason not in ("no candidate conclusion", "duplicate premise")
    )


def test_zero_cases_and_bad_arguments() -> None:
    assert generate_cases(0, 1)[0] == []
    with pytest.raises(ValueError, match="non-negative"):
        generate_cases(-1, 1)
    with pytest.raises(ValueError, match="max_attempts"):
        generate_cases(1, 1, max_attempts=0)


# --------------------------------------------------------------------------- the cases themselves


def test_case_fields(cases: list[Case]) -> None:
    for case in cases:
        assert case.source_dataset == "generated"
        assert case.source_id.startswith("gen-")
        assert 4 <= len(case.premises_fol) <= 8
        assert case.label in LABELS
        assert case.conclusion_fol not in case.premises_fol
        assert len(set(case.premises_fol)) == len(case.premises_fol)
    assert len({c.source_id for c in cases}) == len(cases)


def test_every_formula_is_a_sentence(cases: list[Case]) -> None:
    for case in cases:
        for f in (*case.premises_fol, case.conclusion_fol):
            assert is_sentence(f), (case.source_id, f)


def test_english_is_present_and_has_no_logic_symbols(cases: list[Case]) -> None:
    for case in cases:
        assert len(case.premises) == len(case.premises_fol)
        for text in (*case.premises, case.conclusion):
            assert isinstance(text, str) and text.strip()
            assert not set(text) & set("∀∃¬∧∨→↔⊕⊤⊥()"), text


def test_every_label_is_reproven_independently(cases: list[Case]) -> None:
    """Re-derive each label from `entails` (one-sided checks), not from the `entailment` call that made it."""
    for case in cases:
        proves = entails(case.premises_fol, case.conclusion_fol)
        refutes = entails(case.premises_fol, Not(case.conclusion_fol))
        assert not isinstance(proves, Undecided) and not isinstance(refutes, Undecided), case.source_id
        expected = {"True": (True, False), "False": (False, True), "Unknown": (False, False)}[case.label or ""]
        assert (proves, refutes) == expected, case.source_id


def test_premises_are_satisfiable(cases: list[Case]) -> None:
    for case in cases:
        assert satisfiable(case.premises_fol) is True, case.source_id


def test_unknown_conclusions_only_use_symbols_of_the_premises(cases: list[Case]) -> None:
    """An Unknown question about a person or property the premises never mention would be trivially open."""
    for case in cases:
        if case.label == "Unknown":
            premises, conclusion = signature(*case.premises_fol), signature(case.conclusion_fol)
            assert conclusion.constants <= premises.constants, case.source_id
            assert conclusion.predicates <= premises.predicates, case.source_id


# --------------------------------------------------------------------------- shapes


def _any_sub(case: Case, test: Callable[[Formula], bool]) -> bool:
    return any(test(sub) for f in case.premises_fol for _, sub in subformulas(f))


def _clash(f: Formula) -> bool:
    """A quantifier of x next to a sibling that also uses x (the side condition of MR-E1.5)."""
    if not isinstance(f, (And, Or)):
        return False
    return any(
        isinstance(a, (Forall, Exists)) and any(a.var in all_vars(b) for b in f.args if b is not a) for a in f.args
    )


def _unnegated(f: Formula) -> Formula:
    return f.body if isinstance(f, Not) else f


SHAPES: dict[str, Callable[[Case], bool]] = {
    "ground negated fact": lambda c: any(isinstance(p, Not) and isinstance(p.body, Atom) for p in c.premises_fol),
    "binary predicate": lambda c: _any_sub(c, lambda f: isinstance(f, Atom) and len(f.args) == 2),
    "universal rule": lambda c: any(isinstance(p, Forall) and isinstance(p.body, Implies) for p in c.premises_fol),
    "conjunction in antecedent": lambda c: _any_sub(c, lambda f: isinstance(f, Implies) and isinstance(f.left, And)),
    "disjunction in antecedent": lambda c: _any_sub(c, lambda f: isinstance(f, Implies) and isinstance(f.left, Or)),
    "conjunction in consequent": lambda c: _any_sub(c, lambda f: isinstance(f, Implies) and isinstance(f.right, And)),
    "disjunction in consequent": lambda c: _any_sub(c, lambda f: isinstance(f, Implies) and isinstance(f.right, Or)),
    "biconditional": lambda c: _any_sub(c, lambda f: isinstance(f, Iff)),
    "existential": lambda c: any(isinstance(p, Exists) for p in c.premises_fol),
    "forall-exists": lambda c: _any_sub(c, lambda f: isinstance(f, Forall) and isinstance(f.body, Exists)),
    "adjacent universals": lambda c: _any_sub(c, lambda f: isinstance(f, Forall) and isinstance(f.body, Forall)),
    "negated conjunction": lambda c: _any_sub(c, lambda f: isinstance(f, Not) and isinstance(f.body, And)),
    "negated disjunction": lambda c: _any_sub(c, lambda f: isinstance(f, Not) and isinstance(f.body, Or)),
    "negated existential": lambda c: _any_sub(c, lambda f: isinstance(f, Not) and isinstance(f.body, Exists)),
    "negated universal": lambda c: _any_sub(c, lambda f: isinstance(f, Not) and isinstance(f.body, Forall)),
    "double negation": lambda c: _any_sub(c, lambda f: isinstance(f, Not) and isinstance(f.body, Not)),
    "quantifier in a junction": lambda c: _any_sub(
        c, lambda f: isinstance(f, (And, Or)) and any(isinstance(a, (Forall, Exists)) for a in f.args)
    ),
    "variable clash": lambda c: _any_sub(c, _clash),
    "conjunctive premise": lambda c: any(isinstance(p, And) for p in c.premises_fol),
    "nested conjunction": lambda c: _any_sub(c, lambda f: isinstance(f, And) and any(type(a) is And for a in f.args)),
    "idempotent pair": lambda c: _any_sub(c, lambda f: isinstance(f, (And, Or)) and len(set(f.args)) < len(f.args)),
    "absorption": lambda c: _any_sub(
        c,
        lambda f: (
            isinstance(f, (And, Or))
            and any(isinstance(b, (And, Or)) and type(b) is not type(f) and a in b.args for a in f.args for b in f.args)
        ),
    ),
    "excluded middle or contradiction": lambda c: _any_sub(
        c, lambda f: isinstance(f, (And, Or)) and any(Not(a) in f.args for a in f.args)
    ),
    "true or false constant": lambda c: _any_sub(c, lambda f: isinstance(f, (Top, Bottom))),
    "distributable": lambda c: _any_sub(
        c,
        lambda f: (
            isinstance(f, (And, Or)) and any(isinstance(a, (And, Or)) and type(a) is not type(f) for a in children(f))
        ),
    ),
    "compound conclusion": lambda c: isinstance(c.conclusion_fol, (And, Or, Implies, Iff)),
    "quantified conclusion": lambda c: isinstance(_unnegated(c.conclusion_fol), (Forall, Exists)),
}


def test_every_shape_occurs(cases: list[Case]) -> None:
    counts = {name: sum(test(c) for c in cases) for name, test in SHAPES.items()}
    print("\nshape counts over", len(cases), "cases:", json.dumps(counts, indent=1))
    assert all(counts.values()), {k: v for k, v in counts.items() if not v}


def test_redundant_shapes_are_a_minority(cases: list[Case]) -> None:
    redundant = [
        c
        for c in cases
        if SHAPES["idempotent pair"](c) or SHAPES["true or false constant"](c) or SHAPES["absorption"](c)
    ]
    assert 0 < len(redundant) < len(cases) / 2


# --------------------------------------------------------------------------- applicability of the 20 relations


def test_every_relation_applies_to_some_generated_cases(cases: list[Case]) -> None:
    assert len(RELATIONS) == 20
    fractions: dict[str, float] = {}
    forward: dict[str, float] = {}
    for rid, relation in RELATIONS.items():
        fractions[rid] = sum(relation.applies(c) for c in cases) / len(cases)
        if len(getattr(relation, "directions", ("forward",))) > 1:
            forward[rid] = sum(relation.applies(c, direction="forward") for c in cases) / len(cases)
    print("\napplicability over", len(cases), "generated cases (any direction):", json.dumps(fractions, indent=1))
    print("forward direction only:", json.dumps(forward, indent=1))
    assert all(f > 0 for f in fractions.values()), fractions
    assert all(f > 0 for f in forward.values()), forward


# --------------------------------------------------------------------------- vocabulary


def test_packaged_vocabulary() -> None:
    vocab = load_vocabulary()
    assert 50 <= len(vocab.people) <= 80
    assert 70 <= len(vocab.properties) <= 100
    assert 20 <= len(vocab.relations) <= 40


def test_packaged_vocabulary_reads_naturally() -> None:
    """Every packaged symbol gets the realiser's natural phrasing, never the abstract fallback."""
    vocab = load_vocabulary()
    for name in vocab.properties:
        template = natural_template(name, 1)
        assert template is not None and template[0] == 0, name
    for name in vocab.relations:
        template = natural_template(name, 2)
        assert template is not None and template == (0, template[1], 1), name


def test_english_uses_natural_phrasing(cases: list[Case]) -> None:
    for case in cases:
        for text in (*case.premises, case.conclusion):
            assert "has property" not in text and "bears relation" not in text, text


def test_vocabulary_file_is_shipped_as_package_data() -> None:
    """The default source must work from an installed wheel, not only from a checkout.

    setuptools matches package-data globs relative to the package folder, and `*.json` does not reach into
    `data/`; pyproject needs a pattern such as `"lgmt_tasks.sources" = ["data/*.json"]`.
    """
    tomllib = pytest.importorskip("tomllib")
    root = Path(__file__).resolve().parents[2]
    if not (root / "pyproject.toml").is_file():
        pytest.skip("not running from a source checkout")
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    package_data = config["tool"]["setuptools"].get("package-data", {})
    patterns = [*package_data.get("*", []), *package_data.get("lgmt_tasks.sources", [])]
    package_dir = root / "lgmt_tasks" / "sources"
    shipped = {m for p in patterns for m in glob.glob(p, root_dir=package_dir, recursive=True)}
    assert "data/generated_vocabulary.json" in shipped, patterns


def test_custom_vocabulary_is_used(tmp_path: Path) -> None:
    words = {
        "people": ["ann", "bert", "cleo", "dirk", "emma", "finn"],
        "properties": ["Bold", "Dull", "Fast", "Glad", "Keen", "Neat", "Proud", "Sly"]
        + ["Bakes", "Mines", "Judges", "Rhymes", "Prays", "Jokes", "Scouts", "Forges"],
        "relations": ["Greets", "Nudges", "Pays"],
    }
    path = tmp_path / "vocab.json"
    path.write_text(json.dumps(words), encoding="utf-8")
    cases, report = generate_cases(6, 2, vocabulary=path)
    assert report.exhausted == []
    allowed = set(words["people"])
    allowed_preds = set(words["properties"] + words["relations"])
    for case in cases:
        sig = signature(*case.premises_fol, case.conclusion_fol)
        assert sig.constants <= allowed
        assert sig.predicate_names <= allowed_preds


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"people": ["ann", "x", "cleo", "dirk", "emma", "finn"]}, "lowerCamel"),
        ({"properties": ["baker"] + [f"Prop{i}" for i in range(20)]}, "CamelCase"),
        ({"relations": ["Greets", "Greets", "Pays"]}, "duplicate"),
        ({"relations": ["Greets"]}, "at least 3 relations"),
    ],
)
def test_invalid_vocabulary_is_refused(change: dict[str, list[str]], message: str) -> None:
    base = {
        "people": ["ann", "bert", "cleo", "dirk", "emma", "finn"],
        "properties": [f"Prop{i}" for i in range(20)],
        "relations": ["Greets", "Nudges", "Pays"],
    }
    with pytest.raises(ValueError, match=message):
        Vocabulary(**{k: tuple(v) for k, v in {**base, **change}.items()})


def test_vocabulary_file_missing_a_list(tmp_path: Path) -> None:
    path = tmp_path / "vocab.json"
    path.write_text(json.dumps({"people": ["ann"]}), encoding="utf-8")
    with pytest.raises(ValueError, match="missing"):
        load_vocabulary(path)
