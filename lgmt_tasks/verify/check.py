"""Re-prove claims with a prover and count the outcomes, keeping them apart.

Every claim ends in exactly one of four outcomes, so `checked = agree + disagree + undecided_by_prover +
unparsable` always holds:

* `agree`: the prover decided and its answer is the row's;
* `disagree`: the prover decided otherwise (for a label, `contradictory` premises are a decided answer too);
* `undecided_by_prover`: the prover hit its limit or gave up (never counted as a refutation);
* `unparsable`: a formula of the claim does not parse, is not a sentence, or the row lacks what the claim needs.

Identical queries (the four topics of a QMFOL configuration, the source case shared by many lexical rows) are
proven once per run; the counts are still per claim.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from lgmt_tasks.logic.parse import FormulaSyntaxError, parse
from lgmt_tasks.logic.prover import Contradictory, Undecided
from lgmt_tasks.logic.syntax import Formula, free_vars
from lgmt_tasks.verify.claims import (
    CONTRADICTORY,
    ENTAILED,
    EQUIVALENT,
    NOT_ENTAILED,
    NOT_EQUIVALENT,
    Claim,
)
from lgmt_tasks.verify.provers import Prover
from lgmt_tasks.verify.shortcuts import battery_table

Status = Literal["agree", "disagree", "undecided", "unparsable"]
COUNT_KEYS: tuple[str, ...] = ("checked", "agree", "disagree", "undecided_by_prover", "unparsable")


class UnparsableFormula(ValueError):
    """A formula string is not a sentence of our FOL."""


class ProverFailed(RuntimeError):
    """The prover failed on a query (not a limit: an error), named by the row id and the claim."""


@dataclass(frozen=True)
class Outcome:
    """The outcome of one claim: its status and the prover's answer (or why there is none)."""

    status: Status
    got: str


def parse_sentence(text: str) -> Formula:
    """Parse a stored formula and require a sentence (no free variables).

    Raises:
        UnparsableFormula: With the text and the parser's reason.
    """
    try:
        formula = parse(text)
    except FormulaSyntaxError as exc:
        raise UnparsableFormula(f"{text!r}: syntax error at column {exc.column + 1}, expected {exc.expected}") from exc
    free = free_vars(formula)
    if free:
        raise UnparsableFormula(f"{text!r}: free variable(s) {', '.join(sorted(free))}")
    return formula


def _decide(claim: Claim, formulas: tuple[Formula, ...], prover: Prover) -> tuple[bool, str]:
    """Ask the prover; return (decided, answer-or-undecided-reason)."""
    if claim.kind == "equivalent":
        a, b = formulas
        eq = prover.equivalent(a, b)
        return (False, eq.reason) if isinstance(eq, Undecided) else (True, EQUIVALENT if eq else NOT_EQUIVALENT)
    premises, conclusion = formulas[:-1], formulas[-1]
    if claim.kind == "entails":
        ent = prover.entails(premises, conclusion)
        return (False, ent.reason) if isinstance(ent, Undecided) else (True, ENTAILED if ent else NOT_ENTAILED)
    label = prover.entailment(premises, conclusion)
    if isinstance(label, Undecided):
        return False, label.reason
    if isinstance(label, Contradictory):
        return True, CONTRADICTORY
    return True, label.value


@dataclass
class ClaimChecker:
    """Proves claims with one prover, caching parses and identical queries for the length of a run."""

    prover: Prover
    _parsed: dict[str, Formula | UnparsableFormula] = field(default_factory=dict)
    _answers: dict[tuple[str, tuple[str, ...]], tuple[bool, str]] = field(default_factory=dict)
    queries: int = 0

    def _formula(self, text: str) -> Formula:
        if text not in self._parsed:
            try:
                self._parsed[text] = parse_sentence(text)
            except UnparsableFormula as exc:
                self._parsed[text] = exc
        got = self._parsed[text]
        if isinstance(got, UnparsableFormula):
            raise got
        return got

    def check(self, claim: Claim) -> Outcome:
        """The outcome of one claim."""
        if claim.malformed:
            return Outcome("unparsable", claim.malformed)
        try:
            formulas = tuple(self._formula(t) for t in claim.formulas)
        except UnparsableFormula as exc:
            return Outcome("unparsable", str(exc))
        key = (claim.kind, claim.formulas)
        if key not in self._answers:
            self.queries += 1
            try:
                self._answers[key] = _decide(claim, formulas, self.prover)
            except Exception as exc:  # a fatal prover error: re-raised with the row that caused it
                raise ProverFailed(f"row {claim.row_id}, {claim.what}: {self.prover.name} failed: {exc}") from exc
        decided, answer = self._answers[key]
        if not decided:
            return Outcome("undecided", answer)
        return Outcome("agree" if answer == claim.expected else "disagree", answer)


@dataclass
class VerifyResult:
    """Counts and findings of one `lgmt verify` run.

    Attributes:
        suite: The suite.
        prover: The prover's name.
        path: The dataset folder.
        rows: Rows in the dataset.
        rows_checked: Rows whose claims were checked (the sample).
        sample: The requested sample size (None: every row).
        seed: The sampling seed.
        timeout_s: The prover's limit per query.
        note: What the suite's claims cover.
        by_group: Counts (`COUNT_KEYS`) per claim family.
        disagreements: `{id, claim, expected, got}` per disagreeing claim.
        undecided: `{id, claim, reason}` per undecided claim.
        unparsable_items: `{id, claim, reason}` per unparsable claim.
        queries: Distinct prover queries made.
        seconds: Wall-clock time of the proving stage.
        shortcuts: The suite's shortcut battery on every row (`verify.shortcuts.HeuristicScore.as_dict`), if it
            has one: form-only heuristics, each with its accuracy beside chance.
    """

    suite: str
    prover: str
    path: str = ""
    rows: int = 0
    rows_checked: int = 0
    sample: int | None = None
    seed: int = 0
    timeout_s: float = 0.0
    note: str = ""
    by_group: dict[str, Counter[str]] = field(default_factory=dict)
    disagreements: list[dict[str, str]] = field(default_factory=list)
    undecided: list[dict[str, str]] = field(default_factory=list)
    unparsable_items: list[dict[str, str]] = field(default_factory=list)
    queries: int = 0
    seconds: float = 0.0
    shortcuts: list[dict[str, Any]] = field(default_factory=list)

    def add(self, claim: Claim, outcome: Outcome) -> None:
        """Count one claim's outcome."""
        counts = self.by_group.setdefault(claim.group, Counter({k: 0 for k in COUNT_KEYS}))
        counts["checked"] += 1
        if outcome.status == "agree":
            counts["agree"] += 1
        elif outcome.status == "disagree":
            counts["disagree"] += 1
            self.disagreements.append(
                {"id": claim.row_id, "claim": claim.what, "expected": claim.expected, "got": outcome.got}
            )
        elif outcome.status == "undecided":
            counts["undecided_by_prover"] += 1
            self.undecided.append({"id": claim.row_id, "claim": claim.what, "reason": outcome.got})
        else:
            counts["unparsable"] += 1
            self.unparsable_items.append({"id": claim.row_id, "claim": claim.what, "reason": outcome.got})

    def total(self, key: str) -> int:
        """A count summed over claim families."""
        return sum(c[key] for c in self.by_group.values())

    def summary(self) -> dict[str, Any]:
        """One JSON-serialisable dict (what `lgmt verify --json` prints)."""
        return {
            "suite": self.suite,
            "prover": self.prover,
            "path": self.path,
            "rows": self.rows,
            "rows_checked": self.rows_checked,
            **{key: self.total(key) for key in COUNT_KEYS},
            "by_claim": {group: dict(counts) for group, counts in self.by_group.items()},
            "disagreements": list(self.disagreements),
            "undecided": list(self.undecided),
            "unparsable_items": list(self.unparsable_items),
            "sample": self.sample,
            "seed": self.seed,
            "timeout_s": self.timeout_s,
            "queries": self.queries,
            "seconds": round(self.seconds, 2),
            "note": self.note,
            "shortcuts": list(self.shortcuts),
        }

    def to_text(self) -> str:
        """A summary table, then every disagreement, undecided and unparsable claim with its row id."""
        sampled = f"{self.rows_checked} of {self.rows} rows"
        if self.sample is not None:
            sampled += f" (sample {self.sample}, seed {self.seed})"
        lines = [
            f"suite: {self.suite}   prover: {self.prover}   {sampled}   limit {self.timeout_s:g} s per query",
            f"claims: {self.note}",
            "",
        ]
        header = ("claim", "checked", "agree", "disagree", "undecided", "unparsable")
        table = [[g, *(str(c[k]) for k in COUNT_KEYS)] for g, c in self.by_group.items()]
        table.append(["total", *(str(self.total(k)) for k in COUNT_KEYS)])
        width = max([len(header[0]), *(len(r[0]) for r in table)])
        lines.append(f"{header[0]:<{width}}" + "".join(f"{h:>12}" for h in header[1:]))
        lines += [f"{r[0]:<{width}}" + "".join(f"{v:>12}" for v in r[1:]) for r in table]
        decided = self.total("agree") + self.total("disagree")
        share = f"{self.total('agree') / decided:.2%}" if decided else "n/a"
        lines += [
            "",
            f"agreement on decided claims: {self.total('agree')}/{decided} = {share}",
            f"{self.queries} distinct queries in {self.seconds:.1f} s",
        ]
        if self.shortcuts:
            above = [s for s in self.shortcuts if not s["within"]]
            lines += [
                "",
                f"shortcut battery (form-only heuristics on all {self.rows} rows; each must stay within "
                f"chance + margin): {len(above)} above",
                battery_table(self.shortcuts),
            ]
        for title, items, fmt in (
            ("disagreements", self.disagreements, "  {id}  {claim}: expected {expected}, got {got}"),
            ("undecided by the prover", self.undecided, "  {id}  {claim}: {reason}"),
            ("unparsable", self.unparsable_items, "  {id}  {claim}: {reason}"),
        ):
            if items:
                lines += ["", f"{title} ({len(items)}):", *(fmt.format(**item) for item in items)]
        return "\n".join(lines)


def check_claims(claims: Iterable[Claim], checker: ClaimChecker, result: VerifyResult) -> VerifyResult:
    """Prove every claim and count it in `result` (which is returned)."""
    start = time.perf_counter()
    for claim in claims:
        result.add(claim, checker.check(claim))
    result.seconds += time.perf_counter() - start
    result.queries = checker.queries
    return result


def row_id(row: Mapping[str, Any], fallback: str) -> str:
    """A row's `id` column, or `fallback` (its position) when the row has none."""
    value = row.get("id")
    return value if isinstance(value, str) and value else fallback
