"""Every function-based LLMorph transformation: seeded, deterministic, and changing only what it should.

The exact-edit tests are of the `clean` style (ours); LLMorph's own style is measured against a reference
re-implementation of its code in `test_transforms_llmorph.py`. Properties shared by both styles run on both.
"""

from __future__ import annotations

import math
import random
import re
from collections import Counter
from collections.abc import Sequence

import pytest

from lgmt_tasks.lexical import transforms as t
from lgmt_tasks.lexical.catalogue import DEFAULT_STYLE as CATALOGUE_DEFAULT_STYLE
from lgmt_tasks.lexical.catalogue import FUNCTION_BASED
from lgmt_tasks.lexical.catalogue import STYLES as CATALOGUE_STYLES

PREMISES = [
    "For all x, if x is a poet, then x writes sonnets.",
    "Alice is a poet.",
    "Everything that writes sonnets is patient and quiet.",
]
CONCLUSION = "Alice is patient."
TWO_SENTENCES = "Alice is patient. Bob is quiet."


def letters(units: Sequence[str]) -> int:
    return sum(ch.isalpha() for text in units for ch in text)


def diff_positions(a: str, b: str) -> list[int]:
    assert len(a) == len(b)
    return [i for i, (x, y) in enumerate(zip(a, b)) if x != y]


# ----------------------------------------------------------------------------------------- shared properties


def test_every_function_based_relation_has_a_transformation_in_every_style():
    assert t.STYLES == ("llmorph", "clean") and t.DEFAULT_STYLE == "llmorph"
    assert set(t.TRANSFORMS_BY_STYLE) == set(t.STYLES)
    for style in t.STYLES:
        assert list(t.TRANSFORMS_BY_STYLE[style]) == list(FUNCTION_BASED)
    assert t.TRANSFORMS is t.TRANSFORMS_BY_STYLE[t.DEFAULT_STYLE] is t.LLMORPH_TRANSFORMS


def test_styles_agree_with_the_catalogue():
    assert t.STYLES == CATALOGUE_STYLES and t.DEFAULT_STYLE == CATALOGUE_DEFAULT_STYLE


def test_sentence_relations_are_the_same_in_both_styles():
    for mr in ("MR-19", "MR-49", "MR-84", "MR-102"):
        assert t.LLMORPH_TRANSFORMS[mr] is t.CLEAN_TRANSFORMS[mr]
    for mr in ("MR-1", "MR-2", "MR-3", "MR-4", "MR-5", "MR-6", "MR-7", "MR-126", "MR-128"):
        assert t.LLMORPH_TRANSFORMS[mr] is not t.CLEAN_TRANSFORMS[mr]


@pytest.mark.parametrize("style", t.STYLES)
@pytest.mark.parametrize("mr", FUNCTION_BASED)
def test_same_seed_same_output_and_inputs_untouched(mr, style):
    transform = t.get_transform(mr, style)
    units = list(PREMISES)
    first = transform(units, random.Random(7), frozenset())
    second = transform(list(PREMISES), random.Random(7), frozenset())
    assert first == second
    assert units == PREMISES  # never mutates its input


@pytest.mark.parametrize("style", t.STYLES)
@pytest.mark.parametrize("mr", sorted(set(FUNCTION_BASED) - {"MR-49", "MR-102"}))
def test_different_seeds_give_different_outputs(mr, style):
    transform = t.get_transform(mr, style)
    outputs = {tuple(transform(PREMISES, random.Random(seed), frozenset()) or ()) for seed in range(6)}
    assert len(outputs) > 1


@pytest.mark.parametrize("style", t.STYLES)
@pytest.mark.parametrize("mr", sorted(set(FUNCTION_BASED) - {"MR-49"}))
def test_every_relation_changes_the_premises(mr, style):
    out = t.get_transform(mr, style)(PREMISES, random.Random(0), frozenset())
    assert out is not None and out != PREMISES


# ----------------------------------------------------------------------------------------- one relation each


@pytest.mark.parametrize("seed", range(5))
def test_mr1_replaces_exactly_ten_percent_of_letters_keeping_case(seed):
    out = t.replace_characters(PREMISES, random.Random(seed))
    assert out is not None
    changed = 0
    for before, after in zip(PREMISES, out):
        for i in diff_positions(before, after):
            assert before[i].isalpha() and after[i].isalpha()
            assert before[i].isupper() == after[i].isupper()
            assert before[i].lower() != after[i].lower()
            changed += 1
    assert changed == math.ceil(letters(PREMISES) * t.CHAR_RATE)


@pytest.mark.parametrize("seed", range(5))
def test_mr2_deletes_exactly_ten_percent_of_letters_and_nothing_else(seed):
    out = t.delete_characters(PREMISES, random.Random(seed))
    assert out is not None
    k = math.ceil(letters(PREMISES) * t.CHAR_RATE)
    assert sum(map(len, PREMISES)) - sum(map(len, out)) == k
    for before, after in zip(PREMISES, out):
        assert [c for c in before if not c.isalpha()] == [c for c in after if not c.isalpha()]
        removed = Counter(before) - Counter(after)
        assert all(ch.isalpha() for ch in removed) and not (Counter(after) - Counter(before))


@pytest.mark.parametrize("seed", range(5))
def test_mr3_writes_leet_only_for_leetable_letters(seed):
    out = t.leet(PREMISES, random.Random(seed))
    assert out is not None
    eligible = sum(ch.lower() in t.LEET for text in PREMISES for ch in text if ch.isalpha())
    changed = 0
    for before, after in zip(PREMISES, out):
        for i in diff_positions(before, after):
            assert after[i] == t.LEET[before[i].lower()]
            changed += 1
    assert changed == math.ceil(eligible * t.CHAR_RATE)


@pytest.mark.parametrize("seed", range(5))
def test_mr4_inserts_lowercase_letters_after_letters(seed):
    out = t.add_characters(PREMISES, random.Random(seed))
    assert out is not None
    k = math.ceil(letters(PREMISES) * t.CHAR_RATE)
    assert sum(map(len, out)) - sum(map(len, PREMISES)) == k
    for before, after in zip(PREMISES, out):
        added = Counter(after) - Counter(before)
        assert all(ch in "abcdefghijklmnopqrstuvwxyz" for ch in added)
        assert [c for c in before if not c.isalpha()] == [c for c in after if not c.isalpha()]


@pytest.mark.parametrize("seed", range(5))
def test_mr5_splits_words_with_spaces_only(seed):
    out = t.add_spaces(PREMISES, random.Random(seed))
    assert out is not None
    for before, after in zip(PREMISES, out):
        added = Counter(after) - Counter(before)
        assert set(added) <= {" "} and not (Counter(before) - Counter(after))
        # every new space sits between two letters (inside a word)
        assert re.sub(r"(?<=[^\W\d_]) (?=[^\W\d_])", "", after).replace(" ", "") == before.replace(" ", "")
        assert "  " not in after


@pytest.mark.parametrize("seed", range(5))
def test_mr6_swaps_adjacent_different_letters(seed):
    out = t.swap_characters(PREMISES, random.Random(seed))
    assert out is not None
    for before, after in zip(PREMISES, out):
        positions = diff_positions(before, after)
        assert len(positions) % 2 == 0
        for i, j in zip(positions[::2], positions[1::2]):
            assert j == i + 1 and before[i] == after[j] and before[j] == after[i]
            assert before[i].isalpha() and before[j].isalpha()


@pytest.mark.parametrize("seed", range(5))
def test_mr7_shuffles_inner_letters_keeping_word_ends(seed):
    out = t.shuffle_characters(PREMISES, random.Random(seed))
    assert out is not None
    changed_words = 0
    for before, after in zip(PREMISES, out):
        assert len(before) == len(after)
        for w1, w2 in zip(re.finditer(r"\S+", before), re.finditer(r"\S+", after)):
            a, b = w1.group(), w2.group()
            if a != b:
                changed_words += 1
                assert len(a) >= 4 and a[0] == b[0] and a[-1] == b[-1] and sorted(a) == sorted(b)
    assert changed_words >= 1


def test_mr7_always_changes_a_two_letter_interior():
    for seed in range(50):
        assert t.shuffle_characters(["abcd"], random.Random(seed)) == ["acbd"]


def test_mr19_reorders_premises_and_needs_two_sentences():
    out = t.shuffle_sentences(PREMISES, random.Random(3))
    assert out is not None and out != PREMISES and sorted(out) == sorted(PREMISES)
    assert t.shuffle_sentences([CONCLUSION], random.Random(3)) is None
    assert t.shuffle_sentences(["Same.", "Same."], random.Random(3)) is None


def test_mr49_is_the_identity():
    assert t.no_transformation(PREMISES, random.Random(0)) == PREMISES


def test_mr84_appends_one_sentence_sharing_no_word_with_the_case():
    words = t.content_words([*PREMISES, CONCLUSION])
    for seed in range(10):
        out = t.add_irrelevant_sentence(PREMISES, random.Random(seed), words)
        assert out is not None and out[:-1] == PREMISES
        assert out[-1] in t.irrelevant_sentences()
        assert not (t.content_words([out[-1]]) & words)


def test_mr84_has_no_sentence_when_every_one_shares_a_word():
    every_word = t.content_words(t.irrelevant_sentences())
    assert t.add_irrelevant_sentence(["x"], random.Random(0), every_word) is None


def test_mr102_capitalises():
    assert t.capitalise(PREMISES, random.Random(0)) == [p.upper() for p in PREMISES]
    assert t.capitalise(["ALREADY."], random.Random(0)) is None


@pytest.mark.parametrize("seed", range(5))
def test_mr126_hits_neighbouring_keys(seed):
    out = t.keyboard_mistakes(PREMISES, random.Random(seed))
    assert out is not None
    for before, after in zip(PREMISES, out):
        for i in diff_positions(before, after):
            assert after[i].lower() in t.KEYBOARD_NEIGHBOURS[before[i].lower()]
            assert before[i].isupper() == after[i].isupper()


def test_keyboard_neighbours_are_symmetric_letters():
    for key, neighbours in t.KEYBOARD_NEIGHBOURS.items():
        assert neighbours and key not in neighbours
        assert all(key in t.KEYBOARD_NEIGHBOURS[n] for n in neighbours)
    assert set(t.KEYBOARD_NEIGHBOURS["s"]) == set("adwezx")


def ocr_derivable(before: str, after: str) -> bool:
    """Whether `after` is `before` with some characters replaced by one of their OCR confusions."""
    if not before:
        return not after
    head, rest = before[0], before[1:]
    options = (head, *t.OCR_CONFUSIONS.get(head, ()))
    return any(after.startswith(o) and ocr_derivable(rest, after[len(o) :]) for o in options)


@pytest.mark.parametrize("seed", range(5))
def test_mr128_only_makes_ocr_confusions(seed):
    out = t.ocr_errors(PREMISES, random.Random(seed))
    assert out is not None
    for before, after in zip(PREMISES, out):
        words_before, words_after = before.split(" "), after.split(" ")
        assert len(words_before) == len(words_after)  # OCR confusions never add or remove white space
        for a, b in zip(words_before, words_after):
            assert ocr_derivable(a, b), (a, b)


# -------------------------------------------------------------------------------------------- applied to parts


@pytest.mark.parametrize("mr", sorted(set(t.TRANSFORMS) - {"MR-49", "MR-19"}))
@pytest.mark.parametrize("part", ["premises", "conclusion", "both"])
def test_apply_changes_exactly_the_requested_part(mr, part):
    result = t.apply_function(mr, PREMISES, CONCLUSION, part, random.Random(1), style="clean")
    assert isinstance(result, t.FollowUpText), result
    assert (result.premises != tuple(PREMISES)) == (part in ("premises", "both"))
    assert (result.conclusion != CONCLUSION) == (part in ("conclusion", "both"))
    assert result.changed_conclusion == (part != "premises")
    assert result.changed_premises == t.changed_indices(PREMISES, result.premises)


@pytest.mark.parametrize("mr", sorted(set(t.TRANSFORMS) - {"MR-49", "MR-19"}))
@pytest.mark.parametrize("part", ["premises", "conclusion", "both"])
def test_apply_llmorph_changes_only_the_requested_part(mr, part):
    # LLMorph's picks may change nothing on a short conclusion (a leet pick on a consonant): then no follow-up
    results = [t.apply_function(mr, PREMISES, CONCLUSION, part, random.Random(seed)) for seed in range(8)]
    made = [r for r in results if isinstance(r, t.FollowUpText)]
    assert len(made) >= 4, results
    for result in made:
        assert (result.premises != tuple(PREMISES)) == (part in ("premises", "both"))
        assert (result.conclusion != CONCLUSION) == (part in ("conclusion", "both"))
        assert result.changed_premises == t.changed_indices(PREMISES, result.premises)
    for result in results:
        assert isinstance(result, t.FollowUpText) or result.reason.startswith("nothing to change")


@pytest.mark.parametrize("style", t.STYLES)
@pytest.mark.parametrize("mr", ["MR-1", "MR-6", "MR-7", "MR-126", "MR-128"])
def test_apply_is_deterministic_per_seed(mr, style):
    runs = {t.apply_function(mr, PREMISES, CONCLUSION, "both", random.Random(5), style=style) for _ in range(3)}
    assert len(runs) == 1


def test_mr19_on_the_conclusion_shuffles_its_sentences():
    result = t.apply_function("MR-19", PREMISES, TWO_SENTENCES, "conclusion", random.Random(0))
    assert isinstance(result, t.FollowUpText)
    assert result.conclusion == "Bob is quiet. Alice is patient."
    assert t.apply_function("MR-19", PREMISES, CONCLUSION, "conclusion", random.Random(0)) == t.NotApplicable(
        "nothing to change in the conclusion"
    )
    assert isinstance(t.apply_function("MR-19", PREMISES, CONCLUSION, "both", random.Random(0)), t.NotApplicable)


def test_mr84_both_appends_two_different_sentences():
    result = t.apply_function("MR-84", PREMISES, CONCLUSION, "both", random.Random(2))
    assert isinstance(result, t.FollowUpText)
    assert result.premises[:-1] == tuple(PREMISES) and result.changed_premises == (len(PREMISES),)
    added = result.conclusion.removeprefix(CONCLUSION + " ")
    assert added in t.irrelevant_sentences() and added != result.premises[-1]


def test_mr49_ignores_the_part():
    assert t.apply_function("MR-49", PREMISES, CONCLUSION, "none", random.Random(0)) == t.FollowUpText(
        tuple(PREMISES), CONCLUSION, (), False
    )


def test_apply_rejects_unknown_relation_and_part():
    with pytest.raises(ValueError, match="not a function-based relation"):
        t.apply_function("MR-51", PREMISES, CONCLUSION, "premises", random.Random(0))
    with pytest.raises(ValueError, match="part="):
        t.apply_function("MR-1", PREMISES, CONCLUSION, "context", random.Random(0))
    with pytest.raises(ValueError, match="style="):
        t.apply_function("MR-1", PREMISES, CONCLUSION, "premises", random.Random(0), style="paper")


@pytest.mark.parametrize("style", t.STYLES)
def test_nothing_to_change_is_reported(style):
    assert t.apply_function("MR-3", ["Bbb."], "Ccc.", "premises", random.Random(0), style=style) == t.NotApplicable(
        "nothing to change in the premises"
    )
