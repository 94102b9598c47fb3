"""The DivLogicEval builder: four-option logic questions with every answer key proven (Chung et al., 2025, §2.1).

The authors published data but no generator; this rebuilds the generator from §2.1 and Appendices A–B.

Pipeline per instance (each with its own seeded generator, so the output does not depend on processing order):

1. Content (`divlogiceval_logic.sample_content`, Algorithm 1): 2 to n + 1 propositions, each the premise of one of
   the rules of Eq. (1) over variables drawn from A–H with the occurrence-based probabilities of Eq. (3).
2. Potential answer set over the variables used fewer than n times: literals and implications between literals,
   split into the entailment group (needing at least two propositions) and the non-entailment group.
3. The question type decides the options:
   - `3c1e`: one entailed option (the answer) and three non-entailed ones;
   - `3e1c`: three entailed options and one non-entailed one (the answer);
   - `missing` (missing premise): a conclusion from the entailment group is added to the content, one proposition
     it needs is removed and becomes the answer, and three non-entailed formulas that do not restore the entailment
     are the distractors.
   Options are drawn so that no two are equivalent and the answer's shape (literal, implication, rule premise) also
   occurs among the distractors, so the form of an option never gives the answer away. A content without enough
   options of a kind is redrawn (counted by reason).
4. Proof: the answer key and every construction claim (each distractor entailed or not, as its type requires; no
   single proposition entails the answer) are proven by Z3 (`entails`, see `prove_item`); an item with any claim
   refuted or undecided is dropped and counted. Truth tables only steer the drawing; Z3 decides what ships.
5. English (`divlogiceval_english`): a distinct pool sentence per variable, negations for negated variables, a
   random connective template per formula, a question wording per type.
6. The answer positions are assigned from a balanced schedule, so each of A–D is the answer equally often (within
   one) in every question type and over the whole build.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

import datasets

from lgmt_tasks.builders.parallel import process_pool, split
from lgmt_tasks.builders.rows import dataset_from_rows
from lgmt_tasks.builders.stats import BuildStats
from lgmt_tasks.divlogiceval.english import BUILTIN_POOL, PoolSentence, Realiser, load_pool
from lgmt_tasks.divlogiceval.logic import (
    VARIABLES,
    Proposition,
    kind,
    models,
    models_of_all,
    necessary_premises,
    option_variables,
    pick_distinct,
    potential_answers,
    rule_shaped,
    sample_content,
    shape,
    split_answers,
)
from lgmt_tasks.ids import content_id, derived_seed
from lgmt_tasks.logic.printer import show
from lgmt_tasks.logic.prover import DEFAULT_TIMEOUT_MS, Undecided, entails
from lgmt_tasks.logic.syntax import Atom, Formula, subformulas
from lgmt_tasks.vocabulary import OPTION_LETTERS

BUILD_REVISION = 1
"""Bumped whenever the builder's output changes for the same config (part of the build-cache key)."""

QuestionType = Literal["3c1e", "3e1c", "missing"]
QUESTION_TYPES: tuple[str, ...] = ("3c1e", "3e1c", "missing")
"""The three question types of §2.1, in the paper's order."""

DEFAULT_PER_TYPE = 20
"""Instances per question type of the default build (small enough to build on the fly in a few seconds)."""

DEFAULT_N = 3
"""The paper's n (2..n + 1 propositions, at most n occurrences of a variable); the paper does not state its value."""

LETTERS = OPTION_LETTERS

QUESTIONS: dict[str, tuple[str, ...]] = {
    "3c1e": (
        "Given the information provided, which conclusion is most likely to be accurate?",
        "Which of the following can be concluded from the statements above?",
        "If the statements above are true, which of the following must also be true?",
    ),
    "3e1c": (
        "Given the information provided, which conclusion is least likely to be accurate?",
        "Which of the following can NOT be concluded from the statements above?",
        "If the statements above are true, each of the following must also be true EXCEPT:",
    ),
    "missing": (
        "The conclusion above does not follow from the statements alone. Which of the following, if added as a "
        "premise, allows the conclusion to be properly drawn?",
        "Which of the following is the missing premise that makes the argument above logically valid?",
        "The argument above relies on an unstated premise. Which of the following, if assumed, makes the "
        "conclusion follow?",
    ),
}
"""Question wordings per type (one is drawn per instance); the 3e1c wording is the paper's (Appendix H)."""

CONCLUSION_LEAD = "Therefore, "
"""How the conclusion of a missing-premise question is joined to the content."""

_VARIABLE_FEATURES = {
    "name": datasets.Value("string"),
    "sentence": datasets.Value("string"),
    "negation": datasets.Value("string"),
}

FEATURES = datasets.Features(
    {
        "id": datasets.Value("string"),
        "question_type": datasets.Value("string"),
        "content": datasets.Value("string"),
        "content_logic": datasets.List(datasets.Value("string")),
        "question": datasets.Value("string"),
        "options": datasets.List(datasets.Value("string")),
        "options_logic": datasets.List(datasets.Value("string")),
        "answer": datasets.Value("int32"),
        "conclusion": datasets.Value("string"),
        "conclusion_logic": datasets.Value("string"),
        "removed_rule": datasets.Value("string"),
        "rules": datasets.List(datasets.Value("string")),
        "templates": datasets.List(datasets.Value("string")),
        "option_templates": datasets.List(datasets.Value("string")),
        "variables": datasets.List(_VARIABLE_FEATURES),
        "num_propositions": datasets.Value("int32"),
        "occurrences": datasets.List(datasets.Value("int32")),
        "n": datasets.Value("int32"),
        "seed": datasets.Value("int64"),
        "pool": datasets.Value("string"),
    }
)


@dataclass(frozen=True)
class DivLogicEvalConfig:
    """Everything that determines a DivLogicEval build (and so its cache key).

    Attributes:
        per_type: Instances per question type.
        seed: Build seed.
        n: The paper's n: 2..n + 1 propositions per instance, a variable occurs at most n times.
        pool: Sentence pool: None (ours), a `.txt` / `.jsonl` file, or a dataset folder or Hub id.
        pool_column: The sentence column or field of a JSONL / dataset pool.
        pool_negation_column: The negation column, used when present (else negations are made by rule).
        pool_split: The split of a dataset pool.
        max_attempts: Contents drawn per instance before giving up on it (each draw has its own seed).
        timeout_ms: Z3 limit per query.
    """

    per_type: int = DEFAULT_PER_TYPE
    seed: int = 0
    n: int = DEFAULT_N
    pool: str | None = None
    pool_column: str = "sentence"
    pool_negation_column: str | None = "negation"
    pool_split: str = "train"
    max_attempts: int = 200
    timeout_ms: int = DEFAULT_TIMEOUT_MS

    def __post_init__(self) -> None:
        if self.per_type < 1:
            raise ValueError(f"per_type={self.per_type}: must be at least 1")
        if not 2 <= self.n <= 6:
            raise ValueError(f"n={self.n}: expected 2..6 (eight variables cannot fill more propositions)")
        if self.max_attempts < 1:
            raise ValueError(f"max_attempts={self.max_attempts}: must be at least 1")

    def key(self) -> dict[str, Any]:
        """The config as plain data, with a digest of a pool file's content (so an edited pool rebuilds)."""
        key = asdict(self)
        if self.pool and Path(self.pool).is_file():
            key["pool_sha256"] = hashlib.sha256(Path(self.pool).read_bytes()).hexdigest()
        return key


@dataclass(frozen=True)
class SymbolicItem:
    """One instance before English: the content, the options, and what the proof must establish.

    Attributes:
        question_type: `3c1e`, `3e1c` or `missing`.
        propositions: Every sampled proposition (for `missing`, including the removed one).
        shown: Indices of the propositions shown in the content (all but the removed one for `missing`).
        conclusion: The conclusion of a missing-premise question (None otherwise).
        answer: The correct option.
        distractors: The three other options.
        occurrences: The final occurrence counter of Algorithm 1 (one count per variable A–H).
    """

    question_type: str
    propositions: tuple[Proposition, ...]
    shown: tuple[int, ...]
    conclusion: Formula | None
    answer: Formula
    distractors: tuple[Formula, ...]
    occurrences: tuple[int, ...]

    @property
    def content(self) -> list[Formula]:
        """The propositions shown to the model."""
        return [self.propositions[i].formula for i in self.shown]

    @property
    def full_content(self) -> list[Formula]:
        """Every sampled proposition."""
        return [p.formula for p in self.propositions]

    @property
    def removed(self) -> Proposition | None:
        """The removed proposition of a missing-premise question."""
        hidden = [p for i, p in enumerate(self.propositions) if i not in self.shown]
        return hidden[0] if hidden else None


@dataclass
class DivLogicEvalBuild:
    """A finished build: the rows, the statistics and the config."""

    dataset: datasets.Dataset
    stats: BuildStats = field(default_factory=BuildStats)
    config: DivLogicEvalConfig = field(default_factory=DivLogicEvalConfig)


# ------------------------------------------------------------------------------------------------------ symbolic


def _matching_shape(
    rng: random.Random, pool: Sequence[Formula], k: int, wanted: str, avoid: Sequence[Formula]
) -> list[Formula] | None:
    """Draw `k` inequivalent formulas from `pool`, preferring the shape `wanted` (at least one has it).

    Preference order: the exact shape (kind and polarity, `shape`), then the same kind (`kind`), then any, so that
    the answer's form is shared by as many options as the pool allows.

    Args:
        rng: The draw's random generator.
        pool: Candidates, in order of preference (earlier candidates of a tier are not favoured: each tier is
            shuffled).
        k: How many to draw.
        wanted: The shape to prefer (that of the answer, so that no option stands out by its form).
        avoid: Formulas already chosen, which the drawn ones must not be equivalent to.

    Returns:
        The formulas, or None if the pool has no formula of shape `wanted` or fewer than `k` in all.
    """
    wanted_kind = wanted.rstrip("+-")
    tiers = [
        [f for f in pool if shape(f) == wanted],
        [f for f in pool if shape(f) != wanted and kind(f) == wanted_kind],
        [f for f in pool if kind(f) != wanted_kind],
    ]
    chosen: list[Formula] = []
    for tier in tiers:
        if len(chosen) < k:
            chosen += pick_distinct(rng, tier, k - len(chosen), [*avoid, *chosen], at_most=True) or []
    if len(chosen) < k or not any(shape(f) == wanted for f in chosen):
        return None
    return chosen


def make_item(question_type: str, rng: random.Random, n: int) -> SymbolicItem | str:
    """Draw one symbolic instance of a question type, or say why this draw has none.

    Args:
        question_type: `3c1e`, `3e1c` or `missing`.
        rng: The draw's random generator.
        n: The paper's n.

    Returns:
        The item, or a short reason (a drop-statistics key) when the drawn content cannot make this question type.
    """
    drawn = sample_content(rng, n)
    if drawn is None:
        return "no selectable variables"
    propositions, occurrences = drawn
    content = [p.formula for p in propositions]
    split = split_answers(content, potential_answers(option_variables(occurrences, n)))
    everything = tuple(range(len(propositions)))
    if question_type == "3c1e":
        if not split.entailed:
            return "no entailed option"
        answer = rng.choice(split.entailed)
        distractors = _matching_shape(rng, split.not_entailed, 3, shape(answer), [answer])
        if distractors is None:
            return "too few non-entailed options"
        return SymbolicItem(
            "3c1e", tuple(propositions), everything, None, answer, tuple(distractors), tuple(occurrences)
        )
    if question_type == "3e1c":
        entailed = pick_distinct(rng, split.entailed, 3)
        if entailed is None:
            return "fewer than three entailed options"
        wanted = shape(rng.choice(entailed))
        answers = _matching_shape(rng, split.not_entailed, 1, wanted, entailed)
        if answers is None:
            return "no non-entailed option of a matching shape"
        return SymbolicItem(
            "3e1c", tuple(propositions), everything, None, answers[0], tuple(entailed), tuple(occurrences)
        )
    if question_type == "missing":
        return _missing_premise(rng, propositions, occurrences, split.entailed, split.not_entailed)
    raise ValueError(f"question_type={question_type!r}: expected one of {', '.join(QUESTION_TYPES)}")


def _missing_premise(
    rng: random.Random,
    propositions: Sequence[Proposition],
    occurrences: Sequence[int],
    entailed: Sequence[Formula],
    not_entailed: Sequence[Formula],
) -> SymbolicItem | str:
    """A missing-premise item: conclusion from the entailment group, a needed proposition removed (§2.1)."""
    content = [p.formula for p in propositions]
    pairs = [(c, j) for c in entailed for j in necessary_premises(content, c)]
    if not pairs:
        return "no conclusion with a necessary premise"
    conclusion, removed = rng.choice(pairs)
    shown = tuple(i for i in range(len(propositions)) if i != removed)
    rest = [content[i] for i in shown]
    answer = content[removed]
    used = sorted({v for p in propositions for v in p.variables})
    # Distractors shaped like the answer (the same rule over the content's variables), then the non-entailment
    # group; all must be non-entailed by the full content and must not restore the conclusion.
    shaped = [f for f in rule_shaped(propositions[removed].rule, used) if models(f) != models(answer)]
    whole = models_of_all(content)
    rest_mask = models_of_all(rest)
    counter = ~models(conclusion)

    def admissible(f: Formula) -> bool:
        mask = models(f)
        return bool(whole & ~mask) and bool(rest_mask & mask & counter)

    pool = [f for f in [*shaped, *not_entailed] if admissible(f)]
    distractors = _matching_shape(rng, list(dict.fromkeys(pool)), 3, shape(answer), [answer, conclusion])
    if distractors is None:
        return "too few distractors that leave the conclusion unproven"
    return SymbolicItem(
        "missing", tuple(propositions), shown, conclusion, answer, tuple(distractors), tuple(occurrences)
    )


# -------------------------------------------------------------------------------------------------------- proofs


Claim = tuple[str, list[Formula], Formula, bool]
"""One entailment claim of a row: `(what, premises, conclusion, expected)`, expected = whether premises ⊨ conclusion."""


def answer_key_claims(item: SymbolicItem) -> list[Claim]:
    """The claims that make the answer key right: exactly the answer is correct under the question's reading.

    - `3c1e`: the content entails the answer and none of the distractors;
    - `3e1c`: the content entails every distractor and not the answer;
    - `missing`: the shown content does not entail the conclusion, it does with the answer added, and it still does
      not with any distractor added.
    """
    if item.question_type == "3c1e":
        return [
            ("content entails the answer", item.content, item.answer, True),
            *(
                (f"content does not entail distractor {k + 1}", item.content, d, False)
                for k, d in enumerate(item.distractors)
            ),
        ]
    if item.question_type == "3e1c":
        return [
            *((f"content entails distractor {k + 1}", item.content, d, True) for k, d in enumerate(item.distractors)),
            ("content does not entail the answer", item.content, item.answer, False),
        ]
    assert item.conclusion is not None
    return [
        ("shown content does not entail the conclusion", item.content, item.conclusion, False),
        ("shown content and the answer entail the conclusion", [*item.content, item.answer], item.conclusion, True),
        *(
            (
                f"shown content and distractor {k + 1} do not entail the conclusion",
                [*item.content, d],
                item.conclusion,
                False,
            )
            for k, d in enumerate(item.distractors)
        ),
    ]


def construction_claims(item: SymbolicItem) -> list[Claim]:
    """The claims of the construction (§2.1) beyond the answer key.

    Every entailed option (3c1e: the answer; 3e1c: the distractors; missing: the conclusion) needs at least two
    propositions: no single proposition entails it. The distractors of a missing-premise question come from the
    non-entailment group: the full content does not entail them.
    """
    needed: list[Formula]
    if item.question_type == "3c1e":
        needed = [item.answer]
    elif item.question_type == "3e1c":
        needed = list(item.distractors)
    else:
        assert item.conclusion is not None
        needed = [item.conclusion]
    out: list[Claim] = []
    for k, formula in enumerate(needed):
        out += [
            (f"proposition {i + 1} alone does not entail entailed formula {k + 1}", [p], formula, False)
            for i, p in enumerate(item.full_content)
        ]
    if item.question_type == "missing":
        out += [
            (f"full content does not entail distractor {k + 1}", item.full_content, d, False)
            for k, d in enumerate(item.distractors)
        ]
    return out


def prove_item(item: SymbolicItem, timeout_ms: int = DEFAULT_TIMEOUT_MS, construction: bool = False) -> str | None:
    """Prove the answer key of an item with Z3 (and, optionally, the construction claims).

    The construction claims were decided by truth tables when the item was drawn; the builder proves them again with
    Z3 (`construction=True`, about twice the cost of the answer key alone), so nothing unproven ships.

    Args:
        item: The item.
        timeout_ms: Z3 limit per query.
        construction: Also prove `construction_claims`.

    Returns:
        None if every claim is proven, else the drop reason: `undecided: <reason>` or `prover disagrees: <claim>`
        (the truth tables that chose the options were wrong, which never happens).
    """
    todo = answer_key_claims(item) + (construction_claims(item) if construction else [])
    for what, premises, conclusion, expected in todo:
        result = entails(premises, conclusion, timeout_ms=timeout_ms)
        if isinstance(result, Undecided):
            return f"undecided: {result.reason}"
        if result is not expected:
            return f"prover disagrees: {what}"
    return None


# ------------------------------------------------------------------------------------------------------- English


def _variables_of(item: SymbolicItem) -> list[str]:
    names: set[str] = {v for p in item.propositions for v in p.variables}
    for formula in (*item.distractors, item.answer, *([item.conclusion] if item.conclusion else [])):
        names |= _atoms(formula)
    return [v for v in VARIABLES if v in names]


def _atoms(formula: Formula) -> set[str]:
    return {f.pred for _, f in subformulas(formula) if isinstance(f, Atom)}


def realise_item(
    item: SymbolicItem,
    pool: Sequence[PoolSentence],
    rng: random.Random,
    answer_position: int,
    build_seed: int,
    n: int,
    pool_name: str,
) -> dict[str, Any]:
    """Put a proven symbolic item into English and lay it out as a dataset row.

    Args:
        item: The item.
        pool: The sentence pool.
        rng: The item's random generator (sentences, templates, question wording, distractor order).
        answer_position: Where the answer goes among the four options (0–3).
        build_seed: The build seed (a generation parameter recorded in the row).
        n: The paper's n (recorded).
        pool_name: The pool's name (recorded).

    Returns:
        The row (every column of `FEATURES`).
    """
    names = _variables_of(item)
    chosen = rng.sample(list(pool), len(names))
    realiser = Realiser(dict(zip(names, chosen)), rng)
    sentences: list[str] = []
    content_templates: list[str] = []
    for formula in item.content:
        text, template = realiser.sentence(formula)
        sentences.append(text)
        content_templates.append(template)
    conclusion_text = ""
    if item.conclusion is not None:
        clause_text, template = realiser.render(item.conclusion)
        conclusion_text = f"{CONCLUSION_LEAD}{clause_text}."
        content_templates.append(template)
    content = " ".join([*sentences, *([conclusion_text] if conclusion_text else [])])
    distractors = list(item.distractors)
    rng.shuffle(distractors)
    options_logic = distractors[:answer_position] + [item.answer] + distractors[answer_position:]
    rendered = [realiser.sentence(f) for f in options_logic]
    question = rng.choice(QUESTIONS[item.question_type])
    row: dict[str, Any] = {
        "question_type": item.question_type,
        "content": content,
        "content_logic": [show(f) for f in item.content],
        "question": question,
        "options": [text for text, _ in rendered],
        "options_logic": [show(f) for f in options_logic],
        "answer": answer_position,
        "conclusion": conclusion_text,
        "conclusion_logic": show(item.conclusion) if item.conclusion is not None else "",
        "removed_rule": item.removed.rule if item.removed is not None else "",
        "rules": [item.propositions[i].rule for i in item.shown],
        "templates": content_templates,
        "option_templates": [template for _, template in rendered],
        "variables": [
            {"name": name, "sentence": entry.sentence, "negation": entry.negation} for name, entry in zip(names, chosen)
        ],
        "num_propositions": len(item.propositions),
        "occurrences": list(item.occurrences),
        "n": n,
        "seed": build_seed,
        "pool": pool_name,
    }
    identity = [
        row["question_type"],
        row["content"],
        row["content_logic"],
        row["conclusion_logic"],
        row["options"],
        row["options_logic"],
        row["answer"],
    ]
    return {"id": content_id(f"dle-{item.question_type}", identity), **row}


# --------------------------------------------------------------------------------------------------------- build


def answer_schedule(question_type_index: int, per_type: int, seed: int, question_type: str) -> list[int]:
    """Answer positions for the instances of one question type: balanced within the type and over the build.

    Type t takes the cyclic run of positions starting at t · per_type, so each type's positions, and the
    concatenation over the types, hold every position equally often (within one); the run is then shuffled.
    """
    positions = [(question_type_index * per_type + k) % len(LETTERS) for k in range(per_type)]
    random.Random(derived_seed(seed, "divlogiceval-positions", question_type)).shuffle(positions)
    return positions


def build_item(
    question_type: str, index: int, config: DivLogicEvalConfig, stats: BuildStats, stream: str = "divlogiceval"
) -> tuple[SymbolicItem, random.Random] | None:
    """Draw contents for one instance until one makes a proven item of the type (or `max_attempts` run out).

    Args:
        question_type: The type.
        index: The instance's index within its type.
        config: The build config.
        stats: Where draws and drops are counted (bucket: the question type).
        stream: Name of the seed stream (the three-shot examples use their own, disjoint from the test items).

    Returns:
        The proven item and its generator (positioned to realise the item), or None.
    """
    for attempt in range(config.max_attempts):
        rng = random.Random(derived_seed(config.seed, stream, question_type, index, attempt))
        stats.count(question_type, "drawn")
        item = make_item(question_type, rng, config.n)
        if isinstance(item, str):
            stats.drop(question_type, item)
            continue
        failure = prove_item(item, config.timeout_ms, construction=True)
        if failure is not None:
            # Named by its seed coordinates: the draw can be regenerated and re-proven from them.
            stats.drop(question_type, failure, ids=[f"{stream}/{question_type}/{index}/{attempt}"])
            continue
        stats.count(question_type, "proven")
        return item, rng
    stats.drop(question_type, f"no item after {config.max_attempts} draws")
    return None


InstanceRun = tuple[str, int, tuple[int, ...], DivLogicEvalConfig, tuple[PoolSentence, ...], str]
"""One unit of work of a build: question type, its index in `QUESTION_TYPES`, instance indices, config, pool, pool
name."""


def build_instances(job: InstanceRun) -> tuple[list[dict[str, Any] | None], BuildStats]:
    """Draw, prove and realise a run of instances of one question type (one unit of work of a build).

    Returns:
        One row per instance index (None where no item was proven within `max_attempts`), and the run's counts.
        Duplicates are removed by the caller, across runs, in instance order.
    """
    question_type, t, indices, config, pool, pool_name = job
    stats = BuildStats()
    positions = answer_schedule(t, config.per_type, config.seed, question_type)
    rows: list[dict[str, Any] | None] = []
    for index in indices:
        built = build_item(question_type, index, config, stats)
        if built is None:
            rows.append(None)
            continue
        item, rng = built
        rows.append(realise_item(item, pool, rng, positions[index], config.seed, config.n, pool_name))
    return rows, stats


def build_divlogiceval(config: DivLogicEvalConfig, progress: bool = False, num_proc: int = 1) -> DivLogicEvalBuild:
    """Build DivLogicEval instances for a config. See the module docstring for the pipeline.

    Args:
        config: What to build.
        progress: Show a progress bar over instances.
        num_proc: Processes to build with, runs of instances each (the rows and statistics do not depend on it;
            it is not part of the config, so not of the cache key either).

    Raises:
        ValueError: If the sentence pool has fewer than eight usable sentences.
    """
    from tqdm import tqdm

    stats = BuildStats()
    pool, report = load_pool(config.pool, config.pool_column, config.pool_negation_column, config.pool_split)
    stats.notes["pool_sentences"] = report.kept
    for reason, count in report.skipped.items():
        stats.drop("pool", reason, count, ids=report.skipped_ids.get(reason, ()))
    if len(pool) < len(VARIABLES):
        raise ValueError(f"the sentence pool has {len(pool)} usable sentences; at least {len(VARIABLES)} are needed")
    pool_name = config.pool or BUILTIN_POOL
    rows: list[dict[str, Any]] = []
    seen: set[str] = set()
    with process_pool(num_proc) as workers:
        runs = workers.runs(config.per_type)
        jobs: list[InstanceRun] = [
            (question_type, t, tuple(run), config, tuple(pool), pool_name)
            for t, question_type in enumerate(QUESTION_TYPES)
            for run in split(range(config.per_type), runs)
        ]
        with tqdm(total=len(jobs), desc="divlogiceval", disable=not progress) as bar:
            built = workers.map(build_instances, jobs, progress=bar)
    for _, run_stats in built:
        stats.merge(run_stats)
    for (question_type, *_), (run_rows, _) in zip(jobs, built, strict=True):
        for row in run_rows:
            if row is None:
                continue
            if row["id"] in seen:
                stats.drop(question_type, "duplicate instance")
                continue
            seen.add(row["id"])
            rows.append(row)
            stats.count(question_type, "rows")
    stats.notes["rows"] = len(rows)
    stats.notes["answer_positions"] = {LETTERS[p]: sum(r["answer"] == p for r in rows) for p in range(4)}
    # Order by the content hash (not the whole id, which starts with the type): `--limit` then samples every type.
    rows.sort(key=lambda r: r["id"].rsplit("-", 1)[1])
    return DivLogicEvalBuild(dataset_from_rows(rows, FEATURES), stats, config)


def build_shots(config: DivLogicEvalConfig, exclude_ids: Sequence[str] = ()) -> list[dict[str, Any]]:
    """One solved example per question type for three-shot prompting, from a seed stream disjoint from the test set.

    §4.1 samples the three examples from the unpolished set, one per question type; here they are drawn from a
    separate seed stream of the same generator (the answer in the position the schedule of a one-instance build
    gives), and any that coincides with an evaluated instance is skipped.

    Args:
        config: The test build's config (its seed, n and pool are used).
        exclude_ids: Ids of the evaluated instances.

    Returns:
        Three rows, in the order of `QUESTION_TYPES`.
    """
    pool, _ = load_pool(config.pool, config.pool_column, config.pool_negation_column, config.pool_split)
    shots: list[dict[str, Any]] = []
    excluded = set(exclude_ids)
    for t, question_type in enumerate(QUESTION_TYPES):
        for index in range(config.max_attempts):
            built = build_item(question_type, index, config, BuildStats(), stream="divlogiceval-shots")
            if built is None:
                continue
            item, rng = built
            row = realise_item(
                item, pool, rng, (t + 1) % len(LETTERS), config.seed, config.n, config.pool or BUILTIN_POOL
            )
            if row["id"] not in excluded:
                shots.append(row)
                break
        else:
            raise ValueError(f"no three-shot example of type {question_type} could be built")
    return shots
