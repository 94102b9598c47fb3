"""LogicAsker English: the vocabulary of Appendix D, templates with tenses and negation, and the Appendix G question.

A test is generated over abstract symbols; `assign_vocabulary` then gives every symbol its English (and its FOL
name) from the vocabulary of the paper's experiment (Appendix D.3, `data/vocabulary.json`), drawing from a seeded
generator without repetition, so the same seed always gives the same words:

- a *proposition* (0-ary atom) is an impersonal weather phrase ("it is snowing", "it is sunny") or a person with a
  predicate or an action ("Mary is a doctor", "John is playing tennis");
- a *predicate* (unary) is a predicate or an action said of its argument ("x is a doctor", "x will play tennis");
- a *constant* is a name ("Mary").

No two symbols of one test share a phrase, and antonyms (rich / poor, ...) never meet in one test, so common sense
cannot decide a question that logic leaves open.

Templates follow §3.2 and the authors' generator: every atom has an assertive, a hypothetical ("if") and a
consequent ("then") form, each positive or negated, e.g. for `cook`: "Mary is cooking" / "if Mary cooks" / "then
Mary will cook", "Mary is not cooking" / "Mary does not cook" / "Mary will not cook". Premises are assertive; the
antecedent of a conditional is hypothetical and its consequent and quantified bodies are in the consequent form, as
in the paper's examples ("For all x, x will drive a car or x will play tennis"). Connectives and quantifiers:

- `A ∧ B` "A and B", `A ∨ B` "A or B", `A → B` "if A, then B", `A ↔ B` "A if and only if B";
- as an operand of another connective, a conjunction reads "both A and B", a disjunction "either A or B" and a
  conditional "B if A", and a compound left operand is followed by a comma ("either A or B, or C"), so that the
  grouping of associative and distributive laws survives in English; a nest of one connective inside another
  connective reads "all of A, B, and C" / "at least one of A, B, or C" (its grouping does not matter there);
- `∀x A` "for all x, A"; `∃x A` "there is at least one x for which A";
- negation: of an atom, the negated template ("Mary is not cooking"); `¬(A ∧ B)` "the claim that A and the claim
  that B cannot both be true"; `¬(A ∨ B)` "neither A nor B"; `¬∃x A` "there is no x for which A"; anything else
  (`¬¬A`, `¬(A → B)`, `¬∀x A`) "it is not the case that ...", never simplified, so that ¬¬p stays a double negation
  ("It is not the case that it is not raining", Table 7);
- `⊤` / `⊥` (identity laws): "it is logically true" / "it is logically false".

Scope of a quantified operand: "for all x, x is a doctor, and it is sunny" could be read with the quantifier over
the whole sentence; for ∧ and ∨ with a closed other operand the two readings are equivalent in every non-empty
domain, so the answer does not depend on the reading.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Literal

from lgmt_tasks.logic.syntax import (
    And,
    Atom,
    Bottom,
    Const,
    Exists,
    Forall,
    Formula,
    Iff,
    Implies,
    Not,
    Or,
    Term,
    Top,
)

Form = Literal["assert", "if", "then"]
PhraseKind = Literal["copula", "action", "weather_verb", "weather_adjective"]

QUESTION_TEMPLATE = (
    "Consider the following premises: {premises} Can we infer the following from them? Answer yes or no: {conclusion}"
)
"""The paper's prompt (Appendix G), with the premises joined by spaces (each premise is a sentence)."""


def question(premises: Sequence[str], conclusion: str) -> str:
    """Render the Appendix G question for English premises and conclusion.

    Args:
        premises: Premise sentences, each ending with a period.
        conclusion: The conclusion sentence.

    Returns:
        "Consider the following premises: ... Can we infer the following from them? Answer yes or no: ..."
    """
    return QUESTION_TEMPLATE.format(premises=" ".join(premises), conclusion=conclusion)


class EnglishError(ValueError):
    """A formula the LogicAsker templates cannot say (an unknown symbol or an unsupported construct)."""


@dataclass(frozen=True)
class Phrase:
    """One vocabulary entry and its templates.

    Attributes:
        kind: `copula` ("is a doctor"), `action` ("cook"), `weather_verb` ("snow"), `weather_adjective` ("sunny").
        words: `(complement,)` for a copula or weather adjective; `(base, third person, -ing)` for verbs.
    """

    kind: PhraseKind
    words: tuple[str, ...]

    @property
    def key(self) -> str:
        """The phrase as one string, for uniqueness and antonym checks (`a doctor`, `cook`, `snow`)."""
        return self.words[0]

    def say(self, subject: str, form: Form, negated: bool) -> str:
        """Say the phrase of `subject` in a form ("Mary is cooking", "if Mary cooks", "Mary will not cook")."""
        if self.kind in ("copula", "weather_adjective"):
            complement = self.words[0]
            if form == "then" and self.kind == "weather_adjective":
                return f"{subject} will {'not ' if negated else ''}be {complement}"
            return f"{subject} is {'not ' if negated else ''}{complement}"
        base, third, ing = self.words
        if form == "assert":
            return f"{subject} is {'not ' if negated else ''}{ing}"
        if form == "if":
            return f"{subject} does not {base}" if negated else f"{subject} {third}"
        return f"{subject} will {'not ' if negated else ''}{base}"

    def fol_words(self) -> list[str]:
        """The words its FOL name is made of (article dropped; verbs in the third person: `plays tennis`)."""
        if self.kind in ("copula", "weather_adjective"):
            return re.sub(r"^(a|an) ", "", self.words[0]).split()
        if self.kind == "weather_verb":
            return [self.words[2]]
        return self.words[1].split()


@dataclass(frozen=True)
class Vocabulary:
    """The Appendix D vocabulary, read once from `data/vocabulary.json`."""

    names: tuple[str, ...]
    predicates: tuple[Phrase, ...]
    weather: tuple[Phrase, ...]
    antonyms: tuple[frozenset[str], ...]

    def clashes(self, key: str, used: set[str]) -> bool:
        """Whether phrase `key` is an antonym of a phrase already used in the test."""
        return any(key in group and used & (group - {key}) for group in self.antonyms)


@cache
def vocabulary() -> Vocabulary:
    """The vocabulary of Appendix D (names, predicates and actions, impersonal weather phrases, antonym groups)."""
    text = resources.files("lgmt_tasks.logicasker").joinpath("data/vocabulary.json").read_text(encoding="utf-8")
    data = json.loads(text)
    predicates = [Phrase("copula", (p,)) for p in data["predicates"]]
    predicates += [Phrase("action", tuple(a)) for a in data["actions"]]
    weather = [Phrase("weather_verb", tuple(v)) for v in data["impersonal_verbs"]]
    weather += [Phrase("weather_adjective", (a,)) for a in data["impersonal_adjectives"]]
    antonyms = tuple(frozenset(group) for group in data["antonyms"])
    return Vocabulary(tuple(data["names"]), tuple(predicates), tuple(weather), antonyms)


@dataclass(frozen=True)
class Wording:
    """What every symbol of one test means in English, keyed by its FOL name.

    Attributes:
        propositions: 0-ary atom → (subject, phrase); the subject is None for an impersonal phrase ("it").
        predicates: Unary predicate → phrase.
        constants: Constant → name.
    """

    propositions: Mapping[str, tuple[str | None, Phrase]] = field(default_factory=dict)
    predicates: Mapping[str, Phrase] = field(default_factory=dict)
    constants: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Assignment:
    """The vocabulary drawn for one test: FOL names for the abstract symbols, and their English.

    Attributes:
        propositions: Abstract 0-ary atom → FOL name (`mary_plays_tennis`, `snowing`).
        predicates: Abstract unary predicate → FOL name (`Doctor`, `PlaysTennis`).
        constants: Abstract constant → FOL name (`mary`).
        wording: The English of the FOL names.
    """

    propositions: Mapping[str, str]
    predicates: Mapping[str, str]
    constants: Mapping[str, str]
    wording: Wording


def _camel(words: Sequence[str]) -> str:
    return "".join(w[:1].upper() + w[1:] for w in words)


def assign_vocabulary(
    propositions: Sequence[str], predicates: Sequence[str], constants: Sequence[str], rng: random.Random
) -> Assignment:
    """Draw English (and FOL names) for a test's abstract symbols, without repetition (§3.2).

    Args:
        propositions: Abstract 0-ary atoms, in a fixed order.
        predicates: Abstract unary predicates, in a fixed order.
        constants: Abstract constants, in a fixed order.
        rng: The test's generator (the same state gives the same words).

    Returns:
        The assignment.

    Raises:
        EnglishError: If the vocabulary is too small for the test (it never is for chains of length ≤ 7).
    """
    vocab = vocabulary()
    if len(constants) + len(propositions) > len(vocab.names):
        raise EnglishError(f"{len(constants)} constants and {len(propositions)} propositions: not enough names")
    names = rng.sample(vocab.names, len(vocab.names))
    const_names = {c: names.pop() for c in constants}
    used: set[str] = set()

    def draw(pool: Sequence[Phrase]) -> Phrase:
        options = [p for p in pool if p.key not in used and not vocab.clashes(p.key, used)]
        if not options:
            raise EnglishError("the vocabulary has no unused phrase left for this test")
        choice = rng.choice(options)
        used.add(choice.key)
        return choice

    pred_phrases = {p: draw(vocab.predicates) for p in predicates}
    prop_words: dict[str, tuple[str | None, Phrase]] = {}
    for atom in propositions:
        weather_left = [w for w in vocab.weather if w.key not in used]
        if weather_left and rng.random() < 1 / 3:
            prop_words[atom] = (None, draw(vocab.weather))
        else:
            prop_words[atom] = (names.pop(), draw(vocab.predicates))

    const_fol = {c: n.lower() for c, n in const_names.items()}
    pred_fol = {p: _camel(phrase.fol_words()) for p, phrase in pred_phrases.items()}
    prop_fol = {
        a: "_".join(([subject.lower()] if subject else []) + phrase.fol_words())
        for a, (subject, phrase) in prop_words.items()
    }
    wording = Wording(
        propositions={prop_fol[a]: v for a, v in prop_words.items()},
        predicates={pred_fol[p]: v for p, v in pred_phrases.items()},
        constants={const_fol[c]: n for c, n in const_names.items()},
    )
    return Assignment(prop_fol, pred_fol, const_fol, wording)


# --------------------------------------------------------------------------- formulas → English


def sentence(f: Formula, wording: Wording) -> str:
    """Say a closed formula as an English sentence: capitalised, with a final period.

    Args:
        f: The formula (over the wording's symbols; unary predicates and 0-ary atoms only).
        wording: The English of its symbols.

    Returns:
        e.g. "For all x, if x cooks, then x is a doctor."

    Raises:
        EnglishError: On a symbol without English or a construct the templates do not cover (⊕, equality,
            predicates of arity > 1).
    """
    text = _Speaker(wording).clause(f, "assert")
    return text[:1].upper() + text[1:] + "."


def _compound(f: Formula) -> bool:
    """Whether `f` reads as more than one clause (a comma separates it from a following connective)."""
    if isinstance(f, Not):
        return not isinstance(f.body, Atom)
    return isinstance(f, (And, Or, Implies, Iff, Forall, Exists))


def _chain(f: And | Or) -> list[Formula]:
    """The operands of a nest of one connective (`(A ∧ B) ∧ C` → A, B, C); other connectives stay whole."""
    out: list[Formula] = []
    for arg in f.args:
        out.extend(_chain(arg) if type(arg) is type(f) else [arg])  # type: ignore[arg-type]
    return out


class _Speaker:
    def __init__(self, wording: Wording) -> None:
        self.w = wording

    def term(self, t: Term) -> str:
        if isinstance(t, Const):
            try:
                return self.w.constants[t.name]
            except KeyError:
                raise EnglishError(f"constant {t.name!r} has no English") from None
        return t.name

    def atom(self, f: Atom, form: Form, negated: bool) -> str:
        if not f.args:
            try:
                subject, phrase = self.w.propositions[f.pred]
            except KeyError:
                raise EnglishError(f"proposition {f.pred!r} has no English") from None
            return phrase.say(subject or "it", form, negated)
        if len(f.args) != 1:
            raise EnglishError(f"{f.pred}/{len(f.args)}: LogicAsker templates speak unary predicates only")
        try:
            phrase = self.w.predicates[f.pred]
        except KeyError:
            raise EnglishError(f"predicate {f.pred!r} has no English") from None
        return phrase.say(self.term(f.args[0]), form, negated)

    def clause(self, f: Formula, form: Form) -> str:
        if isinstance(f, Atom):
            return self.atom(f, form, False)
        if isinstance(f, Top):
            return "it is logically true"
        if isinstance(f, Bottom):
            return "it is logically false"
        if isinstance(f, Not):
            return self.negated(f.body, form)
        if isinstance(f, And | Or):
            if len(f.args) != 2:
                raise EnglishError("LogicAsker templates speak binary ∧ and ∨ only")
            word = "and" if isinstance(f, And) else "or"
            left, right = f.args
            return f"{self.operand(left, form)}{self.comma(left)} {word} {self.operand(right, form)}"
        if isinstance(f, Implies):
            return f"if {self.operand(f.left, 'if')}, then {self.operand(f.right, 'then')}"
        if isinstance(f, Iff):
            return f"{self.operand(f.left, form)}{self.comma(f.left)} if and only if {self.operand(f.right, form)}"
        if isinstance(f, Forall):
            return f"for all {f.var}, {self.clause(f.body, self.body_form(form))}"
        if isinstance(f, Exists):
            return f"there is at least one {f.var} for which {self.clause(f.body, self.body_form(form))}"
        raise EnglishError(f"LogicAsker templates cannot say {type(f).__name__}")

    @staticmethod
    def body_form(form: Form) -> Form:
        return "if" if form == "if" else "then"

    @staticmethod
    def comma(f: Formula) -> str:
        return "," if _compound(f) else ""

    def operand(self, f: Formula, form: Form) -> str:
        """An operand of a binary connective, with its grouping made explicit."""
        if isinstance(f, And | Or) and len(f.args) == 2:
            parts = _chain(f)
            word = "and" if isinstance(f, And) else "or"
            if len(parts) > 2:  # (A ∧ B) ∧ C inside another connective: "all of A, B, and C"
                opener = "all of" if isinstance(f, And) else "at least one of"
                said = [self.operand(p, form) for p in parts]
                return f"{opener} {', '.join(said[:-1])}, {word} {said[-1]}"
            opener = "both" if isinstance(f, And) else "either"
            left, right = f.args
            return f"{opener} {self.operand(left, form)}{self.comma(left)} {word} {self.operand(right, form)}"
        if isinstance(f, Implies):
            return f"{self.operand(f.right, 'then')} if {self.operand(f.left, 'if')}"
        return self.clause(f, form)

    def negated(self, f: Formula, form: Form) -> str:
        if isinstance(f, Atom):
            return self.atom(f, form, True)
        if isinstance(f, And) and len(f.args) == 2:
            left, right = (self.operand(a, form) for a in f.args)
            return f"the claim that {left} and the claim that {right} cannot both be true"
        if isinstance(f, Or) and len(f.args) == 2:
            left, right = (self.operand(a, form) for a in f.args)
            return f"neither {left} nor {right}"
        if isinstance(f, Exists):
            return f"there is no {f.var} for which {self.clause(f.body, self.body_form(form))}"
        return f"it is not the case that {self.clause(f, form)}"
