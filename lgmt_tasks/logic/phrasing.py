"""How FOL names become English words and templates: the natural phrasing and the paper's formal one.

A *template* is a sequence of words and argument slots such as `[0, "is", "resident", "of", 1]` ("Tom is resident
of Lawton Park"); a constant's *phrase* is a sequence of words (`lawtonPark` -> "Lawton Park"). This module turns
one name into its candidates; `lexicon.py` chooses among them so that the whole lexicon stays unambiguous.

Natural templates (style="natural")
-----------------------------------
Names are split into lower-case words at CamelCase, lowerCamelCase, snake_case, digit and acronym boundaries;
a dot stays on the word before it (`mr.smith` -> "mr. smith") and hyphenated parts stay one word (`l-2021`).

* Names that look abstract (`P`, `Q2`, `Pre1`, `Con1`, `c1`: one letter, or up to three letters and digits)
  always use the abstract phrasing, as the LGMT translation prompt asks.
* Arity 0: "<words> is true" (`Rain` -> "rain is true"; the paper's "A is true").
* Arity 1 and 2, *verb-led* names (first word an auxiliary such as is/has/can, a verb in the small table
  `BASE_VERBS`, conjugated in the third person, or a word that already ends in -s such as "likes"):
  "x <words>" / "x <words> y" (`CanFly(x)` -> "x can fly", `UseZipCode(x, y)` -> "x uses zip code y").
* Arity 1, otherwise: "x is <words>" (`Happy(x)` -> "x is happy", `BornIn1965(x)` -> "x is born in 1965").
* Arity 2, otherwise, when the last word is a preposition: "x is <words> y" (`ResidentOf` -> "x is resident of y").
* Everything else, and style="abstract": "x has property P", "x bears relation R to y",
  "x, y and z stand in relation R" (the paper's formal phrasing), "P is true"; constants keep their raw names.
* Constants name individuals, so a natural constant phrase is a proper name: its words are capitalised, all but
  articles and prepositions after the first (`alice` -> "Alice", `lawtonPark` -> "Lawton Park",
  `nationalLibraryOfMedicine` -> "National Library of Medicine"), and read back exactly as written. Without this a
  name inside a sentence would read as a common noun ("either ursula writes poetry or ...").

Equality is "a is identical to b" for every lexicon (`EQ_TEMPLATE`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import TypeAlias

from lgmt_tasks.logic.grammar_words import COMMA

# A template item is a literal word (str) or the index of an argument slot (int).
Template: TypeAlias = tuple[str | int, ...]
PredicateKey: TypeAlias = tuple[str, int]

EQ_TEMPLATE: Template = (0, "is", "identical", "to", 1)
EQ_KEY: PredicateKey = ("=", 2)

_ABSTRACT_NAME = re.compile(r"[A-Za-z]\d*|[A-Za-z]{1,3}\d+")

AUXILIARIES: Mapping[str, str] = MappingProxyType(
    {
        "is": "is",
        "are": "is",
        "be": "is",
        "was": "was",
        "were": "was",
        "has": "has",
        "have": "has",
        "had": "had",
        "does": "does",
        "do": "does",
        "did": "did",
        "can": "can",
        "could": "could",
        "will": "will",
        "would": "would",
        "shall": "shall",
        "should": "should",
        "may": "may",
        "might": "might",
        "must": "must",
    }
)
BASE_VERBS = frozenset(
    """admire attend belong build buy cause compose contain direct drink eat enjoy feature fly get give go grow
    hate help host include know lead live lose love make manage need own participate perform play prefer produce
    provide publish read receive release require respect run see sell serve sing speak study support swim take
    teach trust use visit want watch win work write""".split()
)
PREPOSITIONS = frozenset(
    """about above across after against along among around as at before behind below beneath beside between
    beyond by during for from in inside into like near of off on onto out outside over per since than through
    to toward towards under until upon via with within without""".split()
)


def fold(token: str) -> str:
    """`token` with its first letter in lower case: how a word compares at the start of a sentence."""
    if not token:
        return token
    low = token[0].lower()
    return (low if len(low) == 1 else token[0]) + token[1:]


def capitalize(text: str) -> str:
    """Upper-case the first letter when that can be undone by `fold` (sentence casing)."""
    if not text:
        return text
    up = text[0].upper()
    if len(up) == 1 and fold(up) == fold(text[0]):
        return up + text[1:]
    return text


def join_words(tokens: Iterable[str]) -> str:
    """Words separated by single spaces, with commas attached to the word before them."""
    out: list[str] = []
    for tok in tokens:
        if tok == COMMA and out:
            out[-1] += COMMA
        else:
            out.append(tok)
    return " ".join(out)


def _char_kind(c: str) -> str:
    if c.isdigit():
        return "digit"
    if c.isupper():
        return "upper"
    if c.isalpha():
        return "lower"
    return "other"


def _camel_words(part: str) -> list[str]:
    """Split one chunk at case and digit boundaries; punctuation stays on the word it touches."""
    words: list[str] = []
    cur = ""
    for i, c in enumerate(part):
        kind = _char_kind(c)
        if cur and kind != "other":
            prev = _char_kind(cur[-1])
            nxt = _char_kind(part[i + 1]) if i + 1 < len(part) else ""
            boundary = (
                (kind == "digit") != (prev == "digit")
                and prev != "other"
                or (prev == "lower" and kind == "upper")
                or (prev == "upper" and kind == "upper" and nxt == "lower")
            )
            if boundary:
                words.append(cur)
                cur = ""
        cur += c
    if cur:
        words.append(cur)
    return words


def split_name(name: str) -> tuple[str, ...]:
    """Lower-case words of a FOL name: `ResidentOf` -> (resident, of), `2008SummerOlympics` -> (2008, summer, ...).

    Underscores and whitespace separate words; a dot ends the word before it (`mr.smith` -> ("mr.", "smith"));
    hyphenated parts stay one word (`l-2021`, `well-knownAuthor` -> ("well-known", "author")).
    """
    words: list[str] = []
    for chunk in re.split(r"[\s_,]+", name):
        for piece in re.split(r"(?<=\.)", chunk):
            if not piece:
                continue
            merged: list[str] = []
            for k, part in enumerate(piece.split("-")):
                sub = _camel_words(part) or [""]
                if k and merged:
                    merged[-1] = merged[-1] + "-" + sub[0]
                    merged.extend(sub[1:])
                else:
                    merged.extend(sub)
            words.extend(w for w in merged if w)
    return tuple(w.lower() for w in words)


NAME_MINOR_WORDS = frozenset({"a", "an", "the"} | PREPOSITIONS)
"""Words a proper name keeps in lower case after its first word ("National Library of Medicine")."""


def proper_name(words: Sequence[str]) -> tuple[str, ...]:
    """The words of a constant written as a proper name: `("lawton", "park")` -> `("Lawton", "Park")`.

    The first word and every word but an article or preposition get a capital first letter (when `fold` can undo
    it, see `capitalize`), so "the beatles" reads "The Beatles" and "mr. smith" reads "Mr. Smith".
    """
    return tuple(w if i and w in NAME_MINOR_WORDS else capitalize(w) for i, w in enumerate(words))


def looks_abstract(name: str) -> bool:
    """Tell whether `name` is a placeholder (`P`, `Q2`, `Pre1`, `Con1`, `c1`), which the paper speaks formally."""
    return _ABSTRACT_NAME.fullmatch(name) is not None


def _third_person(verb: str) -> str:
    if verb in AUXILIARIES:
        return AUXILIARIES[verb]
    if verb == "go":
        return "goes"
    if verb.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if len(verb) > 1 and verb.endswith("y") and verb[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def _verb_led(first: str) -> bool:
    if first in AUXILIARIES or first in BASE_VERBS:
        return True
    return len(first) > 3 and first.endswith("s") and not first.endswith(("ss", "us", "is", "ics"))


def natural_template(name: str, arity: int) -> Template | None:
    """Return the natural-English template of a predicate, or None when there is no good one (see module doc)."""
    words = split_name(name)
    if not words or looks_abstract(name):
        return None
    if arity == 0:
        return (*words, "is", "true")
    if arity > 2:
        return None
    first, rest = words[0], words[1:]
    if _verb_led(first):
        verb = _third_person(first) if first in AUXILIARIES or first in BASE_VERBS else first
        return (0, verb, *rest, 1) if arity == 2 else (0, verb, *rest)
    if arity == 1:
        return (0, "is", *words)
    if words[-1] in PREPOSITIONS:
        return (0, "is", *words, 1)
    return None


def abstract_template(name: str, arity: int) -> Template:
    """Return the paper's formal phrasing: "P is true", "x has property P", "x bears relation R to y", ...."""
    if arity == 0:
        return (name, "is", "true")
    if arity == 1:
        return (0, "has", "property", name)
    if arity == 2:
        return (0, "bears", "relation", name, "to", 1)
    items: list[str | int] = []
    for i in range(arity - 1):
        items += [i, COMMA] if i < arity - 2 else [i]
    return (*items, "and", arity - 1, "stand", "in", "relation", name)


def template_pattern(template: Template) -> str:
    """Show a template as a format string: `(0, "likes", 1)` -> "{0} likes {1}"."""
    return join_words(f"{{{item}}}" if isinstance(item, int) else item for item in template)
