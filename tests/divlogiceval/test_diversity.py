"""Lexical statistics (§3.2, Table 5) and the lexical diversity of the builtin pool in built instances."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from lgmt_tasks.divlogiceval.build import DivLogicEvalConfig, build_divlogiceval
from lgmt_tasks.divlogiceval.diversity import (
    CLOSED_CLASS,
    FUNCTION_WORDS,
    fixed_text_words,
    frame_slot_fillers,
    kl_divergence,
    lexical_statistics,
    rarefied_types,
    read_sentences,
    renderings_per_variable,
    scaled_reference,
    skeleton,
    skeleton_statistics,
    variable_sentences,
    vocabulary_sources,
    words,
)
from lgmt_tasks.divlogiceval.english import QUESTIONS, builtin_pool, generate_pool, lexicon, templates


def test_words_are_nltk_tokens_with_a_letter_lower_cased():
    assert words('Nobody wrote a poem titled "The Odd Kettle", didn\'t they? 42. The mat.') == [
        "nobody", "wrote", "a", "poem", "titled", "the", "odd", "kettle", "did", "n't", "they", "the", "mat",
    ]  # fmt: skip
    assert words("The cat sat on the mat. A dog ran.") == ["the", "cat", "sat", "on", "the", "mat", "a", "dog", "ran"]


def test_lexical_statistics_counts_content_question_and_options():
    rows = [
        {"content": "The cat sleeps.", "question": "Which is true?", "options": ["A dog barks.", "The cat sleeps."]},
        {"content": "It rains.", "question": "Which is true?", "options": ["The sun shines."], "id": "ignored words"},
    ]
    stats = lexical_statistics(rows)
    assert stats["rows"] == 2
    assert stats["tokens"] == 3 + 3 + 3 + 3 + 2 + 3 + 3
    assert stats["vocabulary_size"] == len({"the", "cat", "sleeps", "which", "is", "true", "a", "dog", "barks"} | {
        "it", "rains", "sun", "shines"})  # fmt: skip
    assert "kl_to_reference" not in stats
    assert stats["hapax"] == sum(1 for c in Counter(w for r in rows for w in words(
        " ".join([r["content"], r["question"], *r["options"]]))).values() if c == 1)  # fmt: skip


def test_kl_divergence_is_zero_for_equal_distributions_and_grows_with_difference():
    p = {"a": 10, "b": 10}
    assert kl_divergence(p, {"a": 5, "b": 5}) == pytest.approx(0.0)
    near = kl_divergence(p, {"a": 12, "b": 8})
    far = kl_divergence(p, {"a": 19, "b": 1})
    assert 0 < near < far
    # the definition, on smoothed counts: sum of p ln(p / q)
    ps, qs = [11 / 22, 11 / 22], [20 / 22, 2 / 22]
    assert far == pytest.approx(sum(x * math.log(x / y) for x, y in zip(ps, qs)))
    assert math.isfinite(kl_divergence({"a": 1}, {"b": 1}))  # smoothing: disjoint supports stay finite
    with pytest.raises(ValueError, match="alpha"):
        kl_divergence(p, p, alpha=0)
    with pytest.raises(ValueError, match="P has no words"):
        kl_divergence({}, p)


def test_reference_is_scaled_to_a_same_size_sample():
    scaled = scaled_reference({"the": 0.5, "cat": 0.4, "aardvark": 0.0001}, tokens=100)
    assert scaled == pytest.approx({"the": 50.0 / 0.9001, "cat": 40.0 / 0.9001})  # the rare word is left out


def test_a_text_like_its_reference_is_closer_than_a_repetitive_one():
    reference = {"the": 6.0, "a": 3.0, "cat": 1.0, "dog": 1.0, "sat": 1.0, "ran": 1.0, "on": 2.0, "mat": 1.0}
    natural = [{"content": "The cat sat on the mat. A dog ran on the mat."}]
    repetitive = [{"content": "Dog dog dog dog dog dog dog dog dog dog dog dog."}]
    assert (
        lexical_statistics(natural, reference)["kl_to_reference"]
        < lexical_statistics(repetitive, reference)["kl_to_reference"]
    )


@pytest.fixture(scope="module")
def built_rows() -> list[dict[str, object]]:
    """A small build with the frame pool (`builtin`: its name before and after the SNLI pool became the default)."""
    return list(build_divlogiceval(DivLogicEvalConfig(per_type=6, seed=11, pool="frames")).dataset)


def test_variables_of_an_instance_never_share_a_topic_word(built_rows):
    topics = {entry.sentence: set(entry.topic_words) for entry in builtin_pool()}
    for row in built_rows:
        seen: set[str] = set()
        for variable in row["variables"]:  # type: ignore[attr-defined]
            mine = topics[variable["sentence"]]
            assert not mine & seen, (row["id"], mine & seen)
            seen |= mine


def test_variables_are_said_in_several_ways_within_an_instance(built_rows):
    forms = {e.sentence: e.positive_forms() + e.negative_forms() for e in builtin_pool()}
    assert renderings_per_variable(built_rows, forms) > 1.5
    # with one rendering per variable (a user pool), the same measure is at most 2 (sentence and negation)
    single = {sentence: rendered[:1] for sentence, rendered in forms.items()}
    assert renderings_per_variable(built_rows, single) <= 1.0


def test_a_small_build_is_already_lexically_rich(built_rows):
    stats = lexical_statistics(built_rows)
    # 18 questions: every variable brings three nouns of its own (about 6 variables an instance)
    assert stats["vocabulary_size"] > 18 * 6 * 3


# ------------------------------------------------------------------------------------------------ skeletons


def test_sentences_differing_only_in_content_words_share_a_skeleton():
    assert skeleton("The cat sat on the mat.") == skeleton("The old dog slept quietly on the sofa.") == "the X on the X"
    assert skeleton("A nurse wrote an essay.") == skeleton("An actor painted a mural.") == "a X a X"  # a/an alike
    assert skeleton("Nobody can't see 42 stars.") == "nobody ca n't X"  # negation and modals stay, numbers are X


def test_a_different_construction_has_a_different_skeleton():
    shapes = {
        skeleton("The cat sat on the mat."),
        skeleton("If it rains, the match is cancelled."),
        skeleton("The cat sat under the mat."),
        skeleton("The cat did not sit on the mat."),
        skeleton("There is a cat who sat on the mat."),
        skeleton("The cat sat on the mat, and the dog barked."),
    }
    assert len(shapes) == 6
    assert skeleton("If it rains, the match is cancelled.") == "if it X , the X is X"


def test_the_closed_class_list_is_closed_and_lower_case():
    assert set(CLOSED_CLASS) == {
        "determiners", "prepositions", "pronouns", "auxiliaries_and_modals", "conjunctions", "particles", "negation",
    }  # fmt: skip
    assert all(w == w.lower() and " " not in w for w in FUNCTION_WORDS)
    assert not {"cat", "sat", "titled", "compares", "wrote", "happy"} & FUNCTION_WORDS


def test_skeleton_statistics_count_shapes_and_the_share_of_the_commonest():
    sentences = [f"The {n} sat on the mat." for n in ("cat", "dog", "cow", "hen")] + [
        "If it rains, the match is cancelled.", "Nobody came.",
    ]  # fmt: skip
    stats = skeleton_statistics(sentences, top=1, sample=6)
    assert stats["sentences"] == 6 and stats["skeletons"] == 3
    assert stats["top1_share"] == pytest.approx(4 / 6, abs=1e-4)
    assert stats["skeletons_in_6"] == pytest.approx(3.0)  # the whole set
    assert stats["most_common"][0] == ["the X on the X", 4]


def test_rarefaction_is_the_expected_number_of_types_in_a_smaller_sample():
    counts = {"a": 2, "b": 1, "c": 1}
    assert rarefied_types(counts, 4) == pytest.approx(3.0)
    assert rarefied_types(counts, 1) == pytest.approx(1.0)
    # two of four items: type a is missed with probability C(2,2)/C(4,2) = 1/6, b and c with C(3,2)/C(4,2) = 1/2
    assert rarefied_types(counts, 2) == pytest.approx(round(5 / 6 + 0.5 + 0.5, 1))
    assert rarefied_types(counts, 5) is None


def test_read_sentences_are_the_distinct_sentences_of_content_question_and_options():
    rows = [
        {"content": "The cat sleeps. A dog barks.", "question": "Which is true?", "options": ["It rains."]},
        {"content": "The cat sleeps.  A dog barks.", "question": "Which is true?", "options": ["It snows."]},
    ]
    assert read_sentences(rows) == ["The cat sleeps.", "A dog barks.", "Which is true?", "It rains.", "It snows."]


# ----------------------------------------------------------------------------- fixed text vs variable material

_FRAME = 'A nurse wrote a poem titled "The Odd Kettle" that compares the walrus to the anvil.'


def test_frame_slot_fillers_are_the_title_words_and_the_compared_nouns():
    assert frame_slot_fillers(_FRAME) == {"odd", "kettle", "walrus", "anvil"}
    passive = 'No poem titled "The Teeny-Tiny Kettle" comparing the walrus to the anvil was written by any nurse.'
    assert frame_slot_fillers(passive) == {"teeny-tiny", "kettle", "walrus", "anvil"}
    assert frame_slot_fillers("The cat sat on the mat.") is None


def test_types_outside_templates_exclude_template_and_frame_words():
    if_then = next(t.text for t in templates()["implication"] if t.id == "imp-if-then")
    content = if_then.format(p="the walrus sleeps", q="the anvil glows")
    question = QUESTIONS["3c1e"][0]
    plain = [{"content": content, "question": question}]
    sources = vocabulary_sources(plain)
    fixed = fixed_text_words(plain)
    assert {"if", "then", "which", "conclusion", "accurate"} <= fixed
    assert not {"walrus", "sleeps", "anvil", "glows"} & fixed
    # "the" is template text too (in the question wording and in templates), so the variable words are exactly these
    assert sources["types_from_variable_material"] == len({"walrus", "sleeps", "anvil", "glows"})
    assert sources["types_from_fixed_text"] + sources["types_from_variable_material"] == sources["vocabulary_size"]
    # a frame-pool row: the frame's words and its hand-written subject, verb and work count as fixed, fillers do not
    framed = [{"content": _FRAME, "variables": [{"sentence": _FRAME, "negation": "No" + _FRAME[1:]}]}]
    assert {"titled", "compares", "nurse", "wrote", "poem", "to"} <= fixed_text_words(framed)
    assert "titled" not in fixed and "nurse" not in fixed  # only frame rows bring frame words
    assert vocabulary_sources(framed)["types_from_variable_material"] == 4  # odd, kettle, walrus, anvil


_NATURAL = [
    "Several women stand on a platform near the yellow line.",
    "A man in a red shirt is riding a bicycle down the street.",
    "Two children are playing with a ball in the park.",
    "The dog jumped over the fence to catch the frisbee.",
    "An elderly couple sits on a bench and watches the sunset.",
    "People are waiting for the bus while it rains.",
    "A girl wearing a helmet skates past the fountain.",
    "The chef is chopping onions in a busy kitchen.",
    "Because the road was closed, the drivers took a detour.",
    "She smiled at the camera.",
    "Workers have repaired the bridge since Monday.",
    "A crowd gathered to hear the band play.",
    "The boy who lost his kite is crying.",
    "Nobody noticed the cat sleeping under the car.",
    "Musicians perform outdoors during the summer festival.",
    "If the weather holds, they will climb the mountain tomorrow.",
    "A woman and her son are baking cookies together.",
    "The surfer rides a huge wave.",
    "Three men push a stalled truck up the hill.",
    "There is a puppy chewing on a shoe.",
    "The students listened carefully as the teacher explained the problem.",
    "A toddler laughs.",
    "Fishermen are unloading their catch at the harbor.",
    "The painter has not finished the mural yet.",
    "Someone left an umbrella by the door.",
    "Tourists photograph the old cathedral from across the square.",
    "The runners were exhausted after the marathon.",
    "A horse pulls a cart through the snowy village.",
    "He can barely see the stage from his seat.",
    "Children in costumes march down the avenue, waving flags.",
]


def test_frame_variable_sentences_have_far_fewer_shapes_than_natural_sentences():
    pool = generate_pool(lexicon())[:15]
    rows = [{"variables": [{"sentence": e.sentence, "negation": e.negation} for e in pool]}]
    framed = variable_sentences(rows)
    assert len(framed) == len(_NATURAL) == 30
    frame_shapes = skeleton_statistics(framed)["skeletons"]
    natural_shapes = skeleton_statistics(_NATURAL)["skeletons"]
    assert frame_shapes <= 8 < 25 <= natural_shapes, (frame_shapes, natural_shapes)
    assert skeleton_statistics(framed)["top10_share"] == 1.0


# ------------------------------------------------------------------------------ the committed default build


COMMITTED_VOCABULARY = 5555
"""The default build's word types, lower-cased, as the README's diversity table counts them (`lexical_statistics`)."""
PAPER_VOCABULARY = 6748
"""Table 5: the word types of the paper's 900-question test set."""


def test_the_committed_build_has_the_measured_vocabulary_and_the_pools_cannot_reach_the_paper():
    """The default build's word types (README, Lexical diversity) and the ceiling every pool's words set: with
    every sentence and negation of a pool and the fixed text, `snli` has 5,032 types and `snli+coco` 5,884, both
    below Table 5's 6,748; the build reaches most of the `snli+coco` ceiling."""
    from pathlib import Path

    from lgmt_tasks.divlogiceval.english import snli_coco_pool, snli_pool
    from lgmt_tasks.hub.repo import load_dataset_repo

    rows = list(load_dataset_repo(Path(__file__).parents[2] / "datasets" / "divlogiceval", "default", "test"))
    fixed = fixed_text_words(rows)
    ceilings = {}
    for name, pool in (("snli", snli_pool()), ("snli+coco", snli_coco_pool())):
        ceilings[name] = len(fixed | {w for e in pool for text in (e.sentence, e.negation) for w in words(text)})
    assert ceilings == {"snli": 5032, "snli+coco": 5884}
    assert max(ceilings.values()) < PAPER_VOCABULARY
    stats = lexical_statistics(rows)
    assert stats["vocabulary_size"] == COMMITTED_VOCABULARY
    assert stats["vocabulary_size"] >= 0.9 * ceilings["snli+coco"]
