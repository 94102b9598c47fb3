"""LLMorph's free-text output relation: its code's decisions (with the containment rule) and its paper's wording.

Each case is (source text, follow-up text, similarity, relation, mode, decision) and follows LLMorph's code
(`func_or.py`: `ORBERTSimilarity(0.4)` for equivalence, `ORBERTNotSimilarity(0.8)` for difference, `is_subset` on
`clean_text`), except that an output with nothing left after cleaning is never compared (LLMorph would let "" match).
"""

from __future__ import annotations

import math

import pytest

from lgmt_tasks.scorers.lexical_text_relation import (
    DEFAULT_THRESHOLD_MODE,
    DEFAULT_THRESHOLDS,
    THRESHOLD_MODES,
    clean_text,
    contains_either,
    resolve_thresholds,
    text_violation,
)

A = "The answer is True because every cat is a mammal."
B = "Bananas grow in bunches."


@pytest.mark.parametrize(
    ("a", "b", "similarity", "expected", "mode", "violated"),
    [
        # above both thresholds: equivalent, not different, in both modes
        (A, B, 0.9, "equivalence", "code", False),
        (A, B, 0.9, "equivalence", "paper", False),
        (A, B, 0.9, "difference", "code", True),
        (A, B, 0.9, "difference", "paper", True),
        # the 0.4-0.8 band: the code holds both relations; the paper's wording violates both
        (A, B, 0.6, "equivalence", "code", False),
        (A, B, 0.6, "difference", "code", False),
        (A, B, 0.6, "equivalence", "paper", True),
        (A, B, 0.6, "difference", "paper", True),
        # below both: different, not equivalent
        (A, B, 0.2, "equivalence", "code", True),
        (A, B, 0.2, "difference", "code", False),
        (A, B, 0.2, "equivalence", "paper", True),
        (A, B, 0.2, "difference", "paper", False),
        # exact thresholds: >= for equivalence, < for difference
        (A, B, 0.4, "equivalence", "code", False),
        (A, B, 0.8, "difference", "code", True),
        (A, B, 0.8, "equivalence", "paper", False),
        (A, B, 0.4, "difference", "paper", True),
        # containment (after cleaning): equivalent whatever the similarity, and so never different, in code mode
        ("True", "The answer is TRUE.", 0.1, "equivalence", "code", False),
        ("True", "The answer is TRUE.", 0.1, "difference", "code", True),
        ("True", "The answer is TRUE.", 0.1, "equivalence", "paper", True),
        ("True", "The answer is TRUE.", 0.1, "difference", "paper", False),
        # containment either way round, only after cleaning, and (as LLMorph's `in`) inside a word too
        ("The answer is true.", "true", 0.1, "equivalence", "code", False),
        ("Answer: TRUE!", "answer true", 0.1, "equivalence", "code", False),
        ("the  answer\ttrue", "So: the answer, true.", 0.1, "equivalence", "code", False),
        ("true answer", "answer true", 0.1, "equivalence", "code", True),  # a substring, not a bag of words
        ("true", "It is untrue.", 0.1, "equivalence", "code", False),
        ("false", "The answer is TRUE.", 0.1, "equivalence", "code", True),
        ("false", "The answer is TRUE.", 0.1, "difference", "code", False),
        # containment beats a high similarity for difference in code mode only
        ("True", "The answer is TRUE.", 0.95, "difference", "code", True),
        ("True", "The answer is TRUE.", 0.2, "difference", "paper", False),
    ],
)
def test_decisions_follow_llmorphs_code_and_paper(a, b, similarity, expected, mode, violated):
    assert text_violation(expected, a, b, similarity, mode) is violated


@pytest.mark.parametrize(("a", "b"), [("", A), (A, ""), ("  ", A), ("...!", A), ("", "")])
def test_an_empty_output_is_never_compared(a, b):
    for mode in ("code", "paper"):
        for expected in ("equivalence", "difference"):
            assert text_violation(expected, a, b, 0.99, mode) is None
    assert not contains_either(a, b)  # LLMorph's "" in "anything" is not copied


def _llmorph(expected: str, a: str, b: str, similarity: float, equivalent: float, different: float) -> bool:
    """LLMorph's code, transcribed: `ORBERTSimilarity` / `ORBERTNotSimilarity` (`func_or.py` l.121-141)."""

    def holds(threshold: float) -> bool:
        ca, cb = clean_text(a), clean_text(b)
        return similarity >= threshold or ca in cb or cb in ca

    return not holds(equivalent) if expected == "equivalence" else holds(different)


@pytest.mark.parametrize("expected", ["equivalence", "difference"])
def test_code_mode_agrees_with_llmorph_whenever_both_texts_are_readable(expected):
    texts = [A, B, "True", "The answer is TRUE.", "false", "It is untrue.", "answer true", "Nothing, really!"]
    similarities = [0.0, 0.1, 0.39, 0.4, 0.41, 0.6, 0.79, 0.8, 0.81, 1.0]
    for a in texts:
        for b in texts:
            for s in similarities:
                llmorph_violated = _llmorph(expected, a, b, s, 0.4, 0.8)
                assert text_violation(expected, a, b, s, "code") is llmorph_violated, (a, b, s)
    # where they part: LLMorph lets an empty output match anything; we do not compare it
    assert _llmorph("equivalence", "", A, 0.0, 0.4, 0.8) is False
    assert text_violation("equivalence", "", A, 0.0, "code") is None


def test_an_unreadable_output_is_never_compared():
    assert text_violation("equivalence", None, A, 1.0) is None
    assert text_violation("difference", A, None, 0.0) is None
    assert not contains_either("\n\t", "\t")


def test_overrides_move_the_decision():
    assert text_violation("equivalence", A, B, 0.5, "code") is False
    assert text_violation("equivalence", A, B, 0.5, "code", equivalent=0.6) is True
    assert text_violation("difference", A, B, 0.5, "paper") is True
    assert text_violation("difference", A, B, 0.5, "paper", different=0.55) is False
    assert text_violation("equivalence", "True", "The answer is TRUE.", 0.0, "code", equivalent=1.0) is False


def test_clean_text_is_llmorphs():
    assert clean_text("  The Answer:  is\tTRUE! ") == "the answer is true"
    assert contains_either("answer is true", "The answer is TRUE, clearly.")
    assert not contains_either("false", "The answer is TRUE.")


def test_thresholds_resolve_per_mode_and_are_checked():
    assert DEFAULT_THRESHOLD_MODE == "code" and THRESHOLD_MODES == ("code", "paper")
    assert dict(DEFAULT_THRESHOLDS) == {"code": (0.4, 0.8), "paper": (0.8, 0.4)}
    assert resolve_thresholds() == (0.4, 0.8)
    assert resolve_thresholds("code") == (0.4, 0.8) and resolve_thresholds("paper") == (0.8, 0.4)
    assert resolve_thresholds("code", 0.5, None) == (0.5, 0.8)
    assert resolve_thresholds("paper", None, 0) == (0.8, 0.0) and resolve_thresholds("paper", 1, 1) == (1.0, 1.0)
    with pytest.raises(ValueError, match="thresholds='mean': expected one of code, paper"):
        resolve_thresholds("mean")
    with pytest.raises(ValueError, match="different_threshold=1.5: must be between 0 and 1"):
        resolve_thresholds("code", None, 1.5)
    with pytest.raises(ValueError, match="equivalent_threshold=-0.1: must be between 0 and 1"):
        resolve_thresholds("paper", -0.1)
    with pytest.raises(ValueError, match="equivalent_threshold=nan"):
        resolve_thresholds("code", math.nan)
    with pytest.raises(ValueError, match="thresholds='Code'"):
        text_violation("equivalence", A, B, 0.5, "Code")
    with pytest.raises(ValueError, match="NaN"):
        text_violation("equivalence", A, B, math.nan)
    with pytest.raises(ValueError, match="'equivalence' or 'difference'"):
        text_violation("not_inverse", A, B, 0.5)
