"""The optional LLM translator of QMFOL (paper §3.2): FOL2NL with the Figure 3 prompt, NL2FOL, and a Z3 round trip.

For each task (one topic, one logical task) the model is asked once for everything, as in the paper (§3.2.1: "the
conversion is performed in a single pass, covering the basic rules, distractor rules, facts, and the conclusion"):

1. **FOL2NL** (`fol2nl_prompt`, the four parts of Figure 3: task definition, conversion rules, an example, the input
   instance). The FOL formulas are the premises in presentation order, then the conclusion, numbered F1 … Fn. The
   reply must give a domain, a mapping list (`P3(x): x …` for every predicate, `a: …` for the constant) and one
   sentence per formula (`S1: …`); `parse_fol2nl` reads it.
2. **NL2FOL** (`nl2fol_prompt`, ours: the paper's is not published). A fresh conversation with the same model gets
   the domain, the mapping list the model wrote and the sentences, never the formulas, and translates every sentence
   back to FOL (`F1: …`), read by our parser.
3. **Proof** (`round_trip`). `sentence` (default): every back-translated formula must be proven equivalent to its
   original by Z3 (`prover.equivalent`). `label`: the paper's check (§3.2.2: "We input P and C from the reconstructed
   FOL into the ATP. If the predicted label matches the ground-truth label, the task passes"), with Z3 deciding the
   label of the back-translated premises and conclusion and E (`lgmt_tasks.verify.provers`, when installed) asked
   the same question as a second prover in place of the paper's Vampire; both must give the ground truth. `both`:
   both checks. The sentence check is stronger (the label check lets compensating errors and drift in distractors
   pass), so it stays the default; `label` is there to reproduce the paper's filter.

A failed attempt is regenerated, up to `max_attempts` attempts; a task that never passes is discarded (§3.2.2).
Build statistics (bucket `translation`): `tasks`, `attempts`, `passes`, `discards`, and the reasons of failed
attempts under `dropped["translation attempts"]` (`format`, `back-translation format`, `unparsable`, `drift`,
`undecided`). Giving the back translation the model's own mapping list aligns predicate names, so that equivalence
can be checked formula by formula; what it verifies is the sentences, which is where drift happens.

Calls are asynchronous and concurrent through Inspect's model API (`max_connections` of the model applies); Z3 runs
in the event loop's thread between calls (a check takes milliseconds, a model call seconds).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from inspect_ai.model import ChatMessageUser, Model, get_model

from lgmt_tasks.builders.stats import BuildStats
from lgmt_tasks.logic.parse import FormulaSyntaxError, parse
from lgmt_tasks.logic.printer import show
from lgmt_tasks.logic.prover import DEFAULT_TIMEOUT_MS, Contradictory, Label, Undecided, entailment, equivalent
from lgmt_tasks.logic.syntax import Formula, signature
from lgmt_tasks.qmfol.construction import LogicTask
from lgmt_tasks.qmfol.english import TaskEnglish

FOL2NL_TEMPLATE = """\
### Task
1) Choose a coherent domain of discourse for x that fits the topic.
2) Make a Mapping List:
- Assign a clear, affirmative (non-negated) meaning to every predicate.
- All predicate meanings must be mutually independent: no meaning may imply, exclude or overlap with another, so \
that no relation holds between them beyond the FOL formulas.
- Give every constant a name that fits the domain.
3) Translate each FOL formula into English.
### Conversion Rules
∀x ϕ(x): "For every <entity>, …" or "Every <entity> …"
∃x ϕ(x): "There exists a/an <entity> that …"
ϕ → ψ: "if …, then …"; ∧: "and"; ∨: "or"; ¬P(x): the negation of P's meaning ("is not …", "does not …").
Repeat the subject in every clause instead of using pronouns. Translate every formula into exactly one sentence and \
keep its logical structure: do not merge, split, simplify or reorder anything.
### Example
Topic: University.
FOLs:
F1: ∀x ((P3(x) ∧ P2(x)) → P1(x))
F2: ∀x (P1(x) → (P5(x) ∨ ¬P4(x)))
F3: P3(a) ∧ P4(a)
###
1) Domain: students at a university.
2) Mapping List:
P1(x): x is eligible to graduate.
P2(x): x is enrolled in the capstone course.
P3(x): x has passed the comprehensive exam.
P4(x): x has a job offer.
P5(x): x is writing a senior thesis.
a: Alice
3) Natural Language Restatement:
S1: For every student, if the student has passed the comprehensive exam and the student is enrolled in the capstone \
course, then the student is eligible to graduate.
S2: For every student, if the student is eligible to graduate, then the student is writing a senior thesis or the \
student does not have a job offer.
S3: Alice has passed the comprehensive exam and Alice has a job offer.
### Now Do The Task
Process the following inputs without additional explanation output.
Topic: {topic}
FOLs:
{fols}"""
"""The FOL2NL prompt: the structure of the paper's Figure 3 (its elided parts written out)."""

NL2FOL_TEMPLATE = """\
### Task
Translate each English sentence back into first-order logic, using only the predicates and the constants of the \
Mapping List.
### Notation
Quantifiers ∀x (…) and ∃x (…); connectives ¬ (not), ∧ (and), ∨ (or), → (if …, then …); atoms such as P3(x) or \
P3(a). ASCII is also accepted: forall x (…), exists x (…), -, &, |, ->. Use parentheses to group.
### Example
Domain: students at a university.
Mapping List:
P1(x): x is eligible to graduate.
P2(x): x is enrolled in the capstone course.
P3(x): x has passed the comprehensive exam.
P4(x): x has a job offer.
a: Alice
Sentences:
S1: For every student, if the student has passed the comprehensive exam and the student is enrolled in the capstone \
course, then the student is eligible to graduate or the student does not have a job offer.
S2: Alice has passed the comprehensive exam and Alice has a job offer.
###
F1: ∀x ((P3(x) ∧ P2(x)) → (P1(x) ∨ ¬P4(x)))
F2: P3(a) ∧ P4(a)
### Now Do The Task
Output one line per sentence, "F<k>: <formula>", without additional explanation.
Domain: {domain}
Mapping List:
{mapping}
Sentences:
{sentences}"""
"""The NL2FOL prompt (ours; the paper says only that it mirrors FOL2NL)."""

REJECT_REASONS: tuple[str, ...] = (
    "format",
    "back-translation format",
    "unparsable",
    "drift",
    "undecided",
    "label changed",
)
"""Why an attempt can fail (keys of `stats.dropped["translation attempts"]`)."""


class TranslationFormatError(ValueError):
    """A reply that does not have the requested layout."""


@dataclass(frozen=True)
class ForwardTranslation:
    """What the model wrote for FOL2NL.

    Attributes:
        domain: Its domain of discourse.
        mapping: Its mapping-list lines, predicates first (`P3(x): x …`), then constants (`a: …`).
        names: Constant → the name it gave.
        sentences: One sentence per formula, in order.
    """

    domain: str
    mapping: tuple[str, ...]
    names: dict[str, str]
    sentences: tuple[str, ...]


def fol2nl_prompt(topic: str, formulas: Sequence[Formula]) -> str:
    """The FOL2NL prompt for one task's formulas (premises in presentation order, then the conclusion)."""
    fols = "\n".join(f"F{k}: {show(f)}" for k, f in enumerate(formulas, start=1))
    return FOL2NL_TEMPLATE.format(topic=topic, fols=fols)


def _numbered(text: str, letter: str, n: int, what: str) -> list[str]:
    found: dict[int, str] = {}
    for m in re.finditer(rf"^\s*\**{letter}(\d+)\**\s*[:.]\s*(.+?)\s*$", text, flags=re.MULTILINE):
        found.setdefault(int(m.group(1)), m.group(2))
    missing = [k for k in range(1, n + 1) if k not in found]
    if missing:
        raise TranslationFormatError(f"no {what} {letter}{missing[0]} (expected {letter}1 … {letter}{n})")
    return [found[k] for k in range(1, n + 1)]


def parse_fol2nl(text: str, formulas: Sequence[Formula]) -> ForwardTranslation:
    """Read a FOL2NL reply: domain, mapping list and sentences.

    Args:
        text: The model's reply.
        formulas: The formulas it was asked to translate (for the symbols the mapping must cover).

    Returns:
        The translation.

    Raises:
        TranslationFormatError: If the domain, a predicate's or constant's mapping, or a sentence is missing.
    """
    sig = signature(*formulas)
    domain = re.search(r"^\s*(?:1\)\s*)?\**Domain\**\s*:\s*(.+?)\s*$", text, flags=re.MULTILINE | re.IGNORECASE)
    if domain is None:
        raise TranslationFormatError("no 'Domain:' line")
    meanings: dict[str, str] = {}
    for m in re.finditer(r"^\s*(P\d+)\s*\(\s*x\s*\)\s*:\s*(.+?)\s*$", text, flags=re.MULTILINE):
        meanings.setdefault(m.group(1), m.group(2).rstrip("."))
    missing = sorted(sig.predicate_names - set(meanings), key=lambda p: int(p[1:]))
    if missing:
        raise TranslationFormatError(f"the mapping list has no meaning for {missing[0]}")
    names: dict[str, str] = {}
    for c in sorted(sig.constants):
        found = re.search(rf"^\s*{re.escape(c)}\s*:\s*(.+?)\.?\s*$", text, flags=re.MULTILINE)
        if found is None:
            raise TranslationFormatError(f"the mapping list names no object for constant {c}")
        names[c] = found.group(1)
    mapping = [f"{p}(x): {meanings[p]}" for p in sorted(sig.predicate_names, key=lambda p: int(p[1:]))]
    mapping += [f"{c}: {n}" for c, n in names.items()]
    sentences = _numbered(text, "S", len(formulas), "sentence")
    return ForwardTranslation(domain.group(1).rstrip("."), tuple(mapping), names, tuple(sentences))


def nl2fol_prompt(forward: ForwardTranslation) -> str:
    """The NL2FOL prompt: the model's domain, mapping list and sentences, without the formulas."""
    sentences = "\n".join(f"S{k}: {s}" for k, s in enumerate(forward.sentences, start=1))
    return NL2FOL_TEMPLATE.format(domain=forward.domain, mapping="\n".join(forward.mapping), sentences=sentences)


def parse_nl2fol(text: str, n: int) -> list[Formula]:
    """Read an NL2FOL reply: `F1: …` … `Fn: …`, each parsed by our FOL parser.

    Raises:
        TranslationFormatError: If a line is missing.
        FormulaSyntaxError: If a formula does not parse.
    """
    return [parse(line) for line in _numbered(text, "F", n, "formula")]


ROUND_TRIPS: tuple[str, ...] = ("sentence", "label", "both")
"""How a round trip is accepted: per-sentence equivalence (ours), the back-translated task's label (the paper's), or
both."""


def check_round_trip(value: str) -> str:
    """Validate a `round_trip` value (the error lists the allowed ones)."""
    if value not in ROUND_TRIPS:
        raise ValueError(f"round_trip={value!r}: expected one of {', '.join(ROUND_TRIPS)}")
    return value


def _label_name(result: Label | Undecided | Contradictory) -> str:
    if isinstance(result, Label):
        return result.value
    return "contradictory" if isinstance(result, Contradictory) else "undecided"


def back_translated_label(back: Sequence[Formula], timeout_ms: int = DEFAULT_TIMEOUT_MS) -> list[tuple[str, str]]:
    """The label of a back-translated task (premises, then the conclusion last) by Z3, then by E when installed.

    Returns:
        `(prover, label)` pairs: `("z3", …)` always, `("eprover", …)` when E is on this machine; a label is `True`,
        `False`, `Unknown`, `contradictory` or `undecided`.
    """
    from lgmt_tasks.verify.provers import ProverUnavailable, get_prover

    premises, conclusion = list(back[:-1]), back[-1]
    out = [("z3", _label_name(entailment(premises, conclusion, timeout_ms=timeout_ms)))]
    try:
        e = get_prover("eprover", timeout_s=max(timeout_ms / 1000, 1.0))
    except ProverUnavailable:
        return out
    return [*out, ("eprover", _label_name(e.entailment(premises, conclusion)))]


def label_reason(labels: Sequence[tuple[str, str]], gold: str) -> str | None:
    """Why a label-level round trip fails (`undecided` or `label changed`), or None when every prover gives `gold`."""
    if any(label in ("undecided",) for _, label in labels):
        return "undecided"
    if any(label != gold for _, label in labels):
        return "label changed"
    return None


@dataclass
class Translator:
    """Translate tasks with one Inspect model, counting attempts, passes and discards into `stats`.

    Attributes:
        model: The Inspect model.
        stats: Where the counts go.
        max_attempts: Attempts per task before it is discarded.
        timeout_ms: Z3 limit per equivalence check.
        round_trip: `sentence`, `label` or `both` (see the module docstring).
    """

    model: Model
    stats: BuildStats
    max_attempts: int = 3
    timeout_ms: int = DEFAULT_TIMEOUT_MS
    round_trip: str = "sentence"

    async def attempt(
        self, topic: str, formulas: Sequence[Formula], label: str | None = None
    ) -> ForwardTranslation | str:
        """Run one FOL2NL + NL2FOL round trip.

        Args:
            topic: The topic keyword.
            formulas: The premises in presentation order, then the conclusion.
            label: The ground-truth label (needed by the `label` and `both` checks).

        Returns:
            The forward translation if the round trip passes its check, else why not (one of `REJECT_REASONS`).
        """
        check_round_trip(self.round_trip)
        if self.round_trip != "sentence" and label is None:
            raise ValueError(f"round_trip={self.round_trip!r} needs the task's label")
        reply = await self.model.generate([ChatMessageUser(content=fol2nl_prompt(topic, formulas))])
        try:
            forward = parse_fol2nl(reply.completion, formulas)
        except TranslationFormatError:
            return "format"
        back_reply = await self.model.generate([ChatMessageUser(content=nl2fol_prompt(forward))])
        try:
            back = parse_nl2fol(back_reply.completion, len(formulas))
        except TranslationFormatError:
            return "back-translation format"
        except FormulaSyntaxError:
            return "unparsable"
        if self.round_trip != "sentence":
            reason = label_reason(back_translated_label(back, self.timeout_ms), str(label))
            if reason is not None:
                return reason
            if self.round_trip == "label":
                return forward
        for original, returned in zip(formulas, back, strict=True):
            same = equivalent(original, returned, timeout_ms=self.timeout_ms)
            if isinstance(same, Undecided):
                return "undecided"
            if not same:
                return "drift"
        return forward

    async def translate(self, topic: str, task: LogicTask) -> TaskEnglish | None:
        """Translate one task, regenerating up to `max_attempts` times; None when discarded."""
        formulas = (*task.presented, task.conclusion)
        self.stats.count("translation", "tasks")
        for k in range(1, self.max_attempts + 1):
            self.stats.count("translation", "attempts")
            outcome = await self.attempt(topic, formulas, task.label)
            if isinstance(outcome, ForwardTranslation):
                self.stats.count("translation", "passes")
                names = dict(outcome.names)
                return TaskEnglish(
                    premises=outcome.sentences[:-1],
                    conclusion=outcome.sentences[-1],
                    predicates=outcome.mapping,
                    object=names.get("a", ""),
                    entity=outcome.domain,
                    translator="model",
                    attempts=k,
                )
            self.stats.drop("translation attempts", outcome)
        self.stats.count("translation", "discards")
        return None


def translate_tasks(
    tasks: Sequence[tuple[str, LogicTask]],
    config: Any,
    stats: BuildStats,
    model: Model | None = None,
    progress: bool = False,
) -> list[TaskEnglish | None]:
    """Translate every (topic, task) with the config's model; None for a discarded task.

    Args:
        tasks: The tasks, each with its topic.
        config: A `QmfolConfig` (`translator_model`, `max_attempts`, `timeout_ms`).
        stats: Build statistics to count into.
        model: The model to use instead of `get_model(config.translator_model)` (tests pass a scripted one).
        progress: Show a progress bar.

    Returns:
        One result per task, in order.
    """
    translator = Translator(
        model or get_model(config.translator_model),
        stats,
        config.max_attempts,
        config.timeout_ms,
        getattr(config, "round_trip", "sentence"),
    )

    async def run() -> list[TaskEnglish | None]:
        from tqdm import tqdm

        bar = tqdm(total=len(tasks), desc="translating", disable=not progress)

        async def one(topic: str, task: LogicTask) -> TaskEnglish | None:
            result = await translator.translate(topic, task)
            bar.update()
            return result

        results = await asyncio.gather(*(one(topic, task) for topic, task in tasks))
        bar.close()
        return list(results)

    return asyncio.run(run())
