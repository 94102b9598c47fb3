"""The function-based input transformations of LLMorph (§IV): seeded, deterministic text functions.

Each transformation takes the *units* of one part of a case (the premises; or the conclusion, as one text or as its
sentences) and a `random.Random`, and returns the transformed units, or None when it cannot change anything (a
single sentence to shuffle, no letter to leetify). Everything else stays byte-identical: a character-level
relation touches only the characters it picked, so the tests can check that exactly those changed.

Rates follow LLMorph's implementation: character relations change 10% of the eligible letters of the part
(rounded up), word relations 10% of the eligible words (rounded up). The budget is per part, so a long premise
block gets more typos than a short conclusion, as a long context did in LLMorph. Where LLMorph called nlpaug
(keyboard mistakes, OCR errors) we use our own small tables (QWERTY neighbours, common OCR confusions), so there is
no extra dependency and every draw comes from the seeded generator.

Our choices where LLMorph's code is loose, each so that a relation changes what its name says and nothing else:
replacements keep the letter's case and never re-draw the same letter (MR-1); leet, spaces and swaps are drawn
only among letters they can change (MR-3, MR-5, MR-6), so that "10%" means 10% changed.
"""

from __future__ import annotations

import functools
import json
import math
import random
import re
import string
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType

CHAR_RATE = 0.1
"""Share of the eligible letters a character-level relation changes (LLMorph: 10%)."""

WORD_RATE = 0.1
"""Share of the eligible words a word-level relation changes (LLMorph/nlpaug: 10%)."""

LEET: Mapping[str, str] = MappingProxyType({"a": "4", "e": "3", "i": "1", "o": "0", "s": "5", "t": "7"})
"""Leet spellings (MR-3), by lowercase letter."""

_KEYBOARD_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")


def _keyboard_neighbours() -> dict[str, str]:
    """Neighbouring letter keys on a staggered QWERTY keyboard (each row sits half a key right of the one above)."""
    where = {ch: (r, c) for r, row in enumerate(_KEYBOARD_ROWS) for c, ch in enumerate(row)}
    out: dict[str, str] = {}
    for ch, (r, c) in where.items():
        spots = [(r, c - 1), (r, c + 1), (r - 1, c), (r - 1, c + 1), (r + 1, c - 1), (r + 1, c)]
        out[ch] = "".join(
            _KEYBOARD_ROWS[rr][cc]
            for rr, cc in spots
            if 0 <= rr < len(_KEYBOARD_ROWS) and 0 <= cc < len(_KEYBOARD_ROWS[rr])
        )
    return out


KEYBOARD_NEIGHBOURS: Mapping[str, str] = MappingProxyType(_keyboard_neighbours())
"""For each lowercase letter, the letters of its neighbouring keys (MR-126)."""

OCR_CONFUSIONS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "a": ("o",),
        "b": ("h", "6"),
        "c": ("e",),
        "d": ("cl",),
        "e": ("c",),
        "g": ("q", "9"),
        "h": ("b", "li"),
        "i": ("l", "1"),
        "l": ("1", "I"),
        "m": ("rn",),
        "n": ("ri",),
        "o": ("0",),
        "q": ("g",),
        "s": ("5",),
        "u": ("v",),
        "v": ("u",),
        "w": ("vv",),
        "z": ("2",),
        "B": ("8",),
        "D": ("0",),
        "G": ("6",),
        "I": ("l", "1"),
        "O": ("0",),
        "S": ("5",),
        "Z": ("2",),
    }
)
"""What an OCR engine commonly reads a character as (MR-128), case-sensitive; some readings are two characters."""

_WORD = re.compile(r"[^\W\d_]+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_STOPWORDS = frozenset(
    "the and for was were had has its off are but not all any one out who why how can did does into onto from with "
    "above beyond about after also been before being both each every have just more most only over some such than "
    "that their them then there these they this those very what when which while will would your".split()
)

Units = list[str]
Transform = Callable[[Sequence[str], random.Random, frozenset[str]], Units | None]
"""`(units, rng, case_words) -> new units | None`; `case_words` are the case's content words (MR-84 avoids them)."""

Edits = dict[tuple[int, int], str]
"""Replacement text by (unit index, character index); the empty string deletes the character."""


def _count(eligible: int, rate: float) -> int:
    return math.ceil(eligible * rate) if eligible else 0


def _apply(units: Sequence[str], edits: Edits) -> Units:
    return ["".join(edits.get((u, i), ch) for i, ch in enumerate(text)) for u, text in enumerate(units)]


def _letters(units: Sequence[str], keep: Callable[[str, int], bool] = lambda text, i: True) -> list[tuple[int, int]]:
    return [(u, i) for u, text in enumerate(units) for i, ch in enumerate(text) if ch.isalpha() and keep(text, i)]


def _pick(rng: random.Random, eligible: Sequence[tuple[int, int]], rate: float) -> list[tuple[int, int]]:
    return sorted(rng.sample(list(eligible), _count(len(eligible), rate)))


def _same_case(template: str, letter: str) -> str:
    return letter.upper() if template.isupper() else letter


@functools.cache
def irrelevant_sentences() -> tuple[str, ...]:
    """The sentences MR-84 appends: everyday statements about objects and weather, with no people in them.

    LLMorph drew them from an online random-sentence generator; ours ship with the package
    (`lgmt_tasks/lexical/data/irrelevant_sentences.json`) so that a build is offline and reproducible.
    """
    text = resources.files("lgmt_tasks.lexical").joinpath("data/irrelevant_sentences.json").read_text("utf-8")
    sentences = json.loads(text)["sentences"]
    if not sentences or not all(isinstance(s, str) and s.strip() for s in sentences):
        raise ValueError("irrelevant_sentences.json must hold a non-empty list of sentences under 'sentences'")
    return tuple(sentences)


def content_words(texts: Sequence[str]) -> frozenset[str]:
    """Lowercase words of three or more letters, minus common function words: what "shares no word" compares."""
    return (
        frozenset(w for text in texts for w in (m.group().lower() for m in _WORD.finditer(text)) if len(w) >= 3)
        - _STOPWORDS
    )


def split_sentences(text: str) -> Units:
    """Split a text after `.`, `!` or `?` followed by white space (the units of MR-19 and MR-84 in a conclusion)."""
    return [s for s in _SENTENCE_END.split(text.strip()) if s]


# ------------------------------------------------------------------------------------------- character level


def replace_characters(
    units: Sequence[str], rng: random.Random, case_words: frozenset[str] = frozenset()
) -> Units | None:
    """MR-1: replace 10% of the letters by a different random letter of the same case."""
    chosen = _pick(rng, _letters(units), CHAR_RATE)
    edits: Edits = {}
    for u, i in chosen:
        ch = units[u][i]
        pool = [c for c in string.ascii_lowercase if c != ch.lower()]
        edits[(u, i)] = _same_case(ch, rng.choice(pool))
    return _apply(units, edits) if edits else None


def delete_characters(
    units: Sequence[str], rng: random.Random, case_words: frozenset[str] = frozenset()
) -> Units | None:
    """MR-2: delete 10% of the letters."""
    chosen = _pick(rng, _letters(units), CHAR_RATE)
    return _apply(units, dict.fromkeys(chosen, "")) if chosen else None


def leet(units: Sequence[str], rng: random.Random, case_words: frozenset[str] = frozenset()) -> Units | None:
    """MR-3: write 10% of the leet-able letters (a, e, i, o, s, t, either case) as digits."""
    eligible = [(u, i) for u, i in _letters(units) if units[u][i].lower() in LEET]
    chosen = _pick(rng, eligible, CHAR_RATE)
    return _apply(units, {(u, i): LEET[units[u][i].lower()] for u, i in chosen}) if chosen else None


def add_characters(units: Sequence[str], rng: random.Random, case_words: frozenset[str] = frozenset()) -> Units | None:
    """MR-4: insert a random lowercase letter after 10% of the letters."""
    chosen = _pick(rng, _letters(units), CHAR_RATE)
    edits: Edits = {(u, i): units[u][i] + rng.choice(string.ascii_lowercase) for u, i in chosen}
    return _apply(units, edits) if edits else None


def add_spaces(units: Sequence[str], rng: random.Random, case_words: frozenset[str] = frozenset()) -> Units | None:
    """MR-5: split words with a space, after 10% of the letters that are followed by a letter."""
    eligible = _letters(units, lambda text, i: i + 1 < len(text) and text[i + 1].isalpha())
    chosen = _pick(rng, eligible, CHAR_RATE)
    return _apply(units, {(u, i): units[u][i] + " " for u, i in chosen}) if chosen else None


def swap_characters(units: Sequence[str], rng: random.Random, case_words: frozenset[str] = frozenset()) -> Units | None:
    """MR-6: swap 10% of the pairs of adjacent, different letters; the swapped pairs do not overlap."""
    eligible = _letters(units, lambda text, i: i + 1 < len(text) and text[i + 1].isalpha() and text[i + 1] != text[i])
    wanted = _count(len(eligible), CHAR_RATE)
    taken: set[tuple[int, int]] = set()
    edits: Edits = {}
    for u, i in rng.sample(eligible, len(eligible)):
        if len(edits) // 2 == wanted:
            break
        if (u, i) in taken or (u, i + 1) in taken:
            continue
        taken.update({(u, i), (u, i + 1)})
        edits[(u, i)], edits[(u, i + 1)] = units[u][i + 1], units[u][i]
    return _apply(units, edits) if edits else None


def shuffle_characters(
    units: Sequence[str], rng: random.Random, case_words: frozenset[str] = frozenset()
) -> Units | None:
    """MR-7: shuffle the inner letters of 10% of the words of four or more letters, keeping first and last letter.

    Only words whose inner letters are not all the same can change; a shuffle that happens to give the word back is
    redrawn (up to ten times), then replaced by a rotation, which always changes such a word.
    """
    words = [
        (u, m.start(), m.group())
        for u, text in enumerate(units)
        for m in _WORD.finditer(text)
        if len(m.group()) >= 4 and len(set(m.group()[1:-1])) >= 2
    ]
    chosen = sorted(rng.sample(words, _count(len(words), WORD_RATE)))
    edits: Edits = {}
    for u, start, word in chosen:
        inner = word[1:-1]
        new = inner
        for _ in range(10):
            new = "".join(rng.sample(inner, len(inner)))
            if new != inner:
                break
        if new == inner:
            new = inner[1:] + inner[0]
        for k, ch in enumerate(new, start=start + 1):
            edits[(u, k)] = ch
    return _apply(units, edits) if edits else None


def capitalise(units: Sequence[str], rng: random.Random, case_words: frozenset[str] = frozenset()) -> Units | None:
    """MR-102: write the text in capital letters (LLMorph: `text.upper()`)."""
    out = [text.upper() for text in units]
    return out if out != list(units) else None


def _word_level(
    units: Sequence[str],
    rng: random.Random,
    can_change: Callable[[str], bool],
    change: Callable[[str, random.Random], str],
    min_length: int,
) -> Units | None:
    """Change characters inside 10% of the eligible words (at least one character per word, 10% of its length)."""
    words = [
        (u, m.start(), m.group())
        for u, text in enumerate(units)
        for m in _WORD.finditer(text)
        if len(m.group()) >= min_length and any(can_change(ch) for ch in m.group())
    ]
    edits: Edits = {}
    for u, start, word in sorted(rng.sample(words, _count(len(words), WORD_RATE))):
        positions = [k for k, ch in enumerate(word) if can_change(ch)]
        for k in sorted(rng.sample(positions, min(len(positions), _count(len(word), CHAR_RATE)))):
            edits[(u, start + k)] = change(word[k], rng)
    return _apply(units, edits) if edits else None


def keyboard_mistakes(
    units: Sequence[str], rng: random.Random, case_words: frozenset[str] = frozenset()
) -> Units | None:
    """MR-126: in 10% of the words of four or more letters, hit a neighbouring key instead of a letter."""
    return _word_level(
        units,
        rng,
        lambda ch: ch.lower() in KEYBOARD_NEIGHBOURS,
        lambda ch, r: _same_case(ch, r.choice(KEYBOARD_NEIGHBOURS[ch.lower()])),
        min_length=4,
    )


def ocr_errors(units: Sequence[str], rng: random.Random, case_words: frozenset[str] = frozenset()) -> Units | None:
    """MR-128: in 10% of the words of three or more letters, misread characters as OCR does (l→1, m→rn, O→0)."""
    return _word_level(
        units, rng, lambda ch: ch in OCR_CONFUSIONS, lambda ch, r: r.choice(OCR_CONFUSIONS[ch]), min_length=3
    )


# -------------------------------------------------------------------------------------------- sentence level


def shuffle_sentences(
    units: Sequence[str], rng: random.Random, case_words: frozenset[str] = frozenset()
) -> Units | None:
    """MR-19: reorder the units (premises, or the sentences of the conclusion) into a different order."""
    if len(set(units)) < 2:
        return None
    original = list(units)
    out = list(units)
    for _ in range(10):
        rng.shuffle(out)
        if out != original:
            return out
    return original[1:] + original[:1]  # a rotation differs when not every unit is the same


def add_irrelevant_sentence(
    units: Sequence[str], rng: random.Random, case_words: frozenset[str] = frozenset()
) -> Units | None:
    """MR-84: append a sentence from `IRRELEVANT_SENTENCES` that shares no content word with the case (or the units)."""
    avoid = case_words | content_words(units)
    pool = [s for s in irrelevant_sentences() if not (content_words([s]) & avoid)]
    if not pool:
        return None
    return [*units, rng.choice(pool)]


def no_transformation(units: Sequence[str], rng: random.Random, case_words: frozenset[str] = frozenset()) -> Units:
    """MR-49: the units unchanged (the same question asked twice)."""
    return list(units)


TRANSFORMS: Mapping[str, Transform] = MappingProxyType(
    {
        "MR-1": replace_characters,
        "MR-2": delete_characters,
        "MR-3": leet,
        "MR-4": add_characters,
        "MR-5": add_spaces,
        "MR-6": swap_characters,
        "MR-7": shuffle_characters,
        "MR-19": shuffle_sentences,
        "MR-49": no_transformation,
        "MR-84": add_irrelevant_sentence,
        "MR-102": capitalise,
        "MR-126": keyboard_mistakes,
        "MR-128": ocr_errors,
    }
)
"""Every function-based relation's transformation, by id."""

SENTENCE_LEVEL = frozenset({"MR-19", "MR-84"})
"""Relations whose units in a conclusion are its sentences (the others see the conclusion as one text)."""


# ----------------------------------------------------------------------------------------- applied to a case


@dataclass(frozen=True)
class FollowUpText:
    """The English of a follow-up case and what changed.

    Attributes:
        premises: The follow-up premises (MR-84 may add one).
        conclusion: The follow-up conclusion.
        changed_premises: Indices of follow-up premises that differ from the source premise at the same index
            (or are new).
        changed_conclusion: Whether the conclusion differs.
    """

    premises: tuple[str, ...]
    conclusion: str
    changed_premises: tuple[int, ...]
    changed_conclusion: bool


@dataclass(frozen=True)
class NotApplicable:
    """Why a relation produced no follow-up for a case (counted in the build statistics)."""

    reason: str


def changed_indices(before: Sequence[str], after: Sequence[str]) -> tuple[int, ...]:
    """Indices of `after` whose unit differs from `before`'s at the same index, or has no counterpart."""
    return tuple(i for i, text in enumerate(after) if i >= len(before) or before[i] != text)


def apply_function(
    mr: str, premises: Sequence[str], conclusion: str, part: str, rng: random.Random
) -> FollowUpText | NotApplicable:
    """Apply a function-based relation to one part of a case (`premises`, `conclusion`, `both`; `none` for MR-49).

    For `both`, the premises are transformed first, then the conclusion, with the same generator; both must change.

    Args:
        mr: A key of `TRANSFORMS`.
        premises: The source premises in English.
        conclusion: The source conclusion in English.
        part: Which part to transform.
        rng: The group's generator (seeded from the build seed and the group's identity).

    Returns:
        The follow-up text, or why there is none.

    Raises:
        ValueError: On an unknown relation or part.
    """
    if mr not in TRANSFORMS:
        raise ValueError(f"{mr} is not a function-based relation; expected one of {', '.join(TRANSFORMS)}")
    transform = TRANSFORMS[mr]
    if mr == "MR-49":
        return FollowUpText(tuple(premises), conclusion, (), False)
    if part not in ("premises", "conclusion", "both"):
        raise ValueError(f"part={part!r}: expected premises, conclusion or both")
    case_words = content_words([*premises, conclusion])
    new_premises: list[str] = list(premises)
    new_conclusion = conclusion
    if part in ("premises", "both"):
        out = transform(list(premises), rng, case_words)
        if out is None or out == list(premises):
            return NotApplicable("nothing to change in the premises")
        new_premises = out
    if part in ("conclusion", "both"):
        units = split_sentences(conclusion) if mr in SENTENCE_LEVEL else [conclusion]
        # in `both`, MR-84 must not append the sentence it just added to the premises
        out = transform(units, rng, case_words | content_words(new_premises))
        if out is None or out == units:
            return NotApplicable("nothing to change in the conclusion")
        new_conclusion = " ".join(out) if mr in SENTENCE_LEVEL else out[0]
    return FollowUpText(
        tuple(new_premises),
        new_conclusion,
        changed_indices(premises, new_premises),
        new_conclusion != conclusion,
    )
