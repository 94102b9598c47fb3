"""The function-based input transformations of LLMorph (§IV): seeded, deterministic text functions, in two styles.

Each transformation takes the *units* of one part of a case (the premises; or the conclusion, as one text or as its
sentences), a `random.Random` and the case's content words, and returns the transformed units, or None when it
changes nothing (a single sentence to shuffle, no letter picked that it can change).

**Styles.** `style="llmorph"` (the default, `DEFAULT_STYLE`) reproduces LLMorph's own algorithms, from
`src/relations/func_it.py` of github.com/steven-b-cho/llmorph at commit cb7f0e5 (line numbers below), so that a rate
here means what it means in the paper; `style="clean"` is ours, where each relation changes what its name says and
nothing else. MR-19, MR-49, MR-84 and MR-102 are the same in both styles: MR-102 is LLMorph's `text.upper()`
(`ITCapitalisation`, l. 209-214) and MR-49 its identity (`ITNone`, l. 93-98); MR-19 (`ITRandomiseSentenceOrder`,
l. 235-242) always gives a different order here, where LLMorph's `shuffle` may give the same one back; MR-84
(`ITConcatRandomSentence`, l. 148-159) appends a sentence from our shipped list that shares no content word with the
case, where LLMorph drew from its list of sentences from a random-sentence site.

LLMorph's character relations (`CharacterRandomBase.transform_function`, l. 310-318) pick
`math.ceil(len(letters) * 0.1)` positions among *all* letters (`str.isalpha`), with `rand.sample`, then act on the
picks in the sampled order:

- MR-1 (`ITReplaceCharacters`, l. 322-326): the letter becomes `chr(randint(97, 122))`, a random lowercase a-z,
  which may be the letter itself and ignores its case;
- MR-2 (`ITDeleteCharacters`, l. 329-333): the letter is deleted;
- MR-3 (`ITLeetFormat`, l. 343-348): `{'a': '4', 'e': '3', 'i': '1', 'o': '0', 't': '7'}.get(letter, letter)`, so a
  pick that is not one of these five lowercase letters (an `s`, a capital, a consonant) does nothing: fewer than
  half of the picks change (about 5% of the letters of our test texts, where the clean style changes about 7%);
- MR-4 (`ITAddCharacters`, l. 336-340): a random lowercase a-z is inserted after the letter;
- MR-5 (`ITAddSpaces`, l. 351-355): a space is inserted after the letter, also after a word's last letter (giving a
  double space, or a space before punctuation);
- MR-6 (`ITSwapCharacters`, l. 358-363): the character at the pick is swapped with the next character, whatever it
  is (a space, punctuation), one pick after the other on the changing text, so later swaps can undo or move earlier
  ones; a pick at the very end of a unit has no next character and does nothing (as at the end of LLMorph's text;
  on premises joined into one text, a premise ending in a letter would swap it with the joining space).

MR-7 (`ITRandomiseCharacterOrderInWordKeepingEnds`, l. 379-396, with `WordRandomBase`, l. 365-370) tokenises with
NLTK's `word_tokenize`, picks `math.ceil(n * 0.1)` of the n tokens of four or more characters (punctuation and
numbers included), shuffles each picked token's inner characters (ten tries to get a different token) and re-joins
*all* tokens with single spaces: "cats." comes back as "cats .", "Alice's" as "Alice 's", `"` as two backquotes.
`word_tokenize` first splits the text into sentences with NLTK's Punkt model, a download that is not available
offline; we split with `split_sentences` (after `.`, `!`, `?` and white space) and then tokenise each sentence with
`nltk.tokenize.NLTKWordTokenizer`, the improved Treebank tokenizer that `word_tokenize` itself applies to each
sentence (no data needed). The two differ mainly where Punkt knows an abbreviation ("Mr. Smith").

MR-126 and MR-128 (`ITNlpaug`, l. 441-499) call nlpaug 1.1.11 (LLMorph's pinned version) `KeyboardAug` and `OcrAug`
with LLMorph's keyword arguments, `aug_char_p=0.1, aug_word_p=0.1`, and nlpaug's defaults otherwise: nlpaug picks
`ceil(0.1 * tokens)` words (at least 1, at most 10; tokens split at every non-word character, punctuation counted),
among those of at least 4 characters (keyboard) or 1 (OCR), and in each `ceil(0.1 * length)` characters (at least 1
for the keyboard, 2 for OCR), replaced from its own tables: QWERTY neighbours including digits, symbols and capitals
(`u` can become " t"); OCR confusions such as `o`->`u`, `r`->`k`, `l`->`1`, `O`->`0`, `E`->`B` in both directions. It
re-joins the tokens with its own detokeniser, so "Alice's" comes back as "Alice ' s" and "well-known" as
"well - known". nlpaug draws from Python's global `random` (and holds numpy's global generator): each call seeds
both from the group's generator (`rng.randrange(2**32)`) and restores their previous states afterwards, under a lock,
so the output depends only on `rng` and nothing else sees a different global state. Ours passes nlpaug a reverse
tokeniser that records the tokens and then calls nlpaug's own, so that the part's text can be cut back into units.

**Per part.** LLMorph transforms the whole text of a part (the NLI premise, the hypothesis). Our premises are a list
of sentences; every budget is counted over all the units of a part together (the letters of all premises, their
MR-7 tokens; nlpaug sees the premises joined with single spaces), so a rate here is LLMorph's rate on the joined
text: the joined output is byte-identical to LLMorph's algorithm run with the same generator on the joined text
(MR-1 to MR-7, MR-102), and to nlpaug's own output (MR-126, MR-128; `tests/lexical/test_transforms_llmorph.py`).

**Where the llmorph style still differs.** A transformation that changed nothing returns None (the build counts the
case as not applicable and tries the next one) where LLMorph would have sent the unchanged text on: MR-1 and MR-3
whose picks changed no letter, MR-7 with no token of four characters or none that shuffles into a different token
("been"), MR-126 and MR-128 with no character substituted (their re-spacing alone is not a follow-up). Sentence
splitting for MR-7 is ours, as said above.

**The clean style** (ours, kept for comparison and for tests that need exact edits): everything else stays
byte-identical, and 10% means 10% changed. Character relations change 10% of the *eligible* letters (rounded up);
replacements keep the letter's case and never re-draw the same letter (MR-1); leet covers a, e, i, o, s, t in either
case and is drawn only among those letters (MR-3); spaces split words, drawn among letters followed by a letter
(MR-5); swaps exchange two adjacent different letters, without overlap (MR-6); MR-7 shuffles the inner letters of
10% of the words of four or more letters and keeps the original spacing and punctuation. MR-126 and MR-128 use our
own small tables (QWERTY letter neighbours keeping case, common OCR confusions) on 10% of the eligible words.
"""

from __future__ import annotations

import functools
import json
import math
import random
import re
import string
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType
from typing import Any

from lgmt_tasks.lexical.catalogue import DEFAULT_STYLE, STYLES

CHAR_RATE = 0.1
"""Share of the eligible letters a character-level relation changes (LLMorph: 10%)."""

WORD_RATE = 0.1
"""Share of the eligible words a word-level relation changes (LLMorph/nlpaug: 10%)."""

LEET: Mapping[str, str] = MappingProxyType({"a": "4", "e": "3", "i": "1", "o": "0", "s": "5", "t": "7"})
"""Leet spellings (MR-3), by lowercase letter."""

LLMORPH_LEET: Mapping[str, str] = MappingProxyType({"a": "4", "e": "3", "i": "1", "o": "0", "t": "7"})
"""LLMorph's leet spellings (MR-3, `ITLeetFormat`): five lowercase letters only, case-sensitive."""

NLPAUG_KWARGS: Mapping[str, Any] = MappingProxyType({"aug_char_p": 0.1, "aug_word_p": 0.1})
"""LLMorph's keyword arguments to nlpaug's `KeyboardAug` and `OcrAug` (MR-126, MR-128); nlpaug's defaults otherwise."""

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


# ------------------------------------------------------------------------------------------- LLMorph's style


def _llmorph_picks(units: Sequence[str], rng: random.Random) -> list[tuple[int, int]]:
    """LLMorph's character picks: `ceil(10%)` of all the letters of the part, in the order `sample` drew them."""
    letters = _letters(units)
    return rng.sample(letters, math.ceil(len(letters) * CHAR_RATE))


def _changed(units: Sequence[str], out: Units) -> Units | None:
    return out if out != list(units) else None


def llmorph_replace_characters(
    units: Sequence[str], rng: random.Random, case_words: frozenset[str] = frozenset()
) -> Units | None:
    """MR-1 (LLMorph): replace 10% of all letters by `chr(randint(97, 122))` (lowercase; may be the same letter)."""
    edits: Edits = {pick: chr(rng.randint(97, 122)) for pick in _llmorph_picks(units, rng)}
    return _changed(units, _apply(units, edits))


def llmorph_delete_characters(
    units: Sequence[str], rng: random.Random, case_words: frozenset[str] = frozenset()
) -> Units | None:
    """MR-2 (LLMorph): delete 10% of all letters."""
    return _changed(units, _apply(units, dict.fromkeys(_llmorph_picks(units, rng), "")))


def llmorph_leet(units: Sequence[str], rng: random.Random, case_words: frozenset[str] = frozenset()) -> Units | None:
    """MR-3 (LLMorph): pick 10% of all letters; those that are a, e, i, o or t (lowercase) become 4, 3, 1, 0, 7."""
    edits: Edits = {(u, i): LLMORPH_LEET.get(units[u][i], units[u][i]) for u, i in _llmorph_picks(units, rng)}
    return _changed(units, _apply(units, edits))


def llmorph_add_characters(
    units: Sequence[str], rng: random.Random, case_words: frozenset[str] = frozenset()
) -> Units | None:
    """MR-4 (LLMorph): insert a random lowercase letter after 10% of all letters."""
    edits: Edits = {(u, i): units[u][i] + chr(rng.randint(97, 122)) for u, i in _llmorph_picks(units, rng)}
    return _changed(units, _apply(units, edits))


def llmorph_add_spaces(
    units: Sequence[str], rng: random.Random, case_words: frozenset[str] = frozenset()
) -> Units | None:
    """MR-5 (LLMorph): insert a space after 10% of all letters (also after a word's last letter)."""
    return _changed(units, _apply(units, {(u, i): units[u][i] + " " for u, i in _llmorph_picks(units, rng)}))


def llmorph_swap_characters(
    units: Sequence[str], rng: random.Random, case_words: frozenset[str] = frozenset()
) -> Units | None:
    """MR-6 (LLMorph): for 10% of all letters, in the drawn order, swap the character there with the next one.

    The swaps act one after the other on the changing text, and the next character may be anything (a space, a
    comma); a pick at the end of a unit does nothing.
    """
    chars = [list(text) for text in units]
    for u, i in _llmorph_picks(units, rng):
        if i < len(chars[u]) - 1:
            chars[u][i], chars[u][i + 1] = chars[u][i + 1], chars[u][i]
    return _changed(units, ["".join(c) for c in chars])


@functools.cache
def _word_tokenizer() -> Any:
    from nltk.tokenize import NLTKWordTokenizer

    return NLTKWordTokenizer()


def llmorph_tokens(text: str) -> list[str]:
    """NLTK's `word_tokenize` without Punkt: our sentence split, then NLTK's improved Treebank tokenizer on each."""
    tokenizer = _word_tokenizer()
    return [token for sentence in split_sentences(text) for token in tokenizer.tokenize(sentence)]


def llmorph_shuffle_characters(
    units: Sequence[str], rng: random.Random, case_words: frozenset[str] = frozenset()
) -> Units | None:
    """MR-7 (LLMorph): shuffle the inner characters of 10% of the tokens of 4+ characters; re-join with spaces.

    Each picked token gets ten tries to come out different (else it stays). The units come back as their NLTK tokens
    joined by single spaces ("cats." -> "cats ."); None when no token changed (the re-spacing alone is no follow-up).
    """
    tokens = [llmorph_tokens(text) for text in units]
    long = [(u, k) for u, row in enumerate(tokens) for k, token in enumerate(row) if len(token) >= 4]
    changed = False
    for u, k in rng.sample(long, math.ceil(len(long) * WORD_RATE)):
        word = tokens[u][k]
        for _ in range(10):
            new = word[0] + "".join(rng.sample(word[1:-1], len(word) - 2)) + word[-1]
            if new != word:
                tokens[u][k] = new
                changed = True
                break
    return [" ".join(row) for row in tokens] if changed else None


_GLOBAL_RANDOM_LOCK = threading.Lock()


class _TokenRecorder:
    """nlpaug's own reverse tokeniser, recording the augmented tokens it is given."""

    def __init__(self, reverse: Callable[[list[str]], str]) -> None:
        self.reverse = reverse
        self.tokens: list[str] = []

    def __call__(self, tokens: list[str]) -> str:
        self.tokens = list(tokens)
        return self.reverse(tokens)


@functools.cache
def _augmenter(kind: str) -> tuple[Any, _TokenRecorder]:
    """The nlpaug `KeyboardAug` or `OcrAug` with LLMorph's keyword arguments, and its token recorder (one of each)."""
    import nlpaug.augmenter.char as nac
    from nlpaug.util.text.tokenizer import Tokenizer

    recorder = _TokenRecorder(Tokenizer.reverse_tokenizer)
    augmenter_class = nac.KeyboardAug if kind == "keyboard" else nac.OcrAug
    return augmenter_class(**NLPAUG_KWARGS, reverse_tokenizer=recorder), recorder


def _nlpaug(kind: str, units: Sequence[str], rng: random.Random) -> Units | None:
    """Run nlpaug's `KeyboardAug` or `OcrAug` on the part's text, seeded from `rng`; cut the output back into units."""
    import numpy as np
    from nlpaug.util.text.tokenizer import Tokenizer

    original = [Tokenizer.tokenizer(text.strip()) for text in units]
    flat = [token for row in original for token in row]
    seed = rng.randrange(2**32)
    with _GLOBAL_RANDOM_LOCK:  # also guards the shared augmenter's recorder
        augmenter, recorder = _augmenter(kind)
        recorder.tokens = []
        python_state, numpy_state = random.getstate(), np.random.get_state()
        try:
            random.seed(seed)
            np.random.seed(seed)
            augmenter.augment(" ".join(units))
        finally:
            random.setstate(python_state)
            np.random.set_state(numpy_state)
        augmented = recorder.tokens
    if not augmented or augmented == flat:
        return None
    if len(augmented) != len(flat):
        raise RuntimeError(f"nlpaug changed the number of tokens ({len(flat)} -> {len(augmented)})")
    out: Units = []
    start = 0
    for row in original:
        out.append(Tokenizer.reverse_tokenizer(augmented[start : start + len(row)]))
        start += len(row)
    return out


def llmorph_keyboard_mistakes(
    units: Sequence[str], rng: random.Random, case_words: frozenset[str] = frozenset()
) -> Units | None:
    """MR-126 (LLMorph): nlpaug's `KeyboardAug(aug_char_p=0.1, aug_word_p=0.1)` on the part's text."""
    return _nlpaug("keyboard", units, rng)


def llmorph_ocr_errors(
    units: Sequence[str], rng: random.Random, case_words: frozenset[str] = frozenset()
) -> Units | None:
    """MR-128 (LLMorph): nlpaug's `OcrAug(aug_char_p=0.1, aug_word_p=0.1)` on the part's text."""
    return _nlpaug("ocr", units, rng)


# ------------------------------------------------------------------------------------------------ by style

_SAME_IN_BOTH: Mapping[str, Transform] = MappingProxyType(
    {
        "MR-19": shuffle_sentences,
        "MR-49": no_transformation,
        "MR-84": add_irrelevant_sentence,
        "MR-102": capitalise,
    }
)
_ORDER: tuple[str, ...] = ("MR-1", "MR-2", "MR-3", "MR-4", "MR-5", "MR-6", "MR-7", "MR-19", "MR-49", "MR-84")
_ORDER += ("MR-102", "MR-126", "MR-128")


def _in_order(own: Mapping[str, Transform]) -> Mapping[str, Transform]:
    table = {**own, **_SAME_IN_BOTH}
    return MappingProxyType({mr: table[mr] for mr in _ORDER})


CLEAN_TRANSFORMS: Mapping[str, Transform] = _in_order(
    {
        "MR-1": replace_characters,
        "MR-2": delete_characters,
        "MR-3": leet,
        "MR-4": add_characters,
        "MR-5": add_spaces,
        "MR-6": swap_characters,
        "MR-7": shuffle_characters,
        "MR-126": keyboard_mistakes,
        "MR-128": ocr_errors,
    }
)
"""Every function-based relation's transformation in the `clean` style (ours), by id."""

LLMORPH_TRANSFORMS: Mapping[str, Transform] = _in_order(
    {
        "MR-1": llmorph_replace_characters,
        "MR-2": llmorph_delete_characters,
        "MR-3": llmorph_leet,
        "MR-4": llmorph_add_characters,
        "MR-5": llmorph_add_spaces,
        "MR-6": llmorph_swap_characters,
        "MR-7": llmorph_shuffle_characters,
        "MR-126": llmorph_keyboard_mistakes,
        "MR-128": llmorph_ocr_errors,
    }
)
"""Every function-based relation's transformation in the `llmorph` style (LLMorph's algorithms), by id."""

TRANSFORMS_BY_STYLE: Mapping[str, Mapping[str, Transform]] = MappingProxyType(
    {"llmorph": LLMORPH_TRANSFORMS, "clean": CLEAN_TRANSFORMS}
)
"""The transformations of each style in `STYLES`."""

TRANSFORMS: Mapping[str, Transform] = TRANSFORMS_BY_STYLE[DEFAULT_STYLE]
"""Every function-based relation's transformation in the default style, by id."""


def get_transform(mr: str, style: str = DEFAULT_STYLE) -> Transform:
    """The transformation of a function-based relation in a style.

    Raises:
        ValueError: On an unknown relation or style.
    """
    if style not in TRANSFORMS_BY_STYLE:
        raise ValueError(f"style={style!r}: expected one of {', '.join(STYLES)}")
    if mr not in TRANSFORMS:
        raise ValueError(f"{mr} is not a function-based relation; expected one of {', '.join(TRANSFORMS)}")
    return TRANSFORMS_BY_STYLE[style][mr]


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
    mr: str,
    premises: Sequence[str],
    conclusion: str,
    part: str,
    rng: random.Random,
    style: str = DEFAULT_STYLE,
) -> FollowUpText | NotApplicable:
    """Apply a function-based relation to one part of a case (`premises`, `conclusion`, `both`; `none` for MR-49).

    For `both`, the premises are transformed first, then the conclusion, with the same generator; both must change.
    The premises are transformed together, as one part: a 10% budget counts the letters (or words) of all of them.

    Args:
        mr: A key of `TRANSFORMS`.
        premises: The source premises in English.
        conclusion: The source conclusion in English.
        part: Which part to transform.
        rng: The group's generator (seeded from the build seed and the group's identity).
        style: `llmorph` (LLMorph's algorithms, the default) or `clean` (ours); see the module documentation.

    Returns:
        The follow-up text, or why there is none.

    Raises:
        ValueError: On an unknown relation, part or style.
    """
    transform = get_transform(mr, style)
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
