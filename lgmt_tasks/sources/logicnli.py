"""LogicNLI (Tian et al., EMNLP 2021) as source cases, restricted to consistent premise sets.

Layouts, detected per record: the clean per-problem files (``logicnli_<split>.jsonl``: 12 facts then 12 rules
in ``premises``/``premises_fol``, ``num_facts``, one statement as the conclusion, ``proof_trace``) and the story
files (``logicnli_<split>_stories.jsonl``: ``facts_fol``, ``rules_fol`` and a list of ``statements``), which are
expanded into one problem per statement with the same ids (``logicnli_dev_0_3``). The FOL is derived from the
source's structured logic (see the data README).

Why premises are selected
-------------------------
LogicNLI's labels come from its generator's rule chaining, not from classical entailment, and under classical
FOL *every* story's full premise set is unsatisfiable (every story has ``self_contradiction`` statements, whose
proofs derive both S and ¬S). A classical prover would label every statement "both provable". LGMT (§4.3)
"developed a customized logical solver to identify and eliminate instances with inherently contradictory
premises"; we do the same with Z3, in one of two ways (``premises=``):

* ``"consistent-subset"`` (default): a deterministic maximal consistent subset of the story, computed once per
  story: facts in order, then rules in order, each kept if the set stays satisfiable. Every statement of the
  story is then asked against that subset.
* ``"trace"``: only the facts and rules the statement's ``proof_trace`` names. ``fact N`` is the 0-based fact
  N; ``[A + B-->N]`` applies the 0-based rule N to the sub-proofs A and B; ``|`` separates alternative proofs
  (only ``self_contradiction`` statements have two: one for S, one for ¬S). ``none`` (every ``neutral``
  statement) names nothing, so "trace" mode has no Unknown instances at all.
* ``"all"``: the story as given (every instance is then contradictory; useful only to show the problem).

In every mode an instance is kept only if its selected premises are satisfiable and the Z3 label equals the gold
label; everything dropped is counted by reason in the `LoadReport`. ``self_contradiction`` ("Paradox")
statements have no classical label and are skipped first.

The default is ``"consistent-subset"`` because it keeps what makes LogicNLI a reasoning benchmark (the whole
story, distractor facts and rules included, and all three labels, Unknown too) and keeps more instances; the
measured survival counts of both modes on dev and test are in the test suite and the project README.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, get_args

from lgmt_tasks.logic.prover import DEFAULT_TIMEOUT_MS, Contradictory, Undecided, entailment, satisfiable
from lgmt_tasks.logic.syntax import Formula
from lgmt_tasks.sources.case import Case
from lgmt_tasks.sources.common import (
    SKIP_GOLD_DISAGREES,
    SKIP_LABEL,
    SKIP_LAYOUT,
    SKIP_WRONG_TYPE,
    USABLE_LABELS,
    LoadReport,
    SourceProblem,
    SourceRecordError,
    UnifyMode,
    normalise_label,
    parse_problem,
    record_id,
    record_ref,
    require,
    text_field,
    text_list,
    unify_constants_in,
)

DATASET = "logicnli"
SPLITS: tuple[str, ...] = ("train", "dev", "test")
LABELS: dict[str, str] = {
    "entailment": "True",
    "contradiction": "False",
    "neutral": "Unknown",
    "self_contradiction": "Paradox",
    "true": "True",
    "false": "False",
    "unknown": "Unknown",
    "paradox": "Paradox",
}
"""LogicNLI's labels and our normalised spellings (``Paradox`` is kept so that it can be skipped by name)."""

PremiseMode = Literal["consistent-subset", "trace", "all"]
PREMISE_MODES: tuple[str, ...] = get_args(PremiseMode)
DEFAULT_PREMISES: PremiseMode = "consistent-subset"

# Skip categories specific to LogicNLI (the keys of `LoadReport.skipped`).
SKIP_NO_TRACE = "no proof trace"
SKIP_BAD_TRACE = "malformed proof trace"
SKIP_INCONSISTENT = "inconsistent premises"
SKIP_UNDECIDED = "undecided"
SKIP_DISAGREES = SKIP_GOLD_DISAGREES

PROGRESS_EVERY = 200
"""`problems_to_cases` logs a progress line every tenth of the problems, but never more often than this many."""


# --------------------------------------------------------------------------- proof traces


@dataclass(frozen=True)
class TraceProof:
    """The facts and rules one proof in a ``proof_trace`` uses (0-based indices into facts and rules)."""

    facts: frozenset[int]
    rules: frozenset[int]


_TRACE_TOKEN = re.compile(r"\s*(fact\s+\d+|-->\s*\d+|\[|\]|\+|\|)")


def parse_trace(trace: str) -> list[TraceProof]:
    """Parse a LogicNLI proof trace into its alternative proofs.

    Grammar (checked strictly, so that a trace we would misread raises instead)::

        traces := "none" | proof ("|" proof)*
        proof  := "fact" N | "[" proof ("+" proof)* "-->" N "]"

    ``[A + B-->N]`` applies rule N to the conclusions of the sub-proofs A and B.

    Raises:
        ValueError: The trace does not follow the grammar.
    """
    text = trace.strip()
    if text == "none":
        return []
    tokens: list[str] = []
    pos = 0
    while pos < len(text):
        match = _TRACE_TOKEN.match(text, pos)
        if not match:
            raise ValueError(f"unexpected text at column {pos} of proof trace {trace!r}")
        tokens.append(re.sub(r"\s+", " ", match.group(1)))
        pos = match.end()

    i = 0

    def proof(facts: set[int], rules: set[int]) -> None:
        nonlocal i
        if i >= len(tokens):
            raise ValueError(f"proof trace {trace!r} ends early")
        tok = tokens[i]
        if tok.startswith("fact"):
            facts.add(int(tok.split()[1]))
            i += 1
            return
        if tok != "[":
            raise ValueError(f"expected 'fact N' or '[' in proof trace {trace!r}, found {tok!r}")
        i += 1
        proof(facts, rules)
        while i < len(tokens) and tokens[i] == "+":
            i += 1
            proof(facts, rules)
        if i + 1 >= len(tokens) or not tokens[i].startswith("-->") or tokens[i + 1] != "]":
            raise ValueError(f"expected '-->N]' in proof trace {trace!r}")
        rules.add(int(tokens[i][3:]))
        i += 2

    proofs: list[TraceProof] = []
    while True:
        facts: set[int] = set()
        rules: set[int] = set()
        proof(facts, rules)
        proofs.append(TraceProof(frozenset(facts), frozenset(rules)))
        if i == len(tokens):
            return proofs
        if tokens[i] != "|":
            raise ValueError(f"expected '|' or the end of proof trace {trace!r}, found {tokens[i]!r}")
        i += 1


# --------------------------------------------------------------------------- records


def detect_layout(record: Mapping[str, Any]) -> str:
    """``"problem"`` (one statement), ``"story"`` (facts, rules and all statements) or ``""``."""
    if "statements" in record and "facts_fol" in record:
        return "story"
    if "premises_fol" in record and "conclusion_fol" in record:
        return "problem"
    return ""


def record_to_problems(
    record: Mapping[str, Any],
    *,
    split: str | None = None,
    file: Path | None = None,
    index: int = 0,
    line: int | None = None,
) -> list[SourceProblem]:
    """Map a LogicNLI record to its problems: one for a per-problem record, one per statement for a story.

    Args:
        record: The record.
        split: Unused (LogicNLI records carry ids); part of the loader protocol.
        file: Unused; part of the loader protocol.
        index: The record's position, for the error message of an unrecognised layout.
        line: The record's 1-based line in its file (names a record that has no usable id).

    Raises:
        SourceRecordError: Not a LogicNLI layout, or an unknown label.
    """
    layout = detect_layout(record)
    if layout == "problem":
        rid = record_id(record, "id", record_ref(file, index, line))
        return [
            _problem(
                record,
                rid,
                text_list(rid, "premises", record.get("premises")),
                text_list(rid, "premises_fol", record.get("premises_fol")),
                record.get("num_facts"),
                record.get("conclusion"),
                record.get("conclusion_fol"),
                require(record, "label", rid),
                record.get("label_source"),
                record.get("proof_trace"),
                record.get("story_id"),
            )
        ]
    if layout == "story":
        story_id = record_id(record, "story_id", record_ref(file, index, line))
        facts_fol = text_list(story_id, "facts_fol", record.get("facts_fol"))
        facts = text_list(story_id, "facts", record.get("facts"))
        premises = [*facts, *text_list(story_id, "rules", record.get("rules"))]
        premises_fol = [*facts_fol, *text_list(story_id, "rules_fol", record.get("rules_fol"))]
        statements = record.get("statements")
        if not isinstance(statements, list) or not all(isinstance(s, Mapping) for s in statements):
            raise SourceRecordError(story_id, "statements", "statements must be a list of objects", SKIP_WRONG_TYPE)
        problems = []
        for position, s in enumerate(statements):
            sid = f"{story_id}_{s.get('index', position)}"
            problems.append(
                _problem(
                    record,
                    sid,
                    premises,
                    premises_fol,
                    len(facts_fol),
                    s.get("statement"),
                    s.get("statement_fol"),
                    require(s, "label", sid),
                    s.get("label_source"),
                    s.get("proof_trace"),
                    story_id,
                )
            )
        return problems
    rid = str(record.get("id", record.get("story_id", record_ref(file, index, line))))
    raise SourceRecordError(
        rid, "<record>", f"not a LogicNLI record layout (keys: {', '.join(sorted(record))})", SKIP_LAYOUT
    )


def _problem(
    record: Mapping[str, Any],
    rid: str,
    premises: Sequence[str],
    premises_fol: Sequence[str],
    num_facts: object,
    conclusion: object,
    conclusion_fol: object,
    label: str,
    label_source: str | None,
    proof_trace: str | None,
    story_id: str | None,
) -> SourceProblem:
    source_label = label_source if label_source is not None else label
    if num_facts is not None and (
        isinstance(num_facts, bool) or not isinstance(num_facts, int) or not 0 <= num_facts <= len(premises_fol)
    ):
        raise SourceRecordError(
            rid,
            "num_facts",
            f"num_facts must be an integer from 0 to {len(premises_fol)}, got {num_facts!r}",
            SKIP_WRONG_TYPE,
        )
    if conclusion_fol is not None and not isinstance(conclusion_fol, str):
        raise SourceRecordError(
            rid, "conclusion_fol", f"conclusion_fol must be a string, got {conclusion_fol!r}"[:200], SKIP_WRONG_TYPE
        )
    if proof_trace is not None and not isinstance(proof_trace, str):
        raise SourceRecordError(
            rid, "proof_trace", f"proof_trace must be a string, got {proof_trace!r}"[:200], SKIP_WRONG_TYPE
        )
    return SourceProblem(
        id=rid,
        dataset=DATASET,
        premises=tuple(p.strip() for p in premises),
        premises_fol=tuple(premises_fol),
        conclusion=text_field(rid, "conclusion", conclusion),
        conclusion_fol=conclusion_fol,
        label=normalise_label(source_label, LABELS, rid),
        label_source=source_label,
        meta={
            "num_facts": len(premises_fol) if num_facts is None else num_facts,
            "proof_trace": proof_trace,
            "story_id": story_id,
        },
    )


def record_to_problem(record: Mapping[str, Any]) -> SourceProblem:
    """Map one per-problem LogicNLI record to a `SourceProblem` (strings only, nothing parsed)."""
    problems = record_to_problems(record)
    if len(problems) != 1:
        raise ValueError("record_to_problem takes a per-problem record; use record_to_problems for a story")
    return problems[0]


# --------------------------------------------------------------------------- premise selection


class ConsistentSubsets:
    """Per-story cache of maximal consistent subsets (every statement of a story shares one)."""

    def __init__(self, timeout_ms: int | None = DEFAULT_TIMEOUT_MS) -> None:
        self.timeout_ms = timeout_ms
        self._cache: dict[tuple[str, ...], tuple[int, ...]] = {}
        self.stories = 0
        self.facts_dropped = 0
        self.rules_dropped = 0
        self.undecided_checks = 0

    def indices(self, problem: SourceProblem, formulas: Sequence[Formula]) -> tuple[int, ...]:
        """Return the premises kept: facts in order, then rules in order, each if the set stays satisfiable.

        Facts are filtered too, not kept wholesale: a few stories state a fact and its negation (``P(a)``,
        ``¬P(a)``). A satisfiability check that Z3 leaves undecided counts as "not kept", so the subset is
        always provably consistent.
        """
        key = tuple(problem.premises_fol)
        if key in self._cache:
            return self._cache[key]
        num_facts = int(problem.meta.get("num_facts", len(formulas)))
        kept: list[int] = []
        for i, formula in enumerate(formulas):
            ok = satisfiable([formulas[k] for k in kept] + [formula], timeout_ms=self.timeout_ms)
            if isinstance(ok, Undecided):
                self.undecided_checks += 1
            elif ok:
                kept.append(i)
                continue
            if i < num_facts:
                self.facts_dropped += 1
            else:
                self.rules_dropped += 1
        self.stories += 1
        self._cache[key] = tuple(kept)
        return self._cache[key]


def trace_indices(problem: SourceProblem) -> tuple[int, ...]:
    """Return the indices (into the story's premises) of every fact and rule the problem's proof trace names.

    Raises:
        SourceRecordError: The trace is ``none`` (no proof: every Unknown statement), malformed, or names a
            fact or rule the story does not have.
    """
    trace = problem.meta.get("proof_trace")
    if trace is None:
        raise SourceRecordError(problem.id, "proof_trace", "the record has no proof trace", SKIP_NO_TRACE)
    try:
        proofs = parse_trace(str(trace))
    except ValueError as exc:
        raise SourceRecordError(problem.id, "proof_trace", str(exc), SKIP_BAD_TRACE) from exc
    if not proofs:
        raise SourceRecordError(
            problem.id, "proof_trace", f"proof trace {trace!r} names no premise (label {problem.label})", SKIP_NO_TRACE
        )
    num_facts = int(problem.meta["num_facts"])
    num_rules = len(problem.premises_fol) - num_facts
    facts = set().union(*(p.facts for p in proofs))
    rules = set().union(*(p.rules for p in proofs))
    if any(f >= num_facts for f in facts) or any(r >= num_rules for r in rules):
        raise SourceRecordError(
            problem.id,
            "proof_trace",
            f"proof trace {trace!r} names a fact or rule beyond the story's {num_facts} facts and {num_rules} rules",
            SKIP_BAD_TRACE,
        )
    return tuple(sorted(facts)) + tuple(num_facts + r for r in sorted(rules))


def select_premises(
    problem: SourceProblem,
    formulas: Sequence[Formula],
    mode: PremiseMode,
    subsets: ConsistentSubsets | None = None,
) -> tuple[int, ...]:
    """Return the indices of the premises a problem is asked against, in the given mode (see the module docstring).

    Raises:
        SourceRecordError: In ``"trace"`` mode, when the trace names nothing or is malformed.
    """
    if mode == "all":
        return tuple(range(len(formulas)))
    if mode == "trace":
        return trace_indices(problem)
    if mode == "consistent-subset":
        return (subsets or ConsistentSubsets()).indices(problem, formulas)
    raise ValueError(f"premises must be one of {', '.join(PREMISE_MODES)}; got {mode!r}")


# --------------------------------------------------------------------------- cases


def problems_to_cases(
    problems: Iterable[SourceProblem],
    report: LoadReport,
    *,
    premises: PremiseMode = DEFAULT_PREMISES,
    timeout_ms: int | None = DEFAULT_TIMEOUT_MS,
    unify_constants: UnifyMode = "none",
) -> list[Case]:
    """Cases whose selected premises are consistent and whose Z3 label equals the gold label.

    Args:
        problems: LogicNLI problems (full stories as premises).
        report: Counts every problem, and every skip by reason; ``notes`` gets the mode and story statistics.
        premises: ``"consistent-subset"`` (default), ``"trace"`` or ``"all"``.
        timeout_ms: Z3 wall-clock limit per check.
        unify_constants: Must be ``"none"``: LogicNLI's derived constants are spelt consistently.

    Returns:
        The kept cases, premises restricted to the selection.
    """
    if premises not in PREMISE_MODES:
        raise ValueError(f"premises must be one of {', '.join(PREMISE_MODES)}; got {premises!r}")
    subsets = ConsistentSubsets(timeout_ms)
    cases: list[Case] = []
    items = list(problems)
    # Every problem costs several Z3 calls (its premise selection, then its label): the dev and test sets take
    # about two minutes, so the stage says what it does and how far it is (shown by `lgmt build` and a cache miss).
    stage = logging.getLogger("lgmt_tasks.build")  # `lgmt_tasks.builders.cache.BUILD_LOGGER`
    step = max(PROGRESS_EVERY, -(-len(items) // 10))
    stage.info("checking %d LogicNLI problems with Z3 (premises: %s)", len(items), premises)
    for done, problem in enumerate(items, start=1):
        if done % step == 0:
            stage.info("LogicNLI: %d of %d problems checked, %d usable so far", done, len(items), len(cases))
        report.records += 1
        try:
            case = _checked_case(problem, premises, subsets, timeout_ms, unify_constants)
        except SourceRecordError as exc:
            report.skip(exc)
            continue
        cases.append(case)
        report.loaded += 1
    report.notes.update(
        {
            "premises": premises,
            "stories": subsets.stories,
            "facts_dropped": subsets.facts_dropped,
            "rules_dropped": subsets.rules_dropped,
            "undecided_checks": subsets.undecided_checks,
        }
    )
    return cases


def _checked_case(
    problem: SourceProblem,
    mode: PremiseMode,
    subsets: ConsistentSubsets,
    timeout_ms: int | None,
    unify_constants: UnifyMode,
) -> Case:
    if problem.label not in USABLE_LABELS:
        # Checked before anything is parsed or proven: a Paradox statement costs no prover call.
        raise SourceRecordError(
            problem.id,
            "label",
            f"label {problem.label} ({problem.label_source}) has no classical three-valued reading",
            SKIP_LABEL,
        )
    formulas, conclusion = parse_problem(problem)
    indices = select_premises(problem, formulas, mode, subsets)
    chosen = tuple(formulas[i] for i in indices)
    if unify_constants != "none":
        unified, _ = unify_constants_in((*chosen, conclusion), unify_constants)
        chosen, conclusion = unified[:-1], unified[-1]
    result = entailment(chosen, conclusion, timeout_ms=timeout_ms)
    if isinstance(result, Contradictory):
        raise SourceRecordError(
            problem.id,
            "premises",
            f"the {len(indices)} selected premises ({mode}) are unsatisfiable",
            SKIP_INCONSISTENT,
        )
    if isinstance(result, Undecided):
        raise SourceRecordError(problem.id, "conclusion_fol", f"Z3 undecided ({result.reason})", SKIP_UNDECIDED)
    if result.value != problem.label:
        raise SourceRecordError(
            problem.id,
            "label",
            f"gold {problem.label} but Z3 proves {result.value} from the {len(indices)} selected premises ({mode})",
            SKIP_DISAGREES,
        )
    return Case(
        premises_fol=chosen,
        conclusion_fol=conclusion,
        premises=tuple(problem.premises[i] for i in indices),
        conclusion=problem.conclusion,
        label=problem.label,
        source_dataset=problem.dataset,
        source_id=problem.id,
    )


def record_to_case(
    record: Mapping[str, Any],
    *,
    premises: PremiseMode = DEFAULT_PREMISES,
    timeout_ms: int | None = DEFAULT_TIMEOUT_MS,
) -> Case:
    """Map one per-problem LogicNLI record to a `Case` with consistent premises and a Z3-confirmed label.

    Raises:
        SourceRecordError: Paradox label, a bad formula, no usable premise selection, inconsistent selected
            premises, an undecided query, or a Z3 label that differs from the gold label.
    """
    return _checked_case(record_to_problem(record), premises, ConsistentSubsets(timeout_ms), timeout_ms, "none")
