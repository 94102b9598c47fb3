"""The DivLogicEval builder: four-option logic questions with every answer key proven (Chung et al., 2025, §2.1).

The authors published their generator (ILogicEval, github.com/KanaCS/ILogicEval); this rebuilds it from §2.1 and
Appendices A–B and H, following their code where the paper is silent (the suite README cites file and line).

Pipeline per instance (each with its own seeded generator, so the output does not depend on processing order):

1. Content (`divlogiceval_logic.sample_content`, Algorithm 1 as `make_expression.py` runs it): 2 to n + 1
   propositions, each the premise of one of the rules of Eq. (1), plus literal facts; a content the facts make
   inconsistent is redrawn.
2. Potential answer set over the variables used fewer than n times: literals and implications between literals,
   split into the entailment group (needing at least two propositions, and not vacuous) and the non-entailment group.
3. The question type decides the options:
   - `3c1e`: one entailed option (the answer) and three non-entailed ones;
   - `3e1c`: three entailed options and one non-entailed one (the answer);
   - `missing` (missing premise): a conclusion from the entailment group is added to the content, one proposition
     (or fact) it needs is removed and becomes the answer, and three non-entailed formulas that do not restore the
     entailment are the distractors.
   Every distractor has the answer's surface signature (`divlogiceval_logic.surface_signature`: kind, polarities,
   how its variables figure in the content and the conclusion), and no two options are equivalent. Roles (where
   an option's literals sit in the shown rules, `role_key`): a 3c1e distractor shares the answer's whole role
   vector (every admissible answer of the content is tried); 3e1c and missing instances are offered several drawn
   contents each (`draw_menu`) and, in instance order, take the admissible item that keeps the roles balanced over
   the build (`divlogiceval.balance`). So the form of an option does not give the answer away
   (`divlogiceval.shortcuts` measures it). A content without admissible options is redrawn (counted by reason).
4. Proof: the answer key and every construction claim (each distractor entailed or not, as its type requires; no
   single proposition entails an entailed option; no entailed implication is vacuous) are proven by Z3 (`entails`,
   see `prove_item`); an item with any claim refuted or undecided is dropped and counted. Truth tables only steer
   the drawing; Z3 decides what ships.
5. English (`divlogiceval_english`): a distinct pool sentence per variable, negations for negated variables, a
   random connective template per formula, a question wording per type. The sentences come from the instance's
   share of the build's sentence plan (`english.sentence_plan`: the pool ordered vocabulary first; instance g of T
   gets entries g, g + T, ...), so sentences do not recur and the pool's word types reach the build; at most one
   sentence of a premise–hypothesis pair goes into one instance, and no two share a topic word.
6. The answer positions are assigned from a balanced schedule, so each of A–D is the answer equally often (within
   one) in every question type and over the whole build.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import datasets

from lgmt_tasks.builders.parallel import process_pool, split
from lgmt_tasks.builders.result import Build
from lgmt_tasks.builders.rows import dataset_from_rows
from lgmt_tasks.builders.stats import BuildStats
from lgmt_tasks.divlogiceval.balance import (
    BALANCE_PASSES,
    MENUS_PER_ITEM,
    Choice,
    Menu,
    OptionSet,
    RoleBalance,
    balanced_choices,
)
from lgmt_tasks.divlogiceval.config import QUESTION_TYPES, DivLogicEvalConfig
from lgmt_tasks.divlogiceval.english import (
    CONCLUSION_LEAD,
    QUESTIONS,
    PoolSentence,
    Realiser,
    canonical_pool_name,
    load_pool,
    pick_sentences,
    sentence_plan,
)
from lgmt_tasks.divlogiceval.logic import (
    FACT,
    RULES,
    VARIABLES,
    AnswerSplit,
    Proposition,
    RoleTable,
    literal,
    models,
    models_of_all,
    necessary_premises,
    option_variables,
    pick_distinct,
    potential_answers,
    role_key,
    rule_shaped,
    sample_content,
    signature_reader,
    split_answers,
    vacuity_witnesses,
)
from lgmt_tasks.divlogiceval.snli import describe_origin
from lgmt_tasks.ids import content_id, derived_seed
from lgmt_tasks.logic.printer import show
from lgmt_tasks.logic.prover import DEFAULT_TIMEOUT_MS, Undecided, entails
from lgmt_tasks.logic.syntax import Atom, Formula, subformulas
from lgmt_tasks.vocabulary import OPTION_LETTERS

BUILD_REVISION = 6
"""Bumped whenever the builder's output changes for the same config (part of the build-cache key)."""

LETTERS = OPTION_LETTERS

_VARIABLE_FEATURES = {
    "name": datasets.Value("string"),
    "sentence": datasets.Value("string"),
    "negation": datasets.Value("string"),
    "paraphrases": datasets.List(datasets.Value("string")),
    "contradictions": datasets.List(datasets.Value("string")),
    "origins": datasets.List(datasets.Value("string")),
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


class DivLogicEvalBuild(Build[DivLogicEvalConfig]):
    """A finished DivLogicEval build: its rows, statistics and config."""


# ------------------------------------------------------------------------------------------------------ symbolic


BALANCED: tuple[str, ...] = ("3e1c", "missing")
"""Question types whose roles are balanced over the build (`divlogiceval.balance`); 3c1e matches them per item."""


def _in_random_order(rng: random.Random, keys: Sequence[Any]) -> list[Any]:
    """Keys in a seeded random order that does not depend on dictionary or hash order."""
    ordered = sorted(keys, key=repr)
    rng.shuffle(ordered)
    return ordered


def _group(pool: Sequence[Formula], key: Mapping[Formula, Hashable]) -> dict[Hashable, list[Formula]]:
    """Group candidate options by their key, in the pool's order."""
    groups: dict[Hashable, list[Formula]] = {}
    for formula in pool:
        groups.setdefault(key[formula], []).append(formula)
    return groups


def _draw(rng: random.Random, n: int) -> tuple[list[Proposition], list[int], AnswerSplit] | str:
    """A content (Algorithm 1) and its potential answers split by entailment, or why this draw has none."""
    drawn = sample_content(rng, n)
    if drawn is None:
        return "no selectable variables"
    propositions, occurrences = drawn
    content = [p.formula for p in propositions]
    if models_of_all(content) == 0:
        return "inconsistent content (facts contradict the rules)"
    return propositions, occurrences, split_answers(content, potential_answers(option_variables(occurrences, n)))


def make_item(question_type: str, rng: random.Random, n: int) -> SymbolicItem | str:
    """Draw one symbolic instance of a question type, or say why this draw has none.

    Every distractor has the answer's surface signature (kind, polarities, how its variables figure in the content
    and the conclusion), so no form-only heuristic can single out the answer. A 3c1e answer's distractors share its
    whole role vector too (`role_key`), tried for every admissible answer of the content. 3e1c and missing take
    the first admissible item of one drawn content here (`draw_menu`); a build balances their roles over all
    instances instead (`divlogiceval.balance`).

    Args:
        question_type: `3c1e`, `3e1c` or `missing`.
        rng: The draw's random generator.
        n: The paper's n.

    Returns:
        The item, or a short reason (a drop-statistics key) when the drawn content cannot make this question type.
    """
    if question_type not in QUESTION_TYPES:
        raise ValueError(f"question_type={question_type!r}: expected one of {', '.join(QUESTION_TYPES)}")
    if question_type in BALANCED:
        menu = draw_menu(question_type, rng, n)
        if isinstance(menu, str):
            return menu
        chosen = RoleBalance().choose([menu], rng)
        assert chosen is not None, "a menu has at least one admissible item"
        return as_item(chosen[0])
    drawn = _draw(rng, n)
    if isinstance(drawn, str):
        return drawn
    propositions, occurrences, split = drawn
    if not split.entailed:
        return "no entailed option"
    content = [p.formula for p in propositions]
    table = RoleTable.of(content, None)
    signature = signature_reader(content, None)
    key = {f: (role_key(f, table), signature(f)) for f in (*split.entailed, *split.not_entailed)}
    not_entailed = _group(split.not_entailed, key)
    for answer in _in_random_order(rng, split.entailed):
        distractors = pick_distinct(rng, not_entailed.get(key[answer], []), 3, [answer])
        if distractors is not None:
            everything = tuple(range(len(propositions)))
            return SymbolicItem(
                "3c1e", tuple(propositions), everything, None, answer, tuple(distractors), tuple(occurrences)
            )
    return "no three non-entailed options with the answer's signature and roles"


def as_item(choice: Choice) -> SymbolicItem:
    """The symbolic item a balanced choice makes."""
    menu, option_set = choice.menu, choice.option_set
    return SymbolicItem(
        menu.question_type,
        menu.propositions,
        option_set.shown,
        option_set.conclusion,
        choice.answer,
        choice.distractors,
        menu.occurrences,
    )


def _admissible(option_set: OptionSet) -> bool:
    """Whether an option set makes at least one item: an answer and three distractors of distinct models."""
    avoid = {models(f) for f in option_set.avoid}
    return bool(option_set.answers) and len({models(f) for f in option_set.distractors} - avoid) >= 3


def draw_menu(question_type: str, rng: random.Random, n: int) -> Menu | str:
    """Draw a content for a 3e1c or missing-premise instance with every option set it allows, or say why none.

    3e1c: per surface signature, the entailed options (distractors) and the non-entailed ones (answers).
    Missing premise (§2.1): per conclusion from the entailment group and proposition it needs (a rule premise or a
    literal fact; removed, it is the answer), the distractors are formulas from the same generator as the answer
    (the same rule, or literals, over the instance's variables) and the non-entailment group, with the answer's
    surface signature relative to the shown content and the conclusion, each non-entailed by the full content and
    leaving the conclusion unproven when added to the shown content.
    """
    if question_type not in BALANCED:
        raise ValueError(f"question_type={question_type!r}: menus are drawn for {', '.join(BALANCED)}")
    drawn = _draw(rng, n)
    if isinstance(drawn, str):
        return drawn
    propositions, occurrences, split = drawn
    content = [p.formula for p in propositions]
    everything = tuple(range(len(propositions)))
    sets: list[OptionSet] = []
    if question_type == "3e1c":
        if not split.entailed:
            return "no entailed option"
        read = signature_reader(content, None)
        signature = {f: read(f) for f in (*split.entailed, *split.not_entailed)}
        answers, entailed = _group(split.not_entailed, signature), _group(split.entailed, signature)
        sets = [
            OptionSet(everything, None, tuple(answers.get(group, ())), tuple(group_entailed))
            for group, group_entailed in entailed.items()
        ]
        reason = "no three entailed options and a non-entailed one of one signature"
    else:
        pairs = [(c, j) for c in split.entailed for j in necessary_premises(content, c)]
        if not pairs:
            return "no conclusion with a necessary premise"
        used = sorted({v for p in propositions for v in p.variables})
        whole = models_of_all(content)
        for conclusion, removed in pairs:
            shown = tuple(i for i in everything if i != removed)
            rest = [content[i] for i in shown]
            answer = content[removed]
            rule = propositions[removed].rule
            shaped = [literal(v, s) for v in used for s in (True, False)] if rule == FACT else rule_shaped(rule, used)
            rest_mask = models_of_all(rest)
            counter = ~models(conclusion)
            read = signature_reader(rest, conclusion)
            wanted = read(answer)
            mates = tuple(
                f
                for f in dict.fromkeys([*shaped, *split.not_entailed])
                if whole & ~models(f) and rest_mask & models(f) & counter and read(f) == wanted
            )
            sets.append(OptionSet(shown, conclusion, (answer,), mates, (answer, conclusion)))
        reason = "no three distractors with the answer's signature that leave the conclusion unproven"
    sets = [s for s in sets if _admissible(s)]
    if not sets:
        return reason
    return Menu(question_type, tuple(propositions), tuple(occurrences), tuple(sets))


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
    propositions: no single proposition entails it. An entailed implication ``l₁ → l₂`` is not vacuous: the content
    entails neither ``l₂`` nor ``¬l₁`` (else it would hold without chaining anything). The distractors of a
    missing-premise question come from the non-entailment group: the full content does not entail them.
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
        out += [
            (f"entailed formula {k + 1} is not vacuous: content does not entail {show(w)}", item.full_content, w, False)
            for w in vacuity_witnesses(formula)
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


LENGTH_TRIES = 48
"""Assignments of an instance's sentences to its variables tried for the scheduled answer rank (`_rank_miss`)."""

English = tuple[str, list[str], str, list[tuple[str, str]]]
"""A rendering of an item: content, content templates, conclusion text, options (text, template)."""


def _english(
    item: SymbolicItem, sentences: Mapping[str, PoolSentence], options_logic: Sequence[Formula], rng: random.Random
) -> English:
    """The item in English with one assignment of sentences to variables (templates drawn from `rng`)."""
    realiser = Realiser(dict(sentences), rng)
    texts: list[str] = []
    content_templates: list[str] = []
    for formula in item.content:
        text, template = realiser.sentence(formula)
        texts.append(text)
        content_templates.append(template)
    conclusion_text = ""
    if item.conclusion is not None:
        clause_text, template = realiser.render(item.conclusion)
        conclusion_text = f"{CONCLUSION_LEAD}{clause_text}."
        content_templates.append(template)
    content = " ".join([*texts, *([conclusion_text] if conclusion_text else [])])
    return content, content_templates, conclusion_text, [realiser.sentence(f) for f in options_logic]


_WORD = re.compile(r"[A-Za-z']+")


def _rank_miss(english: English, answer_position: int, rank: int) -> int:
    """How far the answer is from having exactly `rank` options below it and the rest above, over three values.

    The values are the option's length in characters, its length in words, and the distinct words it shares with
    the content: what the shortcut battery's length and overlap heuristics read (`divlogiceval.shortcuts`). An
    option tied with the answer counts as a miss on both sides, so the answer is strictly the k-th: a tie at the top
    would otherwise make it one of the "largest" more often than a quarter of the time.
    """
    content, options = english[0], [text for text, _ in english[3]]
    passage = {w.lower() for w in _WORD.findall(content)}
    values = [
        [len(text) for text in options],
        [len(text.split()) for text in options],
        [len({w.lower() for w in _WORD.findall(text)} & passage) for text in options],
    ]
    last = len(options) - 1
    return sum(
        abs(sum(v < row[answer_position] for v in row) - rank)
        + abs(sum(v > row[answer_position] for v in row) - last + rank)
        for row in values
    )


def length_schedule(question_type_index: int, per_type: int, seed: int, question_type: str) -> list[int]:
    """The answer's length rank (options shorter than it, 0–3) per instance of one type: balanced, then shuffled.

    So the longest and the shortest option (and the one sharing most or fewest words with the passage) are the
    answer about a quarter of the time each, whatever the sentences: without it, the distractors of an item, which
    often share a variable, are correlated in length, and the answer is the odd one out more often than chance
    (0.314 for the shortest on 3e1c with the sentence plan's lengths; with lengths alone balanced, the largest
    overlap scored 0.296 on missing premise, and 0.307 on 3e1c with `pool=snli`).
    """
    ranks = [(question_type_index * per_type + k) % len(LETTERS) for k in range(per_type)]
    random.Random(derived_seed(seed, "divlogiceval-length-rank", question_type)).shuffle(ranks)
    return ranks


def realise_item(
    item: SymbolicItem,
    pool: Sequence[PoolSentence],
    rng: random.Random,
    answer_position: int,
    build_seed: int,
    n: int,
    pool_name: str,
    slot: tuple[int, int] | None = None,
    length_rank: int | None = None,
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
        slot: `(g, T)`: the instance is the g-th of T in the build and `pool` is the build's sentence plan; its
            candidate sentences are `pool[g::T]` (`pick_sentences`). None: a plain draw from the pool.
        length_rank: How many options are to be shorter than the answer, in characters and in words, and share fewer
            words with the content (0–3, from `length_schedule`): up to `LENGTH_TRIES` assignments of the drawn
            sentences to the variables are rendered and the first that gives the answer this rank in all three,
            else the closest (`_rank_miss`), is kept. None: the first.

    Returns:
        The row (every column of `FEATURES`).
    """
    names = _variables_of(item)
    candidates = None if slot is None else pool[slot[0] :: slot[1]]
    chosen = pick_sentences(pool, len(names), rng, candidates)  # no two share a topic word or a pair group
    distractors = list(item.distractors)
    rng.shuffle(distractors)
    options_logic = distractors[:answer_position] + [item.answer] + distractors[answer_position:]
    english = _english(item, dict(zip(names, chosen)), options_logic, rng)
    if length_rank is not None:
        # Other assignments of the same sentences to the variables (and other template draws), until the answer's
        # rank among the options by length and overlap is the scheduled one (`length_schedule`); else the closest.
        best, assignment = _rank_miss(english, answer_position, length_rank), list(chosen)
        for _ in range(LENGTH_TRIES - 1):
            if best == 0:
                break
            rng.shuffle(chosen)
            tried = _english(item, dict(zip(names, chosen)), options_logic, rng)
            miss = _rank_miss(tried, answer_position, length_rank)
            if miss < best:
                best, assignment, english = miss, list(chosen), tried
        chosen = assignment
    content, content_templates, conclusion_text, rendered = english
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
            {
                "name": name,
                "sentence": entry.sentence,
                "negation": entry.negation,
                "paraphrases": list(entry.paraphrases),
                "contradictions": list(entry.contradictions),
                "origins": [describe_origin(origin) for origin in entry.origins],
            }
            for name, entry in zip(names, chosen)
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
    ranks = length_schedule(t, config.per_type, config.seed, question_type)
    rows: list[dict[str, Any] | None] = []
    for index in indices:
        built = build_item(question_type, index, config, stats)
        if built is None:
            rows.append(None)
            continue
        item, rng = built
        slot = (t * config.per_type + index, len(QUESTION_TYPES) * config.per_type)
        rows.append(
            realise_item(item, pool, rng, positions[index], config.seed, config.n, pool_name, slot, ranks[index])
        )
    return rows, stats


MenuRun = tuple[str, tuple[int, ...], DivLogicEvalConfig]
"""One unit of drawing for a balanced question type: the type, instance indices, config."""


def draw_menus(job: MenuRun) -> tuple[list[list[Menu]], BuildStats]:
    """Draw, per instance, up to `MENUS_PER_ITEM` contents that make the type (`draw_menu`), each draw its own seed.

    Returns:
        The menus per instance index (empty where none was found in `max_attempts` draws), and the run's counts.
    """
    question_type, indices, config = job
    stats = BuildStats()
    out: list[list[Menu]] = []
    for index in indices:
        menus: list[Menu] = []
        for attempt in range(config.max_attempts):
            if len(menus) == MENUS_PER_ITEM[question_type]:
                break
            rng = random.Random(derived_seed(config.seed, "divlogiceval", question_type, index, attempt))
            stats.count(question_type, "drawn")
            menu = draw_menu(question_type, rng, config.n)
            if isinstance(menu, str):
                stats.drop(question_type, menu)
                continue
            menus.append(menu)
        if not menus:
            stats.drop(question_type, f"no item after {config.max_attempts} draws")
        out.append(menus)
    return out, stats


NOT_CHOSEN = "admissible, but another content of the instance was chosen for the role balance"
"""The drop reason of the drawn contents a balanced instance offered and did not become."""


def choose_items(
    question_type: str, menus: Sequence[Sequence[Menu]], seed: int, stats: BuildStats | None = None
) -> list[SymbolicItem | None]:
    """In instance order, the item of each instance's menus that keeps the type's roles balanced (`RoleBalance`).

    The contents not chosen are counted in `stats` (`NOT_CHOSEN`), so every drawn content is either proven or
    dropped with a reason.
    """

    def rng_of(index: int) -> random.Random:
        return random.Random(derived_seed(seed, "divlogiceval-choice", question_type, index))

    chosen = balanced_choices(menus, rng_of, BALANCE_PASSES)
    if stats is not None:
        for offered, choice in zip(menus, chosen, strict=True):
            if choice is not None and len(offered) > 1:
                stats.drop(question_type, NOT_CHOSEN, len(offered) - 1)
    return [None if choice is None else as_item(choice) for choice in chosen]


ItemRun = tuple[
    str, int, tuple[int, ...], tuple[SymbolicItem | None, ...], DivLogicEvalConfig, tuple[PoolSentence, ...], str
]
"""One unit of proving and realising chosen items: type, its index in `QUESTION_TYPES`, instance indices, their
items, config, pool, pool name."""


def prove_and_realise(job: ItemRun) -> tuple[list[dict[str, Any] | None], BuildStats]:
    """Prove every claim of chosen items and realise them (an item with a claim refuted or undecided is dropped)."""
    question_type, t, indices, items, config, pool, pool_name = job
    stats = BuildStats()
    positions = answer_schedule(t, config.per_type, config.seed, question_type)
    ranks = length_schedule(t, config.per_type, config.seed, question_type)
    rows: list[dict[str, Any] | None] = []
    for index, item in zip(indices, items, strict=True):
        if item is None:
            rows.append(None)
            continue
        failure = prove_item(item, config.timeout_ms, construction=True)
        if failure is not None:
            stats.drop(question_type, failure, ids=[f"divlogiceval-choice/{question_type}/{index}"])
            rows.append(None)
            continue
        stats.count(question_type, "proven")
        rng = random.Random(derived_seed(config.seed, "divlogiceval-english", question_type, index))
        slot = (t * config.per_type + index, len(QUESTION_TYPES) * config.per_type)
        rows.append(
            realise_item(item, pool, rng, positions[index], config.seed, config.n, pool_name, slot, ranks[index])
        )
    return rows, stats


def sampling_statistics(rows: Sequence[dict[str, Any]], n: int) -> dict[str, Any]:
    """What the content sampler produced over the shipped rows, to compare with the authors' generator.

    Returns:
        `rules`: the rule (or `fact`) of every sampled proposition, shown or removed; `facts_per_instance`: how many
        instances have 0, 1, … literal facts; `uses`: how many (instance, variable) pairs have 0..n uses, and
        `nth_use_per_instance`: the mean number of variables used n times per instance; `option_kinds`: options
        that are literals vs the rest.
    """
    rules: Counter[str] = Counter()
    facts: Counter[int] = Counter()
    uses: Counter[int] = Counter()
    for row in rows:
        sampled = [*row["rules"], *([row["removed_rule"]] if row["removed_rule"] else [])]
        rules.update(sampled)
        facts[sum(rule == FACT for rule in sampled)] += 1
        uses.update(row["occurrences"])
    literal_options = sum(t == "literal" for row in rows for t in row["option_templates"])
    return {
        "rules": {rule: rules[rule] for rule in (*RULES, FACT)},
        "facts_per_instance": {str(k): facts[k] for k in sorted(facts)},
        "uses": {str(k): uses[k] for k in range(n + 1)},
        "nth_use_per_instance": round(uses[n] / len(rows), 4) if rows else 0.0,
        "option_kinds": {"literal": literal_options, "other": 4 * len(rows) - literal_options},
    }


def language_statistics(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The English side's diversity (§3.2, Table 5): vocabulary, where it comes from, sentence shapes, KL.

    Word types are split into those of fixed text (templates, questions, the frame) and of variable material, and
    the sentences read and the variable sentences are counted by function-word skeleton (`diversity`), since a type
    count alone cannot tell natural sentences from random slot fillers in one frame.

    The KL divergence needs a general-English reference, read from the optional `wordfreq` package (the `stats`
    extra, part of `dev`); without it the statistic is left out and the note says why, so a build never fails for
    want of a statistic.
    """
    from lgmt_tasks.divlogiceval.diversity import (
        lexical_statistics,
        read_sentences,
        skeleton_statistics,
        variable_sentences,
        vocabulary_sources,
        wordfreq_reference,
    )

    try:
        reference: Mapping[str, float] | None = wordfreq_reference()
    except ImportError:
        reference = None
    out: dict[str, Any] = dict(lexical_statistics(rows, reference))
    out["kl_reference"] = "wordfreq English frequencies" if reference else "not computed: pip install lgmt-tasks[stats]"
    out.update(vocabulary_sources(rows))
    out["skeletons_read"] = skeleton_statistics(read_sentences(rows))
    out["skeletons_variables"] = skeleton_statistics(variable_sentences(rows))
    return out


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
    pool_name = canonical_pool_name(config.pool)
    rows: list[dict[str, Any]] = []
    seen: set[str] = set()
    # The sentence plan: instance g of T draws its sentences from pool_rows[g::T] (see `realise_item`).
    pool_rows = sentence_plan(pool, derived_seed(config.seed, "divlogiceval-sentences"))
    with process_pool(num_proc) as workers:
        runs = [tuple(run) for run in split(range(config.per_type), workers.runs(config.per_type))]
        matched: list[InstanceRun] = [
            (question_type, t, run, config, pool_rows, pool_name)
            for t, question_type in enumerate(QUESTION_TYPES)
            if question_type not in BALANCED
            for run in runs
        ]
        drawing: list[MenuRun] = [(question_type, run, config) for question_type in BALANCED for run in runs]
        with tqdm(total=len(matched) + 2 * len(drawing), desc="divlogiceval", disable=not progress) as bar:
            built = workers.map(build_instances, matched, progress=bar)
            drawn = workers.map(draw_menus, drawing, progress=bar)
            menus: dict[str, list[list[Menu]]] = {question_type: [] for question_type in BALANCED}
            for (question_type, _, _), (run_menus, run_stats) in zip(drawing, drawn, strict=True):
                menus[question_type] += run_menus
                stats.merge(run_stats)
            chosen = {qt: choose_items(qt, menus[qt], config.seed, stats) for qt in BALANCED}
            proving: list[ItemRun] = [
                (qt, QUESTION_TYPES.index(qt), run, tuple(chosen[qt][i] for i in run), config, pool_rows, pool_name)
                for qt in BALANCED
                for run in runs
            ]
            built += workers.map(prove_and_realise, proving, progress=bar)
    for _, run_stats in built:
        stats.merge(run_stats)
    question_types = [job[0] for job in matched] + [job[0] for job in proving]
    for question_type, (run_rows, _) in zip(question_types, built, strict=True):
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
    stats.notes["sampling"] = sampling_statistics(rows, config.n)
    stats.notes["language"] = language_statistics(rows)
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
                item, pool, rng, (t + 1) % len(LETTERS), config.seed, config.n, canonical_pool_name(config.pool)
            )
            if row["id"] not in excluded:
                shots.append(row)
                break
        else:
            raise ValueError(f"no three-shot example of type {question_type} could be built")
    return shots
