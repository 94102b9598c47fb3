"""Word classes and inflections of the words in FOL names taken from data, by lemminflect's offline dictionaries.

Why: benchmark FOL names are bare words (`Mammal(x)`, `Jump(x)`, `LostTo(x, y)`, `find_inner_strength(x)`). The
realiser must tell a noun ("x is a mammal") from a verb ("x jumps") or an adjective ("x is calm") and inflect it
("x lost to y", "x finds inner strength"); a hand-made word list cannot cover FOLIO's or ProverQA's vocabulary
(issue #26: 70% of template sentences were ungrammatical). lemminflect (MIT) ships its English dictionaries inside
its wheel, runs offline and in process, and answers two questions: which universal parts of speech a word form can
have (`getAllLemmas`) and how a lemma inflects (`getInflection`). It is imported on first use, not when this module
is imported, so that importing the plugin stays cheap.

A word can have several classes ("calm": adjective, noun, verb). `phrasing.py` decides among them from the shape
of the whole name, and `usage_hint` from how the source's own English uses the name, when it has English.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from types import ModuleType
from typing import Literal, TypeAlias

Reading: TypeAlias = Literal["noun", "verb", "copula"]
"""How a predicate name is spoken: "x is a mammal" (noun), "x jumps" (verb), "x is calm"/"x is in Paris" (copula)."""

DETERMINERS = frozenset(
    """a an the this these those every each some any no all many much my his her its their our your
    one two three four five""".split()
)
SUBJECT_MARKERS = frozenset(
    """can cannot can't could will would shall should may might must do does did don't doesn't didn't not never
    to who that which also often always usually sometimes""".split()
)
COPULAS = frozenset("is are was were be been being am".split())
DEGREE_WORDS = frozenset("very more most so too quite rather".split())
_ADJECTIVE_SUFFIXES = tuple("ous ic ical ive ful less able ible ish ary ent ant al ular".split())


@lru_cache(maxsize=1)
def _lemminflect() -> ModuleType:
    import lemminflect  # noqa: PLC0415 - deferred: its dictionaries load on first use only

    return lemminflect


@lru_cache(maxsize=1 << 14)
def classes(word: str) -> frozenset[str]:
    """The universal parts of speech `word` (lower case) can have: NOUN, VERB, ADJ, ADV, AUX... (empty: unknown)."""
    return frozenset(_lemminflect().getAllLemmas(word.lower()))


def known(word: str) -> bool:
    """Whether the dictionaries know `word` at all."""
    return bool(classes(word))


@lru_cache(maxsize=1 << 14)
def verb_lemma(word: str) -> str | None:
    """The verb `word` is a form of ("grew" -> "grow"), or None when it is no verb form."""
    lemmas = _lemminflect().getAllLemmas(word).get("VERB")
    return lemmas[0] if lemmas else None


def _inflect(lemma: str, tag: str) -> tuple[str, ...]:
    return tuple(_lemminflect().getInflection(lemma, tag=tag))


def verb_forms(lemma: str) -> dict[str, tuple[str, ...]]:
    """Every form of verb `lemma` by Penn tag (VB, VBZ, VBD, VBN, VBG)."""
    return {tag: _inflect(lemma, tag) for tag in ("VB", "VBZ", "VBD", "VBN", "VBG")}


def verb_tag(word: str) -> str | None:
    """Which verb form `word` is, as a Penn tag, or None when it is no verb form.

    "VB" (base), "VBZ", "VBD" (past, also when it equals the participle), "VBN" (a participle that is not also the
    past tense: "grown", "born"), "VBG".
    """
    lemma = verb_lemma(word)
    if lemma is None:
        return None
    forms = verb_forms(lemma)
    for tag in ("VB", "VBZ", "VBD", "VBN", "VBG"):
        if word in forms[tag]:
            return tag
    return None


def third_person(word: str) -> str:
    """The third person singular present of base-form verb `word` ("fly" -> "flies", "be" -> "is")."""
    if word == "be":
        return "is"
    if word == "have":
        return "has"
    forms = _inflect(word, "VBZ")
    return forms[0] if forms else word + "s"


def is_comparative(word: str) -> bool:
    """Whether `word` is an adjective's comparative ("taller", "cheaper", "greater")."""
    for lemma in _lemminflect().getAllLemmas(word).get("ADJ", ()):
        if lemma != word and word in _inflect(lemma, "JJR"):
            return True
    return False


def singular(noun: str) -> str | None:
    """The singular of plural noun `noun` ("diseases" -> "disease"), or None when `noun` is not a known plural."""
    for lemma in _lemminflect().getAllLemmas(noun).get("NOUN", ()):
        if lemma != noun and noun in _inflect(lemma, "NNS"):
            return lemma
    return None


def plurals(noun: str) -> tuple[str, ...]:
    """The plural forms of singular noun `noun` ("disease" -> ("diseases",)); empty for an unknown word."""
    return _inflect(noun, "NNS")


def looks_adjective(word: str) -> bool:
    """An unknown word with an adjective's suffix ("terricolous"): read as an adjective, else as a noun."""
    return word.endswith(_ADJECTIVE_SUFFIXES)


def indefinite_article(word: str) -> str:
    """The indefinite article before `word`, by its first sound as far as spelling tells ("an hour", "a university")."""
    if len(word) > 1 and word.isupper():  # an acronym spoken letter by letter: "an NBA player", "a TV show"
        return "an" if word[0] in "AEFHILMNORSX" else "a"
    w = word.lower()
    if re.match(r"(?:hour|honest|honou?r|heir)", w):
        return "an"
    if re.match(r"(?:uni|use|usu|uti|eu|one|once|ua|ue|uk)", w) or re.fullmatch(r"u", w):
        return "a"
    if re.fullmatch(r"[a-z]", w):  # a spelled letter: "an F", "a B"
        return "an" if w in "aefhilmnorsx" else "a"
    return "an" if w[:1] in "aeiou" or re.fullmatch(r"\d*8\d*|11\d*|18\d*", w) else "a"


# --------------------------------------------------------------------------------------------- the source's usage


@dataclass(frozen=True)
class Usage:
    """How a source's English uses a predicate's words.

    A reading and, when the English writes a possessive the name lost ("Peter's pet" for `PetersPet`) or capitals
    ("a Greek"), the words to speak instead.
    """

    reading: Reading | None = None
    words: tuple[str, ...] | None = None


def _phrase_pattern(words: tuple[str, ...], plural_last: bool) -> str:
    parts = [re.escape(w) for w in words]
    if plural_last:
        parts[-1] += r"(?:s|es)?"
    return r"[\s\-]+".join(parts)


def _previous_word(text: str, start: int) -> str:
    m = re.search(r"([\w'’]+)\W*$", text[:start])
    return m.group(1).lower() if m else ""


@lru_cache(maxsize=1 << 14)  # pure, and asked again for every group of a case (issue #36: its regexes cost 5%)
def usage_hint(words: tuple[str, ...], text: str) -> Usage | None:
    """Read how `text` (the source English, any case) uses a name's `words`, or None when it does not say.

    Evidence counted: an article or quantifier before the words (noun), a copula or degree word right before them
    (copula), a form of the first word as a verb after a modal, "not", "to", a relative pronoun or a subject (verb).
    The reading with the most evidence wins; a tie says nothing. A possessive the English writes for the first word
    ("Peter's pet", "the world's most populous nation") is returned as the words to speak.
    """
    if not words or words[0] in COPULAS or words[0] in DETERMINERS:
        return None
    low = text.lower()
    words = (*words[:-1], singular(words[-1]) or words[-1])  # "DeadlyDiseases" is used as "a deadly disease" too
    first, rest = words[0], words[1:]
    if first.endswith("s") and len(first) > 2 and rest:
        owned = rf"\b(?:(the|a|an)\s+)?({re.escape(first[:-1])})['’]s[\s\-]+{_phrase_pattern(rest, True)}\b"
        matches = sorted(re.finditer(owned, low), key=lambda m: m.group(1) is None)  # one with its article first
        if matches:
            m = matches[0]
            owner = text[m.start(2) : m.start(2) + len(first) - 1] + "'s"
            return Usage("noun", (*([m.group(1)] if m.group(1) else []), owner, *rest))
    votes = {"noun": 0, "verb": 0, "copula": 0}
    cased: tuple[str, ...] | None = None
    for m in re.finditer(rf"\b{_phrase_pattern(words, True)}\b", low):
        found = tuple(re.split(r"[\s\-]+", text[m.start() : m.end()]))
        # inside a sentence, and not the end of a longer capitalised name ("Diamond Mine" is no use of `Mine`)
        inside = re.search(r"(?<![A-Z][\w'’-])[\w,;:\"”)]\s*$", text[: m.start()]) is not None
        inside = inside and re.search(r"[A-Z][\w'’-]*\s+$", text[: m.start()]) is None
        inside = inside and re.match(r"\s+[A-Z]", text[m.end() :]) is None  # nor its start ("Love City")
        if cased is None and inside and len(found) == len(words) and found != words:
            # the English's capitals ("a Greek", "an Indo-European language"), the name's own endings
            cased = tuple(w[:1].upper() + w[1:] if f[:1].isupper() else w for w, f in zip(words, found, strict=True))
        before = _previous_word(low, m.start())
        plural = found[-1].lower() != words[-1] and singular(found[-1].lower()) == words[-1]
        after = re.match(r"[\s\-]+([a-z]+)", low[m.end() :])
        following = after.group(1) if after else ""
        noun_after = "NOUN" in classes(following) or bool(following) and not classes(following)  # or unknown
        modifier = not plural and noun_after and verb_tag(following) not in ("VBZ", "VBD")
        if modifier and before in DETERMINERS:
            # "a certified gold album": the words modify a noun the name does not have; a participle or adjective
            # there is a quality ("x is certified gold"), anything else says nothing
            qualities = ("VBN", "VBD", "VBG")
            unknown_adjective = not classes(first) and looks_adjective(first)  # "a noninvasive technique"
            if "ADJ" in classes(first) or verb_tag(first) in qualities or unknown_adjective:
                votes["copula"] += 1
        elif before in DETERMINERS or plural and before in COPULAS:
            votes["noun"] += 1  # "a pet", "all dogs are mammals"
        elif before in COPULAS or before in DEGREE_WORDS:
            votes["copula"] += 1  # "is calm"
        elif verb_lemma(first) is not None and not plural:
            if before in SUBJECT_MARKERS or singular(before) is not None:
                votes["verb"] += 1  # "animals that bark", "some animals jump"
    lemma = verb_lemma(first)
    if lemma is not None:
        forms = verb_forms(lemma)
        inflected = {f for tag in ("VBZ", "VBD") for f in forms[tag]} - {first}
        # a single word's "-s" form may be a plural noun ("dogs bark" vs "the barks"); before more words of the name
        # ("gains knowledge") it is the verb
        nouns = set(_inflect(first, "NNS")) if "NOUN" in classes(first) and not rest else set()
        for form in sorted(inflected - nouns):
            pattern = r"[\s\-]+".join([re.escape(form), *(re.escape(w) for w in rest)])
            for m in re.finditer(rf"\b{pattern}\b", low):
                if _previous_word(low, m.start()) not in DETERMINERS:
                    votes["verb"] += 1
    best = max(votes.values())
    winners = [k for k, v in votes.items() if v == best]
    reading = winners[0] if best and len(winners) == 1 else None
    if reading is None and cased is None:
        return None
    return Usage(reading, cased if cased != words else None)  # type: ignore[arg-type]
