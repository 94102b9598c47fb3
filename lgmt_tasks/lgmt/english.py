"""English for follow-up cases: keep what did not change, realise what did.

A follow-up premise that copies a source premise verbatim keeps the source's own sentence, so the only textual
difference between source and follow-up is the transformed formula (the paper's design, §3.4). A rewritten or
new formula is put into English by the deterministic template realiser, whose reader proves it drift-free
(`read(realize(f)) == f`). For a constant renaming (MR-S1) we first try to replace the constant's surface form in
the original sentence; a sentence where it cannot be found is realised from its formula instead.

The realiser speaks a constant as a proper name ("Lawton Park", "Ivan"), except one that the source's own English
writes in lower case inside its sentences, such as FOLIO's `company` ("the company"): that one keeps its lower case,
so a realised sentence names it the way the unchanged ones do.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from lgmt_tasks.lgmt.relations.followup import FollowUp
from lgmt_tasks.logic.lexicon import Lexicon, lexicon_for
from lgmt_tasks.logic.phrasing import split_name
from lgmt_tasks.logic.realize import realize
from lgmt_tasks.logic.syntax import Formula, signature
from lgmt_tasks.sources.case import Case


@dataclass(frozen=True)
class FollowUpEnglish:
    """The English of a follow-up case, with which sentences were produced by the realiser."""

    premises: tuple[str, ...]
    conclusion: str
    realised: tuple[int, ...]  # indices of follow-up premises written by the realiser
    conclusion_realised: bool


def case_lexicon(case: Case, followup: FollowUp, style: str = "natural") -> Lexicon:
    """One lexicon over the source and follow-up symbols, so a symbol reads the same in both."""
    formulas: list[Formula] = [*case.premises_fol, case.conclusion_fol, *followup.premises_fol, followup.conclusion_fol]
    return lexicon_for(formulas, style=style, common_nouns=common_noun_constants(case))  # type: ignore[arg-type]


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


def _surface_forms(name: str) -> list[str]:
    """Ways a constant's name may be written in source English (`lawtonPark` -> `Lawton Park`)."""
    words = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name.replace("_", " ")).split()
    forms = {" ".join(words), " ".join(w.capitalize() for w in words), name}
    return sorted((f for f in forms if f), key=len, reverse=True)


def substitute_constant(sentence: str, old: str, new_phrase: str) -> str | None:
    """Replace every whole-word occurrence of constant `old`'s surface form; None when it does not occur."""
    for form in _surface_forms(old):
        pattern = re.compile(rf"(?<![\w]){re.escape(form)}(?![\w])", flags=re.IGNORECASE)
        if pattern.search(sentence):
            return pattern.sub(new_phrase, sentence)
    return None


def _mentions(f: Formula, kind: str, name: str) -> bool:
    sig = signature(f)
    return name in sig.constants if kind == "constant" else name in sig.predicate_names


def followup_english(case: Case, followup: FollowUp, lexicon: Lexicon | None = None) -> FollowUpEnglish:
    """English premises and conclusion of a follow-up case.

    Args:
        case: The source case (its sentences are reused where the formula is unchanged).
        followup: The follow-up produced by a relation.
        lexicon: Lexicon for realised sentences; by default one built over both cases.
    """
    lx = lexicon or case_lexicon(case, followup)
    constants = [(old, new) for kind, old, new in followup.renaming if kind == "constant"]

    def reuse(sentence: str, source_formula: Formula, new_formula: Formula) -> str | None:
        """The source sentence adapted to a pure constant renaming, or None if it cannot be."""
        if not constants:
            return sentence if source_formula == new_formula else None
        text: str | None = sentence
        for old, new in constants:
            if text is None:
                return None
            if _mentions(source_formula, "constant", old):
                text = substitute_constant(text, old, lx.constant_phrase(new))
        return text

    premises: list[str] = []
    realised: list[int] = []
    for i, (formula, origin) in enumerate(zip(followup.premises_fol, followup.premise_origin)):
        text: str | None = None
        if origin is not None:
            text = reuse(case.premises[origin], case.premises_fol[origin], formula)
        elif constants and not any(kind == "predicate" for kind, _, _ in followup.renaming):
            text = _reuse_renamed(case, formula, constants, lx, reuse)
        if text is None:
            text = realize(formula, lx)
            realised.append(i)
        premises.append(text)

    conclusion: str | None = None
    if not followup.conclusion_changed:
        conclusion = case.conclusion
    elif constants and not any(kind == "predicate" for kind, _, _ in followup.renaming):
        conclusion = reuse(case.conclusion, case.conclusion_fol, followup.conclusion_fol)
    conclusion_realised = conclusion is None
    if conclusion is None:
        conclusion = realize(followup.conclusion_fol, lx)
    return FollowUpEnglish(tuple(premises), conclusion, tuple(realised), conclusion_realised)


def _reuse_renamed(
    case: Case, formula: Formula, constants: Sequence[tuple[str, str]], lx: Lexicon, reuse: object
) -> str | None:
    """For MR-S1: find the source premise this renamed formula came from and adapt its sentence."""
    from lgmt_tasks.logic.syntax import rename_constant

    for j, source_formula in enumerate(case.premises_fol):
        renamed = source_formula
        for old, new in constants:
            renamed = rename_constant(renamed, old, new)
        if renamed == formula:
            return reuse(case.premises[j], source_formula, formula)  # type: ignore[operator]
    return None
