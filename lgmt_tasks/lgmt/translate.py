"""Model translation of follow-up sentences, checked by a round trip (LGMT §3.4, Appendix C.2; DESIGN decision 4).

The paper writes the English of every transformed formula with an LLM and the translation prompt of Appendix C.2,
and then estimates how often that English drifted from the formula by auditing a sample of reported violations by
hand (§5.1: 4 of 360 audited violations were semantic drift). Here a model translation is *checked* instead:

1. **Forward.** For every follow-up sentence that the template realiser wrote (`realised_premises` and
   `realised_conclusion` of a row; not one that keeps a source sentence's wording, `spliced_*`), the model gets
   the paper's system prompt and user template, verbatim: the
   original formula and sentence as context (for a premise, the source premise at the same index when there is
   one; for the conclusion, the source conclusion) and the transformed formula as the target. The reply must be
   one JSON object with a string `translation` (raw, or inside one code fence; nothing else around it).
2. **Round trip.** In a fresh conversation, which never shows the formula, the same model translates its English
   back into first-order logic (`BACK_SYSTEM_PROMPT`, ours): it is told our ASCII notation and the exact predicate
   symbols (with arities) and constants of the transformed formula, and replies `{"fol": "..."}`. The formula is
   read by our parser (`lgmt_tasks.logic.parse`).
3. **Proof.** Z3 must prove the back-translation equivalent to the transformed formula (`prover.equivalent`).

A sentence is accepted on proof. A failed attempt (its reason is one of `REJECT_REASONS`) is retried, as a fresh
call with the same prompts, up to `attempts` attempts in all; a deterministic model (temperature 0) tends to
repeat itself, so retries pay off with sampling. A group is accepted only if every one of its sentences is:
accepted groups get the model's sentences and `translator="model"`, a rejected group is dropped and counted under
the reason of its first failing sentence (premises in order, then the conclusion). Groups with no realised
sentence (for example a pure premise reordering), and rows not written by the template, have nothing to
translate and pass through unchanged.

Why this makes the paper's false-report audit a measured number. FRR = (FP_drift + FP_parse) / N (§4.5.2). The
drift part was estimated by hand on 360 sampled violations. Here every shipped model sentence carries a proof that
its meaning, as read back by the model without seeing the formula, is the transformed formula; the build
statistics count every attempt and why it failed, so the translator's drift rate is
`counts["translation attempts"]["translation drift"] / counts["translation attempts"]["tried"]`, measured over
every sentence rather than a sample. What remains is the case where the English is ambiguous and the back
translation happens to resolve it the intended way; the paper's own audit (`lgmt audit-translations`, Appendix
C.3) and the violation sample for manual review (`lgmt report --sample-violations`) stay available for that. The
parse part of FRR is the scorer's unparsed rate and the `parsed_how` column of the violation sample.

Notation shown to the model. The paper's rules name the connectives in ASCII (`-`, `&`, `|`, `<->`, and `& 1`,
`| 0` for the logical constants), so the transformed and the original formula are printed by
`printer.show_ascii` (`forall x. (…)`, `exists x. (…)`, `->`, `<~>` for exclusive or) with `$true` / `$false`
written `1` / `0` as in the paper (unless a symbol of the formula is itself named `0` or `1`). The paper has no
rule for exclusive or; a misreading of `<~>` is caught by the round trip like any other drift. The back
translation asks for `$true` / `$false`, which our parser reads (it would read a bare `1` as a proposition).

Scope. Extra follow-ups of a group (`extra_followups`, built with `--followups k`) do not record which of their
sentences the realiser wrote, so their English stays the template's; `translator` describes the first follow-up.
Calls are async and concurrent (Inspect's model API; at most `max_connections` in flight). Z3 runs in the event
loop's thread: in-process Z3 is not safe to share across threads, and a check takes milliseconds against seconds
for a model call.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import datasets
from inspect_ai.model import ChatMessageSystem, ChatMessageUser, GenerateConfig, Model, get_model

from lgmt_tasks.builders.stats import BuildStats
from lgmt_tasks.lgmt.build import LgmtBuild
from lgmt_tasks.logic.parse import FormulaSyntaxError, parse
from lgmt_tasks.logic.printer import show_ascii
from lgmt_tasks.logic.prover import DEFAULT_TIMEOUT_MS, Undecided, equivalent
from lgmt_tasks.logic.syntax import Formula, signature

TRANSLATION_SYSTEM_PROMPT = """\
You are a strict Logic-to-Language Translator. Your goal is to produce a structurally faithful translation of \
First-Order Logic into Natural Language, preserving all logical characteristics without simplification.

Translation Rules

1. **Logical Connectives (Scope by Structure)**
- **AND (&)**: Use "both A and B". If A is a complex sub-formula, use a comma: "both A, and B".
- **OR (|)**: Use "either A or B".
- **Biconditional (<->)**: Use "A if and only if B". (Use a comma before 'if' if A is complex).
- **Negation (-)**: Always use the prefix "it is not the case that".
Rule: For ¬A & B, translate as "both it is not the case that A, and B" to ensure the negation scope is localized.

2. **Conditional Symbol Handling**
- **Standard Word** (e.g., Bitter(x), Jadial): Use natural phrasing.
  - Example: Bitter(Jadial) → "Jadial is Bitter"; ¬Bitter(Jadial) → "it is not the case that Jadial is Bitter".
- **Abstract/Placeholder** (e.g., Pre1(x), Con1): Use formal phrasing.
  - Example: Pre1(x) → "x has property Pre1"; ¬Pre1(x) → "it is not the case that x has property Pre1".
- **Relations**: R(x, y) → "x bears relation R to y".

3. **Quantifiers & Variables**
- Keep the order strictly left-to-right.
- ∀x. → "For all x, "
- ∃x. → "There exists at least one x, such that "
- **NO Pronouns**: Always repeat the variable (x, y) or entity name. Never use "it", "he", or "they".

4. **No Simplification**
- **Double Negation (¬¬A)**: Translate as "it is not the case that it is not the case that A".
- **Redundancy (A | A)**: Translate as "either A is true or A is true".
- **Constants**: & 1 → "...and it is logically true"; | 0 → "...or it is logically false".

Examples for Reference

- FOL: ¬¬Orange(Stanley) → {"translation": "it is not the case that it is not the case that Stanley is Orange."}
- FOL: (¬Pre4(x) & Pre1(x)) → {"translation": "both it is not the case that x has property Pre4, and x has \
property Pre1."}
- FOL: ∀x. (Bitter(x) → ¬Dull(x)) → {"translation": "For all x, if x is Bitter, then it is not the case that x is \
Dull."}
- FOL: (P(Con1) ↔ (Q(Con2) | 0)) → {"translation": "Con1 has property P if and only if, either Con2 has property Q \
or it is logically false."}

Output Format

Output a single JSON object containing the translation."""
"""The paper's translation system prompt (Appendix C.2), transcribed from the PDF: the line-wrap marks (↳) are
joined, the extraction's stray `****` after the bold headings are dropped, and the LaTeX of the formulas is written
in the Unicode it renders to (`\\neg` → ¬, `\\rightarrow` → →); the words are the paper's."""

TRANSLATION_USER_TEMPLATE = """\
Input Data

Original Formula (Context Only): {original_fol}
Original Sentence (Context Only): {original_nl}
Transformed Logic Formula (TARGET): {transformed_fol}

Task

Provide the Natural Language translation of the **Transformed Logic Formula** strictly following the system rules \
and **Output raw JSON only** (no markdown formatting like ```json)."""
"""The paper's translation user template (Appendix C.2), with its three placeholders."""

NO_ORIGINAL = "(none: this premise is new)"
"""What the context fields say for a follow-up premise with no source premise at its index (e.g. MR-P3's)."""

BACK_SYSTEM_PROMPT = """\
You are a strict Language-to-Logic translator. Translate the given English sentence into one first-order logic \
formula that says exactly what the sentence says: keep every connective, negation, quantifier, variable and \
constant it mentions, in the same order and with the same scope. Do not simplify: keep double negations, repeated \
parts and logical constants.

Notation (ASCII):
- negation: -A
- conjunction: (A & B)
- disjunction: (A | B)
- exclusive or: (A <~> B)
- implication: (A -> B)
- biconditional: (A <-> B)
- universal quantifier: forall x. (A)
- existential quantifier: exists x. (A)
- equality: a = b
- "it is logically true": $true
- "it is logically false": $false
- an atom: Name(arg1, arg2); a proposition without arguments is its bare name.
Put parentheses around every binary sub-formula. Variables are single lower-case letters bound by a quantifier. \
Use only the predicate and constant symbols listed in the task, spelled exactly as listed.

Output Format

Output a single JSON object with exactly one key: {"fol": "<the formula>"}. Output raw JSON only. Do not wrap it \
in markdown code blocks."""
"""Our back-translation system prompt (the round trip; not in the paper)."""

BACK_USER_TEMPLATE = """\
Input Data

Predicate symbols (name/arity): {predicates}
Constant symbols: {constants}
English sentence: {sentence}

Task

Translate the English sentence into a first-order logic formula that uses only the symbols above. Output raw JSON \
only."""
"""Our back-translation user template; placeholders `{predicates}`, `{constants}`, `{sentence}`."""

TRANSLATION_UNPARSABLE = "translation unparsable"
BACK_UNPARSABLE = "back-translation unparsable"
DRIFT = "translation drift"
UNDECIDED = "undecided"
REJECT_REASONS: tuple[str, ...] = (TRANSLATION_UNPARSABLE, BACK_UNPARSABLE, DRIFT, UNDECIDED)
"""Why an attempt fails: the forward reply is not `{"translation": "..."}`; the back reply is not
`{"fol": "..."}` with a formula our parser reads; Z3 refutes the equivalence; Z3 cannot decide it in time."""

ACCEPTED = "accepted"
GROUPS = "translation"
"""`BuildStats` bucket of groups: `candidates` (groups in), `tried` (groups with sentences to translate),
`proven` (accepted groups), `unchanged` (nothing to translate), `sentences`; dropped by reason."""
ATTEMPTS = "translation attempts"
"""`BuildStats` bucket of attempts: `candidates` (sentences), `tried` (attempts), `proven` (accepted attempts),
`model calls`, and one count per failure reason of `REJECT_REASONS`."""

DEFAULT_ATTEMPTS = 2
DEFAULT_MAX_CONNECTIONS = 10
_FENCE = re.compile(r"\A```[A-Za-z]*[ \t]*\n(?P<body>.*?)\n?```\Z", re.DOTALL)


def paper_notation(formula: Formula) -> str:
    """Print a formula in the notation of the paper's prompts: ASCII connectives, `1` / `0` for ⊤ / ⊥.

    Args:
        formula: The formula.

    Returns:
        `show_ascii(formula)` with `$true` / `$false` written `1` / `0` (kept when a symbol is named `0` or `1`,
        so that the text stays unambiguous).
    """
    text = show_ascii(formula)
    sig = signature(formula)
    names = set(sig.constants) | {name for name, _ in sig.predicates}
    if names & {"0", "1"}:
        return text
    return text.replace("$true", "1").replace("$false", "0")


def prompt_formula(text: str) -> str:
    """Re-print a FOL column (our canonical Unicode) in the paper's notation; unreadable text is shown as it is.

    Only context formulas can be unreadable (a source's own FOL); the transformed formulas were printed by us.
    """
    try:
        return paper_notation(parse(text))
    except (FormulaSyntaxError, ValueError):
        return text


def json_string_field(text: str, key: str) -> str | None:
    """Read `key` from a reply that is one JSON object, strictly.

    Why strict: a translation is free text, so unlike a label it cannot be recognised inside prose; anything but the
    object the prompt asks for is a failed attempt (and is retried). One surrounding code fence is tolerated.

    Args:
        text: The model's reply.
        key: The key holding the answer (`translation`, `fol`).

    Returns:
        The stripped, non-empty string value, or None when the reply is not exactly such an object.
    """
    body = text.strip()
    fenced = _FENCE.match(body)
    if fenced:
        body = fenced.group("body").strip()
    try:
        value = json.loads(body)
    except (ValueError, RecursionError):
        return None
    if not isinstance(value, dict):
        return None
    field = value.get(key)
    if not isinstance(field, str) or not field.strip():
        return None
    return field.strip()


def symbol_lists(formula: Formula) -> tuple[str, str]:
    """The predicate (`name/arity`) and constant lists shown to the back-translator, sorted; `none` when empty."""
    sig = signature(formula)
    predicates = ", ".join(f"{name}/{arity}" for name, arity in sorted(sig.predicates)) or "none"
    constants = ", ".join(sorted(sig.constants)) or "none"
    return predicates, constants


@dataclass(frozen=True)
class Target:
    """One follow-up sentence to translate.

    Attributes:
        where: `premise <i>` (0-based index into `followup_premises`) or `conclusion`.
        index: The premise index, or None for the conclusion.
        formula: The transformed formula (parsed from the row).
        original_fol: The context formula in the paper's notation, or `NO_ORIGINAL`.
        original_nl: The context sentence, or `NO_ORIGINAL`.
    """

    where: str
    index: int | None
    formula: Formula
    original_fol: str
    original_nl: str

    def forward_prompt(self) -> str:
        """The paper's user prompt for this sentence."""
        return TRANSLATION_USER_TEMPLATE.format(
            original_fol=self.original_fol, original_nl=self.original_nl, transformed_fol=paper_notation(self.formula)
        )

    def back_prompt(self, sentence: str) -> str:
        """Our back-translation user prompt for a candidate sentence."""
        predicates, constants = symbol_lists(self.formula)
        return BACK_USER_TEMPLATE.format(predicates=predicates, constants=constants, sentence=sentence)


def targets(row: Mapping[str, Any]) -> list[Target]:
    """The template-realised sentences of a row (first follow-up only), premises in order then the conclusion.

    A sentence that splices a source sentence's own wording in (`spliced_premises`, `spliced_conclusion`) is no
    target: it already keeps the source's wording for what did not change, which a translation of its whole formula
    would lose, and its structure was checked when it was built (`english.check_mixed`).
    """
    out: list[Target] = []
    premises, premises_fol = list(row["premises"]), list(row["premises_fol"])
    spliced = set(row.get("spliced_premises") or ())
    for i in row["realised_premises"]:
        if i in spliced:
            continue
        has_source = i < len(premises)
        out.append(
            Target(
                where=f"premise {i}",
                index=i,
                formula=parse(row["followup_premises_fol"][i]),
                original_fol=prompt_formula(premises_fol[i]) if has_source else NO_ORIGINAL,
                original_nl=premises[i] if has_source else NO_ORIGINAL,
            )
        )
    if row["realised_conclusion"] and not row.get("spliced_conclusion"):
        out.append(
            Target(
                where="conclusion",
                index=None,
                formula=parse(row["followup_conclusion_fol"]),
                original_fol=prompt_formula(row["conclusion_fol"]),
                original_nl=row["conclusion"],
            )
        )
    return out


@dataclass(frozen=True)
class Attempt:
    """One forward + back round trip.

    Attributes:
        outcome: `accepted` or one of `REJECT_REASONS`.
        translation: The English the model wrote (None if the reply was unparsable).
        back: The back-translated formula text (None if not reached or unparsable).
        detail: Why it failed, for a reader (the parser's message, Z3's reason).
    """

    outcome: str
    translation: str | None = None
    back: str | None = None
    detail: str = ""


@dataclass(frozen=True)
class SentenceResult:
    """Every attempt at one sentence; accepted iff the last attempt was."""

    target: Target
    attempts: tuple[Attempt, ...]

    @property
    def accepted(self) -> bool:
        """Whether the round trip was proven."""
        return bool(self.attempts) and self.attempts[-1].outcome == ACCEPTED

    @property
    def sentence(self) -> str | None:
        """The accepted English, or None."""
        return self.attempts[-1].translation if self.accepted else None

    @property
    def reason(self) -> str:
        """`accepted`, or the reason of the last failed attempt."""
        return self.attempts[-1].outcome


@dataclass(frozen=True)
class GroupResult:
    """The outcome of one row: its sentences, and the row to ship (None if rejected)."""

    id: str
    sentences: tuple[SentenceResult, ...]
    row: dict[str, Any] | None

    @property
    def reason(self) -> str | None:
        """None if accepted or unchanged; else the reason of the first failing sentence."""
        return next((s.reason for s in self.sentences if not s.accepted), None)


class _Caller:
    """One model, its call settings, and the bound on calls in flight."""

    def __init__(self, model: Model, max_connections: int) -> None:
        self.model = model
        self.config = GenerateConfig(max_connections=max_connections)
        self.limit = asyncio.Semaphore(max_connections)

    async def ask(self, system: str, user: str) -> str:
        async with self.limit:
            output = await self.model.generate(
                [ChatMessageSystem(content=system), ChatMessageUser(content=user)], config=self.config
            )
        return output.completion


async def _attempt(caller: _Caller, target: Target, timeout_ms: int) -> Attempt:
    reply = await caller.ask(TRANSLATION_SYSTEM_PROMPT, target.forward_prompt())
    sentence = json_string_field(reply, "translation")
    if sentence is None:
        return Attempt(TRANSLATION_UNPARSABLE, detail=f"reply: {reply[:200]!r}")
    back_reply = await caller.ask(BACK_SYSTEM_PROMPT, target.back_prompt(sentence))
    back = json_string_field(back_reply, "fol")
    if back is None:
        return Attempt(BACK_UNPARSABLE, sentence, detail=f"reply: {back_reply[:200]!r}")
    try:
        formula = parse(back)
    except FormulaSyntaxError as exc:
        return Attempt(BACK_UNPARSABLE, sentence, back, detail=str(exc))
    verdict = equivalent(formula, target.formula, timeout_ms=timeout_ms)
    if isinstance(verdict, Undecided):
        return Attempt(UNDECIDED, sentence, back, detail=verdict.reason)
    if not verdict:
        return Attempt(DRIFT, sentence, back, detail="Z3 found an interpretation that tells them apart")
    return Attempt(ACCEPTED, sentence, back)


async def translate_sentence(caller: _Caller, target: Target, attempts: int, timeout_ms: int) -> SentenceResult:
    """Round-trip one sentence, retrying failed attempts up to `attempts` in all."""
    done: list[Attempt] = []
    for _ in range(attempts):
        result = await _attempt(caller, target, timeout_ms)
        done.append(result)
        if result.outcome == ACCEPTED:
            break
    return SentenceResult(target, tuple(done))


def _translated_row(row: Mapping[str, Any], sentences: Sequence[SentenceResult]) -> dict[str, Any]:
    out = dict(row)
    premises = list(out["followup_premises"])
    for result in sentences:
        text = result.sentence
        assert text is not None
        if result.target.index is None:
            out["followup_conclusion"] = text
        else:
            premises[result.target.index] = text
    out["followup_premises"] = premises
    out["translator"] = "model"
    return out


async def _translate_row(caller: _Caller, row: Mapping[str, Any], attempts: int, timeout_ms: int) -> GroupResult:
    todo = targets(row) if row["translator"] == "template" else []
    if not todo:
        return GroupResult(str(row["id"]), (), dict(row))
    sentences = await asyncio.gather(*(translate_sentence(caller, t, attempts, timeout_ms) for t in todo))
    accepted = all(s.accepted for s in sentences)
    return GroupResult(str(row["id"]), tuple(sentences), _translated_row(row, sentences) if accepted else None)


def _count(results: Iterable[GroupResult], stats: BuildStats) -> None:
    for group in results:
        stats.count(GROUPS, "candidates")
        if not group.sentences:
            stats.count(GROUPS, "unchanged")
            continue
        stats.count(GROUPS, "tried")
        stats.count(GROUPS, "sentences", len(group.sentences))
        if group.row is not None:
            stats.count(GROUPS, "proven")
        else:
            stats.drop(GROUPS, group.reason or "")
        for sentence in group.sentences:
            stats.count(ATTEMPTS, "candidates")
            for attempt in sentence.attempts:
                stats.count(ATTEMPTS, "tried")
                # one forward call, and one back call unless the forward reply was unparsable
                stats.count(ATTEMPTS, "model calls", 1 + (attempt.outcome != TRANSLATION_UNPARSABLE))
                if attempt.outcome == ACCEPTED:
                    stats.count(ATTEMPTS, "proven")
                else:
                    stats.count(ATTEMPTS, attempt.outcome)  # a count, not a drop: attempts are not dropped items


async def translate_groups(
    rows: Sequence[Mapping[str, Any]],
    model: str | Model,
    *,
    attempts: int = DEFAULT_ATTEMPTS,
    timeout_ms: int = DEFAULT_TIMEOUT_MS,
    max_connections: int = DEFAULT_MAX_CONNECTIONS,
    progress: bool = False,
) -> list[GroupResult]:
    """Translate every row's realised sentences concurrently; the async core of `translate_build`.

    Args:
        rows: LGMT rows (dicts with the builder's columns).
        model: An Inspect model, or its name for `get_model`.
        attempts: Round trips allowed per sentence (at least 1).
        timeout_ms: Z3 limit per equivalence check.
        max_connections: Model calls in flight at most.
        progress: Show a progress bar over groups.

    Returns:
        One `GroupResult` per row, in row order.
    """
    from tqdm import tqdm

    if attempts < 1:
        raise ValueError(f"attempts={attempts}: must be at least 1")
    if max_connections < 1:
        raise ValueError(f"max_connections={max_connections}: must be at least 1")
    caller = _Caller(get_model(model), max_connections)
    bar = tqdm(total=len(rows), desc="translating", disable=not progress)

    async def one(row: Mapping[str, Any]) -> GroupResult:
        result = await _translate_row(caller, row, attempts, timeout_ms)
        bar.update(1)
        return result

    try:
        return list(await asyncio.gather(*(one(row) for row in rows)))
    finally:
        bar.close()


def translate_build(
    build_or_dataset: LgmtBuild | datasets.Dataset,
    model: str | Model,
    *,
    attempts: int = DEFAULT_ATTEMPTS,
    timeout_ms: int = DEFAULT_TIMEOUT_MS,
    max_connections: int = DEFAULT_MAX_CONNECTIONS,
    progress: bool = False,
) -> tuple[datasets.Dataset, BuildStats]:
    """Replace the template English of every group by the model's, keeping only round-trip-proven groups.

    See the module docstring for the procedure and for what the statistics measure. Runs its own event loop, so
    call it from synchronous code (from async code, await `translate_groups`).

    Args:
        build_or_dataset: An `LgmtBuild` or its dataset (rows with the LGMT builder's columns).
        model: An Inspect model, or a model name (`openai/gpt-4o`, `lgmt/smollm2`, ...).
        attempts: Round trips allowed per sentence before the group is rejected.
        timeout_ms: Z3 limit per equivalence check.
        max_connections: Model calls in flight at most.
        progress: Show a progress bar.

    Returns:
        The dataset of accepted and unchanged groups (same features, same order, same ids), and the statistics
        (buckets `translation` and `translation attempts`; `notes["translation"]` records the settings).
    """
    dataset = build_or_dataset.dataset if isinstance(build_or_dataset, LgmtBuild) else build_or_dataset
    rows = [dict(r) for r in dataset]
    results = asyncio.run(
        translate_groups(
            rows, model, attempts=attempts, timeout_ms=timeout_ms, max_connections=max_connections, progress=progress
        )
    )
    stats = BuildStats()
    _count(results, stats)
    stats.notes["translation"] = {
        "translator": "model",
        "model": model if isinstance(model, str) else str(model),
        "attempts": attempts,
    }
    kept = [g.row for g in results if g.row is not None]
    out = datasets.Dataset.from_dict({c: [r[c] for r in kept] for c in dataset.features}, features=dataset.features)
    return out, stats


def with_translation(build: LgmtBuild, dataset: datasets.Dataset, stats: BuildStats) -> LgmtBuild:
    """The build with the translated dataset and the translation statistics merged into its own."""
    merged = BuildStats()
    merged.merge(build.stats)
    merged.merge(stats)
    merged.notes["groups"] = len(dataset)
    return LgmtBuild(dataset, merged, build.config)
