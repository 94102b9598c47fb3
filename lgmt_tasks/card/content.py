"""What a reliability card says, as typed data: every number with its interval, every run with its provenance.

The three renderings (`markdown_card`, `html_card`, `json_card`) and the Hub's eval-results file (`eval_results`) are
written from one `Card`, so they cannot disagree; `card.json` is `dataclasses.asdict` of it (NaN written as null),
and `card.schema.json` describes exactly these fields.

Why an `Estimate` and not a bare float: a card is read by people comparing models, and a rate without its interval
invites comparisons the counts cannot support (HELM's adjacent ranks, issue #39). So a rate on the card is always an
`Estimate`: the value, the interval, the count the interval is on, and how the interval was made (`method`, one of
`METHODS`). A figure that has no interval (a paper's, not re-run) is a `PaperFigure`, never an `Estimate`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from lgmt_tasks.suites import SUITE_NAMES

METHODS: dict[str, str] = {
    "wilson": "95% Wilson score interval of a mean of n outcomes in [0, 1] (a proportion, or a graded score)",
    "wilson-bonferroni": "Wilson score interval at level 1 − 0.05 / family: simultaneous 95% over the family's rows",
    "confidence-sequence": "anytime-valid confidence sequence of the adaptive run (valid at its data-dependent stop)",
    "confidence-sequence-pooled": "the group-weighted mean of the adaptive run's per-relation confidence sequences "
    "(covers the pooled rate whenever all the relations' sequences hold: level 1 − the runs' summed alpha)",
    "newcombe": "95% Newcombe paired hybrid score interval of a difference (method 10)",
    "none": "no interval: no scored item, or none holds (an adaptive run's rate split further than its sequences)",
}
"""Every interval method a card uses, and what it means (the JSON schema lists the same keys)."""


@dataclass(frozen=True)
class Estimate:
    """A rate with its interval.

    Attributes:
        value: The rate (None: no item to compute it on).
        low: The interval's lower bound (None without an interval).
        high: Its upper bound.
        n: The count the rate and interval are on (parsed groups for MVR, tests for accuracy; may be fractional after
            epoch reduction).
        method: How the interval was made, a key of `METHODS`.
        level: The nominal coverage (family-wise for `wilson-bonferroni` and the confidence sequences).
        family: How many intervals share that coverage (1 but for `wilson-bonferroni`).
    """

    value: float | None
    low: float | None
    high: float | None
    n: float | None
    method: str
    level: float = 0.95
    family: int = 1

    def contains_value(self) -> bool:
        """Whether the interval holds the value (True when either is missing: nothing to check)."""
        if self.value is None or self.low is None or self.high is None:
            return True
        return self.low - 1e-12 <= self.value <= self.high + 1e-12


def number(value: Any) -> float | None:
    """A float for the card, None for a missing, non-numeric or NaN value (JSON has no NaN)."""
    if isinstance(value, bool) or value is None:
        return None
    try:
        result = float(value)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(result) else result


@dataclass(frozen=True)
class DatasetRecord:
    """What a run evaluated: the rows' fingerprint and where they came from (the log's `eval.metadata["dataset"]`).

    Attributes:
        name: Inspect's dataset name.
        source: `build` (built on the fly or shipped), `folder`, `hub`, or `` when the log does not say.
        hub_id: The Hub repository, for a `hub` source.
        revision: The Hub revision, or the builder's `BUILD_REVISION` for a build.
        fingerprint: `sha256:` of the data files (two runs with the same fingerprint saw the same rows).
        rows: Rows in the dataset; `selected` of them were selectable by the task's arguments.
        selected: Rows the task arguments selected (before `--limit`).
        build_config: The build parameters (the builder's config), when the log records them.
    """

    name: str = ""
    source: str = ""
    hub_id: str | None = None
    revision: str | None = None
    fingerprint: str | None = None
    rows: int | None = None
    selected: int | None = None
    build_config: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class RunRecord:
    """One log or lm-eval results entry the card was made from.

    Attributes:
        path: The file, relative to the card folder's parent (`--out`), POSIX separators.
        harness: `inspect` or `lm-eval`.
        suite: The suite.
        task: Our Inspect task name (lm-eval tasks mapped to it).
        harness_task: The task's name in its harness.
        task_version: The version the run recorded.
        current_version: The suite's version in this lgmt-tasks (a different major number: not comparable).
        package_version: The lgmt-tasks version that ran it (Inspect only).
        inspect_version: Inspect's version (Inspect only).
        lm_eval_version: lm-eval's version (lm-eval only, when the results file says).
        command: The command that reproduces the run (rebuilt, `lgmt_tasks.report.eval_report.command`).
        created: When the run started (ISO 8601).
        status: The log's status (`success` for lm-eval).
        samples: Sample-epochs scored.
        errored: Sample-epochs that errored (in no metric).
        total: Sample-epochs of the whole dataset (before `--limit`).
        prompting: The run's prompting, in the leaderboard's vocabulary.
        task_args: The task arguments given (Inspect) or the task metadata (lm-eval).
        adaptive: The adaptive design (`threshold`, `weakest`) or None for a uniform run.
        dataset: What was evaluated.
    """

    path: str
    harness: str
    suite: str
    task: str
    harness_task: str
    task_version: str
    current_version: str
    package_version: str
    inspect_version: str
    lm_eval_version: str
    command: str
    created: str
    status: str
    samples: int | None
    errored: int | None
    total: int | None
    prompting: str
    task_args: dict[str, Any]
    adaptive: str | None
    dataset: DatasetRecord


@dataclass(frozen=True)
class Provenance:
    """Where every number on the card comes from.

    Attributes:
        generated_by: `lgmt-tasks <version>`, the package that wrote the card.
        model: The model's name as the harness recorded it.
        model_full_name: The full model name where ours serves it (the embedded model), else the name itself.
        runs: Every run read, in suite order.
        left_out: Logs found but not used, each with why (unreadable, unfinished, another model's is not listed).
    """

    generated_by: str
    model: str
    model_full_name: str
    runs: list[RunRecord]
    left_out: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class PaperFigure:
    """A figure the suite's paper reports for the same model family: shown beside ours, never re-run by us.

    Attributes:
        paper_model: The model as the paper names it.
        metric: The metric's name in our logs (may differ from the row's headline: the paper's own metric).
        value: The paper's value, as a fraction.
        setting: The paper's setting (prompting, subset).
        source: The paper and table (`Zhou et al., 2026, Table 4`).
        note: Always "paper, not re-run".
    """

    paper_model: str
    metric: str
    value: float
    setting: str
    source: str
    note: str = "paper, not re-run"


@dataclass(frozen=True)
class SuiteRow:
    """One row of the card's suite table: a suite's headline for one setting, or the note that it was not run.

    Attributes:
        suite: The suite.
        title: The suite's one-line title (registry).
        status: `run` or `not run`.
        setting: What distinguishes this row from the suite's other rows (prompting, settings, variant, log); "" alone.
        harness: `inspect` or `lm-eval` ("" when not run).
        tasks: The tasks run.
        metric: The headline metric's name in the logs (`mvr`, `accuracy`, `mvr_proven`, ...).
        metric_label: How the card names it.
        lower_is_better: The metric's direction.
        estimate: The headline with its interval (None when not run).
        unparsed_rate: Share of items with an unreadable answer.
        samples: Sample-epochs scored.
        errored: Sample-epochs that errored.
        total: Sample-epochs of the whole dataset.
        paper: The paper's figure for the same model family, if it reports one.
        logs: The runs behind the row (paths as in `RunRecord.path`).
    """

    suite: str
    title: str
    status: str
    setting: str = ""
    harness: str = ""
    tasks: list[str] = field(default_factory=list)
    metric: str = ""
    metric_label: str = ""
    lower_is_better: bool = False
    estimate: Estimate | None = None
    unparsed_rate: float | None = None
    samples: int | None = None
    errored: int | None = None
    total: int | None = None
    paper: PaperFigure | None = None
    logs: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class RelationRow:
    """One relation of the LGMT strip (or of a variant of it).

    Attributes:
        relation: `MR-E1.1`, ...
        variant: The reading of the law (`paper`, ...); "" when the groups hold one variant.
        groups: Groups scored.
        parsed: Groups whose answers all parsed (MVR's denominator).
        violations: Violated groups.
        mvr: MVR with its simultaneous interval (Bonferroni over the strip's rows with a parsed group), or the
            confidence sequence of an adaptive run.
        mvr_unadjusted: The same MVR with its own 95% Wilson interval (what `lgmt report` prints).
        decision: An adaptive run's decision for the relation (`above`, `below`, `weakest`, ...), else None.
        control_rate: The noise floor (or style control) rate on the relation's paired groups, where `-T control` ran.
        excess: MVR − control rate with its 95% Newcombe paired interval, where `-T control` ran.
        above_control: `yes` / `no` (Holm across the relations), where `-T control` ran.
    """

    relation: str
    variant: str
    groups: float
    parsed: float
    violations: float
    mvr: Estimate
    mvr_unadjusted: Estimate
    decision: str | None = None
    control_rate: float | None = None
    excess: Estimate | None = None
    above_control: str | None = None


@dataclass(frozen=True)
class AdaptiveRecord:
    """An adaptive run's design and what it saved (`lgmt_tasks.adaptive.report.AdaptiveSummary`)."""

    design: str
    tau: float
    margin: float
    alpha: float
    calls_made: int
    calls_uniform: int
    groups_run: int
    groups_skipped: int


@dataclass(frozen=True)
class LgmtStrip:
    """MVR per relation for one setting of one model, with simultaneous intervals.

    Attributes:
        setting: The setting's label ("" when the model has one).
        adjustment: `bonferroni` (fixed-n Wilson intervals at 1 − 0.05 / family) or `confidence-sequence` (adaptive).
        family: How many intervals share the 95% coverage (the relation rows with a parsed group).
        control: The control that ran (`repeat`: the noise floor, `render`: the style control), or None.
        relations: One row per relation (and variant, when the logs mix variants).
        adaptive: The adaptive runs' designs, when adaptive.
    """

    setting: str
    adjustment: str
    family: int
    control: str | None
    relations: list[RelationRow]
    adaptive: list[AdaptiveRecord] = field(default_factory=list)


@dataclass(frozen=True)
class SkillRow:
    """A LogicAsker skill (rule × problem type leaf) with its response accuracy and 95% Wilson interval."""

    rule: str
    problem_type: str
    logic: str
    category: str
    correct: float
    answered: float
    tests: float
    response_accuracy: Estimate


@dataclass(frozen=True)
class LogicAskerBlock:
    """LogicAsker for one setting: overall response accuracy and the weakest skills."""

    setting: str
    response_accuracy: Estimate
    instruction_following: float | None
    weakest: list[SkillRow]


@dataclass(frozen=True)
class QuestionTypeRow:
    """DivLogicEval's three metrics for one question type (or `all`)."""

    question_type: str
    instances: int
    accuracy: Estimate
    circular: Estimate
    partial_circular: Estimate
    unparsed_rate: float | None


@dataclass(frozen=True)
class DivLogicEvalBlock:
    """DivLogicEval for one setting: Accuracy vs Circular vs PartialCircular per question type, then `all`."""

    setting: str
    rows: list[QuestionTypeRow]


@dataclass(frozen=True)
class HeatCell:
    """One depth × width cell of QMFOL's heatmap: accuracy with its Wilson interval over the cell's tasks."""

    depth: int
    width: int
    accuracy: Estimate


@dataclass(frozen=True)
class QmfolHeatmap:
    """QMFOL's depth × width accuracy for one run (log)."""

    setting: str
    depths: list[int]
    widths: list[int]
    cells: list[HeatCell]


@dataclass(frozen=True)
class BasisRow:
    """The lexical suite's MVR on one basis of the follow-up's gold (`proven`, `assumed`, `unproven`, `all`)."""

    basis: str
    groups: float
    compared: float
    mvr: Estimate


@dataclass(frozen=True)
class LexicalBlock:
    """The lexical suite for one run: proven-only MVR beside the assumed one, and MR-49's noise floor."""

    setting: str
    bases: list[BasisRow]
    noise_floor: Estimate | None


@dataclass(frozen=True)
class Caveat:
    """One thing the card cannot claim, for the "not comparable" box.

    Attributes:
        kind: `not-run`, `no-value`, `partial-run`, `task-version`, `dataset`, `harness`, `errored`, `adaptive`,
            `unfinished`, `variants`, `prefill`, `paper`.
        text: One sentence saying what and why.
        suites: The suites it concerns.
    """

    kind: str
    text: str
    suites: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Card:
    """One model's reliability card.

    Attributes:
        schema_version: `json_card.CARD_SCHEMA_VERSION`.
        model: The model's name as the harness recorded it.
        slug: Its folder name under `--out`.
        provenance: Where every number comes from.
        suites: The suite table: every suite of the registry, in order, run or not.
        lgmt: The LGMT strips, one per setting (empty when LGMT was not run).
        logicasker: LogicAsker's blocks.
        divlogiceval: DivLogicEval's blocks.
        qmfol: QMFOL's heatmaps.
        lexical: The lexical suite's blocks.
        not_comparable: What the card cannot claim.
    """

    schema_version: str
    model: str
    slug: str
    provenance: Provenance
    suites: list[SuiteRow]
    lgmt: list[LgmtStrip]
    logicasker: list[LogicAskerBlock]
    divlogiceval: list[DivLogicEvalBlock]
    qmfol: list[QmfolHeatmap]
    lexical: list[LexicalBlock]
    not_comparable: list[Caveat]

    def run_suites(self) -> list[str]:
        """The suites with at least one row run, in registry order."""
        return list(dict.fromkeys(row.suite for row in self.suites if row.status == RUN))


RUN, NOT_RUN = "run", "not run"
"""`SuiteRow.status` values."""

SECTION_IDS: tuple[str, ...] = ("provenance", "suites", *SUITE_NAMES, "not-comparable")
"""The card's sections in order: their HTML `<section id>` and Markdown headings (the browser test checks them).

One section per suite of the registry, named by it; `Card` has a field of the same name for each (a test ties the two,
so a new suite cannot be left off the card silently)."""
