"""English for follow-up cases: keep what did not change, realise what did, and check both.

A follow-up premise that copies a source premise verbatim keeps the source's own sentence, so the only textual
difference between source and follow-up is the transformed formula (the paper's design, §3.4). A rewritten or
new formula is put into English by the deterministic template realiser, whose reader proves it reads back
(`read(realize(f)) == f`).

Reusing the source's English inside a changed formula (issue #26). Where a changed formula contains, as a
sub-formula reached through connectives and quantifiers, a formula that is syntactically equal to a source
sentence's formula, that sentence's own English is spliced in instead of rendering the sub-formula by template
(MR-C1 on "Space sucks." gives "Both Space sucks and it is logically true."; MR-P4 gives "Both ⟨premise 2⟩ and
⟨premise 5⟩."). The largest such sub-formulas are taken. The spliced clause is the source sentence without its
final period, with its first letter lower-cased unless its first word is a proper noun: a word written with a
capital letter after its first letter ("TV", "iPhone"), a word the source writes capitalised inside a sentence,
or the first word of the English name of a constant the source treats as a name (so "Space sucks." keeps
"Space", as the realiser also writes the constant `space`). At the start of the follow-up sentence the clause is
kept as written. A spliced clause whose formula is complex, or whose text has a comma, "and" or "or", is followed
by a comma before the connective word that continues the sentence.

The check of such a mixed sentence (`check_mixed`). `read` cannot read natural English, so it is checked
structurally: every spliced clause is replaced by a placeholder atom (a fresh 0-ary predicate with a one-word
template), and the resulting template text must read back (`read`) to the changed formula with those sub-formulas
replaced by the placeholders; substituting the source formulas back for the placeholders must give the changed
formula; and each clause must be its source sentence (up to the first letter's case and the final period). A
sentence that fails is realised from its formula entirely.

Renaming (MR-S1, MR-S2, and chains with them). A constant renaming edits the source sentences: every surface form of
the old constant (any case, plural, possessive, accents, hyphenated or multi-word names, inside quotes) is replaced
by the new name, in premises and conclusion, except inside a longer name of another symbol of the case ("Ailton
Silva" for `ailtonSilva` when `ailton` is renamed, "animal lovers" for `AnimalLover` when `animal` is). An article
right before the form goes ("a language family", "the Nazi Reichstag" become "Con1"). A sentence where no form is
found is realised from its formula, as is one whose edit fails the check. Predicate renaming never edits English:
its changed sentences are realised. Then every follow-up sentence is checked (`renaming_problems`): no surface form
of an old symbol is left (outside longer names of other symbols; a predicate named only by a preposition or article,
such as `On`, is not searched for), a renamed constant's new name appears in exactly the sentences whose formula
mentions it, and a realised sentence reads back to its formula. A group with a failing sentence is not shipped: the
builder drops it as `RENAMING_LEFT` (the usual cause is a FOLIO sentence that names the constant although its
formula does not, such as "Walden contains knowledge." for `Gains(harry, knowledge)`).

The realiser speaks a constant as a proper name ("Lawton Park", "Ivan"), except one that the source's own English
writes in lower case inside its sentences, such as FOLIO's `company` ("the company"): that one keeps its lower case,
so a realised sentence names it the way the unchanged ones do.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from lgmt_tasks.lgmt.relations.followup import FollowUp
from lgmt_tasks.logic.lexicon import Lexicon, LexiconError, lexicon_for
from lgmt_tasks.logic.morphology import Usage, usage_hint
from lgmt_tasks.logic.phrasing import NAME_MINOR_WORDS, capitalize, split_name
from lgmt_tasks.logic.read import EnglishSyntaxError, read
from lgmt_tasks.logic.realize import RealizationError, is_simple, realize
from lgmt_tasks.logic.syntax import (
    Atom,
    Formula,
    children,
    rename_constant,
    signature,
    with_children,
)
from lgmt_tasks.sources.case import Case

RENAMING_LEFT = "renaming left in the English"
"""Build-statistics drop reason of a renaming group whose English fails `renaming_problems`."""

_PLACEHOLDER = "Lgmtsplice"
_SUFFIX = r"(?:['’]s|['’]|s|es)?"  # plural and possessive endings of a noun (a constant's name)
_INFLECTION = r"(?:['’]s|['’]|s|es|d|ed|ing)?"  # the same, and verb endings (a predicate's words)
_ACCENTED = {
    c: f"[{c}{v}]"
    for c, v in {
        "a": "áàâäãåą",
        "c": "çćč",
        "e": "éèêëęě",
        "i": "íìîï",
        "l": "ł",
        "n": "ñń",
        "o": "óòôöõø",
        "s": "śš",
        "u": "úùûü",
        "z": "źżž",
    }.items()
}
_ARTICLE = re.compile(r"(?:(?<=\s)|^)(?:a|an|the)\s+$", flags=re.IGNORECASE)


@dataclass(frozen=True)
class FollowUpEnglish:
    """The English of a follow-up case, with which sentences were produced by the realiser.

    Attributes:
        premises: The follow-up premises' sentences.
        conclusion: The follow-up conclusion's sentence.
        realised: Indices of follow-up premises written (wholly or partly) by the realiser.
        conclusion_realised: Whether the conclusion was written (wholly or partly) by the realiser.
        spliced: Indices of realised premises that reuse source English for unchanged sub-formulas.
        conclusion_spliced: Whether the realised conclusion reuses source English.
        renaming_fallbacks: Renamed sentences that were realised from their formula because the edited source
            sentence could not be made to pass the renaming check (or had no form of the symbol).
        problems: Why sentences fail the renaming check; a follow-up with problems must not be shipped.
    """

    premises: tuple[str, ...]
    conclusion: str
    realised: tuple[int, ...]
    conclusion_realised: bool
    spliced: tuple[int, ...] = ()
    conclusion_spliced: bool = False
    renaming_fallbacks: int = 0
    problems: tuple[str, ...] = ()


def case_lexicon(
    case: Case,
    followup: FollowUp,
    style: str = "natural",
    extra: Sequence[Formula] = (),
    overrides: Mapping[str | tuple[str, int], str] | None = None,
) -> Lexicon:
    """One lexicon over the source and follow-up symbols, so a symbol reads the same in both."""
    formulas: list[Formula] = [
        *case.premises_fol,
        case.conclusion_fol,
        *followup.premises_fol,
        followup.conclusion_fol,
        *extra,
    ]
    return lexicon_for(
        formulas,
        style=style,  # type: ignore[arg-type]
        common_nouns=common_noun_constants(case),
        overrides=overrides,
        usage=usage_hints(case),
        spellings=constant_spellings(case),
    )


_MID_SENTENCE = re.compile(r"[\w,;:\"”)’'-]\s+$")


@lru_cache(maxsize=4096)
def constant_spellings(case: Case) -> dict[str, tuple[str, ...]]:
    """How the source's English writes each constant's words inside its sentences, where it always writes them alike.

    FOL names lose capitals (`lgaAirport` is "LGA airport", `salad` is "salads"); the realiser would otherwise write
    every constant as a capitalised proper name ("Lga Airport", "Salad"). Only occurrences after the first word of a
    sentence count (a sentence's first letter is capitalised whatever it is); a plural or possessive ending of the
    last word is allowed, and the name keeps its own words: only their capitals come from the English.
    """
    out: dict[str, tuple[str, ...]] = {}
    sentences = [text.strip() for text in (*case.premises, case.conclusion) if text.strip()]
    if not sentences:
        return out
    for name in sorted(signature(*case.premises_fol, case.conclusion_fol).constants):
        words = split_name(name)
        pattern = surface_pattern(name)
        if not words or pattern is None:
            continue
        seen: set[tuple[str, ...]] = set()
        for text in sentences:
            for m in pattern.finditer(text):
                before = text[: m.start()]
                if not _MID_SENTENCE.search(before) or re.search(r"[.!?]\s+$", before):
                    continue
                found = re.split(r"[\s\-]+", m.group())
                if len(found) != len(words):
                    seen.add(())  # spelled another way ("K O" for `kO`): no capitals to take
                    continue
                spelled = tuple(_cased(w, f) for w, f in zip(words, found, strict=True))
                article = re.search(r"\b(the)\s+$", before, flags=re.IGNORECASE)
                seen.add(("the", *spelled) if article else spelled)
        if len(seen) == 1 and () not in seen:
            out[name] = seen.pop()
    return out


def _cased(word: str, found: str) -> str:
    """`word` as the English writes it: its capitals and a plural ending, not a possessive one.

    "lga" as "LGA", "beijing" as "Beijing", `animal` as "animals" in "mean to animals".
    """
    letters = re.sub(r"['’]s?$", "", found)
    if len(letters) > 1 and letters.isalpha() and letters.isupper() and len(word) == len(letters):
        return word.upper()
    if letters == found and letters.lower() in (word + "s", word + "es"):
        word = letters.lower()
    return capitalize(word) if found[:1].isupper() else word


@lru_cache(maxsize=4096)
def usage_hints(case: Case) -> dict[tuple[str, int], Usage]:
    """How the source's English uses each of its predicates' words (`morphology.usage_hint`), where it says.

    This is what tells the realiser that FOLIO's `Pet` is "a pet" and `Bark` is what dogs do, or that `PetersPet`
    is "Peter's pet": the word classes of a bare name are ambiguous, the sentences it came from are not.
    """
    text = " ".join((*case.premises, case.conclusion))
    if not text.strip():
        return {}
    capitals = {w.lower(): w for spelled in constant_spellings(case).values() for w in spelled if w[:1].isupper()}
    out: dict[tuple[str, int], Usage] = {}
    for key in sorted(signature(*case.premises_fol, case.conclusion_fol).predicates):
        words = split_name(key[0])
        hint = usage_hint(words, text)
        if (hint is None or hint.words is None) and any(w in capitals for w in words[1:]):
            # a name the source writes with capitals inside a predicate's name: `InBeijing` is "in Beijing"
            named = tuple(capitals.get(w, w) if i else w for i, w in enumerate(words))
            hint = Usage(hint.reading if hint else None, named)
        if hint is not None:
            out[key] = hint
    return out


def common_noun_constants(case: Case) -> frozenset[str]:
    """The constants the source English writes in lower case inside a sentence, and never capitalised there.

    A sentence's first word is capitalised whatever it is, so only later words count. A constant the English
    never writes (a generated case's sentences come from the realiser; an MR-S fresh symbol) counts as a name.
    """
    sentences = [text.strip() for text in (*case.premises, case.conclusion)]
    common: set[str] = set()
    for name in signature(*case.premises_fol, case.conclusion_fol).constants:
        phrase = " ".join(split_name(name))
        if not phrase:
            continue
        pattern = re.compile(rf"(?<![\w]){re.escape(phrase)}(?![\w])", flags=re.IGNORECASE)
        inside = [m.group() for text in sentences for m in pattern.finditer(text) if m.start() > 0]
        if inside and all(found == phrase for found in inside):
            common.add(name)
    return frozenset(common)


# ---------------------------------------------------------------------------------------------------- renaming


def _word_pattern(word: str, ending: str) -> str:
    """One word of a name, with an optional apostrophe before a final s ("peoples" matches "People's")."""
    if len(word) > 2 and word.endswith("s") and word[-2].isalpha():
        return re.escape(word[:-1]) + r"['’]?s" + ending
    return re.escape(word) + ending


def surface_pattern(name: str, kind: str = "constant") -> re.Pattern[str] | None:
    """How a symbol's name may be written in English: its words in order, any case, hyphens or spaces between.

    A constant's last word may take a plural or possessive ending (`animal` matches "animals", `beijing`
    "Beijing's"), and its letters may also be spelled with spaces or accents ("KO" for `kO`, "Náutico" for
    `nautico`); every word of a predicate may also take a verb ending (`ReadBook` matches "reads book").
    """
    words = split_name(name)
    if not words:
        return None
    if kind == "constant":
        parts = [_word_pattern(w, "") for w in words[:-1]] + [_word_pattern(words[-1], _SUFFIX)]
        letters = [c for c in name.lower() if c.isalnum()]
        # the name's letters with optional spaces or hyphens between them and accents allowed: `kO` matches "KO",
        # `bBCTwo` "BBC Two", `nautico` "Náutico"
        spelled = r"[\s\-]?".join(_ACCENTED.get(c, re.escape(c)) for c in letters) + _SUFFIX
        core = "(?:" + r"[\s\-]+".join(parts) + "|" + spelled + ")"
    else:
        core = r"[\s\-]+".join(_word_pattern(w, _INFLECTION) for w in words)
    return re.compile(rf"(?<![\w]){core}(?![\w])", flags=re.IGNORECASE)


def longer_names(old: str, symbols: Iterable[tuple[str, str]]) -> list[re.Pattern[str]]:
    """Patterns of the other symbols whose English name contains `old`'s words and has more of them."""
    words = split_name(old)
    out: list[re.Pattern[str]] = []
    for kind, name in symbols:
        other = split_name(name)
        if name == old or len(other) <= len(words):
            continue
        if any(tuple(other[i : i + len(words)]) == words for i in range(len(other) - len(words) + 1)):
            pattern = surface_pattern(name, kind)
            if pattern is not None:
                out.append(pattern)
    return out


def free_matches(sentence: str, pattern: re.Pattern[str], masks: Sequence[re.Pattern[str]]) -> list[re.Match[str]]:
    """Matches of `pattern` that do not fall inside a match of any mask (a longer name of another symbol)."""
    masked = [(m.start(), m.end()) for mask in masks for m in mask.finditer(sentence)]
    return [m for m in pattern.finditer(sentence) if not any(s <= m.start() and m.end() <= e for s, e in masked)]


def _symbols(case: Case, followup: FollowUp) -> list[tuple[str, str]]:
    sig = signature(*case.premises_fol, case.conclusion_fol, *followup.premises_fol, followup.conclusion_fol)
    return [("constant", c) for c in sorted(sig.constants)] + [("predicate", p) for p in sorted(sig.predicate_names)]


def substitute_constant(sentence: str, old: str, new_phrase: str, masks: Sequence[re.Pattern[str]] = ()) -> str | None:
    """Replace every surface form of constant `old` by `new_phrase`; None when no form occurs.

    A possessive ending is kept ("Beijing's" -> "Con1's"), a plural one dropped, and an article right before the
    form goes, since the new name is a proper name ("a language family", "the Nazi Reichstag" -> "Con1"). Forms
    inside a mask are left alone.
    """
    pattern = surface_pattern(old)
    if pattern is None:
        return None
    found = free_matches(sentence, pattern, masks)
    if not found:
        return None
    out: list[str] = []
    last = 0
    for m in found:
        before = sentence[last : m.start()]
        text = m.group()
        before = _ARTICLE.sub("", before)
        possessive = re.search(r"['’]s?$", text)
        out += [before, new_phrase + (possessive.group() if possessive and len(text) > 1 else "")]
        last = m.end()
    out.append(sentence[last:])
    result = "".join(out)
    return capitalize(result) if sentence[:1].isupper() else result


def _mentions(f: Formula, kind: str, name: str) -> bool:
    sig = signature(f)
    return name in sig.constants if kind == "constant" else name in sig.predicate_names


def renaming_problems(
    sentences: Sequence[str],
    formulas: Sequence[Formula],
    realised: Iterable[int],
    case: Case,
    followup: FollowUp,
    lx: Lexicon,
) -> list[str]:
    """Why follow-up sentences do not say the renamed case (empty when they all do).

    For every (sentence, formula) pair and every renamed symbol: no surface form of the old symbol is left outside
    longer names of other symbols; a new constant's name (its lexicon phrase) appears exactly when the formula
    mentions it. A realised sentence (index in `realised`) must also read back to its formula, which proves the
    new predicate or constant is spoken where the formula has it and nowhere else.
    """
    problems: list[str] = []
    symbols = _symbols(case, followup)
    realised_set = set(realised)
    for i, (sentence, formula) in enumerate(zip(sentences, formulas, strict=True)):
        where = "conclusion" if i == len(sentences) - 1 else f"premise {i + 1}"
        for kind, old, new in followup.renaming:
            pattern = surface_pattern(old, kind)
            if kind == "predicate" and set(split_name(old)) <= NAME_MINOR_WORDS:
                pattern = None  # a predicate named by a preposition (`On`, `In`): the word is everywhere
            if pattern is not None and free_matches(sentence, pattern, longer_names(old, symbols)):
                problems.append(f"{where} still names {kind} {old}: {sentence!r}")
            if kind == "constant":
                phrase = lx.constant_phrase(new)
                said = re.search(rf"(?<![\w]){re.escape(phrase)}(?![\w])", sentence, flags=re.IGNORECASE)
                if bool(said) != _mentions(formula, kind, new):
                    problems.append(f"{where} names {new} {'without' if said else 'not'} its formula: {sentence!r}")
        if i in realised_set:
            try:
                ok = read(sentence, lx) == formula
            except EnglishSyntaxError:
                ok = False
            if not ok:
                problems.append(f"{where} does not read back: {sentence!r}")
    return problems


# ---------------------------------------------------------------------------------------------------- splicing


def _source_sentences(case: Case, conclusion_first: bool) -> dict[Formula, str]:
    pairs = list(zip(case.premises_fol, case.premises))
    concl = [(case.conclusion_fol, case.conclusion)]
    out: dict[Formula, str] = {}
    for f, text in (concl + pairs) if conclusion_first else (pairs + concl):
        out.setdefault(f, text)
    return out


def _proper_words(case: Case) -> frozenset[str]:
    """Lower-cased words that start a proper noun in the source English (see the module docstring)."""
    common = common_noun_constants(case)
    spelled = constant_spellings(case)
    words: set[str] = set()
    for name in signature(*case.premises_fol, case.conclusion_fol).constants:
        parts = spelled.get(name) or split_name(name)
        if parts and name not in common and not (name in spelled and parts[0][:1].islower()):
            words.add(parts[0].lower())
    for text in (*case.premises, case.conclusion):
        for m in re.finditer(r"(?<=[^\s.!?])\s+([A-Z][\w'’-]*)", text.strip()):
            words.add(m.group(1).lower())
    return frozenset(words - _NEVER_PROPER)


_NEVER_PROPER = frozenset(
    """a an the if then either neither both all some no every each not it there for when while because although
    and or but""".split()
)
"""Function words, which a source may capitalise mid-text after a sentence of its own, never start a proper noun."""


def splice_clause(sentence: str, proper: frozenset[str]) -> str:
    """A source sentence as a clause: no final period; first letter lower-cased unless a proper noun starts it."""
    text = sentence.strip()
    if text.endswith("."):
        text = text[:-1].rstrip()
    first = re.match(r"[\w'’-]+", text)
    word = first.group() if first else ""
    base = re.sub(r"['’]s?$", "", word)
    if not word or any(c.isupper() for c in word[1:]) or base.lower() in proper or word.lower() in proper:
        return text
    return text[:1].lower() + text[1:]


def _replace_sources(
    f: Formula, sources: Mapping[Formula, str], found: dict[str, Formula], top: bool = True
) -> Formula:
    """`f` with its largest sub-formulas that are source sentences' formulas replaced by placeholder atoms."""
    if not top and f in sources and len(found) < 26:
        name = f"{_PLACEHOLDER}{chr(ord('a') + len(found))}"
        found[name] = f
        return Atom(name, ())
    kids = children(f)
    if not kids:
        return f
    return with_children(f, tuple(_replace_sources(k, sources, found, top=False) for k in kids))


def _complex_text(text: str) -> bool:
    return bool(re.search(r",|\band\b|\bor\b", text))


def check_mixed(sentence: str, formula: Formula, parts: Mapping[str, tuple[Formula, str, str]], lx: Lexicon) -> bool:
    """The structural read-back check of a mixed sentence (see the module docstring).

    Args:
        sentence: The mixed sentence.
        formula: The formula it must say.
        parts: Placeholder predicate name -> (source formula, source sentence, the clause as it stands in the
            sentence).
        lx: A lexicon with a one-word template for every placeholder.
    """
    text = sentence
    for name, (_, source, clause) in parts.items():
        if _first_folded(clause) != _first_folded(source.strip().removesuffix(".").rstrip()):
            return False
        k = text.find(clause)
        if k < 0:
            return False
        text = text[:k] + str(lx.template(name, 0)[0]) + text[k + len(clause) :]
    try:
        back = read(text, lx)
    except EnglishSyntaxError:
        return False
    for name, (source_formula, _, _) in parts.items():
        back = _put_back(back, name, source_formula)
    return back == formula


def _first_folded(text: str) -> str:
    return text[:1].lower() + text[1:]


def _put_back(f: Formula, name: str, by: Formula) -> Formula:
    if isinstance(f, Atom) and f.pred == name and not f.args:
        return by
    kids = children(f)
    return with_children(f, tuple(_put_back(k, name, by) for k in kids)) if kids else f


@dataclass(frozen=True)
class Mixed:
    """A changed formula said with the source's own sentences for its unchanged sub-formulas.

    Attributes:
        text: The mixed sentence.
        parts: Placeholder predicate name -> (source formula, source sentence, the clause as it stands in `text`).
        lexicon: The case lexicon with a one-word template for every placeholder (what `check_mixed` reads with).
    """

    text: str
    parts: Mapping[str, tuple[Formula, str, str]]
    lexicon: Lexicon


def splice(formula: Formula, case: Case, followup: FollowUp, conclusion: bool) -> Mixed | None:
    """`formula` with source English spliced in (see the module docstring), or None.

    None when no source sentence's formula is a proper sub-formula of `formula`, or when the mixed sentence fails
    `check_mixed` (the caller then realises the whole formula).

    Args:
        formula: A changed follow-up formula.
        case: The source case.
        followup: The follow-up (its formulas join the lexicon, as for every realised sentence).
        conclusion: Whether `formula` is the follow-up conclusion (then the source conclusion's sentence is
            preferred for a formula that is also a premise's).
    """
    sources = _source_sentences(case, conclusion_first=conclusion)
    found: dict[str, Formula] = {}
    skeleton = _replace_sources(formula, sources, found)
    if not found:
        return None
    overrides: dict[str | tuple[str, int], str] = {(name, 0): name.lower() for name in found}
    try:
        lx = case_lexicon(case, followup, extra=[skeleton], overrides=overrides)
        text = realize(skeleton, lx)
    except (LexiconError, RealizationError):
        return None
    proper = _proper_words(case)
    parts: dict[str, tuple[Formula, str, str]] = {}
    for name, source_formula in found.items():
        word = name.lower()
        source = sources[source_formula]
        clause = splice_clause(source, proper)
        if text[: len(word)].lower() == word:  # the sentence starts with it: keep the source's own first letter
            clause = capitalize(source.strip().removesuffix(".").rstrip())
            text = clause + text[len(word) :]
            k = 0
        else:
            k = text.find(word)
            if k < 0:
                return None
            text = text[:k] + clause + text[k + len(word) :]
        end = k + len(clause)
        if (not is_simple(source_formula) or _complex_text(clause)) and re.match(
            r" (and|or|if and only if)\b", text[end:]
        ):
            text = text[:end] + "," + text[end:]
        parts[name] = (source_formula, source, clause)
    return Mixed(text, parts, lx) if check_mixed(text, formula, parts, lx) else None


# ---------------------------------------------------------------------------------------------------- follow-up


def followup_english(case: Case, followup: FollowUp, lexicon: Lexicon | None = None) -> FollowUpEnglish:
    """English premises and conclusion of a follow-up case, checked (see the module docstring).

    Args:
        case: The source case (its sentences are reused where the formula is unchanged).
        followup: The follow-up produced by a relation.
        lexicon: Lexicon for realised sentences; by default one built over both cases.
    """
    lx = lexicon or case_lexicon(case, followup)
    constants = [(old, new) for kind, old, new in followup.renaming if kind == "constant"]
    renames_predicates = any(kind == "predicate" for kind, _, _ in followup.renaming)
    symbols = _symbols(case, followup)
    fallbacks = 0

    def edit(sentence: str, source_formula: Formula, new_formula: Formula) -> str | None:
        """The source sentence adapted to a pure constant renaming, or None if it cannot be."""
        text: str | None = sentence
        for old, new in constants:
            if text is not None and _mentions(source_formula, "constant", old):
                text = substitute_constant(text, old, lx.constant_phrase(new), longer_names(old, symbols))
        return text

    def renamed_source(formula: Formula, conclusion: bool) -> tuple[str, Formula] | None:
        """The source sentence whose formula renames to `formula` (conclusion first for the conclusion)."""
        pairs = [*zip(case.premises, case.premises_fol)]
        last = (case.conclusion, case.conclusion_fol)
        ordered = [last, *pairs] if conclusion else [*pairs, last]
        for sentence, source_formula in ordered:
            renamed = source_formula
            for old, new in constants:
                renamed = rename_constant(renamed, old, new)
            if renamed == formula:
                return sentence, source_formula
        return None

    def one(formula: Formula, conclusion: bool) -> tuple[str, bool, bool]:
        """(sentence, realised, spliced) of one changed formula."""
        nonlocal fallbacks
        if constants and not renames_predicates:
            found = renamed_source(formula, conclusion)
            if found is not None:
                text = edit(found[0], found[1], formula)
                if text is not None and not renaming_problems([text], [formula], (), case, followup, lx):
                    return text, False, False
                fallbacks += 1
        mixed = splice(formula, case, followup, conclusion)
        if mixed is not None:
            return mixed.text, True, True
        return realize(formula, lx), True, False

    premises: list[str] = []
    realised: list[int] = []
    spliced: list[int] = []
    for i, (formula, origin) in enumerate(zip(followup.premises_fol, followup.premise_origin)):
        if origin is not None:
            premises.append(case.premises[origin])
            continue
        text, was_realised, was_spliced = one(formula, conclusion=False)
        premises.append(text)
        if was_realised:
            realised.append(i)
        if was_spliced:
            spliced.append(i)

    conclusion_realised = conclusion_spliced = False
    if not followup.conclusion_changed:
        conclusion = case.conclusion
    else:
        conclusion, conclusion_realised, conclusion_spliced = one(followup.conclusion_fol, conclusion=True)

    problems: list[str] = []
    if followup.renaming:
        whole = [*premises, conclusion]
        formulas = [*followup.premises_fol, followup.conclusion_fol]
        checked = [i for i in realised if i not in spliced]
        if conclusion_realised and not conclusion_spliced:
            checked.append(len(premises))
        problems = renaming_problems(whole, formulas, checked, case, followup, lx)
    return FollowUpEnglish(
        tuple(premises),
        conclusion,
        tuple(realised),
        conclusion_realised,
        tuple(spliced),
        conclusion_spliced,
        fallbacks,
        tuple(problems),
    )
