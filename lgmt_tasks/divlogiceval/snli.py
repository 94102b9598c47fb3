"""DivLogicEval's sentence pools: real SNLI sentences (and COCO captions), filtered and negated by the authors' rules.

The paper instantiates its variables with simple sentences from SNLI (§3; Appendix C), filtered and negated by
KanaCS/ILogicEval `snli_preprocessing.py`: lines 43-54 drop a sentence with ";", "(", ",", "?" or "if"/"If", with
no VERB, starting with an interjection, or with more than one VERB (a "to" + verb infinitive does not count); lines
55-81 negate it with "not" after the first auxiliary, or else "don't" / "doesn't" / "didn't" before the main verb,
which is lemmatised. They tag with stanza and NLTK, whose models we cannot download. This module does the same narrow
job with a small, explicit tagger: closed-class word lists (determiners, numerals, prepositions, pronouns,
auxiliaries and modals, conjunctions, subordinators, interjections), the lexicon of `lemminflect` (the possible parts
of speech, lemmas and inflections of a word), and a few context rules (`tag`). Wherever the tagger cannot tell a
noun from a verb, a past tense from a participle, a past from a present, or the number of the subject, the sentence is
dropped under a counted reason: we never guess.

Our additions to the authors' filter, each counted: no other punctuation or symbol (quotes, apostrophes, colons:
a possessive "'s" and a contracted "'s" look alike), one sentence only, `english.MIN_WORDS`..`english.MAX_WORDS`
words, no word of negation (`NEGATION_WORDS`: a negation must be exactly one negation added, so we cannot follow the
authors' "remove an existing not"), no subordinating word (`SUBORDINATORS`: a second clause), no second auxiliary
(a second clause: "not" would negate the first only), "and" / "or" / "but" in the predicate only before a noun phrase
("is holding her dog and very happy" is dropped), and duplicates dropped.
The negation uses the full forms "is not" / "does not" (not the authors' contractions): one word inserted, or two and
a lemma, which `negation_is_exact` checks for every entry. The first letter is capitalised and a full stop added
where the source has none (215 premises end without one); nothing else of a premise is changed.

Sources (`../shared/data`, README §6, §6.1, §6.2):

- `snli_glockner/dataset.jsonl` of Glockner, Shwartz & Goldberg (2018): its `sentence1` are SNLI premises verbatim;
- `snli_esnli/s1.{dev,test}` and `s2.{dev,test}`: the whole SNLI development and test sets, premises and hypotheses
  (line-aligned, as e-SNLI ships them), read as the authors' `snli_preprocessing.py` reads SNLI (line 124: test,
  validation, train; lines 150-190 keep the filtered hypotheses beside each premise). The lines are PTB-tokenized;
  `detokenize` removes only the space before a final `.`, `!` or `?`: every other tokenized mark (a comma, `'s`,
  `n't`, quotes, brackets) is one the filter drops, so for a kept sentence nothing else could differ from SNLI's text;
- `coco_captions/captions_val2017.json` (COCO 2017 validation captions, CC BY 4.0), the `snli+coco` pool only: not a
  source of the paper (see the suite README's deviations).

Every kept sentence records where it was read (`origins`: `glockner:<pairID>`, `s1.dev:<line>` for a premise,
`s2.test:<line>` for a hypothesis, 1-based lines, `coco:<caption id>`), and `pairs`: the keys of the groups it belongs
to, a premise with its hypotheses (`snli:<file>:<first line of the premise>`) or the captions of one image
(`coco-image:<id>`). The builder puts at most one sentence of a group in one instance (sentences of a pair share
content, which a reader could use). Sentences are merged across sources by their text (case and final stop aside).
The derived pools (`data/snli_pool.json`, `data/coco_pool.json`) carry the attribution and the licence. Derive them
(deterministic, byte-identical on re-run)::

    python -m lgmt_tasks.divlogiceval.snli --data ../shared/data --out-dir lgmt_tasks/divlogiceval/data

`lemminflect` is imported inside the functions that need it: importing this module is free.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from lgmt_tasks.divlogiceval.english import MAX_WORDS, MIN_WORDS

POOL_FILE = "snli_pool.json"
"""The shipped SNLI pool (Glockner + SNLI dev/test premises and hypotheses), in the package's `data/` folder."""
COCO_POOL_FILE = "coco_pool.json"
"""The shipped COCO caption pool (added to the SNLI pool by `pool=snli+coco`)."""

DERIVED_BY = "python -m lgmt_tasks.divlogiceval.snli --data ../shared/data --out-dir lgmt_tasks/divlogiceval/data"

GLOCKNER_FILE = "snli_glockner/dataset.jsonl"
ESNLI_DIR = "snli_esnli"
ESNLI_FILES: tuple[str, ...] = ("s1.test", "s2.test", "s1.dev", "s2.dev")
"""The e-SNLI files read, test before development as the authors' line 124 reads SNLI (s1: premises, s2:
hypotheses)."""
COCO_FILE = "coco_captions/captions_val2017.json"

ATTRIBUTION = (
    "Sentences are premises and hypotheses of the Stanford Natural Language Inference corpus (Samuel R. Bowman, "
    "Gabor Angeli, Christopher Potts and Christopher D. Manning, 2015, 'A large annotated corpus for learning natural "
    "language inference', EMNLP 2015): the premises distributed in the 'Breaking NLI' test set (Max Glockner, Vered "
    "Shwartz and Yoav Goldberg, 2018, 'Breaking NLI Systems with Sentences that Require Simple Lexical Inferences', "
    "ACL 2018; https://github.com/BIU-NLP/Breaking_NLI), and the premises and hypotheses of the SNLI development and "
    "test sets as distributed by e-SNLI (Oana-Maria Camburu, Tim Rocktaschel, Thomas Lukasiewicz and Phil Blunsom, "
    "2018, 'e-SNLI: Natural Language Inference with Natural Language Explanations', NeurIPS 2018; "
    "https://github.com/OanaMariaCamburu/e-SNLI, MIT). Negations and topic words are ours."
)
CITATIONS = (
    "@inproceedings{snli:emnlp2015, author = {Bowman, Samuel R. and Angeli, Gabor and Potts, Christopher and "
    "Manning, Christopher D.}, title = {A large annotated corpus for learning natural language inference}, "
    "booktitle = {Proceedings of the 2015 Conference on Empirical Methods in Natural Language Processing (EMNLP)}, "
    "publisher = {Association for Computational Linguistics}, year = {2015}}",
    "@inproceedings{glockner_acl18, author = {Glockner, Max and Shwartz, Vered and Goldberg, Yoav}, title = "
    "{Breaking NLI Systems with Sentences that Require Simple Lexical Inferences}, booktitle = {The 56th Annual "
    "Meeting of the Association for Computational Linguistics (ACL)}, address = {Melbourne, Australia}, year = {2018}}",
    '@incollection{camburu2018esnli, author = {Camburu, Oana-Maria and Rockt{\\"a}schel, Tim and Lukasiewicz, '
    "Thomas and Blunsom, Phil}, title = {e-SNLI: Natural Language Inference with Natural Language Explanations}, "
    "booktitle = {Advances in Neural Information Processing Systems 31}, pages = {9539--9549}, year = {2018}}",
)
COCO_ATTRIBUTION = (
    "Sentences are captions of the COCO 2017 validation set (Tsung-Yi Lin, Michael Maire, Serge Belongie, James Hays, "
    "Pietro Perona, Deva Ramanan, Piotr Dollar and C. Lawrence Zitnick, 2014, 'Microsoft COCO: Common Objects in "
    "Context', ECCV 2014; annotations/captions_val2017.json, https://cocodataset.org), licensed CC BY 4.0. "
    "Negations and topic words are ours."
)
COCO_CITATIONS = (
    "@inproceedings{lin2014coco, author = {Lin, Tsung-Yi and Maire, Michael and Belongie, Serge and Hays, James and "
    "Perona, Pietro and Ramanan, Deva and Doll{\\'a}r, Piotr and Zitnick, C. Lawrence}, title = {Microsoft COCO: "
    "Common Objects in Context}, booktitle = {European Conference on Computer Vision (ECCV)}, year = {2014}}",
)
COCO_LICENCE = {
    "name": "CC BY 4.0",
    "url": "https://creativecommons.org/licenses/by/4.0/",
    "note": "The COCO caption annotations are CC BY 4.0 (the images' Flickr licences do not apply to them); this "
    "derived pool is shared under CC BY 4.0 with the attribution above. A build that mixes it with the SNLI pool is "
    "CC BY-SA 4.0 (the SNLI pool's share-alike).",
}
LICENCE = {
    "name": "CC BY-SA 4.0",
    "url": "https://creativecommons.org/licenses/by-sa/4.0/",
    "note": "This pool is a derived work of SNLI (CC BY-SA 4.0), read from the Breaking NLI dataset (CC BY-SA 4.0) and "
    "from e-SNLI's copy of SNLI's development and test sets (the sentences are SNLI's; e-SNLI's code is MIT); it is "
    "shared under the same licence, CC BY-SA 4.0, with the attribution above.",
}

# ------------------------------------------------------------------------------------------------ closed classes

DETERMINERS = frozenset(
    "a an the this these those some any each every all both several many few his her its their my your our another "
    "other such much most".split()
)
NUMERALS = frozenset(
    "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen twenty thirty forty "
    "fifty hundred dozen first second third fourth fifth last".split()
)
PREPOSITIONS = frozenset(
    "about above across after against along alongside among amongst around at atop before behind below beneath "
    "beside besides between beyond by down during for from in inside into near next of off on onto out outside over "
    "past through throughout toward towards under underneath up upon with within without like via".split()
)
PRONOUNS_SINGULAR = frozenset(
    "he she it someone somebody something everyone everybody everything anyone anybody anything".split()
)
PRONOUNS_PLURAL = frozenset("i you we they".split())
PRONOUNS_OBJECT = frozenset("me him us them himself herself itself themselves myself yourself ourselves".split())
BE = frozenset("am is are was were".split())
MODALS = frozenset("can could will would shall should may might must".split())
HAVE = frozenset("has have had".split())
AUXILIARIES = BE | MODALS | HAVE
"""The words after which the negation is "not" (a have-form only when a past participle follows)."""
NON_FINITE_BE = frozenset("be been being".split())
CONJUNCTIONS = frozenset("and or but yet".split())
SUBORDINATORS = frozenset(
    "while as because when where who whom whose which that although though since until unless whether than so "
    "once whereas".split()
)
"""Words that open a second clause (our addition: a simple sentence has one)."""
INTERJECTIONS = frozenset("oh wow hey hello hi yes yeah no well okay ok please alas ah uh um".split())
NEGATION_WORDS = frozenset("not n't no never nobody nothing none neither nor nowhere cannot".split())
LIGHT_ADVERBS = frozenset(
    "very also still just too now then here there again almost even only really quite so rather ever".split()
)
"""Adverbs that carry no topic (left out of `topic_words`)."""
FUNCTION_LEMMAS = frozenset("be have do".split())
"""Verb lemmas left out of `topic_words` (they are auxiliaries elsewhere)."""

DO_FORMS = {"VBZ": "does", "VBP": "do", "VBD": "did"}
"""The do-support of each finite tag (full forms: "does not", never "doesn't")."""
_TAG_OF_DO = {form: tag for tag, form in DO_FORMS.items()}
_WORD = re.compile(r"^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*$")

# --------------------------------------------------------------------------------------------------- lexicon


@cache
def _readings(word: str) -> dict[str, tuple[str, ...]]:
    """The possible parts of speech of a lower-cased word in lemminflect's lexicon, with their lemmas."""
    from lemminflect import getAllLemmas

    return {pos: tuple(lemmas) for pos, lemmas in getAllLemmas(word).items()}


@cache
def verb_forms(word: str) -> dict[str, tuple[str, ...]]:
    """The Penn verb tags a lower-cased word is an inflection of, with their lemmas (`{"VBZ": ("stand",)}`)."""
    from lemminflect import getInflection

    forms: dict[str, set[str]] = {}
    for lemma in _readings(word).get("VERB", ()) + _readings(word).get("AUX", ()):
        for tag in ("VB", "VBD", "VBG", "VBN", "VBP", "VBZ"):
            if word in getInflection(lemma, tag=tag):
                forms.setdefault(tag, set()).add(lemma)
    return {tag: tuple(sorted(lemmas)) for tag, lemmas in sorted(forms.items())}


def _is_plural_noun(word: str) -> bool | None:
    """True / False when lemminflect says the noun is plural / singular, None when it may be either."""
    if word in ("people", "police", "cattle", "clergy"):
        return True
    lemmas = _readings(word).get("NOUN", ())
    if not lemmas:
        return None
    plural, singular = any(lemma != word for lemma in lemmas), word in lemmas
    return None if plural == singular else plural


# ---------------------------------------------------------------------------------------------------- tagger


@dataclass(frozen=True)
class Token:
    """A word and our tag for it.

    Tags: DET, NUM, ADP, PRON (a subject pronoun), OPRON (an object pronoun), AUX (`AUXILIARIES` used as one), NFBE
    (be, been, being), CCONJ, SCONJ, PART ("to"), INTJ, NEG, ADV, NOM (a noun, adjective or name: not a verb),
    PROPN (a capitalised word lemminflect does not know), VERB (a verb that counts), INF (the verb of a "to"
    infinitive, which the authors do not count), UNSURE (a noun or a verb: we cannot tell), UNKNOWN.
    """

    word: str
    tag: str


def _closed_tag(lower: str) -> str | None:
    if lower in NEGATION_WORDS:
        return "NEG"
    if lower in DETERMINERS:
        return "DET"
    if lower in NUMERALS or lower.isdigit():
        return "NUM"
    if lower in PREPOSITIONS:
        return "ADP"
    if lower in PRONOUNS_SINGULAR or lower in PRONOUNS_PLURAL:
        return "PRON"
    if lower in PRONOUNS_OBJECT:
        return "OPRON"
    if lower in BE or lower in MODALS:
        return "AUX"
    if lower in NON_FINITE_BE:
        return "NFBE"
    if lower in CONJUNCTIONS:
        return "CCONJ"
    if lower in SUBORDINATORS or lower == "if":
        return "SCONJ"
    if lower == "to":
        return "PART"
    if lower in INTERJECTIONS:
        return "INTJ"
    return None


def tag(words: Sequence[str]) -> list[Token]:
    """Tag the words of a sentence (no punctuation) for the authors' filter: which words are verbs, and which aux.

    Context rules, over the previous word that is not an adverb:

    - a closed-class word has its class (`has`/`have`/`had` is AUX when a past participle follows, a verb otherwise);
    - a capitalised word inside the sentence is PROPN (a name or nationality, never a verb: "Mars", "Chinese");
    - a word with no verb reading in lemminflect is NOM (or ADV when it is only an adverb); a capitalised first word
      lemminflect does not know is PROPN, another unknown word UNKNOWN (hyphenated ones are NOM);
    - a word that can be a verb is: INF after "to"; VERB after an auxiliary when it is an -ing form or a past
      participle (or a base form after a modal); NOM after a determiner, numeral or preposition when it can be a
      noun or adjective (an -ing form after a preposition is a gerund: VERB), and so before any verb after a word
      that can be an adjective ("a young man"); after the subject (a noun or pronoun, no verb yet) it is the main
      VERB when it is a finite form that agrees with the subject in number, NOM (a compound noun, "a race dog")
      when it does not, and UNSURE when it agrees but can be a noun and the previous noun follows a preposition ("a
      dog with its front paws ..."), or is itself a present that did not agree ("a girl throw rocks"), or it is a
      VBZ form after a subject with no determiner ("Karate kids with a flag"); after the main verb, an -ing form or
      past participle (also after "and" / "or") is a second VERB and any other form that can be a noun is NOM (an
      object); sentence-initially it is NOM when it can be a noun; a verb reading none of whose inflections is the
      word ("leaped": lemminflect inflects "leapt") is UNSURE, and so is anything else.
    """
    tokens: list[Token] = []
    prev = ""  # tag of the previous word that is not an adverb
    prev_word = ""
    seen_verb = False
    in_pp = False  # a preposition came before, and no verb yet: the previous noun may be inside a phrase
    after_compound = False  # the previous word is a present verb form taken as a noun (it did not agree)
    for i, raw in enumerate(words):
        lower = raw.lower()
        capital_inside = i > 0 and raw[:1].isupper()
        closed = _closed_tag(lower) if not capital_inside else None
        if closed == "AUX" or lower in HAVE and not capital_inside:
            if lower in HAVE:
                following = [w.lower() for w in words[i + 1 : i + 3]]
                nxt = next((w for w in following if not _adverb_only(w)), "")
                closed = "AUX" if "VBN" in verb_forms(nxt) or nxt == "been" else None
        if closed is not None:
            after_compound = False
            in_pp = in_pp or (closed == "ADP" and not seen_verb)
            tokens.append(Token(raw, closed))
            prev, prev_word = closed, lower
            continue
        readings = _readings(lower)
        forms = verb_forms(lower)
        if capital_inside:
            label = "PROPN"  # a capital inside the sentence: a name ("Mars", "Chinese"), never a verb
        elif not readings:
            if "-" in lower:
                label = "NOM"
            elif raw[:1].isupper():
                label = "PROPN"
            else:
                label = "UNKNOWN"
        elif not forms:
            # a verb reading none of whose inflections is this word ("leaped": lemminflect inflects "leapt")
            label = "UNSURE" if "VERB" in readings else "ADV" if set(readings) == {"ADV"} else "NOM"
        else:
            bare_subject = bool(tokens) and tokens[0].tag in ("NOM", "PROPN")
            label = _verb_context(
                lower, forms, readings, prev, prev_word, seen_verb, in_pp, bare_subject, after_compound
            )
        after_compound = label == "NOM*"
        label = label.rstrip("*")
        if label == "VERB":
            seen_verb = True
        tokens.append(Token(raw, label))
        if label != "ADV":
            prev, prev_word = label, lower
    return tokens


def _adverb_only(word: str) -> bool:
    return set(_readings(word)) == {"ADV"} and not verb_forms(word)


def _verb_context(
    word: str,
    forms: dict[str, tuple[str, ...]],
    readings: dict[str, tuple[str, ...]],
    prev: str,
    prev_word: str,
    seen_verb: bool,
    in_pp: bool,
    bare_subject: bool,
    after_compound: bool,
) -> str:
    """The tag of a word that can be a verb, from the previous word's tag (see `tag`)."""
    nominal = bool({"NOUN", "ADJ", "PROPN"} & set(readings))
    participle = "VBG" in forms or "VBN" in forms
    if prev == "PART":
        return "INF" if "VB" in forms else ("NOM" if nominal else "UNSURE")
    if prev in ("AUX", "NFBE"):
        if participle or (prev_word in MODALS and "VB" in forms):
            return "VERB"
        return "NOM" if nominal else "UNSURE"
    if prev in ("DET", "NUM", "OPRON"):
        return "NOM" if nominal else "UNSURE"
    if prev == "ADP":
        if "VBG" in forms:
            return "VERB"
        return "NOM" if nominal else "UNSURE"
    if prev == "NOM" and not seen_verb and nominal and "ADJ" in _readings(prev_word):
        return "NOM"  # after an adjective ("a young man", "a black dog")
    if prev in ("NOM", "PRON", "PROPN") and not seen_verb:
        if "VBG" in forms or set(forms) <= {"VB", "VBN"}:
            return "VERB" if participle else ("NOM" if nominal else "UNSURE")
        if _agrees(forms, prev_word, prev):
            # a finite form that can be a noun may continue a compound instead: we cannot tell after a noun inside a
            # phrase ("a dog with its front paws ..."), after a present that did not agree ("a girl throw rocks"),
            # or as a VBZ / plural noun after a subject with no determiner ("Karate kids with a flag")
            doubtful = in_pp or after_compound or (bare_subject and "VBZ" in forms)
            return "UNSURE" if nominal and doubtful else "VERB"
        if nominal and {"VBZ", "VBP"} & set(forms):
            return "NOM*"  # a present that does not agree: a compound noun ("a race dog"), or a typo
        return "NOM" if nominal else "UNSURE"
    if prev in ("VERB", "NOM", "PROPN", "INF") and seen_verb:
        if participle:  # a participle modifier ("a basket attached with ropes"): stanza's VERB
            return "VERB"
        return "NOM" if nominal else "UNSURE"
    if prev == "CCONJ" and seen_verb and participle:  # a coordinated participle: a second verb
        return "VERB"
    if prev == "INF":  # an object of the infinitive
        return "NOM" if nominal else "UNSURE"
    if prev == "":
        return "NOM" if nominal and "VBG" not in forms else ("VERB" if not nominal else "UNSURE")
    return "UNSURE"


def _agrees(forms: dict[str, tuple[str, ...]], subject: str, subject_tag: str) -> bool:
    """Whether a finite form can follow this subject word: a past always, VBZ after a singular, VBP after a plural."""
    if "VBD" in forms:
        return True
    plural: bool | None
    if subject_tag == "PRON":
        plural = subject in PRONOUNS_PLURAL
    elif subject_tag == "PROPN":
        plural = False
    else:
        plural = _is_plural_noun(subject)
    if plural is None:
        return False
    return ("VBP" if plural else "VBZ") in forms


# ---------------------------------------------------------------------------------------------- filter + negate


@dataclass(frozen=True)
class Derived:
    """A kept sentence: the sentence, its negation, its topic words, and whether it starts with a name."""

    sentence: str
    negation: str
    topic_words: tuple[str, ...]
    proper_start: bool


def normalise(premise: str) -> str:
    """The premise with spaces collapsed, its first letter capitalised and a full stop added if it has none."""
    text = " ".join(premise.split())
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


def derive(sentence: str) -> Derived | str:
    """Filter one (normalised) sentence and negate it: the kept entry, or the reason it is dropped."""
    body = sentence[:-1] if sentence.endswith(".") else sentence
    if any(mark in body for mark in (";", "(", ",", "?")):
        return "authors: contains ; ( , or ?"
    words = body.split()
    if any(w.lower() == "if" for w in words):
        return "authors: contains if"
    if "." in body or "!" in body:
        return "more than one sentence"
    if not all(_WORD.match(w) for w in words):
        return "other punctuation or symbol (quotes, apostrophes, colons, ...)"
    if not MIN_WORDS <= len(words) <= MAX_WORDS:
        return f"length outside {MIN_WORDS}..{MAX_WORDS} words"
    if any(w.lower() in NEGATION_WORDS for w in words):
        return "already contains a negation word"
    tokens = tag(words)
    if tokens[0].tag == "INTJ":
        return "authors: starts with an interjection"
    if any(t.tag == "SCONJ" for t in tokens):
        return "subordinating word (a second clause)"
    if any(t.tag == "UNKNOWN" for t in tokens):
        return "tagger: word unknown to lemminflect"
    verbs = [i for i, t in enumerate(tokens) if t.tag == "VERB"]
    unsure = any(t.tag == "UNSURE" for t in tokens)
    if len(verbs) > 1:
        return "authors: more than one verb"
    if unsure:
        return "tagger: noun or verb unclear"
    if not verbs:
        return "authors: no verb"
    if coordinated_auxiliary([w.lower() for w in words]):
        return "a second auxiliary (a second clause)"
    if _coordinated_predicate(tokens):
        return "and / or / but in the predicate, not before a noun phrase"
    negation = _negate(words, tokens, verbs[0])
    if negation.startswith("|"):
        return negation[1:]
    negated = negation + "."
    if not negation_is_exact(sentence, negated):  # a bug of ours, never a drop reason
        raise AssertionError(f"inexact negation: {sentence!r} -> {negated!r}")
    return Derived(sentence, negated, topic_words(tokens), tokens[0].tag == "PROPN")


def _coordinated_predicate(tokens: Sequence[Token]) -> bool:
    """Whether "and" / "or" / "but" after the first auxiliary or verb joins anything but noun phrases.

    "does not cook meats and vegetables" negates the sentence; "is not holding her dog and very happy" may not.
    A conjunction in the predicate is kept only before a determiner, numeral, pronoun or a word that can only be a
    noun (lemminflect).
    """
    start = next((i for i, t in enumerate(tokens) if t.tag in ("AUX", "VERB")), len(tokens))
    for i in range(start + 1, len(tokens) - 1):
        if tokens[i].tag != "CCONJ":
            continue
        nxt = tokens[i + 1]
        if nxt.tag in ("DET", "NUM", "OPRON", "PROPN"):
            continue
        if nxt.tag == "NOM" and set(_readings(nxt.word.lower())) == {"NOUN"}:
            continue
        return True
    return False


def _negate(words: Sequence[str], tokens: Sequence[Token], verb: int) -> str:
    """The negation without its full stop, or `|reason` when the sentence cannot be negated exactly."""
    aux = next((i for i, t in enumerate(tokens) if t.tag == "AUX"), None)
    if aux is not None:
        return " ".join([*words[: aux + 1], "not", *words[aux + 1 :]])
    if not any(t.tag in ("NOM", "PRON", "PROPN") for t in tokens[:verb]):
        return "|no subject before the verb"
    if tokens[verb - 1].tag == "ADV":
        return "|adverb before the verb (outside the negation's scope)"
    forms = verb_forms(words[verb].lower())
    finite = [tag for tag in ("VBZ", "VBP", "VBD") if tag in forms]
    if not finite:
        return "|no finite verb (a participle without an auxiliary)"
    if "VBD" in forms and "VBN" in forms:
        return "|tagger: past tense or participle unclear"
    if len(finite) > 1:
        return "|tagger: past or present tense unclear"
    lemmas = forms[finite[0]]
    if len(lemmas) != 1:
        return "|tagger: lemma unclear"
    return " ".join([*words[:verb], DO_FORMS[finite[0]], "not", lemmas[0], *words[verb + 1 :]])


def topic_words(tokens: Sequence[Token]) -> tuple[str, ...]:
    """The content-word lemmas of a tagged sentence, lower-cased and sorted (function words left out)."""
    out: set[str] = set()
    for token in tokens:
        lower = token.word.lower()
        if token.tag in ("VERB", "INF"):
            forms = verb_forms(lower)
            lemmas = {lemma for tag in ("VBZ", "VBP", "VBD", "VBG", "VBN", "VB") for lemma in forms.get(tag, ())}
            out |= {lemma for lemma in lemmas if lemma not in FUNCTION_LEMMAS}
        elif token.tag in ("NOM", "PROPN"):
            readings = _readings(lower)
            out |= set(readings.get("NOUN") or readings.get("ADJ") or readings.get("PROPN") or (lower,))
        elif token.tag == "ADV":
            out.add(lower)
    out -= LIGHT_ADVERBS
    return tuple(sorted(out))


def negation_is_exact(sentence: str, negation: str) -> bool:
    """Whether `negation` is `sentence` with exactly one negation added, by one of our two rules.

    (a) one "not" inserted right after the first auxiliary (`AUXILIARIES`; a have-form only before a past
    participle), or (b) in a sentence with no auxiliary, "does not" / "do not" / "did not" inserted before a word and
    that word replaced by a lemma of which it is the VBZ / VBP / VBD inflection (by lemminflect), agreeing with
    does / do / did. Both must end with the same punctuation, the sentence must have no negation word already, and
    no second auxiliary (a second clause, outside the negation's scope).
    """
    if not sentence or not negation or sentence[-1] != negation[-1]:
        return False
    s, n = sentence[:-1].split(), negation[:-1].split()
    lowered = [w.lower() for w in s]
    if any(w in NEGATION_WORDS for w in lowered):
        return False
    if coordinated_auxiliary(lowered):  # "not" after the first would negate its clause only
        return False
    first_aux = next((i for i, w in enumerate(lowered) if _is_auxiliary(lowered, i)), None)
    if len(n) == len(s) + 1 and first_aux is not None:
        i = first_aux + 1
        return n[:i] == s[:i] and n[i] == "not" and n[i + 1 :] == s[i:]
    if len(n) == len(s) + 2 and first_aux is None:
        for i in range(len(s)):
            if n[:i] != s[:i]:
                return False
            if n[i] in _TAG_OF_DO and n[i + 1] == "not" and n[i + 3 :] == s[i + 1 :]:
                lemma, word = n[i + 2], lowered[i]
                return i > 0 and lemma in verb_forms(word).get(_TAG_OF_DO[n[i]], ())
        return False
    return False


def coordinated_auxiliary(words: Sequence[str]) -> bool:
    """Whether a lower-cased sentence has a second auxiliary ("... are dating and she is happy").

    "not" after the first would negate the first clause only, not the sentence.
    """
    return sum(_is_auxiliary(words, i) for i in range(len(words))) > 1


def _is_auxiliary(words: Sequence[str], i: int) -> bool:
    if words[i] in BE or words[i] in MODALS:
        return True
    if words[i] in HAVE:
        following = [w for w in words[i + 1 : i + 3] if not _adverb_only(w)]
        return bool(following) and ("VBN" in verb_forms(following[0]) or following[0] == "been")
    return False


# ---------------------------------------------------------------------------------------------------- the pool


@dataclass(frozen=True)
class SourceSentence:
    """One sentence as read from a source: its text, where it was read, and the pair group it belongs to (if any)."""

    text: str
    origin: str
    pair: str | None = None


def detokenize(line: str) -> str:
    """An e-SNLI line as SNLI wrote it, for any sentence the filter keeps: the space before a final `.`/`!`/`?` removed.

    Spaces are collapsed and the trailing one dropped. Nothing else is changed: the other marks the PTB tokenizer
    splits off (`,`, `'s`, `n't`, quotes, brackets, `;`, `:`) are all dropped by the filter, so a kept sentence has
    none of them.
    """
    text = " ".join(line.split())
    if len(text) > 2 and text[-2] == " " and text[-1] in ".!?":
        text = text[:-2] + text[-1]
    return text


def glockner_sentences(rows: Iterable[dict[str, Any]]) -> list[SourceSentence]:
    """The premises (`sentence1`) of Breaking NLI rows, one per row, named by the row's pairID.

    No pair group: the rows' `sentence2` are not in the pool.
    """
    return [SourceSentence(row["sentence1"], f"glockner:{int(row['pairID'])}") for row in rows]


def esnli_sentences(files: dict[str, str]) -> list[SourceSentence]:
    """The premises and hypotheses of e-SNLI's line-aligned files (`s1.<split>`, `s2.<split>`), detokenized.

    Each line's pair group is its premise: `snli:s1.<split>:<first line with that premise>` (SNLI lists a premise on
    consecutive lines, one per hypothesis), shared by the premise and every hypothesis written for it.

    Args:
        files: File name (`s1.dev`, ...) to text, in the order to read them.
    """
    lines = {name: text.split("\n")[:-1] if text.endswith("\n") else text.split("\n") for name, text in files.items()}
    out: list[SourceSentence] = []
    for name in files:
        kind, split = name.split(".")
        premises = lines[f"s1.{split}"]
        if len(premises) != len(lines[name]):
            raise ValueError(f"{name}: {len(lines[name])} lines, s1.{split} has {len(premises)}: not line-aligned")
        first: dict[str, int] = {}
        for number, premise in enumerate(premises, 1):
            first.setdefault(detokenize(premise), number)
        for number, line in enumerate(lines[name], 1):
            group = f"snli:s1.{split}:{first[detokenize(premises[number - 1])]}"
            out.append(SourceSentence(detokenize(line), f"{name}:{number}", group))
    return out


def coco_sentences(document: dict[str, Any]) -> list[SourceSentence]:
    """The captions of a COCO captions file, named by caption id, grouped by image (five captions of one scene)."""
    return [
        SourceSentence(detokenize(a["caption"]), f"coco:{int(a['id'])}", f"coco-image:{int(a['image_id'])}")
        for a in sorted(document["annotations"], key=lambda a: int(a["id"]))
    ]


def _origin_key(origin: str) -> tuple[str, int]:
    name, _, number = origin.rpartition(":")
    return name, int(number)


def derive_pool(sentences: Iterable[SourceSentence]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The pool's entries (sorted by sentence) and the filter's counts, from the sentences of the sources.

    Sentences are merged by their text as read (their origins and pair groups gathered), then normalised; two texts
    that normalise to the same sentence (case and final stop aside) are one entry, the second counted as a duplicate.
    """
    origins: dict[str, list[str]] = {}
    pairs: dict[str, set[str]] = {}
    read: Counter[str] = Counter()
    for item in sentences:
        read[item.origin.rpartition(":")[0]] += 1
        origins.setdefault(item.text, []).append(item.origin)
        if item.pair is not None:
            pairs.setdefault(item.text, set()).add(item.pair)
    dropped: Counter[str] = Counter()
    entries: dict[str, dict[str, Any]] = {}
    for text in sorted(origins):
        sentence = normalise(text)
        key = sentence.rstrip(".").casefold()
        if key in entries:
            dropped["duplicate (after normalising)"] += 1
            entry = entries[key]
            entry["origins"] = sorted(entry["origins"] + origins[text], key=_origin_key)
            entry["pairs"] = sorted(set(entry["pairs"]) | pairs.get(text, set()))
            continue
        result = derive(sentence)
        if isinstance(result, str):
            dropped[result] += 1
            continue
        entries[key] = {
            "sentence": result.sentence,
            "negation": result.negation,
            "topic_words": list(result.topic_words),
            "proper_start": result.proper_start,
            "origins": sorted(origins[text], key=_origin_key),
            "pairs": sorted(pairs.get(text, set())),
        }
    kept = sorted(entries.values(), key=lambda e: e["sentence"])
    kinds: Counter[str] = Counter()
    for entry in kept:
        kinds.update({_origin_kind(o) for o in entry["origins"]})
    counts = {
        "read": dict(sorted(read.items())),
        "distinct_read": len(origins),
        "kept": len(kept),
        "kept_by_origin": dict(sorted(kinds.items())),
        "dropped": dict(sorted(dropped.items())),
    }
    return kept, counts


def _origin_kind(origin: str) -> str:
    name = origin.rpartition(":")[0]
    return {"glockner": "Glockner premise", "coco": "COCO caption"}.get(
        name, "SNLI premise" if name.startswith("s1.") else "SNLI hypothesis"
    )


def describe_origin(origin: str) -> str:
    """An origin of the pool file in words: the file under `../shared/data`, the line or id, and what it is there.

    `s2.dev:12` -> `snli_esnli/s2.dev line 12 (SNLI dev hypothesis)`.
    """
    name, _, number = origin.rpartition(":")
    if name == "glockner":
        return f"{GLOCKNER_FILE} pairID {number} (SNLI premise, Breaking NLI)"
    if name == "coco":
        return f"{COCO_FILE} caption id {number} (COCO caption)"
    kind, split = name.split(".")
    return f"{ESNLI_DIR}/{name} line {number} (SNLI {split} {'premise' if kind == 's1' else 'hypothesis'})"


def _source(path: Path, what: str) -> dict[str, str]:
    return {"file": what, "sha256": hashlib.sha256(path.read_bytes()).hexdigest()}


def _document(
    entries: list[dict[str, Any]],
    counts: dict[str, Any],
    sources: list[dict[str, str]],
    attribution: str,
    citations: Sequence[str],
    licence: dict[str, str],
) -> dict[str, Any]:
    from importlib.metadata import version

    return {
        "sources": sources,
        "attribution": attribution,
        "citations": list(citations),
        "licence": licence,
        "derived_by": DERIVED_BY,
        "tools": {"lemminflect": version("lemminflect")},
        "rules": "KanaCS/ILogicEval snli_preprocessing.py lines 43-81 (filter and negation), with our additions; "
        "see the docstring of lgmt_tasks.divlogiceval.snli",
        "origins": "glockner:<pairID> (snli_glockner/dataset.jsonl), s1.<split>:<line> (an SNLI premise) and "
        "s2.<split>:<line> (an SNLI hypothesis) of snli_esnli/, 1-based lines, coco:<caption id> "
        "(coco_captions/captions_val2017.json); pairs: a premise with its hypotheses (snli:s1.<split>:<line>) or the "
        "captions of one image (coco-image:<id>)",
        "counts": counts,
        "sentences": entries,
    }


def pool_document(data: Path) -> dict[str, Any]:
    """The JSON object of `snli_pool.json`: Glockner's premises and SNLI dev/test premises and hypotheses."""
    glockner = data / GLOCKNER_FILE
    rows = [json.loads(line) for line in glockner.read_text(encoding="utf-8").splitlines() if line.strip()]
    files = {name: (data / ESNLI_DIR / name).read_text(encoding="utf-8") for name in ESNLI_FILES}
    entries, counts = derive_pool([*glockner_sentences(rows), *esnli_sentences(files)])
    sources = [
        _source(glockner, "snli_glockner/dataset.jsonl: dataset.jsonl of breaking_nli_dataset.zip, "
                "https://github.com/BIU-NLP/Breaking_NLI; field sentence1 (an SNLI premise, verbatim)"),
        *(
            _source(data / ESNLI_DIR / name, f"{ESNLI_DIR}/{name}: e-SNLI dataset/eSNLI/{name}, "
                    f"https://github.com/OanaMariaCamburu/e-SNLI ({'premises' if name[1] == '1' else 'hypotheses'}, "
                    "PTB-tokenized, one a line)")
            for name in ESNLI_FILES
        ),
    ]  # fmt: skip
    return _document(entries, counts, sources, ATTRIBUTION, CITATIONS, LICENCE)


def coco_document(data: Path) -> dict[str, Any]:
    """The JSON object of `coco_pool.json`: the COCO 2017 validation captions that pass the filter."""
    path = data / COCO_FILE
    entries, counts = derive_pool(coco_sentences(json.loads(path.read_text(encoding="utf-8"))))
    sources = [_source(path, f"{COCO_FILE}: annotations/captions_val2017.json of COCO 2017 (annotations[*].caption)")]
    return _document(entries, counts, sources, COCO_ATTRIBUTION, COCO_CITATIONS, COCO_LICENCE)


def dumps(document: dict[str, Any]) -> str:
    """The file's text (stable: sorted keys, one entry a line)."""
    head = {k: v for k, v in document.items() if k != "sentences"}
    lines = json.dumps(head, ensure_ascii=False, indent=1, sort_keys=True)[:-2]
    body = ",\n".join("  " + json.dumps(e, ensure_ascii=False, sort_keys=True) for e in document["sentences"])
    return f'{lines},\n "sentences": [\n{body}\n ]\n}}\n'


def main(argv: Sequence[str] | None = None) -> None:
    """CLI: derive `snli_pool.json` and `coco_pool.json` from `../shared/data`."""
    parser = argparse.ArgumentParser(prog="python -m lgmt_tasks.divlogiceval.snli", description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, required=True, help="the shared data folder (../shared/data)")
    parser.add_argument("--out-dir", type=Path, required=True, help="where to write the pools (the package's data/)")
    args = parser.parse_args(argv)
    for name, document in ((POOL_FILE, pool_document(args.data)), (COCO_POOL_FILE, coco_document(args.data))):
        (args.out_dir / name).write_text(dumps(document), encoding="utf-8")
        counts = document["counts"]
        print(
            f"{name}: read {counts['distinct_read']} distinct sentences; kept {counts['kept']}",
            counts["kept_by_origin"],
        )
        for reason, count in counts["dropped"].items():
            print(f"  dropped {count:6d}  {reason}")


if __name__ == "__main__":
    main()
