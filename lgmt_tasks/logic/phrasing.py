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

from lgmt_tasks.logic import morphology
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


def _acronym(word: str) -> bool:
    return sum(c.isupper() for c in word) >= 2 and not any(c.islower() for c in word)


def split_name(name: str, keep_acronyms: bool = False) -> tuple[str, ...]:
    """Lower-case words of a FOL name: `ResidentOf` -> (resident, of), `2008SummerOlympics` -> (2008, summer, ...).

    Underscores and whitespace separate words; a dot ends the word before it (`mr.smith` -> ("mr.", "smith"));
    hyphenated parts stay one word (`l-2021`, `well-knownAuthor` -> ("well-known", "author")). A single
    lower-case letter before capitals belongs to them (lowerCamel case of an acronym: `bBCThree` -> (bbc, three),
    `kO` -> (ko,)); `keep_acronyms` keeps such capitals ("BBC", "TV") instead of lower-casing them.
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
            if len(merged) > 1 and len(merged[0]) == 1 and merged[0].islower() and merged[1].isupper():
                merged[:2] = [merged[0].upper() + merged[1]]
            words.extend(w for w in merged if w)
    return tuple(w if keep_acronyms and _acronym(w) else w.lower() for w in words)


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


VERB_WORDS = BASE_VERBS | frozenset(
    """bark bite breathe climb cook cry dance dive drive exercise fish float hunt jump laugh like meditate paint
    sail shoot ski skate sleep smile suck talk travel vote walk""".split()
)
"""Words that both nouns and verbs spell alike ("jump", "fly") and that a name of this shape usually means as the
verb; a name's other words, or the source's English (`morphology.usage_hint`), decide the rest."""
ADJECTIVE_PREPOSITIONS: Mapping[str, str] = MappingProxyType(
    {
        "related": "to",
        "similar": "to",
        "equal": "to",
        "married": "to",
        "close": "to",
        "adjacent": "to",
        "allergic": "to",
        "opposed": "to",
        "connected": "to",
        "different": "from",
        "afraid": "of",
        "fond": "of",
        "proud": "of",
        "jealous": "of",
        "aware": "of",
    }
)
"""The preposition a bare binary adjective takes ("x is related to y")."""
ACTIVE_PAST = frozenset(
    """lose move grow go come win live work play arrive return travel compete graduate study die retire appear
    occur run fly swim walk participate""".split()
)
"""Verbs whose past form before a preposition is the active past ("x lost to y", "x moved in y"); other past
participles before a preposition read as passive ("x is located in y", "x is published by y")."""


def _third_person(verb: str) -> str:
    if verb in AUXILIARIES:
        return AUXILIARIES[verb]
    return morphology.third_person(verb)


RELATIONAL_NOUNS = frozenset(
    """mother father parent neighbor neighbour partner host fan guest boss author rival mentor coach""".split()
)
"""Nouns that are also verbs but, as the name of a binary relation, name a role ("x is a mentor of y")."""
ADJECTIVE_HEADS = frozenset("blind free friendly proof sided handed based born made wide long old deep".split())
"""Last words of compound adjectives ("color blind", "gluten free"): such a name is no noun phrase."""
ORDINALS = frozenset("first second third fourth fifth last next most least only same".split())
NAMING_VERBS = frozenset("name call title entitle nickname dub label spell".split())
"""Verbs whose past participle before a name is passive ("a place named Galicia"): `Named(x, y)` is "x is named y"."""
PARTICLES = frozenset("out off up down away back over around along".split())
"""Prepositions that end a verb phrase without an object ("x gives up"): a unary verb name may end in one."""
NUMBER_WORDS = frozenset(
    """zero one two three four five six seven eight nine ten eleven twelve twenty thirty forty fifty hundred thousand
    million billion trillion half""".split()
)
"""Words of a number ("one million"): a constant made only of them is a quantity, not a proper name."""
_NUMERAL_NAME = re.compile(r"(?:num|number|no|nr|n|yr|year)_?(\d+)", flags=re.IGNORECASE)


def numeral_phrase(name: str) -> tuple[str, ...] | None:
    """The number a constant names, when its name is a number with a FOL prefix (`num98199` -> "98199", `yr1997`).

    A number reads as itself in English ("Tom uses zip code 98199"); the prefix only made it a FOL identifier.
    """
    m = _NUMERAL_NAME.fullmatch(name)
    return (m.group(1),) if m else None


def _content(words: Sequence[str]) -> list[str]:
    """The words without a trailing preposition ("member of" -> "member")."""
    return list(words[:-1]) if len(words) > 1 and words[-1] in PREPOSITIONS else list(words)


def _is_noun_head(words: Sequence[str]) -> bool:
    """Whether a phrase that is no verb phrase names a kind of thing (a noun head) rather than a quality."""
    content = _content(words)
    head = content[-1].lower()
    kinds = morphology.classes(head)
    if not kinds:
        return not morphology.looks_adjective(head) and not head[:1].isdigit()
    if "NOUN" not in kinds:
        return False
    if len(content) == 1:
        return "ADJ" not in kinds
    if morphology.classes(content[-2].lower()) == frozenset({"ADV"}):
        return False  # "commonly known": an adverb before the last word makes it a participle or adjective
    return head not in ADJECTIVE_HEADS


def _participle(word: str) -> bool:
    return morphology.verb_tag(word) in ("VBD", "VBN")


def _verb_index(words: Sequence[str], arity: int) -> int | None:
    """Where the verb of a verb phrase name is (0, or 1 after an adverb), or None when the name is no verb phrase."""
    first = words[0]
    if first in AUXILIARIES or first in BASE_VERBS or first in VERB_WORDS:
        return 0
    if first in ADJECTIVE_PREPOSITIONS:
        return None  # "related", "married": adjectives before their preposition, not past tenses
    kinds = morphology.classes(first)
    nxt = words[1] if len(words) > 1 else ""
    if kinds == frozenset({"ADV"}) and nxt:
        return 1 if morphology.verb_tag(nxt) in ("VB", "VBZ", "VBD") else None
    tag = morphology.verb_tag(first)
    if tag is None or first in PREPOSITIONS:
        return None
    if tag == "VBZ":
        return 0
    if tag in ("VBD", "VBN"):
        if nxt == "by" or morphology.verb_lemma(first) in NAMING_VERBS:
            return None
        lemma = morphology.verb_lemma(first) or first
        active = lemma in ACTIVE_PAST or first not in morphology.verb_forms(lemma)["VBN"]
        if not nxt:
            return 0 if arity >= 2 or (active and "NOUN" not in kinds) else None
        return 0 if active and (nxt in PREPOSITIONS or "ADV" in morphology.classes(nxt)) else None
    if tag == "VBG":
        return None
    # the base form
    if kinds == frozenset({"VERB"}):
        return 0
    if not nxt:
        return 0 if arity >= 2 and first not in RELATIONAL_NOUNS and "ADJ" not in kinds else None
    if "ADJ" in kinds or nxt == "of":
        return None
    if nxt in PREPOSITIONS or nxt in morphology.DETERMINERS or "ADV" in morphology.classes(nxt):
        return 0
    if "VERB" in kinds and (morphology.verb_tag(nxt) in ("VBD", "VBN") or morphology.classes(nxt) == {"ADJ"}):
        return 0  # a verb and its complement: "x keeps updated on y", "x stays healthy"
    return None


def _verb_phrase(words: Sequence[str], at: int) -> tuple[str, ...]:
    verb = words[at]
    if verb in AUXILIARIES:
        spoken = AUXILIARIES[verb]
    elif morphology.verb_tag(verb) == "VB" or verb in BASE_VERBS:
        spoken = _third_person(verb)
    else:
        spoken = verb
    compound = (
        at == 0 and "NOUN" in morphology.classes(verb) and verb not in BASE_VERBS | VERB_WORDS | AUXILIARIES.keys()
    )
    if compound and len(words) == 2 and morphology.verb_tag(words[1]) == "VB":
        return (verb, _third_person(words[1]))  # a compound verb: "x binge watches y"
    return (*words[:at], spoken, *words[at + 1 :])


def _noun_phrase(words: Sequence[str], arity: int) -> tuple[str, ...] | None:
    """`words` as a singular noun phrase with its article ("a basketball player"), or None when it cannot be one."""
    out = list(words)
    content = _content(out)
    head = content[-1]
    one = morphology.singular(head.lower())
    if one is not None:
        if arity > 1 and len(content) == len(out):
            return None  # "x is the most medals of y": a plural relation noun has no good reading
        out[len(content) - 1] = one
    elif head.endswith("s") and not morphology.known(head.lower()):
        return None  # an unknown plural ("olympics"): no article fits
    if arity > 1 and len(content) == len(out) == 1 and not morphology.known(head.lower()):
        return None  # "x is a writtenby of y": an unknown word read as a relation noun is a guess
    lead = out[0].lower()
    if lead in morphology.DETERMINERS or lead.endswith(("'s", "’s")) or lead[:1].isdigit():
        return tuple(out)
    if lead in ORDINALS or lead.endswith("est") and "ADJ" in morphology.classes(lead):
        return ("the", *out)  # "the second largest Chinese city", "the most active player in"
    return (morphology.indefinite_article(out[0]), *out)


def _possessives(words: tuple[str, ...]) -> tuple[str, ...]:
    """A lone "s" after a word is its possessive ending (`PeterSPet` -> ("peter's", "pet"))."""
    out: list[str] = []
    for w in words:
        if w == "s" and out and out[-1].isalpha():
            out[-1] += "'s"
        else:
            out.append(w)
    return tuple(out)


def _default_reading(words: Sequence[str], arity: int) -> morphology.Reading:
    first = words[0].lower()
    if _verb_index(words, arity) is not None:
        return "verb"
    if first in PREPOSITIONS or first in morphology.COPULAS:
        return "copula"
    if first in morphology.DETERMINERS or first.endswith("'s"):
        return "noun"
    if len(words) == 1:
        kinds = morphology.classes(first)
        if "ADJ" in kinds or morphology.verb_tag(first) == "VBG":
            return "copula"
        if "NOUN" in kinds or not kinds and not morphology.looks_adjective(first):
            return "noun"
        return "copula"
    adjective = "ADJ" in morphology.classes(first) or morphology.verb_tag(first) == "VBG" or _participle(first)
    if adjective and words[1] in PREPOSITIONS:
        return "copula"  # "is afraid of spiders", "is living in", "is created under law"
    return "noun" if _is_noun_head(words) else "copula"


def natural_template(name: str, arity: int, usage: morphology.Usage | None = None) -> Template | None:
    """Return the natural-English template of a predicate, or None when there is no good one (see module doc).

    Args:
        name: The FOL predicate name.
        arity: Its number of arguments.
        usage: How the source's English uses the name (`morphology.usage_hint`), which settles a word that could
            be a noun, a verb or an adjective; None: decide from the name's shape alone.
    """
    words = split_name(name, keep_acronyms=True)
    if not words or looks_abstract(name):
        return None
    words = _possessives(words)
    if usage is not None and usage.words:
        words = usage.words
    if arity == 0:
        return (*words, "is", "true")
    if arity > 3:
        return None
    reading = usage.reading if usage is not None and usage.reading else _default_reading(words, arity)
    if arity == 1 and words[-1].lower() in PREPOSITIONS and (reading != "verb" or words[-1].lower() not in PARTICLES):
        return None  # "the regular time is during", "x lives in": the name has lost its object
    if arity == 1 and len(words) > 1 and words[0] in PREPOSITIONS:
        return (0, "is", *words)  # "x is in good health", not "x is an in good health" (the article is learned)
    if arity == 2 and len(words) == 1 and morphology.verb_lemma(words[0]) in NAMING_VERBS and _participle(words[0]):
        return (0, "is", words[0], 1)  # "x is named y"
    at = _verb_index(words, arity) if reading == "verb" else None
    if reading == "verb" and at is None and morphology.verb_lemma(words[0]) is not None:
        at = 0  # the English says verb: a base form is conjugated, another form kept
    if at is not None:
        phrase = _verb_phrase(words, at)
        if arity == 1:
            return (0, *phrase)
        if arity == 2:
            if phrase[-1] not in PREPOSITIONS and any(w in PREPOSITIONS for w in phrase[at + 1 :]):
                return None  # "x upgrades to every year y": the object's place is not after the name's last word
            between = [
                w.lower()
                for w in phrase[at + 1 :]
                if w not in PREPOSITIONS and w not in PARTICLES and morphology.verb_tag(w.lower()) != "VBG"
            ]  # "x enjoys reading y" is English
            if phrase[-1] not in PREPOSITIONS and any(morphology.classes(w) & {"ADJ", "ADV"} for w in between):
                # "x plays extra y", "x considers most important love language y": a modifier stands where the
                # object would, or the name's own noun phrase does ("x gives up y" is English)
                return None
            return (0, *phrase, 1)
        if len(phrase) == at + 2 and phrase[-1] in PREPOSITIONS:  # "x shares y with z"
            return (0, *phrase[:-1], 1, phrase[-1], 2)
        return None
    if arity == 3:
        return None
    single_noun = (
        arity == 2
        and len(words) == 1
        and "NOUN" in morphology.classes(words[0].lower())
        and not (usage is not None and usage.reading == "copula")  # "x is compatible with y", not "a compatible of"
    )
    if reading == "noun" or (reading == "verb" and _is_noun_head(words)) or single_noun:
        noun = _noun_phrase(words, arity)
        if noun is None:
            return None
        if arity == 1:
            return (0, "is", *noun)
        if words[-1] in PREPOSITIONS:
            return (0, "is", *noun, 1)
        return (0, "is", *noun, "as" if words[0] == "same" else "of", 1)
    if arity == 1:
        return (0, "is", *words)
    if words[-1] in PREPOSITIONS:
        return (0, "is", *words, 1)
    if len(words) == 1 and morphology.is_comparative(words[0]):
        return (0, "is", words[0], "than", 1)
    if len(words) == 1 and words[0] in ADJECTIVE_PREPOSITIONS:
        return (0, "is", words[0], ADJECTIVE_PREPOSITIONS[words[0]], 1)
    if morphology.verb_tag(words[-1]) == "VBG" or morphology.verb_tag(words[0]) == "VBG":
        return (0, "is", *words, 1)  # "x is starring y"
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
