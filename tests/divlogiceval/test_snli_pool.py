"""The SNLI pools: the authors' filter and negation rules (offline tagger), exact negations, e-SNLI detokenization,
origins and pair groups, shipped files, picking and the build's sentence plan."""

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
    coco_pool_document,
    load_pool,
    pick_sentences,
    sentence_plan,
    snli_coco_pool,
    snli_pool,
    snli_pool_document,
)
from lgmt_tasks.divlogiceval.snli import (
    ESNLI_FILES,
    Derived,
    coco_document,
    derive,
    describe_origin,
    detokenize,
    dumps,
    esnli_sentences,
    negation_is_exact,
    pool_document,
)

DATA = Path(__file__).parents[2].parent / "shared" / "data"
SOURCE = DATA / "snli_glockner" / "dataset.jsonl"
SHIPPED = resources.files("lgmt_tasks.divlogiceval").joinpath("data/snli_pool.json")
SHIPPED_COCO = resources.files("lgmt_tasks.divlogiceval").joinpath("data/coco_pool.json")
needs_shared = pytest.mark.skipif(
    not (SOURCE.is_file() and (DATA / "snli_esnli" / "s1.dev").is_file()), reason="../shared/data is absent"
)


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


# ------------------------------------------------------------------------------------------ e-SNLI detokenization


@pytest.mark.parametrize(
    ("line", "text"),
    [
        (
            "Two women are embracing while holding to go packages . ",
            "Two women are embracing while holding to go packages.",
        ),
        ("A dog runs on the beach ! ", "A dog runs on the beach!"),
        ("A man is sleeping ", "A man is sleeping"),  # no final mark: normalise adds the stop
        ("A man , tired , is sleeping . ", "A man , tired , is sleeping."),  # inner marks stay: the filter drops them
        ("A man 's dog do n't bark . ", "A man 's dog do n't bark."),
        ("  A   man   sleeps .", "A man sleeps."),
    ],
)
def test_detokenize_removes_only_the_space_before_the_final_mark(line: str, text: str):
    assert detokenize(line) == text


def test_a_sentence_with_tokenized_inner_marks_is_dropped_whatever_its_spacing():
    for line in ("A man , tired , is sleeping . ", "A man 's dog is sleeping . ", "The boy do n't sleep . "):
        assert isinstance(derive(detokenize(line)), str)


def test_esnli_lines_keep_their_file_line_and_pair_group():
    files = {
        "s1.dev": "A man sleeps on a bench . \nA man sleeps on a bench . \nTwo dogs run . \n",
        "s2.dev": "A person sleeps . \nA man is awake . \nAnimals run . \n",
    }
    read = esnli_sentences(files)
    assert [(x.text, x.origin, x.pair) for x in read] == [
        ("A man sleeps on a bench.", "s1.dev:1", "snli:s1.dev:1"),
        ("A man sleeps on a bench.", "s1.dev:2", "snli:s1.dev:1"),
        ("Two dogs run.", "s1.dev:3", "snli:s1.dev:3"),
        ("A person sleeps.", "s2.dev:1", "snli:s1.dev:1"),
        ("A man is awake.", "s2.dev:2", "snli:s1.dev:1"),
        ("Animals run.", "s2.dev:3", "snli:s1.dev:3"),
    ]
    assert describe_origin("s2.dev:2") == "snli_esnli/s2.dev line 2 (SNLI dev hypothesis)"
    assert describe_origin("s1.test:7") == "snli_esnli/s1.test line 7 (SNLI test premise)"
    assert describe_origin("glockner:3107").startswith("snli_glockner/dataset.jsonl pairID 3107")


@needs_shared
def test_detokenized_kept_sentences_tokenize_back_to_their_esnli_lines():
    """The check of the detokenization: PTB-tokenizing a kept sentence as read gives its e-SNLI line back, token for
    token (NLTK's Treebank tokenizer, which needs no download), and the sentences e-SNLI shares with Breaking NLI's
    untokenized ones (`sentence1` or `sentence2`; three, up to a final stop) read the same."""
    from nltk.tokenize import TreebankWordTokenizer

    lines = {
        f"{name}:{number}": line
        for name in ESNLI_FILES
        for number, line in enumerate((DATA / "snli_esnli" / name).read_text(encoding="utf-8").splitlines(), 1)
    }
    tokenizer = TreebankWordTokenizer()
    checked = 0
    for entry in snli_pool_document()["sentences"]:
        for origin in entry["origins"]:
            if origin.startswith("glockner:"):
                continue
            line = lines[origin]
            text = detokenize(line)
            assert tokenizer.tokenize(text) == line.split(), origin
            assert text.replace(" ", "") == line.replace(" ", "")  # only spaces differ
            checked += 1
    assert checked > 13_000
    rows = [json.loads(row) for row in SOURCE.read_text(encoding="utf-8").splitlines()]
    glockner = {row[key] for row in rows for key in ("sentence1", "sentence2")}
    read = {detokenize(line) for line in lines.values()}
    assert read & glockner == {"They are in Japan.", "The man is holding an instrument."}
    assert read & {f"{text}." for text in glockner} == {"The woman is very happy."}  # Glockner has no final stop


# ------------------------------------------------------------------------------------------------ shipped file


@pytest.fixture(scope="module")
def document() -> dict[str, object]:
    return snli_pool_document()


def test_every_shipped_entry_is_exactly_negated(document):
    for pool in (document, coco_pool_document()):
        entries = pool["sentences"]
        assert isinstance(entries, list) and len(entries) >= 3000
        for entry in entries:
            assert negation_is_exact(entry["sentence"], entry["negation"]), entry
            assert entry["topic_words"] and entry["topic_words"] == sorted(set(entry["topic_words"]))
            assert entry["origins"] and entry["pairs"] == sorted(set(entry["pairs"]))
        sentences = [e["sentence"] for e in entries]
        assert sentences == sorted(set(sentences))
        keys = [s.rstrip(".").casefold() for s in sentences]
        assert len(set(keys)) == len(keys)


def test_shipped_counts_add_up(document):
    counts = document["counts"]
    assert counts["read"] == {
        "glockner": 8193, "s1.dev": 9842, "s1.test": 9824, "s2.dev": 9842, "s2.test": 9824
    }  # fmt: skip
    assert counts["kept"] == len(document["sentences"]) == 11191
    assert counts["kept"] + sum(counts["dropped"].values()) == counts["distinct_read"]
    assert counts["kept_by_origin"] == {"Glockner premise": 572, "SNLI hypothesis": 9405, "SNLI premise": 1224}
    coco = coco_pool_document()["counts"]
    assert coco["read"] == {"coco": 25014} and coco["kept"] == 3698
    assert coco["kept"] + sum(coco["dropped"].values()) == coco["distinct_read"]


def test_every_snli_hypothesis_is_in_its_premises_pair_group(document):
    for entry in document["sentences"]:
        snli = [o for o in entry["origins"] if not o.startswith("glockner:")]
        if snli:
            assert entry["pairs"] and all(p.startswith("snli:s1.") for p in entry["pairs"])
            splits = {o.split(":")[0].split(".")[1] for o in snli}
            assert {p.split(":")[1].split(".")[1] for p in entry["pairs"]} == splits
        else:
            assert entry["pairs"] == []  # Glockner's premises have no mate in the pool


def test_attribution_and_licence_travel_with_the_pool(document):
    assert "Glockner" in document["attribution"] and "Bowman" in document["attribution"]
    assert "e-SNLI" in document["attribution"]
    assert any("glockner_acl18" in c for c in document["citations"])
    assert any("snli:emnlp2015" in c for c in document["citations"])
    assert any("camburu2018esnli" in c for c in document["citations"])
    licence = document["licence"]
    assert licence["name"] == "CC BY-SA 4.0"
    assert licence["url"] == "https://creativecommons.org/licenses/by-sa/4.0/"
    assert "same licence" in licence["note"]
    assert "lgmt_tasks.divlogiceval.snli" in document["derived_by"]
    coco = coco_pool_document()
    assert coco["licence"]["name"] == "CC BY 4.0" and "COCO" in coco["attribution"]
    assert any("lin2014coco" in c for c in coco["citations"])


@needs_shared
def test_rederiving_gives_the_shipped_files_byte_for_byte():
    assert dumps(pool_document(DATA)) == SHIPPED.read_text(encoding="utf-8")
    assert dumps(coco_document(DATA)) == SHIPPED_COCO.read_text(encoding="utf-8")


# ----------------------------------------------------------------------------------------------- names, picking


def test_named_pools_and_the_default():
    default, report = load_pool(None)
    assert default == list(snli_coco_pool()) and report.kept == len(default)
    assert load_pool("snli+coco")[0] == default
    assert load_pool("snli")[0] == list(snli_pool())
    assert default[: len(snli_pool())] == list(snli_pool()) and len(default) == 11191 + 3698 - 1  # one shared text
    assert load_pool("frames")[0] == load_pool("builtin")[0] == list(builtin_pool())
    assert [canonical_pool_name(p) for p in (None, "snli", "snli+coco", "frames", "builtin")] == [
        "snli+coco", "snli", "snli+coco", "frames", "frames"
    ]  # fmt: skip
    with pytest.raises(ValueError, match="named pools are snli"):
        load_pool("snlii")


def test_pick_sentences_keeps_the_plain_sample_when_nothing_overlaps():
    pool = builtin_pool()[:50]
    assert pick_sentences(pool, 8, random.Random(3)) == random.Random(3).sample(list(pool), 8)


def test_pick_sentences_never_repeats_a_topic_word_or_a_pair():
    pool = snli_coco_pool()
    plan = sentence_plan(pool, 0)
    for seed in range(200):
        for candidates in (None, plan[seed::900]):
            picked = pick_sentences(pool, 8, random.Random(seed), candidates)
            words = [w for entry in picked for w in entry.topic_words]
            assert len(words) == len(set(words)), seed
            pairs = [p for entry in picked for p in entry.pairs]
            assert len(pairs) == len(set(pairs)), seed
            assert picked == pick_sentences(pool, 8, random.Random(seed), candidates)  # deterministic


def test_a_pair_group_is_exclusive_even_without_shared_words():
    premise = PoolSentence("A man sleeps.", "A man does not sleep.", topic_words=("man", "sleep"), pairs=("g",))
    hypothesis = PoolSentence("Someone rests.", "Someone does not rest.", topic_words=("rest",), pairs=("g",))
    other = PoolSentence("Two cats purr.", "Two cats do not purr.", topic_words=("cat", "purr"))
    for seed in range(20):
        picked = pick_sentences([premise, hypothesis, other], 2, random.Random(seed))
        assert not {premise, hypothesis} <= set(picked)
    with pytest.raises(ValueError):
        pick_sentences([premise, hypothesis], 2, random.Random(0))


def test_pick_sentences_takes_its_candidates_first():
    pool = builtin_pool()[:60]
    candidates = pool[10:20]
    picked = pick_sentences(pool, 6, random.Random(1), candidates)
    assert set(picked) == set(candidates[:6])


def test_the_sentence_plan_is_seeded_and_puts_the_vocabulary_first():
    pool = snli_coco_pool()
    plan = sentence_plan(pool, 0)
    assert sorted(plan, key=lambda e: e.sentence) == sorted(pool, key=lambda e: e.sentence)
    assert plan == sentence_plan(pool, 0) and plan != sentence_plan(pool, 1)
    first = {w.lower().strip(".") for e in plan[:2000] for w in (e.sentence + " " + e.negation).split()}
    last = {w.lower().strip(".") for e in plan[-2000:] for w in (e.sentence + " " + e.negation).split()}
    assert len(first) > 2 * len(last)


def test_pick_sentences_says_when_it_cannot():
    pool = [PoolSentence(f"A man sits on bench {i}.", f"A man does not sit on bench {i}.", topic_words=("man",))
            for i in range(10)]  # fmt: skip
    with pytest.raises(ValueError, match="no 2 entries without a shared topic word"):
        pick_sentences(pool, 2, random.Random(0))


@pytest.fixture(scope="module")
def small_build_rows() -> list[dict[str, object]]:
    return [dict(r) for r in build_divlogiceval(DivLogicEvalConfig(per_type=3, seed=5)).dataset]


def test_the_variables_of_a_built_instance_share_no_topic_word_nor_pair(small_build_rows):
    entries = {entry.sentence: entry for entry in snli_coco_pool()}
    assert small_build_rows
    for row in small_build_rows:
        assert row["pool"] == "snli+coco"
        chosen = [entries[variable["sentence"]] for variable in row["variables"]]  # type: ignore[attr-defined]
        words = [w for entry in chosen for w in entry.topic_words]
        assert len(words) == len(set(words)), row["id"]
        pairs = [p for entry in chosen for p in entry.pairs]
        assert len(pairs) == len(set(pairs)), row["id"]
        negations = {v["sentence"]: v["negation"] for v in row["variables"]}  # type: ignore[attr-defined]
        assert all(negation_is_exact(s, n) for s, n in negations.items())


def test_a_built_variable_keeps_its_origins(small_build_rows):
    entries = {entry.sentence: entry for entry in snli_coco_pool()}
    for row in small_build_rows:
        for variable in row["variables"]:  # type: ignore[attr-defined]
            entry = entries[variable["sentence"]]
            assert variable["origins"] == [describe_origin(o) for o in entry.origins] != []


def test_the_shipped_file_is_valid_json_with_one_entry_a_line():
    for shipped, document in ((SHIPPED, snli_pool_document()), (SHIPPED_COCO, coco_pool_document())):
        text = shipped.read_text(encoding="utf-8")
        assert json.loads(text) == document
        assert text.count('\n  {"negation"') == len(document["sentences"])
