"""`verify_source`: the labels of a source benchmark's problems by Z3 and by a second prover, side by side.

The question here is not whether the benchmark's gold labels are right (`lgmt audit-source` measures that; the
known disagreements are in tests/fixtures/agreement_report.md) but whether two independent provers give the same
label to the same formalisation. Problems are read and parsed exactly as the audit reads them
(`lgmt_tasks.sources.audit.audit_items`), so an unparsable formula here is one there.

Each problem gets one of five outcomes (`checked` is their sum):

* `agree` / `disagree`: both provers decided (a label, or contradictory premises), the same way or not;
* `undecided_by_prover`: the second prover did not decide (whatever Z3 did);
* `undecided_by_z3`: Z3 did not decide and the second prover did;
* `unparsable`: a formula of the problem does not parse or is not a sentence.

Problems the audit skips for another reason (a FOLIO v0 train problem has no conclusion FOL) are counted apart.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tqdm import tqdm

from lgmt_tasks.logic.prover import Contradictory, Undecided
from lgmt_tasks.sources.audit import AuditItem, AuditResult, audit_items
from lgmt_tasks.sources.common import LoadReport, SourceName
from lgmt_tasks.sources.load import iter_problems
from lgmt_tasks.verify.claims import CONTRADICTORY
from lgmt_tasks.verify.dataset import sample_indices
from lgmt_tasks.verify.provers import DEFAULT_TIMEOUT_S, Prover, get_prover

SOURCE_COUNT_KEYS: tuple[str, ...] = (
    "checked",
    "agree",
    "disagree",
    "undecided_by_prover",
    "undecided_by_z3",
    "unparsable",
)


def _label(prover: Prover, item: AuditItem) -> tuple[bool, str]:
    """(decided, label or `contradictory` or the undecided reason)."""
    got = prover.entailment(item.premises_fol, item.conclusion_fol)
    if isinstance(got, Undecided):
        return False, got.reason
    if isinstance(got, Contradictory):
        return True, CONTRADICTORY
    return True, got.value


@dataclass
class SourceVerifyResult:
    """Counts and findings of one `lgmt verify-source` run.

    Attributes:
        source: The source name.
        prover: The second prover's name (the reference is always Z3).
        paths: Files read.
        problems: Problems read.
        sample: The requested sample size (None: every problem).
        seed: The sampling seed.
        timeout_s: The limit per query, for both provers.
        counts: `SOURCE_COUNT_KEYS` counts.
        skipped: Sampled problems not proven for another reason, by reason.
        gold: Over problems both decided that have a gold label: how often each prover's label is the gold one.
        disagreements: `{id, claim, expected, got}`: expected is Z3's answer, got the second prover's.
        undecided: `{id, prover, reason}` per undecided query.
        unparsable_ids: Ids of sampled problems with a formula that does not parse.
        seconds: Wall-clock time of the proving stage.
    """

    source: str
    prover: str
    paths: list[str] = field(default_factory=list)
    problems: int = 0
    sample: int | None = None
    seed: int = 0
    timeout_s: float = 0.0
    counts: Counter[str] = field(default_factory=lambda: Counter({k: 0 for k in SOURCE_COUNT_KEYS}))
    skipped: Counter[str] = field(default_factory=Counter)
    gold: Counter[str] = field(default_factory=Counter)
    disagreements: list[dict[str, str]] = field(default_factory=list)
    undecided: list[dict[str, str]] = field(default_factory=list)
    unparsable_ids: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def add(self, item: AuditItem, z3: tuple[bool, str], other: tuple[bool, str]) -> None:
        """Count one proven problem."""
        self.counts["checked"] += 1
        for name, (decided, answer) in (("z3", z3), (self.prover, other)):
            if not decided:
                self.undecided.append({"id": item.id, "prover": name, "reason": answer})
        if not other[0]:
            self.counts["undecided_by_prover"] += 1
        elif not z3[0]:
            self.counts["undecided_by_z3"] += 1
        elif z3[1] == other[1]:
            self.counts["agree"] += 1
        else:
            self.counts["disagree"] += 1
            self.disagreements.append({"id": item.id, "claim": "label", "expected": z3[1], "got": other[1]})
        if z3[0] and other[0] and item.gold is not None:
            self.gold["with_gold"] += 1
            self.gold["z3_agree"] += z3[1] == item.gold
            self.gold[f"{self.prover}_agree"] += other[1] == item.gold

    def summary(self) -> dict[str, Any]:
        """One JSON-serialisable dict (what `lgmt verify-source --json` prints)."""
        return {
            "source": self.source,
            "prover": self.prover,
            "reference": "z3",
            "paths": list(self.paths),
            "problems": self.problems,
            **{k: self.counts[k] for k in SOURCE_COUNT_KEYS},
            "skipped": dict(self.skipped),
            "gold": dict(self.gold),
            "disagreements": list(self.disagreements),
            "undecided": list(self.undecided),
            "unparsable_ids": list(self.unparsable_ids),
            "sample": self.sample,
            "seed": self.seed,
            "timeout_s": self.timeout_s,
            "seconds": round(self.seconds, 2),
        }

    def to_text(self) -> str:
        """A human summary: counts, then every disagreement and undecided query with its id."""
        c = self.counts
        sampled = f"{c['checked'] + sum(self.skipped.values())} of {self.problems} problems"
        if self.sample is not None:
            sampled += f" (sample {self.sample}, seed {self.seed})"
        decided = c["agree"] + c["disagree"]
        share = f"{c['agree'] / decided:.2%}" if decided else "n/a"
        lines = [
            f"source: {self.source}   z3 vs {self.prover}   {sampled}   limit {self.timeout_s:g} s per query",
            *(f"{k:<20}{c[k]:>8}" for k in SOURCE_COUNT_KEYS),
            f"agreement where both decide: {c['agree']}/{decided} = {share}",
        ]
        if self.skipped:
            lines.append("skipped: " + ", ".join(f"{n} {reason}" for reason, n in self.skipped.items()))
        if self.gold["with_gold"]:
            lines.append(
                f"gold label, of {self.gold['with_gold']} decided by both: z3 {self.gold['z3_agree']}, "
                f"{self.prover} {self.gold[f'{self.prover}_agree']}"
            )
        lines.append(f"time: {self.seconds:.1f} s")
        if self.disagreements:
            lines += ["", f"disagreements ({len(self.disagreements)}):"]
            lines += [f"  {d['id']}  z3 {d['expected']}, {self.prover} {d['got']}" for d in self.disagreements]
        if self.undecided:
            lines += ["", f"undecided ({len(self.undecided)}):"]
            lines += [f"  {u['id']}  {u['prover']}: {u['reason']}" for u in self.undecided]
        if self.unparsable_ids:
            lines += ["", f"unparsable ({len(self.unparsable_ids)}): {', '.join(self.unparsable_ids)}"]
        return "\n".join(lines)


def verify_source(
    name: SourceName,
    path: str | Path,
    *,
    prover: str | Prover = "eprover",
    sample: int | None = None,
    seed: int = 0,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    progress: bool = False,
) -> SourceVerifyResult:
    """Label a source's problems (or a seeded sample of them) with Z3 and with a second prover, and compare.

    Args:
        name: `folio`, `proverqa` or `logicnli` (LogicNLI with every premise of its story, as the audit shows it).
        path: A source file or folder.
        prover: The second prover: `eprover`, `z3`, or a `Prover`.
        sample: Check a seeded sample of this many problems (default: every problem).
        seed: The sampling seed.
        timeout_s: The limit per query, for both provers.
        progress: Show a progress bar on stderr.

    Returns:
        The `SourceVerifyResult`.
    """
    other = prover if isinstance(prover, Prover) else get_prover(prover, timeout_s)
    z3 = get_prover("z3", other.timeout_s)
    report = LoadReport(name)
    problems = list(iter_problems(name, path, report))
    result = SourceVerifyResult(
        name, other.name, list(report.paths), len(problems) + report.records, sample, seed, other.timeout_s
    )
    chosen = [problems[i] for i in sample_indices(len(problems), sample, seed)]
    start = time.perf_counter()
    for problem in tqdm(chosen, desc=f"z3 vs {other.name}", unit="problem", file=sys.stderr, disable=not progress):
        audit = AuditResult(name)  # counts why a problem yields no item
        items = list(audit_items([problem], audit, timeout_ms=round(other.timeout_s * 1000)))
        if not items:
            if audit.unparsable_records:
                result.counts["checked"] += 1
                result.counts["unparsable"] += 1
                result.unparsable_ids.append(problem.id)
            else:
                result.skipped.update(audit.skipped)
            continue
        for item in items:
            result.add(item, _label(z3, item), _label(other, item))
    result.seconds = time.perf_counter() - start
    return result
