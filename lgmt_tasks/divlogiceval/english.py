"""The English side of DivLogicEval: sentence pools, connective templates, and the realiser (§2.1, Appendix C).

Each variable of an instance is instantiated with a distinct natural sentence, a negated variable with the
sentence's negation, and each formula with a connective template picked at random from a deliberately diverse and
often counter-intuitive set ("the fact that A is a sufficient condition for the fact that B", "B unless not A", "if
not B, then neither A nor C"). Since the sentences are unrelated to each other, commonsense cannot stand in for
logic: that is the point of the benchmark. The variables of one instance share no topic word (`pick_sentences`).

Named pools (`load_pool`, the `pool` parameter; the `pool` column of built rows):

- `snli` (`snli_pool`): real SNLI sentences, as the paper uses (§3: "simple sentences sourced from SNLI Glockner et
  al. (2018)"; the authors' `snli_preprocessing.py` reads SNLI's premises and keeps their hypotheses): the 1,796
  premises of the Breaking NLI test set (Glockner, Shwartz & Goldberg, 2018) and the premises and hypotheses of the
  whole SNLI development and test sets (as e-SNLI ships them; SNLI: Bowman et al., 2015; CC BY-SA 4.0), filtered
  and negated by the authors' rules with a small offline tagger, and kept only where the negation is exact: "not"
  after the first auxiliary ("A man is not holding a saxophone."), or "does not" / "do not" / "did not" and the
  verb's lemma ("A girl does not walk across the sand."). Full forms, never contractions. Each entry lists its topic
  words (its content-word lemmas), its origins (file and line) and its pair groups (a premise with its hypotheses).
  `lgmt_tasks.divlogiceval.snli` derives `data/snli_pool.json` (its attribution, licence and filter counts travel in
  the file); one sentence and one negation per variable.
- `snli+coco` (`snli_coco_pool`): the SNLI pool and the COCO 2017 validation captions that pass the same filter
  (`data/coco_pool.json`, CC BY 4.0; grouped by image). Not a source of the paper: more word types than SNLI's
  development and test sets hold (see the suite README).
- `frames` (alias `builtin`, the name rows of earlier builds carry; `builtin_pool`): our generated pool, from
  `lexicon.json`: about 6,150 common nouns and 800 adjectives (the word lists of the MIT-licensed `wonderwords`
  package, filtered; its licence travels in the file), and hand-written people, works and verbs. Every variable is a
  proposition "someone made a work titled T that compares the N1 to the N2", with three nouns of its own (no two pool
  entries share a noun, so the variables of one instance never share a topic), and is rendered by several sentences:
  the base sentence and three paraphrases (active / passive voice, relative clause / participle, "there is someone
  who ..."), and five negations for ¬X (quantifier duality "someone" → "nobody", "a nurse" → "no nurse", "... by
  anyone", "there is no one who ...", "it is not true that ..."). Each rendering is a fixed, meaning-preserving
  syntactic transformation of the same proposition, so a paraphrase says exactly what the variable says and a
  negation is exactly its ¬X.

Other data files (package data, `lgmt_tasks/divlogiceval/data/`):

- `sentences.jsonl`: our earlier hand-written pool of 580 simple sentences with hand-written negations
  (`handwritten_pool`; load it as a user pool by its path to build with it).
- `templates.json`: the templates of the three formula shapes. Each carries `reads_as`, what it literally says in
  our notation over its slot letters; the tests prove each equivalent to the form it renders, so a template cannot
  silently say something else.

A user's own pool (`load_pool`) is a text file (one sentence a line, optionally `sentence<TAB>negation`), a JSONL
file, or a column of a Hugging Face dataset (a local folder or a Hub id). Sentences without a negation are negated by
rule: "not" after the first auxiliary or modal verb (`is`, `was`, `can`, `will`, ...), and otherwise "it is not the
case that ...", which is always correct.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from lgmt_tasks.logic.syntax import And, Atom, Formula, Implies, Not, Or

DATA_PACKAGE = "lgmt_tasks.divlogiceval"
DATA_DIR = "data"

SNLI_POOL = "snli"
"""The name of the SNLI pool (`snli_pool`): Glockner's premises and SNLI dev/test premises and hypotheses."""
SNLI_COCO_POOL = "snli+coco"
"""The name of the SNLI pool with COCO captions added (`snli_coco_pool`)."""
FRAMES_POOL = "frames"
"""The name of our generated frame pool (`builtin_pool`)."""
BUILTIN_POOL = "builtin"
"""The frame pool's earlier name (rows built before the SNLI pool carry it): an alias of `frames`."""
DEFAULT_POOL = SNLI_COCO_POOL
"""The pool of `pool=None` (chosen by measurement: the most word types; see the suite README)."""
POOL_ALIASES: dict[str, str] = {BUILTIN_POOL: FRAMES_POOL}
NAMED_POOLS: tuple[str, ...] = (SNLI_POOL, SNLI_COCO_POOL, FRAMES_POOL)
"""The pools `load_pool` knows by name (besides the aliases of `POOL_ALIASES`)."""

PICK_TRIES = 20
"""Shuffled greedy passes `pick_sentences` makes before it gives up."""

MIN_WORDS, MAX_WORDS = 3, 30
"""Length limits for sentences of a user's pool (longer ones are rarely 'simple sentences')."""

# Words that start a sentence but are not names: lower-cased when the sentence becomes a clause.
_COMMON_STARTS = frozenset(
    "a an the some two three four five six several many most all every each one no few this that these those "
    "his her my our their its your it there here we they he she i'm someone somebody everyone people children "
    "nobody".split()
)
_AUXILIARIES = frozenset("is are was were am can could will would shall should may might must".split())
_EDGE_PUNCTUATION = ".,;:!?\"'()[]"
_HAS_LETTER = re.compile(r"[^\W\d_]")
_NEGATED = re.compile(r"\b(?:not|never|no longer)\b|n't\b", re.IGNORECASE)


# --------------------------------------------------------------------------------------------------------- pool


@dataclass(frozen=True)
class PoolSentence:
    """One variable's sentences: the sentence, its negation, and optional further renderings of each.

    Attributes:
        sentence: A simple declarative sentence, with final punctuation.
        negation: Its negation (a sentence that is true exactly when `sentence` is false).
        proper_start: The first word is a name and keeps its capital inside a longer sentence (all renderings).
        paraphrases: Other sentences saying exactly what `sentence` says (used for the variable X).
        contradictions: Other sentences saying exactly what `negation` says (used for ¬X).
        topic_words: The words that carry the sentence's topic (for the builtin pool: its three nouns); no two entries
            of the builtin pool share one.
        origins: Where the sentence was read (the pool file's compact form: `s2.dev:12`, `glockner:3107`, ...).
        pairs: The groups the sentence belongs to (a premise with its hypotheses, the captions of one image): at most
            one sentence of a group goes into one instance.
    """

    sentence: str
    negation: str
    proper_start: bool = False
    paraphrases: tuple[str, ...] = ()
    contradictions: tuple[str, ...] = ()
    topic_words: tuple[str, ...] = ()
    origins: tuple[str, ...] = ()
    pairs: tuple[str, ...] = ()

    def exclusive_keys(self) -> frozenset[str]:
        """What no two variables of one instance may share: the topic words and the pair groups."""
        return frozenset(self.topic_words) | frozenset(f"pair {p}" for p in self.pairs)

    def positive_forms(self) -> tuple[str, ...]:
        """Every sentence that renders the variable X."""
        return (self.sentence, *self.paraphrases)

    def negative_forms(self) -> tuple[str, ...]:
        """Every sentence that renders ¬X."""
        return (self.negation, *self.contradictions)


@dataclass
class PoolReport:
    """What loading a pool kept and skipped, and why; `skipped_ids` names each skipped row (`file#index`)."""

    kept: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    skipped_ids: dict[str, list[str]] = field(default_factory=dict)

    def skip(self, reason: str, ref: str) -> None:
        """Count one skipped row under `reason` and name it."""
        self.skipped[reason] += 1
        self.skipped_ids.setdefault(reason, []).append(ref)


@cache
def builtin_pool() -> tuple[PoolSentence, ...]:
    """The frame pool (`frames`): generated from `lexicon.json` (see `generate_pool`), the same on every call."""
    return tuple(generate_pool(lexicon()))


@cache
def snli_pool() -> tuple[PoolSentence, ...]:
    """The SNLI pool (`snli`): `snli_pool.json`, derived by `lgmt_tasks.divlogiceval.snli`."""
    return _pool_entries(snli_pool_document())


@cache
def snli_coco_pool() -> tuple[PoolSentence, ...]:
    """The SNLI pool and the COCO captions (`snli+coco`): `snli_pool.json`, then `coco_pool.json`.

    A caption whose text an SNLI entry already has (case and final stop aside) is left out.
    """
    snli = snli_pool()
    seen = {_pool_key(entry.sentence) for entry in snli}
    coco = [entry for entry in _pool_entries(coco_pool_document()) if _pool_key(entry.sentence) not in seen]
    return (*snli, *coco)


def _pool_key(sentence: str) -> str:
    return sentence.rstrip(".").casefold()


def _pool_entries(document: Mapping[str, Any]) -> tuple[PoolSentence, ...]:
    return tuple(
        PoolSentence(
            e["sentence"],
            e["negation"],
            bool(e["proper_start"]),
            topic_words=tuple(e["topic_words"]),
            origins=tuple(e["origins"]),
            pairs=tuple(e["pairs"]),
        )
        for e in document["sentences"]
    )


@cache
def snli_pool_document() -> dict[str, Any]:
    """`snli_pool.json` as shipped: the sentences and their sources, attribution, licence and filter counts."""
    return _data_json("snli_pool.json")


@cache
def coco_pool_document() -> dict[str, Any]:
    """`coco_pool.json` as shipped: the COCO captions kept, with their source, attribution, licence and counts."""
    return _data_json("coco_pool.json")


def _data_json(name: str) -> dict[str, Any]:
    text = resources.files(DATA_PACKAGE).joinpath(f"{DATA_DIR}/{name}").read_text(encoding="utf-8")
    document: dict[str, Any] = json.loads(text)
    return document


def canonical_pool_name(source: str | None) -> str:
    """The name a pool is recorded under: `snli` for None, `frames` for `builtin`, any other source as given."""
    if source is None:
        return DEFAULT_POOL
    return POOL_ALIASES.get(source, source)


def pick_sentences(
    pool: Sequence[PoolSentence],
    k: int,
    rng: random.Random,
    candidates: Sequence[PoolSentence] | None = None,
) -> list[PoolSentence]:
    """Draw `k` distinct pool entries of which no two share a topic word or a pair group, from the instance's generator.

    Without `candidates`, the first try is `rng.sample(pool, k)`, so a pool whose entries never share a topic word
    (the frame pool, user pools without topic words) draws exactly what a plain sample draws. When two drawn entries
    share a word, up to `PICK_TRIES` greedy passes over a fresh shuffle of the pool keep each entry that shares no
    word with those kept.

    With `candidates` (the instance's share of the build's sentence plan, `sentence_plan`), the entries are taken
    from them first, in order, each one kept when it shares nothing with those kept; if they run out, the greedy
    passes over the pool complete the draw. The entries are then shuffled, so which variable gets which sentence
    is random.

    Raises:
        ValueError: If no `k` entries without a shared topic word were found.
    """
    entries = list(pool)
    if candidates is None:
        chosen = rng.sample(entries, k)
        if _share_no_topic(chosen):
            return chosen
        start: list[PoolSentence] = []
    else:
        start = _greedy(candidates, k, [])
        if len(start) == k:
            rng.shuffle(start)
            return start
    for _ in range(PICK_TRIES):
        picked = _greedy(rng.sample(entries, len(entries)), k, start)
        if len(picked) == k:
            if candidates is not None:
                rng.shuffle(picked)
            return picked
    raise ValueError(
        f"the sentence pool has no {k} entries without a shared topic word (found none in {PICK_TRIES} tries)"
    )


def _greedy(entries: Iterable[PoolSentence], k: int, start: Sequence[PoolSentence]) -> list[PoolSentence]:
    """`start`, then each entry of `entries` that shares no exclusive key with those kept, until there are `k`."""
    picked = list(start)
    used: set[str] = set().union(*(entry.exclusive_keys() for entry in picked))
    for entry in entries:
        if len(picked) == k:
            break
        keys = entry.exclusive_keys()
        if keys & used or entry in picked:
            continue
        picked.append(entry)
        used |= keys
    return picked


def _share_no_topic(entries: Sequence[PoolSentence]) -> bool:
    seen: set[str] = set()
    for entry in entries:
        keys = entry.exclusive_keys()
        if keys & seen:
            return False
        seen |= keys
    return True


def sentence_plan(pool: Sequence[PoolSentence], seed: int) -> tuple[PoolSentence, ...]:
    """The pool in the order a build hands it out: vocabulary first (greedy coverage), then the rest, seeded.

    Each next entry is the one whose renderings (sentence, negation, paraphrases, contradictions) bring the most
    word types (lower-cased words with a letter, split at spaces and stripped of punctuation at either end: for the
    SNLI pools' plain-word sentences the words `diversity.words` counts, and fast) that no earlier entry brought,
    ties broken by a seeded random key; once every word
    type is in, the remaining entries follow in that random order. A build gives instance g of T the entries
    g, g + T, g + 2T, ... of this order as its candidates (`pick_sentences`), so no two instances share a candidate,
    no sentence recurs unless an instance runs out of candidates, and the first entries, which carry the pool's
    vocabulary, are the ones used. The assignment is fixed before any instance is drawn, so it does not depend on the
    answer, the roles or the processes.
    """
    import heapq

    tie = random.Random(seed)
    keys = [tie.random() for _ in pool]
    vocab = [
        frozenset(
            word
            for text in (*entry.positive_forms(), *entry.negative_forms())
            for word in (raw.strip(_EDGE_PUNCTUATION).lower() for raw in text.split())
            if _HAS_LETTER.search(word)
        )
        for entry in pool
    ]
    covered: set[str] = set()
    heap = [(-len(v), keys[i], i) for i, v in enumerate(vocab)]
    heapq.heapify(heap)
    order: list[int] = []
    while heap:
        gain, key, i = heapq.heappop(heap)
        fresh = len(vocab[i] - covered)
        if fresh != -gain:  # stale: re-file under its current gain
            heapq.heappush(heap, (-fresh, key, i))
            continue
        order.append(i)
        covered |= vocab[i]
    return tuple(pool[i] for i in order)


@cache
def handwritten_pool() -> tuple[PoolSentence, ...]:
    """Our earlier hand-written pool of 580 sentences (`sentences.jsonl`), one sentence and negation each."""
    text = resources.files(DATA_PACKAGE).joinpath(f"{DATA_DIR}/sentences.jsonl").read_text(encoding="utf-8")
    rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    return tuple(PoolSentence(row["sentence"], row["negation"], bool(row.get("proper_start", False))) for row in rows)


# ---------------------------------------------------------------------------------------------- pool generator

POOL_SEED = 20250101
"""The seed of the builtin pool (fixed: the pool is part of the package, not of a build's config)."""

NOUNS_PER_ENTRY = 3
"""Nouns of one pool entry: two compared ones and the one in the title."""

Subject = tuple[str, str, str, str]
"""A subject's forms: positive ("a nurse"), negative ("no nurse"), after "by" in a negation ("any nurse"), and after
"there is" in a negation ("no nurse")."""

_GENERIC_SUBJECTS: tuple[Subject, ...] = (
    ("someone", "nobody", "anyone", "no one"),
    ("somebody", "no one", "anybody", "nobody"),
)


@dataclass(frozen=True)
class Lexicon:
    """The word lists of the pool generator (`lexicon.json`).

    Attributes:
        nouns: Common nouns (the topics; each goes to exactly one pool entry).
        adjectives: Adjectives (in titles, "The Rabid Molecule").
        people: Nouns for people ("nurse": "a nurse" / "no nurse" / "any nurse").
        works: `(past tense, past participle, works)`: a verb and the works it makes ("wrote", "written", poem ...).
    """

    nouns: tuple[str, ...]
    adjectives: tuple[str, ...]
    people: tuple[str, ...]
    works: tuple[tuple[str, str, tuple[str, ...]], ...]


@cache
def lexicon() -> Lexicon:
    """The generator's lexicon, from `lexicon.json`."""
    text = resources.files(DATA_PACKAGE).joinpath(f"{DATA_DIR}/lexicon.json").read_text(encoding="utf-8")
    data = json.loads(text)
    return Lexicon(
        tuple(data["nouns"]),
        tuple(data["adjectives"]),
        tuple(data["people"]),
        tuple((w["past"], w["participle"], tuple(w["works"])) for w in data["works"]),
    )


def indefinite(word: str) -> str:
    """`a` or `an` before a word, by its sound (the exceptions are the ones our lexicon has)."""
    lowered = word.lower()
    if lowered.startswith(("eu", "uni", "use", "usu", "one", "once")):
        return "a"
    if lowered.startswith(("hour", "honest", "honor", "honour", "heir")):
        return "an"
    return "an" if lowered[:1] in "aeiou" else "a"


def _title(adjective: str, noun: str) -> str:
    """A title such as "The Teeny-Tiny Molecule"."""
    words = [part.capitalize() for part in adjective.split("-")]
    return f"The {'-'.join(words)} {noun.capitalize()}"


def _subjects(people: Sequence[str]) -> tuple[Subject, ...]:
    """Every subject: "someone" and "somebody", and an indefinite person ("a nurse") for each people noun."""
    return _GENERIC_SUBJECTS + tuple((f"{indefinite(p)} {p}", f"no {p}", f"any {p}", f"no {p}") for p in people)


def entry_sentences(
    subject: Subject, past: str, participle: str, work: str, title: str, compared: tuple[str, str], falsity: str
) -> tuple[list[str], list[str]]:
    """The renderings of one proposition: "<subject> <made> a <work> titled "<title>" that compares N1 to N2".

    Every rendering is a fixed syntactic transformation that keeps the meaning (the truth conditions) of the
    base sentence, which is why no prover or annotator is needed to trust them:

    - positive: the base (relative clause), a reduced relative ("comparing"), the passive with the subject as agent
      ("... was written by a nurse"), and the existential "there is a nurse who ...";
    - negative: the quantifier dual of each ("nobody wrote ...", "no nurse wrote ... comparing ...", "no work ... was
      written by any nurse", "there is no nurse who ..."), and sentential negation ("it is not true that ...").

    Returns:
        The positive sentences (base first) and the negative ones (the plain negation first).
    """
    positive, negative, by_any, no_one = subject
    n1, n2 = compared
    thing = f'{work} titled "{title}"'
    made = f"{past} {indefinite(work)} {thing}"
    relative = f"that compares the {n1} to the {n2}"
    reduced = f"comparing the {n1} to the {n2}"
    base = f"{positive} {made} {relative}"
    positives = [
        base,
        f"{positive} {made} {reduced}",
        f"{indefinite(work)} {thing} {relative} was {participle} by {positive}",
        f"there is {positive} who {made} {relative}",
    ]
    negatives = [
        f"{negative} {made} {relative}",
        f"{negative} {made} {reduced}",
        f"no {thing} {relative} was {participle} by {by_any}",
        f"there is {no_one} who {made} {relative}",
        f"it is {falsity} that {base}",
    ]
    return [sentence_case(s) for s in positives], [sentence_case(s) for s in negatives]


def generate_pool(words: Lexicon, seed: int = POOL_SEED) -> list[PoolSentence]:
    """Generate a sentence pool over a lexicon: one entry per three nouns, each noun in exactly one entry.

    Since no two entries share a noun, the variables of an instance (distinct entries) never share a topic: the
    sentences cannot be linked by commonsense. Subjects, verbs, works and title adjectives are drawn with the seed
    and may repeat across entries; they are frame words, never the topic.

    Args:
        words: The lexicon.
        seed: The generator's seed (the same seed gives the same pool).

    Returns:
        The pool, in the order of the shuffled nouns.
    """
    rng = random.Random(seed)
    nouns = sorted(set(words.nouns))
    rng.shuffle(nouns)
    adjectives = sorted(set(words.adjectives))
    subjects = _subjects(sorted(set(words.people)))
    makes = [(past, participle, work) for past, participle, works in words.works for work in works]
    pool: list[PoolSentence] = []
    for start in range(0, len(nouns) - NOUNS_PER_ENTRY + 1, NOUNS_PER_ENTRY):
        n1, n2, n3 = nouns[start : start + NOUNS_PER_ENTRY]
        past, participle, work = rng.choice(makes)
        title = _title(rng.choice(adjectives), n3)
        falsity = rng.choice(("not true", "false"))
        positives, negatives = entry_sentences(rng.choice(subjects), past, participle, work, title, (n1, n2), falsity)
        pool.append(
            PoolSentence(positives[0], negatives[0], False, tuple(positives[1:]), tuple(negatives[1:]), (n1, n2, n3))
        )
    return pool


def negate(sentence: str) -> str:
    """Negate a simple sentence by rule (for user pools without negations).

    "not" goes after the first auxiliary or modal verb (`The dog is asleep.` → `The dog is not asleep.`); any
    other sentence, and any sentence that already contains a negation, becomes "It is not the case that ...".

    Args:
        sentence: A simple declarative sentence.

    Returns:
        Its negation, with the sentence's final punctuation (a full stop if it had none).
    """
    body = sentence.strip().rstrip(".!")
    words = body.split()
    if not _NEGATED.search(body):
        for i, word in enumerate(words[1:], start=1):
            if word.lower() in _AUXILIARIES:
                return " ".join([*words[: i + 1], "not", *words[i + 1 :]]) + "."
    return f"It is not the case that {clause(body, proper_start=not _first_word_is_common(body))}."


def _first_word_is_common(sentence: str) -> bool:
    first = sentence.split(maxsplit=1)[0] if sentence.strip() else ""
    return first.lower().strip(",;:") in _COMMON_STARTS


def _check_user_sentence(sentence: str) -> str | None:
    """Why a user's sentence is not used (None if it is)."""
    if not sentence:
        return "empty"
    if "\n" in sentence or "\t" in sentence:
        return "contains a line break or tab"
    if sentence.endswith("?"):
        return "a question"
    words = len(sentence.split())
    if words < MIN_WORDS:
        return f"fewer than {MIN_WORDS} words"
    if words > MAX_WORDS:
        return f"more than {MAX_WORDS} words"
    return None


def pool_from_pairs(
    pairs: Iterable[tuple[object, object]], refs: Sequence[str] | None = None, report: PoolReport | None = None
) -> tuple[list[PoolSentence], PoolReport]:
    """Make a pool from user sentences (negations optional), skipping unusable and duplicate sentences.

    Args:
        pairs: `(sentence, negation or None)`; a value that is not a string is skipped as `wrong type` (a list
            or a number must not become a sentence by `str()`).
        refs: How each pair is named in the report (default `sentence <i>`).
        report: A report to add to (rows already skipped while reading a file).

    Returns:
        The pool and a report of what was skipped and why.
    """
    report = report if report is not None else PoolReport()
    seen: set[str] = set()
    pool: list[PoolSentence] = []
    for i, (raw, raw_negation) in enumerate(pairs):
        ref = refs[i] if refs is not None else f"sentence {i}"
        if not isinstance(raw, (str, type(None))) or not isinstance(raw_negation, (str, type(None))):
            report.skip("wrong type", ref)
            continue
        sentence = " ".join((raw or "").split())
        why = _check_user_sentence(sentence)
        key = sentence.rstrip(".!").casefold()
        if why is None and key in seen:
            why = "duplicate"
        if why is not None:
            report.skip(why, ref)
            continue
        seen.add(key)
        if sentence[-1] not in ".!":
            sentence += "."
        negation = " ".join(raw_negation.split()) if raw_negation and raw_negation.strip() else negate(sentence)
        if negation[-1] not in ".!":
            negation += "."
        first = sentence.split()[0]
        proper = first[:1].isupper() and not _first_word_is_common(sentence)
        pool.append(PoolSentence(sentence[0].upper() + sentence[1:], negation[0].upper() + negation[1:], proper))
        report.kept += 1
    return pool, report


def load_pool(
    source: str | None,
    column: str = "sentence",
    negation_column: str | None = "negation",
    split: str = "train",
) -> tuple[list[PoolSentence], PoolReport]:
    """Load a sentence pool: a named one, a text or JSONL file, or a column of a Hugging Face dataset.

    Args:
        source: None (the default, `DEFAULT_POOL`), `snli` for the SNLI pool, `snli+coco` for it with COCO captions,
            `frames` (or `builtin`) for the frame pool; a `.txt`
            file (one sentence a line, optionally `sentence<TAB>negation`);
            a `.jsonl` file (objects with `column` and optionally `negation_column`); anything else is passed to
            `datasets.load_dataset` (a local dataset folder or a Hub id).
        column: The sentence field or column (JSONL and datasets).
        negation_column: The negation field or column, used when present (negations are made by rule otherwise).
        split: The dataset split (datasets only).

    Returns:
        The pool and a report of what was skipped.

    Raises:
        ValueError: If a dataset or JSONL file has no `column`, or `source` is a bare name that is no named pool,
            file or folder.
    """
    name = canonical_pool_name(source)
    if name in NAMED_POOLS:
        pool = list({SNLI_POOL: snli_pool, SNLI_COCO_POOL: snli_coco_pool, FRAMES_POOL: builtin_pool}[name]())
        return pool, PoolReport(kept=len(pool))
    path = Path(str(source))
    if not path.exists() and "/" not in str(source) and "\\" not in str(source) and not path.suffix:
        named = ", ".join(f"{n} (the default)" if n == DEFAULT_POOL else n for n in NAMED_POOLS)
        aliases = ", ".join(f"{alias} = {target}" for alias, target in POOL_ALIASES.items())
        raise ValueError(
            f"unknown sentence pool {source!r}: the named pools are {named} (aliases: {aliases}); otherwise give a "
            ".txt / .jsonl file, a dataset folder or a Hub dataset id (owner/name)"
        )
    if path.suffix == ".txt" and path.is_file():
        pairs: list[tuple[object, object]] = []
        for line in path.read_text(encoding="utf-8").splitlines():
            sentence, _, negation = line.partition("\t")
            pairs.append((sentence, negation or None))
        return pool_from_pairs(pairs, [f"{path.name}#{i}" for i in range(len(pairs))])
    if path.suffix == ".jsonl" and path.is_file():
        # A line that is not a JSON object is skipped and named (`file#index`), never a crash half-way.
        report = PoolReport()
        records: list[Mapping[str, Any]] = []
        refs: list[str] = []
        lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        for i, line in enumerate(lines):
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                report.skip("invalid JSON", f"{path.name}#{i}")
                continue
            if not isinstance(record, Mapping):
                report.skip("not a JSON object", f"{path.name}#{i}")
                continue
            records.append(record)
            refs.append(f"{path.name}#{i}")
        return pool_from_pairs(_column_pairs(records, column, negation_column, str(path)), refs, report)
    import datasets

    dataset = datasets.load_dataset(str(source), split=split)
    assert isinstance(dataset, datasets.Dataset)
    return pool_from_pairs(_column_pairs(list(dataset), column, negation_column, str(source)))


def _column_pairs(
    records: Sequence[Mapping[str, Any]], column: str, negation_column: str | None, origin: str
) -> list[tuple[object, object]]:
    if records and column not in records[0]:
        raise ValueError(f"pool {origin}: no column {column!r}; columns: {sorted(records[0])}")
    return [(r.get(column), r.get(negation_column) if negation_column else None) for r in records]


# ---------------------------------------------------------------------------------------------------- templates


@dataclass(frozen=True)
class Template:
    """A connective template.

    Attributes:
        id: Stable name (recorded per proposition in the dataset).
        text: The template, starting in lower case, with slots `{p}`, `{q}` (implications) or `{a}`, `{b}`, `{c}`
            (rule premises), and `{not_x}` for the negation of slot x.
        reads_as: What the template literally says, in our notation over the upper-case slot letters.
    """

    id: str
    text: str
    reads_as: str


SHAPE_GROUPS: dict[str, str] = {"implication": "implication", "1b": "not_both", "1c": "either"}
"""The template group of each formula shape (`divlogiceval_logic.shape`)."""

GROUP_FORMS: dict[str, str] = {"implication": "P → Q", "not_both": "¬(A ∧ B) → C", "either": "(A ∨ B) → C"}
"""The form each template group renders, over its slot letters."""

_SLOT = re.compile(r"\{(not_)?([a-z])\}")


@cache
def templates() -> dict[str, tuple[Template, ...]]:
    """The connective templates by group (`implication`, `not_both`, `either`), from `templates.json`."""
    text = resources.files(DATA_PACKAGE).joinpath(f"{DATA_DIR}/templates.json").read_text(encoding="utf-8")
    data = json.loads(text)
    return {group: tuple(Template(t["id"], t["text"], t["reads_as"]) for t in data[group]) for group in GROUP_FORMS}


# ----------------------------------------------------------------------------------------------------- realiser


def clause(sentence: str, proper_start: bool = False) -> str:
    """A sentence as a clause to embed: no final punctuation, first letter lower-cased unless it starts a name."""
    body = sentence.strip().rstrip(".!")
    if not body or proper_start:
        return body
    return body[0].lower() + body[1:]


def sentence_case(text: str) -> str:
    """Capitalise the first letter and end with a full stop."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


@dataclass
class Realiser:
    """Puts one instance's formulas into English, with its variable → sentence assignment.

    Templates are drawn at random within a group, without repetition inside the instance until the group is used
    up, so that one instance shows as many different connectives as possible.

    Attributes:
        sentences: The sentence of each variable.
        rng: The instance's random generator.
        used: Template ids used so far in this instance.
    """

    sentences: Mapping[str, PoolSentence]
    rng: random.Random
    used: list[str] = field(default_factory=list)

    def literal(self, formula: Formula) -> str:
        """A literal (``X`` or ``¬X``) as a clause: one of the sentences of X, or one of its negations.

        Each mention draws its rendering anew, so one variable is said in several ways within an instance (as the
        paper's sentences alternate between an NLI premise and its entailed hypotheses).
        """
        if isinstance(formula, Atom):
            entry = self.sentences[formula.pred]
            return clause(self._one_of(entry.positive_forms()), entry.proper_start)
        if isinstance(formula, Not) and isinstance(formula.body, Atom):
            entry = self.sentences[formula.body.pred]
            return clause(self._one_of(entry.negative_forms()), entry.proper_start)
        raise ValueError(f"not a literal: {formula!r}")

    def _one_of(self, forms: Sequence[str]) -> str:
        """One rendering, drawn by the instance's generator (no draw when there is only one, as in user pools)."""
        return forms[0] if len(forms) == 1 else self.rng.choice(list(forms))

    def negated_literal(self, formula: Formula) -> str:
        """The negation of a literal as a clause (¬¬X is rendered as X)."""
        return self.literal(formula.body if isinstance(formula, Not) else Not(formula))

    def _pick(self, group: str) -> Template:
        options = templates()[group]
        fresh = [t for t in options if t.id not in self.used]
        template = self.rng.choice(fresh or list(options))
        self.used.append(template.id)
        return template

    def render(self, formula: Formula) -> tuple[str, str]:
        """Put a formula into English, as a clause (no capital, no full stop).

        Args:
            formula: A literal, an implication between literals, or a rule premise ``¬(A ∧ B) → C`` /
                ``(A ∨ B) → C`` over literals.

        Returns:
            The clause and the id of the template used (`literal` for a literal).

        Raises:
            ValueError: On any other formula.
        """
        if isinstance(formula, Atom) or (isinstance(formula, Not) and isinstance(formula.body, Atom)):
            return self.literal(formula), "literal"
        if not isinstance(formula, Implies):
            raise ValueError(f"no template renders {formula!r}")
        left, right = formula.left, formula.right
        if isinstance(left, Not) and isinstance(left.body, And) and len(left.body.args) == 2:
            group, slots = "not_both", {"a": left.body.args[0], "b": left.body.args[1], "c": right}
        elif isinstance(left, Or) and len(left.args) == 2:
            group, slots = "either", {"a": left.args[0], "b": left.args[1], "c": right}
        else:
            group, slots = "implication", {"p": left, "q": right}
        template = self._pick(group)

        def fill(match: re.Match[str]) -> str:
            negated, slot = match.group(1), match.group(2)
            return self.negated_literal(slots[slot]) if negated else self.literal(slots[slot])

        return _SLOT.sub(fill, template.text), template.id

    def sentence(self, formula: Formula) -> tuple[str, str]:
        """Put a formula into English as a sentence (capitalised, with a full stop), and name the template."""
        text, template = self.render(formula)
        return sentence_case(text), template


# ----------------------------------------------------------------------------------------------------- questions

CONCLUSION_LEAD = "Therefore, "
"""How the conclusion of a missing-premise question is joined to the content."""

QUESTIONS: dict[str, tuple[str, ...]] = {
    "3c1e": (
        "Given the information provided, which conclusion is most likely to be accurate?",
        "Which of the following can be concluded from the statements above?",
        "If the statements above are true, which of the following must also be true?",
        "Which of the following follows logically from the statements above?",
        "Based only on the statements above, which of the following is certainly true?",
        "Assuming everything stated above is true, which of the following must hold?",
        "Which of the following is a valid inference from the statements above?",
        "Which one of the options is guaranteed to be true by the statements above?",
        "Taking the statements above as true, which of the following can be inferred?",
        "Which of the following conclusions is supported by the statements above, with no further assumptions?",
        "According to the statements above, which of the following has to be the case?",
        "Which of the following is entailed by the statements above?",
        "If all of the statements above hold, which of the following is then necessarily true?",
        "Which of the following is a logical consequence of the statements above?",
        "From the statements above alone, which of the following may be validly concluded?",
        "Which of the following is true in every situation in which the statements above are true?",
    ),
    "3e1c": (
        "Given the information provided, which conclusion is least likely to be accurate?",
        "Which of the following can NOT be concluded from the statements above?",
        "If the statements above are true, each of the following must also be true EXCEPT:",
        "Which of the following does not follow logically from the statements above?",
        "Which of the following is not a valid inference from the statements above?",
        "Assuming everything stated above is true, which of the following is not guaranteed to hold?",
        "Which one of the options is not entailed by the statements above?",
        "Based only on the statements above, which of the following could still be false?",
        "Which of the following conclusions is not supported by the statements above?",
        "Taking the statements above as true, which of the following cannot be inferred?",
        "Three of the options follow from the statements above. Which one does not?",
        "Which of the following is not a logical consequence of the statements above?",
        "If all of the statements above hold, which of the following might nevertheless be false?",
        "According to the statements above, which of the following need not be the case?",
        "Which of the following would be an invalid conclusion to draw from the statements above?",
        "From the statements above alone, which of the following may NOT be validly concluded?",
    ),
    "missing": (
        "The conclusion above does not follow from the statements alone. Which of the following, if added as a "
        "premise, allows the conclusion to be properly drawn?",
        "Which of the following is the missing premise that makes the argument above logically valid?",
        "The argument above relies on an unstated premise. Which of the following, if assumed, makes the "
        "conclusion follow?",
        "Which of the following, if added to the statements above, would make the conclusion follow logically?",
        "Which of the following premises is needed, together with the statements above, to validly derive the "
        "conclusion?",
        "Which of the following is the unstated assumption that, together with the statements above, entails the "
        "conclusion?",
        "The conclusion does not yet follow from the statements above. Which of the following would complete the "
        "argument?",
        "Which one of the options, once added as a premise, turns the argument above into a valid one?",
        "Which of the following, if assumed together with the statements above, guarantees the conclusion?",
        "Which missing premise, added to the statements above, makes the conclusion a logical consequence?",
        "What must be added to the statements above for the conclusion to be properly inferred?",
        "Which of the following premises, if supplied, lets the conclusion be deduced from the statements above?",
        "To make the argument above logically valid, which of the following has to be added as a premise?",
    ),
}
"""Question wordings per type (one is drawn per instance): 16 / 16 / 13 as in the authors' code
(`to_train_test_val.py`, lists `qe`, `qc`, `qmp`), written in our own words so that each asks exactly for what the
type's answer is: 3c1e the option that follows, 3e1c the one that does not, missing the premise that completes the
argument. The first 3e1c wording is the paper's (Appendix H)."""
