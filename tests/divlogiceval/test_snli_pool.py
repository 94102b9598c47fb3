"""The SNLI pool: the authors' filter and negation rules (offline tagger), exact negations, shipped file, picking."""

from __future__ import annotations

import json
import random
from importlib import resources
from pathlib import Path

import pytest

from lgmt_tasks.divlogiceval.build import DivLogicEvalConfig, build_divlogiceval
from lgmt_tasks.divlogiceval.english import (
    MAX_WORDS,
    PoolSentence,
    builtin_pool,
    canonical_pool_name,
    load_pool,
    pick_sentences,
    snli_pool,
    snli_pool_document,
)
from lgmt_tasks.divlogiceval.snli import Derived, derive, dumps, negation_is_exact, pool_document

SOURCE = Path(__file__).parents[2].parent / "shared" / "data" / "snli_glockner" / "dataset.jsonl"
SHIPPED = resources.files("lgmt_tasks.divlogiceval").joinpath("data/snli_pool.json")


def kept(sentence: str) -> Derived:
    result = derive(sentence)
    assert isinstance(result, Derived), (sentence, result)
    return result


# ------------------------------------------------------------------------------------------------------ filter


@pytest.mark.parametrize(
    ("sentence", "reason"),
    [
        ("A man, tired and old, is sleeping.", "authors: contains ; ( , or ?"),
        ("A man is sleeping (on a bench).", "authors: contains ; ( , or ?"),
        ("Is a man sleeping on a bench?", "authors: contains ; ( , or ?"),
        ("A dog barks if the mailman comes.", "authors: contains if"),
        ("If it rains the dog is sleeping.", "authors: contains if"),
        ("A man is holding a bag and waving at a friend.", "authors: more than one verb"),
        ("A man sits on a bench reading a book.", "authors: more than one verb"),
        ("A man in a blue shirt near a truck.", "authors: no verb"),
        ("Wow a dog is catching a frisbee.", "authors: starts with an interjection"),
        ("A man is not holding a saxophone.", "already contains a negation word"),
        ("Nobody is swimming in the lake.", "already contains a negation word"),
        ("A woman never eats meat.", "already contains a negation word"),
        ("Dogs run.", f"length outside 3..{MAX_WORDS} words"),
        ("A man " + "with a hat " * 10 + "is sleeping.", f"length outside 3..{MAX_WORDS} words"),
        ("A man is sleeping. A dog barks.", "more than one sentence"),
        ("A man's dog is sleeping.", "other punctuation or symbol (quotes, apostrophes, colons, ...)"),
        ("A man is sleeping while a dog barks.", "subordinating word (a second clause)"),
        ("The girl is near the bike and is wearing a dress.", "a second auxiliary (a second clause)"),
        ("The kids are dating and she is happy.", "a second auxiliary (a second clause)"),
        ("The woman is holding her dog and very happy.", "and / or / but in the predicate, not before a noun phrase"),
        ("A man walking down the street.", "no finite verb (a participle without an auxiliary)"),
        ("A woman dressed in red.", "tagger: past tense or participle unclear"),
        ("A man put a hat on the table.", "tagger: past tense or participle unclear"),
        ("The three men leaped in the air.", "tagger: noun or verb unclear"),  # lemminflect inflects "leapt"
        ("A man in a cave stands near a fire.", "tagger: noun or verb unclear"),
    ],
)
def test_each_filter_rule_drops_its_case(sentence: str, reason: str):
    assert derive(sentence) == reason


# ---------------------------------------------------------------------------------------------------- negation


@pytest.mark.parametrize(
    ("sentence", "negation"),
    [
        ("The man is holding a saxophone.", "The man is not holding a saxophone."),  # after the auxiliary
        ("Two women are drinking beer.", "Two women are not drinking beer."),
        ("The sign is written in Spanish.", "The sign is not written in Spanish."),  # a passive
        ("A man has painted a fence.", "A man has not painted a fence."),  # have + participle: an auxiliary
        ("A girl walks across the sand.", "A girl does not walk across the sand."),  # third person present
        ("Several women stand on a platform.", "Several women do not stand on a platform."),  # plural present
        ("The three men swam in the lake.", "The three men did not swim in the lake."),  # past (irregular)
        ("A boy ate a sandwich.", "A boy did not eat a sandwich."),
        ("The person near the front has a red shirt.", "The person near the front does not have a red shirt."),
        ("A man attempts to fix a bike.", "A man does not attempt to fix a bike."),  # "to" + verb does not count
    ],
)
def test_negation_by_the_authors_rules_in_full_forms(sentence: str, negation: str):
    entry = kept(sentence)
    assert entry.negation == negation
    assert negation_is_exact(sentence, negation)


def test_topic_words_are_content_lemmas():
    assert kept("Two women are drinking beer.").topic_words == ("beer", "drink", "woman")
    assert kept("A girl walks across the sand.").topic_words == ("girl", "sand", "walk")


@pytest.mark.parametrize(
    ("sentence", "negation"),
    [
        ("The man is holding a saxophone.", "The man is not holding a sax."),  # a word changed
        ("The man is holding a saxophone.", "The man is not not holding a saxophone."),  # two insertions
        ("The man is holding a saxophone.", "The man not is holding a saxophone."),  # not after the auxiliary
        ("The man is holding a saxophone.", "The man is holding not a saxophone."),
        ("The man is holding a saxophone.", "The man isn't holding a saxophone."),  # a contraction
        ("The man is holding a saxophone.", "The man is not holding a saxophone"),  # punctuation lost
        ("A girl walks across the sand.", "A girl do not walk across the sand."),  # wrong do-form
        ("A girl walks across the sand.", "A girl did not walk across the sand."),
        ("A girl walks across the sand.", "A girl does not walks across the sand."),  # not the lemma
        ("A girl walks across the sand.", "A girl does not run across the sand."),  # another verb
        ("A girl walks across the sand.", "A girl does walk across the sand."),  # no "not"
        ("A girl walked across the sand.", "A girl does not walk across the sand."),  # a past as a present
        ("A girl walks across the sand.", "A girl walks not across the sand."),  # no auxiliary to follow
        ("The man is holding a saxophone.", "The man does not is holding a saxophone."),  # do-support with an aux
        ("A man is not sleeping.", "A man is not not sleeping."),  # the sentence was negated already
        ("The girl is near a bike and is wearing a hat.", "The girl is not near a bike and is wearing a hat."),
        ("The kids are dating and she is happy.", "The kids are not dating and she is happy."),
    ],
)
def test_negation_is_exact_rejects(sentence: str, negation: str):
    assert not negation_is_exact(sentence, negation)


def test_negation_is_exact_accepts_the_two_rules():
    assert negation_is_exact("The man is holding a saxophone.", "The man is not holding a saxophone.")
    assert negation_is_exact("A girl walks across the sand.", "A girl does not walk across the sand.")
    assert negation_is_exact("Two girls walk across the sand.", "Two girls do not walk across the sand.")
    assert negation_is_exact("Two girls walked across the sand.", "Two girls did not walk across the sand.")


# ------------------------------------------------------------------------------------------------ shipped file


@pytest.fixture(scope="module")
def document() -> dict[str, object]:
    return snli_pool_document()


def test_every_shipped_entry_is_exactly_negated(document):
    entries = document["sentences"]
    assert isinstance(entries, list) and len(entries) >= 400
    for entry in entries:
        assert negation_is_exact(entry["sentence"], entry["negation"]), entry
        assert entry["topic_words"] and entry["topic_words"] == sorted(set(entry["topic_words"]))
        assert entry["glockner_pair_ids"]
    sentences = [e["sentence"] for e in entries]
    assert sentences == sorted(set(sentences))
    keys = [s.rstrip(".").casefold() for s in sentences]
    assert len(set(keys)) == len(keys)


def test_shipped_counts_add_up(document):
    counts = document["counts"]
    assert counts["premises_read"] == 1796 and counts["rows_read"] == 8193
    assert counts["kept"] == len(document["sentences"])
    assert counts["kept"] + sum(counts["dropped"].values()) == counts["premises_read"]


def test_attribution_and_licence_travel_with_the_pool(document):
    assert "Glockner" in document["attribution"] and "Bowman" in document["attribution"]
    assert any("glockner_acl18" in c for c in document["citations"])
    assert any("snli:emnlp2015" in c for c in document["citations"])
    licence = document["licence"]
    assert licence["name"] == "CC BY-SA 4.0"
    assert licence["url"] == "https://creativecommons.org/licenses/by-sa/4.0/"
    assert "same licence" in licence["note"]
    assert "lgmt_tasks.divlogiceval.snli" in document["derived_by"]


@pytest.mark.skipif(not SOURCE.is_file(), reason="../shared/data/snli_glockner is absent")
def test_rederiving_gives_the_shipped_file_byte_for_byte():
    assert dumps(pool_document(SOURCE)) == SHIPPED.read_text(encoding="utf-8")


# ----------------------------------------------------------------------------------------------- names, picking


def test_named_pools_and_the_default():
    snli, report = load_pool(None)
    assert snli == list(snli_pool()) and report.kept == len(snli)
    assert load_pool("snli")[0] == snli
    assert load_pool("frames")[0] == load_pool("builtin")[0] == list(builtin_pool())
    assert [canonical_pool_name(p) for p in (None, "snli", "frames", "builtin")] == ["snli", "snli", "frames", "frames"]
    with pytest.raises(ValueError, match="named pools are snli"):
        load_pool("snlii")


def test_pick_sentences_keeps_the_plain_sample_when_nothing_overlaps():
    pool = builtin_pool()[:50]
    assert pick_sentences(pool, 8, random.Random(3)) == random.Random(3).sample(list(pool), 8)


def test_pick_sentences_never_repeats_a_topic_word():
    pool = snli_pool()
    for seed in range(200):
        picked = pick_sentences(pool, 8, random.Random(seed))
        words = [w for entry in picked for w in entry.topic_words]
        assert len(words) == len(set(words)), seed
        assert picked == pick_sentences(pool, 8, random.Random(seed))  # deterministic


def test_pick_sentences_says_when_it_cannot():
    pool = [PoolSentence(f"A man sits on bench {i}.", f"A man does not sit on bench {i}.", topic_words=("man",))
            for i in range(10)]  # fmt: skip
    with pytest.raises(ValueError, match="no 2 entries without a shared topic word"):
        pick_sentences(pool, 2, random.Random(0))


@pytest.fixture(scope="module")
def small_build_rows() -> list[dict[str, object]]:
    return [dict(r) for r in build_divlogiceval(DivLogicEvalConfig(per_type=3, seed=5)).dataset]


def test_the_variables_of_a_built_instance_share_no_topic_word(small_build_rows):
    topics = {entry.sentence: entry.topic_words for entry in snli_pool()}
    assert small_build_rows
    for row in small_build_rows:
        assert row["pool"] == "snli"
        words = [w for variable in row["variables"] for w in topics[variable["sentence"]]]  # type: ignore[attr-defined]
        assert len(words) == len(set(words)), row["id"]
        negations = {v["sentence"]: v["negation"] for v in row["variables"]}  # type: ignore[attr-defined]
        assert all(negation_is_exact(s, n) for s, n in negations.items())


def test_the_shipped_file_is_valid_json_with_one_entry_a_line():
    text = SHIPPED.read_text(encoding="utf-8")
    assert json.loads(text) == snli_pool_document()
    assert text.count('{"glockner_pair_ids"') == len(snli_pool())
