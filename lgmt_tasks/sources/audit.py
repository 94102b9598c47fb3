"""How far to trust a benchmark's FOL: parse every formula, prove every label, compare with the gold label.

This is the logic behind ``lgmt audit-source`` and the agreement tests. Unlike the loaders, which stop at a
record's first bad formula and skip it, the audit parses *every* formula (so the count of unparsable formulas is
complete), and it proves problems whose English does not line up with the FOL (the FOL alone decides a label).

Outcomes are kept apart, never merged (STYLE: a timeout is not a refutation): a problem is *decided* (Z3 gave a
label), *undecided* (a check hit a limit), or *contradictory* (the premises are unsatisfiable, so the problem
has no label). Agreement is measured over decided problems whose gold label is one of True/False/Unknown.
"""

from __future__ import annotations

import difflib
import itertools
import json
import sys
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from tqdm import tqdm

from lgmt_tasks.logic.parse import FormulaSyntaxError
from lgmt_tasks.logic.prover import DEFAULT_TIMEOUT_MS, Contradictory, Undecided, entailment
from lgmt_tasks.logic.syntax import EMPTY_SIGNATURE, Formula, signature
from lgmt_tasks.sources import logicnli
from lgmt_tasks.sources.common import (
    SKIP_NO_CONCLUSION_FOL,
    SKIP_UNPARSABLE,
    USABLE_LABELS,
    LoadReport,
    RecordLocation,
    SkipDetail,
    SourceName,
    SourceProblem,
    SourceRecordError,
    UnifyMode,
    constant_key,
    parse_formula,
    unify_constants_in,
)
from lgmt_tasks.sources.load import iter_problems
from lgmt_tasks.sources.logicnli import PremiseMode
from lgmt_tasks.sources.repair import repairs_of

SUMMARY_KEYS: tuple[str, ...] = (
    "source",
    "records",
    "formulas",
    "unparsable",
    "unparsable_records",
    "unparsable_reasons",
    "skipped",
    "problems",
    "decided",
    "undecided",
    "undecided_reasons",
    "contradictory",
    "with_gold",
    "agree",
    "disagree",
    "agreement",
)
"""Keys of `AuditResult.summary`, in print order (``lgmt audit-source --json`` prints exactly these and a few
id lists)."""


@dataclass(frozen=True)
class AuditItem:
    """One parsed problem, ready to prove (picklable, so it can be proven in a worker process)."""

    id: str
    gold: str | None
    premises_fol: tuple[Formula, ...]
    conclusion_fol: Formula
    source_premises_fol: tuple[str, ...]
    source_conclusion_fol: str
    conclusion: str


@dataclass(frozen=True)
class Disagreement:
    """A decided problem whose prover label differs from the gold label (one line of the ``--report`` JSONL)."""

    id: str
    gold: str
    ours: str
    premises_fol: list[str]
    conclusion_fol: str
    conclusion: str
    hints: list[str] = field(default_factory=list)


@dataclass
class AuditResult:
    """Counts and findings of one audit run.

    Attributes:
        source: The source name.
        paths: Files read.
        options: The options the run used (timeout, constant unification, LogicNLI premise mode).
        records: Problems read.
        formulas: Formulas read (premises and conclusions; a conclusion the source lacks is not counted).
        unparsable: Formulas that do not parse, are empty, or have free variables.
        unparsable_records: Problems with at least one such formula (not proven).
        unparsable_reasons: ``unparsable`` grouped by reason (for a syntax error: what the parser expected).
        skipped: Problems not proven for another reason (no conclusion FOL, unknown layout, ...).
        problems: Problems proven (every formula parsed).
        decided: Problems Z3 gave a label.
        undecided: Problems where a check hit a limit.
        undecided_reasons: ``undecided`` by reason.
        contradictory: Problems with unsatisfiable premises.
        with_gold: Decided problems with a usable gold label (the agreement denominator).
        agree: Of those, the ones where Z3's label is the gold label.
        confusion: ``(gold, ours)`` counts over ``with_gold``.
        disagreements: Every decided problem whose label differs from the gold label.
        contradictory_ids: Ids of the contradictory problems.
        undecided_ids: Ids of the undecided problems.
        unusable: Every record or formula that could not be audited, as `SkipDetail` fields: id, field, reason,
            category, and where the record starts (file, 1-based line and column).
        seconds: Wall-clock time of the proving stage.
        repairs: Every annotation slip repaired before parsing (`lgmt_tasks.sources.repair`): id, field, kind,
            formula before and after.
        locations: Where each problem read from a file starts (by id), to locate `unusable` entries.
    """

    source: str
    paths: list[str] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)
    records: int = 0
    formulas: int = 0
    unparsable: int = 0
    unparsable_records: int = 0
    unparsable_reasons: Counter[str] = field(default_factory=Counter)
    skipped: Counter[str] = field(default_factory=Counter)
    problems: int = 0
    decided: int = 0
    undecided: int = 0
    undecided_reasons: Counter[str] = field(default_factory=Counter)
    contradictory: int = 0
    with_gold: int = 0
    agree: int = 0
    confusion: Counter[tuple[str, str]] = field(default_factory=Counter)
    disagreements: list[Disagreement] = field(default_factory=list)
    contradictory_ids: list[str] = field(default_factory=list)
    undecided_ids: list[str] = field(default_factory=list)
    unusable: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0
    repairs: list[dict[str, str]] = field(default_factory=list)
    locations: dict[str, RecordLocation] = field(default_factory=dict, repr=False)

    def add_unusable(self, error: SourceRecordError) -> None:
        """Keep one record (or formula) that could not be audited, located when it came from a file."""
        self.unusable.append(asdict(SkipDetail.of(error, self.locations.get(error.record_id))))

    @property
    def agreement(self) -> float | None:
        """Share of decided problems with a gold label whose prover label is the gold label (None if none)."""
        return self.agree / self.with_gold if self.with_gold else None

    def summary(self) -> dict[str, Any]:
        """Return the counts as one JSON-serialisable dict (keys `SUMMARY_KEYS`, plus the options and id lists)."""
        out: dict[str, Any] = {
            "source": self.source,
            "records": self.records,
            "formulas": self.formulas,
            "unparsable": self.unparsable,
            "unparsable_records": self.unparsable_records,
            "unparsable_reasons": dict(self.unparsable_reasons.most_common()),
            "skipped": dict(self.skipped.most_common()),
            "problems": self.problems,
            "decided": self.decided,
            "undecided": self.undecided,
            "undecided_reasons": dict(self.undecided_reasons.most_common()),
            "contradictory": self.contradictory,
            "with_gold": self.with_gold,
            "agree": self.agree,
            "disagree": len(self.disagreements),
            "agreement": None if self.agreement is None else round(self.agreement, 4),
        }
        out["confusion"] = {f"{g}->{o}": n for (g, o), n in sorted(self.confusion.items())}
        out["disagreement_ids"] = [d.id for d in self.disagreements]
        out["contradictory_ids"] = list(self.contradictory_ids)
        out["undecided_ids"] = list(self.undecided_ids)
        out["repaired"] = dict(Counter(r["kind"] for r in self.repairs).most_common())
        out["repairs"] = list(self.repairs)
        out["options"] = dict(self.options)
        out["paths"] = list(self.paths)
        out["seconds"] = round(self.seconds, 2)
        return out

    def to_text(self) -> str:
        """Return a human-readable summary (what ``lgmt audit-source`` prints without ``--json``)."""
        agreement = "n/a" if self.agreement is None else f"{self.agreement:.2%}"
        lines = [
            f"source: {self.source} ({', '.join(self.paths) or 'records in memory'})",
            f"records: {self.records}",
            f"formulas: {self.formulas}, unparsable: {self.unparsable} (in {self.unparsable_records} records)",
        ]
        lines += [f"  {n:5d}  {reason}" for reason, n in self.unparsable_reasons.most_common()]
        if self.repairs:
            records = len({r["id"] for r in self.repairs})
            lines.append(f"repaired: {len(self.repairs)} annotation slips in {records} records (one reading each)")
            lines += [f"  {n:5d}  {kind}" for kind, n in Counter(r["kind"] for r in self.repairs).most_common()]
        if self.skipped:
            lines.append(f"skipped records: {sum(self.skipped.values())}")
            lines += [f"  {n:5d}  {reason}" for reason, n in self.skipped.most_common()]
        lines += [
            f"problems proven: {self.problems}",
            f"  decided: {self.decided}",
            f"  undecided: {self.undecided}" + (f" ({dict(self.undecided_reasons)})" if self.undecided else ""),
            f"  contradictory premises: {self.contradictory}",
            f"agreement with gold: {self.agree}/{self.with_gold} = {agreement} of decided problems with a gold label",
            f"disagreements: {len(self.disagreements)}",
            f"time: {self.seconds:.1f} s",
        ]
        return "\n".join(lines)

    def write_report(self, path: str | Path) -> None:
        """Write one JSON object per line: every disagreement, then every unusable record.

        A disagreement line is ``{"kind": "disagreement", id, gold, ours, premises_fol, conclusion_fol, ...}``;
        an unusable line is ``{"kind": "unusable", id, field, reason, category, file, line, column}`` with `line`
        and `column` 1-based (where the record starts in its file), so it can be opened in an editor.
        """
        with Path(path).open("w", encoding="utf-8") as out:
            for d in self.disagreements:
                out.write(json.dumps({"kind": "disagreement", **vars(d)}, ensure_ascii=False) + "\n")
            for u in self.unusable:
                out.write(json.dumps({"kind": "unusable", **u}, ensure_ascii=False) + "\n")


# --------------------------------------------------------------------------- parsing stage


def _reason_group(error: SourceRecordError) -> str:
    """Group an unparsable formula by cause: the parser's expectation for syntax errors, else the category."""
    cause = error.__cause__
    if error.category == SKIP_UNPARSABLE and isinstance(cause, FormulaSyntaxError):
        return f"syntax error: expected {cause.expected}"
    return error.category


def parse_for_audit(problem: SourceProblem, result: AuditResult) -> tuple[tuple[Formula, ...], Formula] | None:
    """Parse every formula of a problem, counting each bad one in `result`; None if any is bad."""
    bad = False
    fields = [(f"premises_fol[{i}]", text) for i, text in enumerate(problem.premises_fol)]
    if problem.conclusion_fol is not None:
        fields.append(("conclusion_fol", problem.conclusion_fol))
    parsed: list[Formula] = []
    for name, text in fields:
        result.formulas += 1
        try:
            parsed.append(parse_formula(problem.id, name, text))
        except SourceRecordError as exc:
            result.add_unusable(exc)
            result.unparsable += 1
            result.unparsable_reasons[_reason_group(exc)] += 1
            bad = True
    if bad:
        result.unparsable_records += 1
        return None
    if problem.conclusion_fol is None:
        result.skipped[SKIP_NO_CONCLUSION_FOL] += 1
        result.add_unusable(
            SourceRecordError(problem.id, "conclusion_fol", "the source has no conclusion FOL", SKIP_NO_CONCLUSION_FOL)
        )
        return None
    return tuple(parsed[:-1]), parsed[-1]


def audit_items(
    problems: Iterable[SourceProblem],
    result: AuditResult,
    *,
    unify_constants: UnifyMode = "none",
    logicnli_premises: PremiseMode = "all",
    timeout_ms: int | None = DEFAULT_TIMEOUT_MS,
) -> Iterator[AuditItem]:
    """Parse the problems and yield what is left to prove, counting parse failures and skips in `result`.

    LogicNLI problems are restricted to the premises of `logicnli_premises` first (``"all"`` by default: the
    audit's job is to show the data as it is, and as it is every LogicNLI story is inconsistent).
    """
    subsets = logicnli.ConsistentSubsets(timeout_ms)
    for problem in problems:
        result.records += 1
        result.repairs.extend({"id": problem.id, **r} for r in repairs_of(problem))
        parsed = parse_for_audit(problem, result)
        if parsed is None:
            continue
        premises, conclusion = parsed
        source_premises = problem.premises_fol
        if problem.dataset == logicnli.DATASET and logicnli_premises != "all":
            try:
                indices = logicnli.select_premises(problem, premises, logicnli_premises, subsets)
            except SourceRecordError as exc:
                result.skipped[exc.category] += 1
                result.add_unusable(exc)
                continue
            premises = tuple(premises[i] for i in indices)
            source_premises = tuple(problem.premises_fol[i] for i in indices)
        if unify_constants != "none":
            unified, _ = unify_constants_in((*premises, conclusion), unify_constants)
            premises, conclusion = unified[:-1], unified[-1]
        gold = problem.label if problem.label in USABLE_LABELS else None
        assert problem.conclusion_fol is not None
        yield AuditItem(
            problem.id, gold, premises, conclusion, source_premises, problem.conclusion_fol, problem.conclusion
        )


# --------------------------------------------------------------------------- diagnosis


_NEGATING_PREFIXES = ("in", "un", "non", "not", "im", "il", "ir", "dis")


def _close(a: str, b: str) -> bool:
    """Tell whether two predicate names are probably one concept spelt two ways.

    Examples: ``Meeting``/``Meetings``, ``keeps_promises``/``keep_promises``, ``narcissistic``/``is_narcissistic``.
    """
    na, nb = (n.lower().removeprefix("is_").replace("_", "") for n in (a, b))
    short, long = sorted((na, nb), key=len)
    if any(long == prefix + short for prefix in _NEGATING_PREFIXES):
        return False  # Vertebrate / Invertebrate: opposites, not a misspelling
    return na == nb or difflib.SequenceMatcher(None, na, nb).ratio() >= 0.88


def symbol_hints(premises: Sequence[Formula], conclusion: Formula) -> list[str]:
    """Likely annotation errors behind a disagreement, found from the symbols alone.

    Not proof of anything: a pointer for the person reading the report. It names constants spelt two ways
    (the same key under `constant_key` ``"case+numeric"``), predicates used with two arities, pairs of
    predicate names that look like one concept spelt two ways, and conclusion symbols no premise mentions.
    """
    sig_premises = signature(*premises) if premises else EMPTY_SIGNATURE
    sig_all = sig_premises | signature(conclusion)
    hints: list[str] = []
    by_key: dict[str, list[str]] = {}
    for name in sorted(sig_all.constants):
        by_key.setdefault(constant_key(name, "case+numeric"), []).append(name)
    hints += [f"constant spelt {len(v)} ways: {' / '.join(v)}" for v in by_key.values() if len(v) > 1]
    arities: dict[str, list[int]] = {}
    for name, arity in sorted(sig_all.predicates):
        arities.setdefault(name, []).append(arity)
    hints += [f"predicate {n} used with arities {' and '.join(map(str, a))}" for n, a in arities.items() if len(a) > 1]
    names = sorted(arities)
    hints += [f"similar predicate names: {a} / {b}" for a, b in itertools.combinations(names, 2) if _close(a, b)]
    concl = signature(conclusion)
    missing = sorted(concl.predicate_names - sig_premises.predicate_names)
    if missing:
        hints.append(f"conclusion predicate(s) not in any premise: {', '.join(missing)}")
    missing_c = sorted(concl.constants - sig_premises.constants)
    if missing_c:
        hints.append(f"conclusion constant(s) not in any premise: {', '.join(missing_c)}")
    return hints


# --------------------------------------------------------------------------- proving stage


def prove_item(item: AuditItem, timeout_ms: int | None = DEFAULT_TIMEOUT_MS) -> tuple[str, str]:
    """Prove one item: ``("label", "True"|"False"|"Unknown")``, ``("undecided", reason)`` or ``("contradictory", "")``.

    A plain module-level function so that a process pool can run it.
    """
    outcome = entailment(item.premises_fol, item.conclusion_fol, timeout_ms=timeout_ms)
    if isinstance(outcome, Contradictory):
        return "contradictory", ""
    if isinstance(outcome, Undecided):
        return "undecided", outcome.reason
    return "label", outcome.value


def _prove_star(args: tuple[AuditItem, int | None]) -> tuple[str, str]:
    return prove_item(*args)


def record_outcome(result: AuditResult, item: AuditItem, kind: str, value: str) -> None:
    """Add one proven item's outcome to the counts."""
    result.problems += 1
    if kind == "contradictory":
        result.contradictory += 1
        result.contradictory_ids.append(item.id)
        return
    if kind == "undecided":
        result.undecided += 1
        result.undecided_reasons[value] += 1
        result.undecided_ids.append(item.id)
        return
    result.decided += 1
    if item.gold is None:
        return
    result.with_gold += 1
    result.confusion[(item.gold, value)] += 1
    if value == item.gold:
        result.agree += 1
    else:
        result.disagreements.append(
            Disagreement(
                item.id,
                item.gold,
                value,
                list(item.source_premises_fol),
                item.source_conclusion_fol,
                item.conclusion,
                symbol_hints(item.premises_fol, item.conclusion_fol),
            )
        )


def audit_problems(
    problems: Iterable[SourceProblem],
    source: str,
    *,
    timeout_ms: int | None = DEFAULT_TIMEOUT_MS,
    unify_constants: UnifyMode = "none",
    logicnli_premises: PremiseMode = "all",
    workers: int = 1,
    progress: bool = False,
    result: AuditResult | None = None,
) -> AuditResult:
    """Audit problems already read (e.g. from `iter_problems`, or records mapped by a loader).

    Args:
        problems: The problems.
        source: The source name, for the result.
        timeout_ms: Z3 wall-clock limit per check (the prover's deterministic resource limit applies too).
        unify_constants: Opt-in constant spelling normalisation (off by default; see
            `lgmt_tasks.sources.common.unify_constants_in`).
        logicnli_premises: LogicNLI premise selection (``"all"``, ``"trace"``, ``"consistent-subset"``).
        workers: Processes proving in parallel (1: in this process). Results do not depend on it.
        progress: Show a tqdm progress bar on stderr.
        result: A result to add to (its ``records``/``skipped`` may already count reading-stage skips).

    Returns:
        The filled-in `AuditResult`.
    """
    result = result or AuditResult(source)
    result.options.update({"timeout_ms": timeout_ms, "unify_constants": unify_constants, "workers": workers})
    if source == "logicnli":
        result.options["premises"] = logicnli_premises
    items = list(
        audit_items(
            problems,
            result,
            unify_constants=unify_constants,
            logicnli_premises=logicnli_premises,
            timeout_ms=timeout_ms,
        )
    )
    start = time.perf_counter()
    bar = tqdm(total=len(items), desc=f"audit {source}", unit="problem", file=sys.stderr, disable=not progress)
    try:
        for item, (kind, value) in zip(items, _prove_all(items, timeout_ms, workers), strict=True):
            record_outcome(result, item, kind, value)
            bar.update()
    finally:
        bar.close()
    result.seconds = time.perf_counter() - start
    return result


def _prove_all(items: Sequence[AuditItem], timeout_ms: int | None, workers: int) -> Iterator[tuple[str, str]]:
    """Outcomes in item order, proven here or by a process pool (Z3 contexts are per call, so both are safe)."""
    if workers <= 1 or len(items) < 2:
        for item in items:
            yield prove_item(item, timeout_ms)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from pool.map(_prove_star, ((item, timeout_ms) for item in items), chunksize=8)


def audit_source(
    name: SourceName,
    path: str | Path,
    *,
    timeout_ms: int | None = DEFAULT_TIMEOUT_MS,
    limit: int | None = None,
    unify_constants: UnifyMode = "none",
    logicnli_premises: PremiseMode = "all",
    workers: int = 1,
    progress: bool = False,
) -> AuditResult:
    """Audit a source file or folder: parse every formula, prove every label, compare with gold.

    Args:
        name: ``"folio"``, ``"proverqa"`` or ``"logicnli"``.
        path: A file or a folder of files (any layout the source's loader reads).
        timeout_ms: Z3 wall-clock limit per check.
        limit: Audit only the first `limit` problems.
        unify_constants: Opt-in constant spelling normalisation (off by default).
        logicnli_premises: LogicNLI premise selection (default ``"all"``: the data as it is).
        workers: Prover processes.
        progress: Show a progress bar on stderr.

    Returns:
        The `AuditResult`.
    """
    if limit is not None and limit < 0:
        raise ValueError(f"limit must be non-negative, got {limit}")
    report = LoadReport(name)
    problems: list[SourceProblem] = []
    for problem in iter_problems(name, path, report):
        if limit is not None and len(problems) >= limit:
            break
        problems.append(problem)
    result = AuditResult(name, paths=list(report.paths), locations=report.locations)
    result.records += report.records  # records skipped while reading (unknown layout, duplicate id)
    result.skipped.update(report.skipped)
    result.unusable += [asdict(d) for d in report.details]
    return audit_problems(
        problems,
        name,
        timeout_ms=timeout_ms,
        unify_constants=unify_constants,
        logicnli_premises=logicnli_premises,
        workers=workers,
        progress=progress,
        result=result,
    )


# --------------------------------------------------------------------------- reports


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def agreement_markdown(results: Mapping[str, AuditResult], targets: Mapping[str, float] | None = None) -> str:
    """Write a Markdown report of several audits: one summary table, then every disagreement of each dataset.

    The report lists disagreements instead of hiding them: each row names the problem, both labels, the
    conclusion's FOL and the `symbol_hints` (likely annotation errors). It contains no timings, so the same data
    and code always give the same text.

    Args:
        results: Audit results by dataset title (e.g. ``"FOLIO v2 validation"``), in display order.
        targets: Minimum agreement by dataset title, shown next to the measured value.
    """
    targets = targets or {}
    lines = [
        "| dataset | records | unparsable formulas | proven | decided | undecided | contradictory "
        "| agree / decided with gold | agreement | target |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for title, r in results.items():
        agreement = "n/a" if r.agreement is None else f"{r.agreement:.2%}"
        target = f"≥ {targets[title]:.0%}" if title in targets else ""
        lines.append(
            f"| {title} | {r.records} | {r.unparsable} | {r.problems} | {r.decided} | {r.undecided} "
            f"| {r.contradictory} | {r.agree} / {r.with_gold} | {agreement} | {target} |"
        )
    for title, r in results.items():
        lines += ["", f"### {title}: {len(r.disagreements)} disagreements", ""]
        if r.unparsable_reasons:
            reasons = "; ".join(f"{n} × {reason}" for reason, n in r.unparsable_reasons.most_common())
            lines += [f"Unparsable formulas ({r.unparsable}, in {r.unparsable_records} records): {reasons}.", ""]
        if r.undecided_ids or r.contradictory_ids:
            lines += [
                f"Undecided: {', '.join(r.undecided_ids) or 'none'}. "
                f"Contradictory: {', '.join(r.contradictory_ids) or 'none'}.",
                "",
            ]
        if not r.disagreements:
            continue
        lines += ["| id | gold | Z3 | conclusion FOL | hints (likely annotation errors) |", "|---|---|---|---|---|"]
        lines += [
            f"| `{d.id}` | {d.gold} | {d.ours} | {_cell(d.conclusion_fol.strip())} | {_cell('; '.join(d.hints))} |"
            for d in r.disagreements
        ]
    return "\n".join(lines) + "\n"
