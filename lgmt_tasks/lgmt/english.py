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
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from lgmt_tasks.lgmt.relations.followup import FollowUp
from lgmt_tasks.logic import morphology
from lgmt_tasks.logic.lexicon import Lexicon, LexiconError, lexicon_for, name_cased
from lgmt_tasks.logic.morphology import Usage, usage_hint
from lgmt_tasks.logic.phrasing import (
    NAME_MINOR_WORDS,
    ORDINALS,
    PREPOSITIONS,
    Template,
    abstract_template,
    capitalize,
    looks_abstract,
    natural_template,
    split_name,
)
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
    followup: FollowUp | None = None,
    style: str = "natural",
    extra: Sequence[Formula] = (),
    overrides: Mapping[str | tuple[str, int], str] | None = None,
) -> Lexicon:
    """One lexicon over the source and follow-up symbols, so a symbol reads the same in both.

    Without a follow-up, the lexicon of the source's own symbols (what the realiser says for the source case).
    """
    followed = (*followup.premises_fol, followup.conclusion_fol) if followup is not None else ()
    formulas: list[Formula] = [*case.premises_fol, case.conclusion_fol, *followed, *extra]
    return lexicon_for(
        formulas,
        style=style,  # type: ignore[arg-type]
        common_nouns=common_noun_constants(case),
        overrides=overrides,
        usage=usage_hints(case),
        spellings=constant_spellings(case),
        learned=learned_templates(case),
    )


_MID_SENTENCE = re.compile(r"[\w,;:\"”)’'-]\s+$")
_NAME_PREFIXES = frozenset({"name", "surname", "word", "term", "year", "yr"})
"""First words of FOL constants that say what kind of thing the constant is (`nameODell`, `year2013Final`), which the
English does not say ("Odell", "the 2013 final")."""


@lru_cache(maxsize=1 << 15)  # more than a paper-scale pool's 4,329 cases: an LRU smaller than a cycle never hits
def constant_spellings(case: Case) -> dict[str, tuple[str, ...]]:
    """How the source's English writes each constant's words inside its sentences, where it always writes them alike.

    FOL names lose capitals (`lgaAirport` is "LGA airport", `salad` is "salads"); the realiser would otherwise write
    every constant as a capitalised proper name ("Lga Airport", "Salad"). Only occurrences after the first word of a
    sentence count (a sentence's first letter is capitalised whatever it is); a plural or possessive ending of the
    last word is allowed, and the name keeps its own words: only their capitals come from the English, and an
    article the English always puts before them ("the United States", "a health-conscious childhood home").

    Issue #36: a form inside the longer name of another constant ("United States citizenship") does not count; a
    name the English writes only at the start of sentences takes its capitals after the first letter from there
    (FOLIO's `kiki` is "KiKi", so a realised sentence names it as the spliced source sentences do); capitals inside
    a word are kept ("McCarthy"). The sentences whose formula uses the constant are read (all sentences when none
    of them writes it), and the spelling they use most often wins (none on a tie); a plural ending only when every
    use has it.
    """
    out: dict[str, tuple[str, ...]] = {}
    pairs = [
        (text.strip(), f)
        for text, f in zip((*case.premises, case.conclusion), (*case.premises_fol, case.conclusion_fol))
        if text.strip()
    ]
    sentences = [text for text, _ in pairs]
    if not sentences:
        return out
    constants = sorted(signature(*case.premises_fol, case.conclusion_fol).constants)
    symbols = [("constant", c) for c in constants]
    for name in constants:
        words = split_name(name)
        pattern = surface_pattern(name)
        if not words or pattern is None:
            continue
        masks = longer_names(name, symbols)
        seen: Counter[tuple[str, ...]] = Counter()
        initial: Counter[tuple[str, ...]] = Counter()
        initial_plural = 0
        plural_uses: Counter[str] = Counter()
        using = [text for text, f in pairs if name in signature(f).constants]
        texts = using if any(free_matches(text, pattern, masks) for text in using) else sentences
        relaxed = False
        if len(words) > 1 and not any(free_matches(text, pattern, masks) for text in texts):
            loose = re.compile(
                r"(?<![\w])"
                + r"[\s\-]+".join(
                    [_word_pattern(w, "(?:s|es)?") for w in words[:-1]] + [_word_pattern(words[-1], _SUFFIX)]
                )
                + r"(?!\w)",
                flags=re.IGNORECASE,
            )
            if any(free_matches(text, loose, masks) for text in using):
                # "mixed martial arts matches bout" for `mixedMartialArtsMatchBout`: the English's capitals only
                pattern, texts, relaxed = loose, using, True
        for text in texts:
            for m in free_matches(text, pattern, masks):
                before = text[: m.start()]
                article = re.search(r"(?:^|\s)(the|a|an)\s+$", before, flags=re.IGNORECASE)
                at_start = not before.strip() or re.search(r"[.!?]\s+$", before) is not None
                if article is not None and not before[: article.start(1)].strip():
                    at_start = False  # "The United States won ...": the name's own words are inside the sentence
                if not at_start and not _MID_SENTENCE.search(before):
                    continue
                found = m.group().split()
                if len(found) != len(words):
                    found = re.split(r"[\s\-]+", m.group())  # "health-conscious" is one word of its name
                if len(found) != len(words) or any(
                    not re.sub(r"\W", "", f.lower()).startswith(re.sub(r"\W", "", w))
                    and not (w.endswith("y") and f.lower().startswith(w[:-1] + "ies"))  # "cities" for `city`
                    for w, f in zip(words, found)
                ):
                    (initial if at_start else seen)[()] += 1  # spelled another way ("K O" for `kO`)
                    continue
                spelled = tuple(_cased(w, f) for w, f in zip(words, found, strict=True))
                if relaxed:
                    spelled = tuple(capitalize(w) if f[:1].isupper() else w for w, f in zip(words, found, strict=True))
                if at_start:
                    if all(w == re.sub(r"\W", "", c.lower()) for w, c in zip(words, spelled, strict=True)):
                        initial[(capitalize(spelled[0]), *spelled[1:])] += 1  # capitals only, not "Avocados"
                    elif spelled[-1].lower() in (words[-1] + "s", words[-1] + "es"):
                        initial_plural += 1  # "Grapes are food" for `grape`
                    continue
                said = article.group(1).lower() if article else None
                ends = _ends_phrase(_TOKEN.findall(text[m.end() :]), 0)
                subject = article is not None and not before[: article.start(1)].strip()
                if said in ("a", "an") and (not ends or spelled[0][:1].isupper() and not subject):
                    # "a New Zealand singer": the article is the longer noun phrase's; "A Lamborghini SUV is ..."
                    # starts the sentence with the name's own article
                    said = None
                seen[(said, *spelled) if said else spelled] += 1
                if not any(f[:1].isupper() for f in found) and any(
                    re.sub(r"\W", "", f.lower()) != w for w, f in zip(words, found, strict=True)
                ):
                    plural_uses[said or ""] += 1  # "big metropolitan cities", "martial arts matches bout"
        best = _most_used(seen or initial, words)
        own = re.match(r"[a-z][A-Z]+[a-z]*", name)  # `fMRI`, `iPhone`, `eBay`: a lower-case first letter by design
        if best is not None and not any(seen) and own and best[0].lower() == own.group().lower():
            best = (own.group(), *best[1:])  # written only at the start of sentences ("FMRI is ..."): the name's own
        if best is None and len(words) > 1 and words[0] in _NAME_PREFIXES and name.lower().startswith(words[0]):
            # `nameODell` for the name "Odell": the English writes the name, not the FOL's word for what it is
            best = _most_used(_letter_spellings(name[len(words[0]) :], texts, masks), ())
        if best is None:
            letters = _letter_spellings(name, texts, masks)
            best = _most_used(letters, ())  # "Leonardo da Vinci" for `leonardodaVinci`
            top = [k for k, n in letters.items() if n == max(letters.values(), default=0)]
            if best is None and len(top) > 1:  # a tie: the one with the name's own capitals ("PlayStation")
                alike = [k for k in top if name_cased(k, name) == k]
                best = alike[0] if len(alike) == 1 else None
        plural_only = initial_plural + sum(plural_uses.values()) and sum(plural_uses.values()) == sum(seen.values())
        if (
            plural_only
            and (best is None or relaxed or best == words)
            and not initial
            and re.fullmatch(r"[a-z]+(?:[A-Z][a-z]+)*", name)
            and not (len(words) == 1 and morphology.classes(words[0]) <= {"PROPN"})
        ):
            # a common noun the English writes only in the plural, in lower case or as a sentence's subject ("Grapes
            # are food", "in big metropolitan cities"): the realiser's atoms are singular, and a singular count noun
            # needs an article ("the grape is food", not "Grape is food"): "a" when the English says it, else "the"
            det = "the" if not (plural_uses["a"] or plural_uses["an"]) else "an" if words[0][0] in "aeiou" else "a"
            best = (det, *words)
        if best is not None:
            out[name] = best  # the way the sentences that use it write it most often
    return out


def _most_used(spellings: Counter[tuple[str, ...]], words: tuple[str, ...]) -> tuple[str, ...] | None:
    """The spelling used most often (None on a tie or none); a plural ending of `words` only when every use has it."""
    ranked = spellings.most_common()
    if len(ranked) > 1 and words:  # "salads" only if always "salads", else "salad" would not agree
        ranked = [(k, n) for k, n in ranked if k and re.sub(r"\W", "", k[-1].lower()) == words[-1]]
    if ranked and ranked[0][0] and (len(ranked) == 1 or ranked[0][1] > ranked[1][1]):
        return ranked[0][0]
    return None


def _letter_spellings(name: str, texts: Sequence[str], masks: Sequence[re.Pattern[str]]) -> Counter[tuple[str, ...]]:
    """How the texts write a constant whose name lost their spaces or apostrophes, as the texts' own words.

    The name's letters in order, with up to two spaces, hyphens, apostrophes or dots between two of them: `jameSFamily`
    is "James' family", `leonardodaVinci` "Leonardo da Vinci". A sentence's first letter is capitalised.
    """
    letters = [c for c in name.lower() if c.isalnum()]
    out: Counter[tuple[str, ...]] = Counter()
    if len(letters) < 3:
        return out
    # an apostrophe the name keeps must be in the English too: `nameO'Dell` is "O'Dell", not "Odell"
    apostrophe_after = [
        bool(re.match(r"[^\w]*['’]", name.lower()[k + 1 :])) for k, c in enumerate(name.lower()) if c.isalnum()
    ]
    body = re.escape(letters[0]) + "".join(
        (r"['’]" if apostrophe_after[k] else r"[\s\-'’.]{0,2}") + re.escape(c) for k, c in enumerate(letters[1:])
    )
    pattern = re.compile(r"(?<![\w'’])" + body + r"(?!\w)", flags=re.IGNORECASE)
    initial: Counter[tuple[str, ...]] = Counter()  # at the start of a sentence: its capital says nothing
    for text in texts:
        for m in free_matches(text, pattern, masks):
            found = tuple(w.replace("’", "'") for w in m.group().split())
            before = text[: m.start()]
            if not before.strip() or re.search(r"[.!?]\s+$", before):
                initial[(capitalize(found[0]), *found[1:])] += 1
                continue
            if not _MID_SENTENCE.search(before):
                continue
            article = re.search(r"(?:^|\s)(the)\s+$", before, flags=re.IGNORECASE)
            out[("the", *found) if article else found] += 1
    return out or initial


def _cased(word: str, found: str) -> str:
    """`word` as the English writes it: its capitals and a plural ending, not a possessive one.

    "lga" as "LGA", "beijing" as "Beijing", `animal` as "animals" in "mean to animals".
    """
    letters = re.sub(r"['’]s?$", "", found)
    if len(letters) > 1 and letters.isalpha() and letters.isupper() and len(word) == len(letters):
        return word.upper()
    if found != letters and found.endswith(("'s", "’s")) and word == letters.lower() + "s" and letters.isalpha():
        return (letters if letters[:1].isupper() else letters.lower()) + "'s"  # "Tom's" for `toms` in `tomsDad`
    if letters.lower() == word and any(c.isupper() for c in letters[1:]):
        return letters  # capitals inside the word: "KiKi", "McCarthy"
    if letters == found and letters.lower() in (word + "s", word + "es"):
        word = letters.lower()
    return capitalize(word) if found[:1].isupper() else word


# ------------------------------------------------------------------------------- phrases learned from the source

_ARTICLES = frozenset({"a", "an", "the"})
_MODALS = frozenset("can could will would shall should may might must".split())
_NOUN_MARKERS = frozenset(
    """a an the every each some all no many any these those two three four five several few""".split()
)
_TOKEN = re.compile(r"[\w'’.-]*\w|[^\w\s]")


def _forms(word: str) -> frozenset[str]:
    """Surface forms a name's word may take in its source sentence: itself, plural or singular, verb forms."""
    out = {word, word + "s", word + "es", word + "'s"}
    if len(word) > 2 and word.endswith("s"):
        out |= {word[:-1] + "'s", word[:-1] + "'"}  # `EmmasFamily`: "Emma's family"
    one = morphology.singular(word)
    if one:
        out.add(one)
    if "NOUN" in morphology.classes(word):
        out.update(morphology.plurals(word))
    lemma = morphology.verb_lemma(word) or (word if "VERB" in morphology.classes(word) else None)
    if lemma:
        for forms in morphology.verb_forms(lemma).values():
            out.update(forms)
    return frozenset(f.lower() for f in out)


_ADVERBS = frozenset("not never also always often usually sometimes very quite rather so too".split())
_PLURAL_MARKERS = frozenset("all many several few these those two three four five".split())


def _copula(word: str) -> bool:
    """A form of "be", also with "n't" ("aren't")."""
    word = word.replace("’", "'")
    return word in morphology.COPULAS or word.endswith("n't") and word[:-3] in morphology.COPULAS


_CLOSERS = frozenset(
    """and or but nor not that who which whom whose when where if then than as because while do does did is are was
    were be been can could will would shall should may might must also""".split()
)
"""Words after which a noun phrase has ended: a match followed by another word is a modifier, not the noun."""


def _ends_phrase(tokens: list[str], i: int) -> bool:
    """Whether the noun phrase of a match ends before `tokens[i]` (punctuation, a function word, a verb, the end)."""
    if i >= len(tokens):
        return True
    t = tokens[i].lower()
    if not t[:1].isalnum() or t in _CLOSERS or t in PREPOSITIONS or t in _NOUN_MARKERS:
        return True
    kinds = morphology.classes(t)
    if kinds & {"NOUN", "ADJ", "PROPN"}:
        return False
    return bool(kinds) or morphology.verb_tag(t) in ("VBZ", "VBD")


def _learn_one(words: tuple[str, ...], arity: int, tokens: list[str], start: int) -> Template | None:
    """The template a match of `words` at `tokens[start]` teaches (see `learned_templates`), or None."""
    found: list[int] = []  # token indices of the name's words
    inserted: dict[int, list[str]] = {}  # articles the English puts before the name's word j
    i = start
    for j, w in enumerate(words):
        while j and i < len(tokens) and tokens[i].lower() in _ARTICLES:
            inserted.setdefault(j, []).append(tokens[i].lower())
            i += 1
        if i >= len(tokens) or tokens[i].lower().replace("’", "'") not in _forms(w):
            return None
        found.append(i)
        i += 1
    if i < len(tokens) and tokens[i] in ("'s", "’s"):
        return None
    prev = tokens[start - 1].lower() if start else ""
    back = start - 1
    while back > 0 and tokens[back].lower() in _ADVERBS:
        back -= 1
    texts = [tokens[k] for k in found]
    low = [t.lower() for t in texts]

    def cased(j: int, word: str) -> str:
        """The name's word `j` (or `word`), with the capitals its English gives it inside a sentence."""
        token = texts[j].replace("’", "'")
        if token.endswith(("'s", "'")) and re.sub(r"\W", "", token.lower()) == word:
            return token if found[j] > 0 else token.lower()  # the English's possessive: "Gould's", "Peter's"
        if len(token) > 1 and token.isupper():
            return word.upper()
        return capitalize(word) if found[j] > 0 and token[:1].isupper() else word

    def phrase(first: int, own: bool) -> list[str]:
        out: list[str] = []
        for j in range(first, len(words)):
            out += inserted.get(j, [])
            out.append(cased(j, words[j]) if own else texts[j].replace("’", "'"))
        return out

    tail: tuple[int, ...] = (1,) if arity == 2 else ()
    first = words[0]
    ends_in_preposition = words[-1] in PREPOSITIONS and len(words) > 1
    if arity == 1 and ends_in_preposition:
        return None  # "x lives in": a unary name that ends in a preposition has lost its object
    if arity == 1 and first in PREPOSITIONS and len(words) > 1 and low[0] == first:
        # "in urban areas", "in an urban area": a place or state, said with the article a singular noun needs
        if not _ends_phrase(tokens, i):
            return None
        rest = phrase(1, own=True)
        if not inserted.get(1) and low[-1] != words[-1] and morphology.singular(low[-1]) == words[-1]:
            return (0, "is", first, morphology.indefinite_article(rest[0]), *rest)
        return (0, "is", first, *rest)
    if first in _MODALS:  # "can block": a modal verb phrase, whatever stands before it
        return (0, *phrase(0, own=True), *tail) if low[0] == first else None
    plural = any(t != w and morphology.singular(t) == w for t, w in zip(low, words, strict=True)) or (
        low[-1] in (words[-1] + "s", words[-1] + "es") and not morphology.verb_lemma(low[-1])
    )
    copula = back >= 0 and _copula(tokens[back].lower())
    after = tokens[i].lower() if i < len(tokens) else ""
    adjective = "ADJ" in morphology.classes(first) or morphology.looks_adjective(first)
    adjective = adjective and not morphology.is_comparative(first)  # "taller than": the natural template says it
    if arity == 2 and len(words) == 1 and copula and low[0] == first and adjective and after in PREPOSITIONS:
        return (0, "is", first, after, 1)  # "x is compatible with y": the preposition the English puts after it
    if arity == 2 and not ends_in_preposition and (copula or prev in _NOUN_MARKERS):
        return None  # "x is taller than y", "x is related to y": the name does not say the word before y
    content = words[:-1] if ends_in_preposition else words
    head = content[-1]
    kinds = morphology.classes(head)
    if prev in _NOUN_MARKERS or (copula and plural):
        if not ends_in_preposition and not _ends_phrase(tokens, i):
            return None  # "a popular show": the name's words modify a noun the name does not have
        if kinds and "NOUN" not in kinds or morphology.verb_tag(first) in ("VBD", "VBN", "VBG"):
            return None
        verb_form = low[0] != first and morphology.singular(low[0]) != first and morphology.verb_tag(low[0])
        if prev in _PLURAL_MARKERS and not plural or verb_form:
            return None  # "players who all play for", "no one playing for": no noun
        if arity == 2 and prev not in ("a", "an", "the", "every", "each") and not copula:
            return None  # "five grades in English class": the preposition may not be the relation's
        noun = phrase(0, own=True)
        for j, w in enumerate(words):  # the singular where the English or the noun's head needs it
            k = j + sum(len(v) for m, v in inserted.items() if m <= j)
            if noun[k].islower() and (j == len(content) - 1 or morphology.singular(w) == low[j]):
                noun[k] = morphology.singular(noun[k]) or noun[k]
        if noun[0].endswith(("'s", "'")):  # "Peter's pet", "the world's most populous nation"
            return (0, "is", *([prev] if prev in _ARTICLES else []), *noun, *tail)
        lead = "the" if prev == "the" and (first in ORDINALS or first.endswith("est")) else None
        return (0, "is", lead or morphology.indefinite_article(noun[0]), *noun, *tail)
    if copula or prev in morphology.DEGREE_WORDS:
        if plural or morphology.verb_tag(low[0]) in ("VB", "VBZ"):
            return None
        participle = low[0] != first and morphology.verb_tag(low[0]) in ("VBN", "VBD", "VBG")
        quality = "ADJ" in kinds or morphology.verb_tag(head) in ("VBN", "VBD") or participle or first in PREPOSITIONS
        if not (quality or not kinds and morphology.looks_adjective(head)) and not ends_in_preposition:
            return None  # "x is building": a count noun needs its article, which the natural template adds
        if not ends_in_preposition and not _ends_phrase(tokens, i):
            return None  # "are summarization models": the name's words modify a noun the name does not have
        said = phrase(0, own=True)
        if participle:
            said[len(inserted.get(0, []))] = low[0]  # "are rewarded with": the English's participle
        return (0, "is", *said, *tail)
    tag = morphology.verb_tag(low[0])
    if tag is None or first in morphology.COPULAS or first in PREPOSITIONS:
        return None
    if tag == "VBZ" and morphology.singular(low[0]) == first:
        return None  # "cats", "books": a plural noun as much as a verb
    if arity == 2 and not ends_in_preposition and (len(words) > 1 or _ends_phrase(tokens, i)):
        return None  # "x reads book y", "x participates in y": the name does not say where y goes
    if tag in ("VBZ", "VBD") and low[0] != first or (tag == "VB" and prev in morphology.SUBJECT_MARKERS):
        lemma = morphology.verb_lemma(low[0]) or low[0]
        verb = first if morphology.verb_tag(first) in ("VBD", "VBN", "VBZ") else morphology.third_person(lemma)
        return (0, verb, *phrase(1, own=False), *tail)  # the object as the English says it: "allows pets"
    return None


_FORMAL: Template = ()
"""What `_learn_three` returns for "speak this name formally" (`learned_templates` puts the formal template)."""
_THREE_REACH = 6
"""How many words the English may put between a ternary verb's preposition and its repetition ("in an apartment in")."""


def _learn_three(words: tuple[str, ...], arity: int, tokens: list[str], start: int) -> Template | None:
    """What a match of a ternary verb-and-preposition name (`LiveIn(x, y, z)`, `SoldOver`) at `tokens[start]` teaches.

    The natural template "x lives y in z" assumes the verb takes y as its object. When the English says the verb
    and its preposition together ("lives in an apartment in a city"), the preposition is the verb's own: with the
    preposition said again before z it is "x lives in y in z"; otherwise ("sold over half a million copies") the
    name has no place for its arguments in the English, and the paper's formal phrasing is used.
    """
    verb, prep = words
    if start + 1 >= len(tokens) or tokens[start + 1].lower() != prep:
        return None
    said = tokens[start].lower().replace("’", "'")
    if said not in _forms(verb) or not morphology.verb_lemma(said):
        return None
    spoken = verb
    if morphology.verb_tag(verb) == "VB" or verb in morphology.verb_forms(verb).get("VB", ()):
        spoken = morphology.third_person(verb)
    if prep in (t.lower() for t in tokens[start + 3 : start + 3 + _THREE_REACH]):
        return (0, spoken, prep, 1, prep, 2)
    return _FORMAL


@lru_cache(maxsize=1 << 15)  # more than a paper-scale pool's 4,329 cases: an LRU smaller than a cycle never hits
def learned_templates(case: Case) -> dict[tuple[str, int], Template]:
    """Templates of the source's predicates learned from the words of its English that their atoms cover (issue #36).

    For each unary or binary predicate with a natural name, the sentences whose formula uses it are searched for
    its words in order (each may be inflected, an article may stand between two of them: `AboutFuture` covers
    "about the future"). The words before a match tell how the name is used: after a modal it is a verb phrase
    ("x can block y"); after an article or quantifier, or a plural after a copula, a noun with its article ("x is
    an object of worship" from "some objects of worship"); after a copula an adjective or participle ("x is
    extractive", "x is sold in y"); an inflected verb or a base form after a subject marker is a verb in the third
    person ("x grows up in y" from "grew up in"; a name in the past keeps it: "x proposed y"). Capitalised words
    inside a sentence keep their capitals. The template most matches teach wins (the earlier one on a tie); a
    predicate with no telling match has none, and the name-based natural template is used.
    """
    pairs = list(zip((*case.premises, case.conclusion), (*case.premises_fol, case.conclusion_fol)))
    if not any(text.strip() for text, _ in pairs):
        return {}
    tokenised = [(_TOKEN.findall(text), signature(f).predicates) for text, f in pairs if text.strip()]
    out: dict[tuple[str, int], Template] = {}
    for key in sorted(signature(*case.premises_fol, case.conclusion_fol).predicates):
        name, arity = key
        if arity not in (1, 2, 3) or looks_abstract(name):
            continue
        words = tuple(w.lower() for w in split_name(name))
        if not words or any(not re.fullmatch(r"[a-z0-9'-]+", w) for w in words):
            continue
        if arity == 3 and (len(words) != 2 or words[1] not in PREPOSITIONS):
            continue
        words = _as_one_word(words, [tokens for tokens, used in tokenised if key in used])
        votes: Counter[Template] = Counter()
        order: dict[Template, int] = {}
        for tokens, used in tokenised:
            if key not in used:
                continue
            for start in range(len(tokens)):
                learn = _learn_three if arity == 3 else _learn_one
                template = learn(words, arity, tokens, start)
                if template is not None:
                    votes[template] += 1
                    order.setdefault(template, len(order))
        if not votes and arity == 2 and len(words) == 2 and words[0] in ("has", "have"):
            for tokens, used in tokenised:
                if key in used:
                    for start in range(len(tokens)):
                        template = _learn_has(words[1], tokens, start)
                        if template is not None:
                            votes[template] += 1
                            order.setdefault(template, len(order))
        if votes:
            best = max(votes, key=lambda t: (votes[t], -order[t]))
            best = best if best != _FORMAL else abstract_template(name, arity)
            out[key] = _the_before_acronyms(best, case)
        elif re.search(r"[A-Z]{2}", name):  # `PlayInNFL`: its natural template, with "the" if the English says it
            natural = natural_template(name, arity, usage_hints(case).get(key))
            if natural is not None and _the_before_acronyms(natural, case) != natural:
                out[key] = _the_before_acronyms(natural, case)
    return out


def _as_one_word(words: tuple[str, ...], sentences: list[list[str]]) -> tuple[str, ...]:
    """A name's words as the one word the English writes them as, if it does: `PreTeen` is "preteen" ("preteens").

    The name split at its capitals would say "a pre teen", which is no English word; only a word the source writes
    (with a plural or verb ending at most) is joined.
    """
    if len(words) < 2:
        return words
    joined = "".join(words)
    forms = {joined + ending for ending in ("", "s", "es", "d", "ed")}
    if any(token.lower() in forms for tokens in sentences for token in tokens):
        return (joined,)
    return words


def _learn_has(noun: str, tokens: list[str], start: int) -> Template | None:
    """`HasLogo` from "with the Bloomberg logo": "x has the y logo", the object a name before the noun, or None."""
    if tokens[start].lower() not in _ARTICLES:
        return None
    end = start + 1
    while end < len(tokens) and tokens[end][:1].isupper():
        end += 1
    if end == start + 1 or end >= len(tokens) or tokens[end].lower() not in _forms(noun):
        return None
    if not _ends_phrase(tokens, end + 1):
        return None
    return (0, "has", "the", 1, noun)


def _the_before_acronyms(template: Template, case: Case) -> Template:
    """`template` with "the" before an acronym the source writes in full with "the".

    "plays in the NFL", from "the National Football League"; an acronym the English never spells out keeps its
    words ("in NYC").
    """
    spelled = {
        "".join(w[0] for w in m.group(1).split())
        for text in (*case.premises, case.conclusion)
        for m in re.finditer(r"\b[Tt]he((?:\s+[A-Z][\w'’-]*)+)", text)
    }
    out: list[str | int] = []
    for k, part in enumerate(template):
        if (
            isinstance(part, str)
            and re.fullmatch(r"[A-Z]{2,}", part)
            and part in spelled
            and not (k and isinstance(template[k - 1], str) and str(template[k - 1]).lower() in _ARTICLES)
        ):
            out.append("the")
        out.append(part)
    return tuple(out)


@lru_cache(maxsize=1 << 15)  # more than a paper-scale pool's 4,329 cases: an LRU smaller than a cycle never hits
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


@lru_cache(maxsize=1 << 15)  # more than a paper-scale pool's 4,329 cases: an LRU smaller than a cycle never hits
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
    if ending and len(word) > 2 and word.endswith("y") and word[-2] not in "aeiouy":
        return re.escape(word[:-1]) + r"(?:ies|y" + ending + ")"  # "cities" for `city`
    return re.escape(word) + ending


@lru_cache(maxsize=1 << 14)  # the same names are searched for in every group of a case (issue #36: 10% of a build)
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
    form goes, since the new name is a proper name ("a language family", "the Nazi Reichstag" -> "Con1"), unless the
    form is a modifier of a longer noun phrase, whose article it is ("with a Bloomberg logo" -> "with a Con1 logo").
    Forms inside a mask are left alone.
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
        after = _TOKEN.findall(sentence[m.end() :])[:1]
        kinds = morphology.classes(after[0].lower()) if after else frozenset()
        if not (kinds and kinds <= {"NOUN", "ADJ"} and _ends_phrase(_TOKEN.findall(sentence[m.end() :]), 1)):
            before = _ARTICLE.sub("", before)  # "with a Bloomberg logo" keeps its article: "with a Con1 logo"
        possessive = re.search(r"['’]s?$", text)
        last_word = split_name(old)[-1] if split_name(old) else ""
        plural = not possessive and text.lower().endswith("s") and not last_word.endswith("s")
        if plural and re.match(r"\s+(?:are|were|have|do|don't|aren't|weren't)\b", sentence[m.end() :], re.I):
            return None  # "Bananas are grasses" cannot become "Con1 are grasses": the sentence is realised instead
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
    names = {"".join(sorted(w)) for w in words if len(w) > 3 and w.isalpha()}  # a name's letters in any order
    for text in (*case.premises, case.conclusion):
        first = re.match(r"([A-Z][a-z]{3,})(?:['’]s?)?\b", text.strip())
        word = first.group(1).lower() if first else ""
        if first and "".join(sorted(word)) in names and not morphology.classes(word):
            words.add(first.group(1).lower())  # a misspelt proper name ("Phoneix's music" for Phoenix)
        numbered = re.match(r"([A-Z][\w'’-]*)\s+\d", text.strip())
        if numbered:
            words.add(numbered.group(1).lower())  # a title with its number ("Callus 4 is written ...")
    return frozenset(words - _NEVER_PROPER)


_NEVER_PROPER = frozenset(
    """a an the if then either neither both all some no every each not it there for when while because although
    and or but""".split()
)
"""Function words, which a source may capitalise mid-text after a sentence of its own, never start a proper noun."""


def without_period(sentence: str) -> str:
    """A sentence without its final period, also one inside a closing quote ('the "father of algorithms."')."""
    text = sentence.strip()
    m = re.search(r"\.([\"”’']?)$", text)
    return (text[: m.start()] + m.group(1)).rstrip() if m else text


def splice_clause(sentence: str, proper: frozenset[str]) -> str:
    """A source sentence as a clause: no final period; first letter lower-cased unless a proper noun starts it."""
    text = without_period(sentence)
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
        if _first_folded(clause) != _first_folded(without_period(source)):
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
            clause = capitalize(without_period(source))
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
