"""The FOL parser on hostile input: any Unicode, JSON-like text and huge strings give a formula or a syntax error.

`tests/logic/test_parse.py` fuzzes short texts over the logic alphabet, arbitrary text and token soup; this adds
every Unicode category, text around real formulas, and inputs far larger than any source formula (the parser must
finish on them, with a `FormulaSyntaxError` whose column points into the text, never another exception).
Whatever parses prints (`show` and `show_ascii`) and reads back to the same tree.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lgmt_tasks.logic.parse import FormulaSyntaxError, parse
from lgmt_tasks.logic.printer import show, show_ascii

FORMULAS = ["∀x (P(x) → Q(x))", "¬(A ∧ B) ⊕ C", "forall x. (R(x, a) -> -S(x))", "∃y (y = b)"]


def check(text: str) -> None:
    try:
        formula = parse(text)
    except FormulaSyntaxError as err:
        assert 0 <= err.column <= len(text)
        assert err.expected
        assert str(err)
        return
    for printer in (show, show_ascii):
        try:
            printed = printer(formula)
        except ValueError:  # a name the printer cannot write back (documented in the printer)
            continue
        assert parse(printed) == formula


@settings(max_examples=400, deadline=None)
@given(st.text(st.characters(codec="utf-8"), max_size=80))
def test_any_unicode(text: str) -> None:
    check(text)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=15), st.sampled_from(FORMULAS), st.text(max_size=15))
def test_text_around_a_real_formula(before: str, formula: str, after: str) -> None:
    check(before + formula + after)


HUGE = [
    " ∧ ".join(f"P{i}(a)" for i in range(20_000)),  # a wide but shallow formula: parses
    "(" * 50_000 + "P(a)" + ")" * 50_000,  # too deep: refused with a column
    "¬" * 100_000 + "P(a)",
    "∀x " * 20_000 + "P(x)",
    "P(" + ", ".join(["a"] * 50_000) + ")",
    '{"premises_fol": ["P(a)", ' * 5_000,
    "x" * 1_000_000,
    "\U0001f600" * 100_000,
]


@pytest.mark.parametrize(
    "text", HUGE, ids=["wide", "brackets", "negations", "quantifiers", "args", "json", "word", "emoji"]
)
def test_huge_input_finishes_with_a_formula_or_a_syntax_error(text: str) -> None:
    check(text)
