"""Every FOL string of the source datasets parses, except the ones listed (with a reason) in the fixture.

The fixture `tests/fixtures/malformed_formulas.json` is the exact list of source formulas that are genuinely
malformed (`unparsable`) and of those that parse but are not sentences (`free_variables`, which the source
loaders reject). Both sets are asserted exactly, so a parser change that starts accepting a broken formula, or
rejecting a good one, fails here.
"""

from __future__ import annotations

import json
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from lgmt_tasks.logic.parse import FormulaSyntaxError, parse
from lgmt_tasks.logic.printer import show
from lgmt_tasks.logic.syntax import Formula, free_vars

DATA = Path(__file__).parents[2].parent / "shared" / "data"
FIXTURE = Path(__file__).parents[1] / "fixtures" / "malformed_formulas.json"
FILES = (
    "folio/folio_v0_train.jsonl",
    "folio/folio_v0_validation.jsonl",
    "folio/folio_v2_validation.jsonl",
    "proverqa/proverqa_dev_easy.jsonl",
    "proverqa/proverqa_dev_medium.jsonl",
    "proverqa/proverqa_dev_hard.jsonl",
    "logicnli/logicnli_dev.jsonl",
    "logicnli/logicnli_test.jsonl",
)

Key = tuple[str, int | str]  # (record id, premise index or "conclusion")


def source_formulas() -> list[tuple[str, Key, str]]:
    """(file, key, text) for every premise and conclusion FOL string that is not null."""
    if not DATA.is_dir():
        pytest.skip(f"source data folder {DATA} is absent")
    out: list[tuple[str, Key, str]] = []
    for name in FILES:
        path = DATA / name
        assert path.is_file(), f"{path} is missing from the data folder"
        with path.open(encoding="utf-8") as fh:
            for line in fh:
                record = json.loads(line)
                for i, text in enumerate(record["premises_fol"]):
                    out.append((name, (record["id"], i), text))
                if record["conclusion_fol"] is not None:
                    out.append((name, (record["id"], "conclusion"), record["conclusion_fol"]))
    return out


@cache
def parse_or_error(text: str) -> Formula | FormulaSyntaxError:
    # Many strings repeat (LogicNLI stories share premises), so each distinct text is parsed once.
    try:
        return parse(text)
    except FormulaSyntaxError as err:
        return err


@pytest.fixture(scope="module")
def formulas() -> list[tuple[str, Key, str]]:
    return source_formulas()


@pytest.fixture(scope="module")
def fixture() -> dict:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


def test_every_file_has_formulas(formulas):
    per_file = Counter(name for name, _, _ in formulas)
    assert set(per_file) == set(FILES)
    # Totals from the data README (record counts) and one pass over the files; guards against a truncated copy.
    assert per_file["folio/folio_v0_train.jsonl"] == 5239
    assert per_file["folio/folio_v2_validation.jsonl"] == 1310
    assert per_file["logicnli/logicnli_dev.jsonl"] == 50000


def test_unparsable_formulas_are_exactly_the_fixture(formulas, fixture):
    failures = {key: text for _, key, text in formulas if isinstance(parse_or_error(text), FormulaSyntaxError)}
    listed = {(e["id"], e["formula"]): e for e in fixture["unparsable"]}
    assert set(failures) == set(listed)
    for key, entry in listed.items():
        assert entry["text"] == failures[key], key


def test_fixture_reasons_match_the_text(fixture):
    """The reasons are checkable claims about the source text, not labels we could get wrong silently."""
    for entry in fixture["unparsable"]:
        text, reason = entry["text"], entry["reason"]
        if reason == "empty formula":
            assert not text.strip()
        elif reason.startswith("unbalanced parentheses"):
            assert text.count("(") != text.count(")")
        else:
            assert text.count("(") == text.count(")"), entry
            assert reason in {
                "multi-word constant (a space inside a name, e.g. 'captain america')",
                "missing connective between two atoms",
                "comma used as a connective between atoms",
                "trailing full stop after the formula",
            }


def test_only_folio_has_malformed_formulas(formulas):
    for name, _, text in formulas:
        if not name.startswith("folio/"):
            assert not isinstance(parse_or_error(text), FormulaSyntaxError), (name, text)


def test_free_variables_are_exactly_the_fixture(formulas, fixture):
    free: dict[Key, list[str]] = {}
    for _, key, text in formulas:
        parsed = parse_or_error(text)
        if not isinstance(parsed, FormulaSyntaxError) and free_vars(parsed):
            free[key] = sorted(free_vars(parsed))
    listed = {(e["id"], e["formula"]): e for e in fixture["free_variables"]}
    assert set(free) == set(listed)
    for key, entry in listed.items():
        assert entry["reason"] == "free variable"
        assert entry["variables"] == free[key], key


def test_fixture_counts(fixture):
    """The counts reported to the lead; a change here means the parser's behaviour on real data changed."""
    unparsable = Counter(e["id"].rsplit("_", 1)[0] for e in fixture["unparsable"])
    free = Counter(e["id"].rsplit("_", 1)[0] for e in fixture["free_variables"])
    assert unparsable == {"folio_v0_train": 44, "folio_v0_validation": 6, "folio_v2_validation": 44}
    assert free == {"folio_v0_train": 8, "folio_v2_validation": 28}


def test_every_parsed_source_formula_round_trips_through_show(formulas):
    for text in {text for _, _, text in formulas}:
        parsed = parse_or_error(text)
        if not isinstance(parsed, FormulaSyntaxError):
            assert parse(show(parsed)) == parsed, text


@pytest.mark.parametrize(
    ("record", "index", "expected"),
    [
        # Unparenthesised quantifier scope: widest scope.
        ("folio_v0_train_1013", 0, "∀x (Weddings(x) → GettingMarried(x))"),
        # `⟷` for `↔`, mixed ∧ and ↔ at one level.
        ("folio_v0_validation_0087", 2, "∀x (∀y ((GoodGuy(x) ∧ Fights(x, y)) ↔ (BadGuy(y) ∧ Fights(y, x))))"),
        # `^` for `∧`, double space, ⊕ binds tighter than →.
        (
            "folio_v0_train_889",
            4,
            "(GraduateStudent(joe) ⊕ Doctor(joe)) → ¬(GraduateStudent(joe) ∧ Student(joe))",
        ),
        # A quantifier prefix with a parenthesised body is one operand of `→`.
        (
            "folio_v2_validation_1011",
            1,
            "∀x ((∃y (Sibling(x, y) ∧ BornTogether(y))) → BornIn(x, multipleBirth))",
        ),
        # `¬∃x (…) ∧ B`: the negated quantifier unit is the left conjunct.
        (
            "folio_v2_validation_1244",
            6,
            "(¬∃x (PartTimeJob(x) ∧ Have(james, x) ∧ OfferedBy(x, computerScienceDepartment))) ∧ ¬WorkIn(james, lab)",
        ),
    ],
)
def test_real_formulas_read_as_documented(formulas, record, index, expected):
    text = next(t for _, key, t in formulas if key == (record, index))
    assert show(parse(text)) == expected
