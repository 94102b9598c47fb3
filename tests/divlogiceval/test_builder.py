"""The DivLogicEval builder: Algorithm 1, the answer sets, every answer key re-proven, balance, determinism, CLI."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from lgmt_tasks.divlogiceval.build import (
    QUESTION_TYPES,
    DivLogicEvalConfig,
    answer_key_claims,
    build_divlogiceval,
    build_shots,
    construction_claims,
    make_item,
)
from lgmt_tasks.divlogiceval.card import write_divlogiceval_repo
from lgmt_tasks.divlogiceval.logic import (
    RULE_FORMS,
    VARIABLES,
    models,
    potential_answers,
    sample_content,
    selection_weights,
    shape,
    split_answers,
    tt_entails,
)
from lgmt_tasks.hub.repo import data_file, load_dataset_repo
from lgmt_tasks.logic.parse import parse
from lgmt_tasks.logic.prover import entails
from lgmt_tasks.logic.syntax import Atom, Formula, subformulas

# --------------------------------------------------------------------------------------------------- Algorithm 1


def test_selection_weights_follow_eq_3_with_the_overrides():
    # o = (0, 0, 1, 2, 3, 0, 0, 0), n = 3: max(o) + 1 = 4; Eq. (3) numerators 4, 4, 3, -, -, 4, 4, 4 over 27 (the
    # denominator sums over all eight variables: 4+4+3+2+1+4+4+4 = 26), o = n − 1 = 2 gets 0.1, o = n gets 0.
    occurrences = [0, 0, 1, 2, 3, 0, 0, 0]
    raw = [4 / 26, 4 / 26, 3 / 26, 0.1, 0.0, 4 / 26, 4 / 26, 4 / 26]
    expected = [w / sum(raw) for w in raw]
    assert selection_weights(occurrences, 3) == pytest.approx(expected)
    assert selection_weights([0] * 8, 3) == pytest.approx([1 / 8] * 8)


def test_sampled_contents_respect_algorithm_1():
    rules = Counter()
    for seed in range(300):
        for n in (2, 3, 4):
            propositions, occurrences = sample_content(random.Random(seed), n)  # type: ignore[misc]
            assert 2 <= len(propositions) <= n + 1
            assert max(occurrences) <= n
            counted = Counter(v for p in propositions for v in p.variables)
            assert [counted[v] for v in VARIABLES] == occurrences  # only the variables fitted into a rule count
            for p in propositions:
                rules[p.rule] += 1
                assert len(set(p.variables)) == len(p.variables) == (2 if p.rule == "1a" else 3)
                letters = dict(zip("ABC", p.variables))
                expected = parse("".join(letters.get(ch, ch) for ch in RULE_FORMS[p.rule]))
                assert p.formula == expected
    assert set(rules) == {"1a", "1b", "1c"}


def test_potential_answer_set_and_split():
    candidates = potential_answers(["A", "B"])
    assert len(candidates) == 4 + 4 * 2  # ±A, ±B; each ordered pair of literals of different variables
    content = [parse("A → B"), parse("(B ∨ C) → D")]
    split = split_answers(content, potential_answers(["A", "C", "D"]))
    assert parse("A → D") in split.entailed and parse("¬D → ¬A") in split.entailed
    assert parse("C → D") in split.single  # the second proposition alone entails it
    assert parse("D → A") in split.not_entailed and parse("A") in split.not_entailed


def test_truth_tables_agree_with_z3_on_random_formulas():
    rng = random.Random(3)
    atoms = [Atom(v, ()) for v in "ABCD"]
    for _ in range(40):
        premises = [sample_content(rng, 3)[0][0].formula for _ in range(2)]  # type: ignore[index]
        conclusion = rng.choice(potential_answers(["A", "B", "C", "D", "E"]))
        assert tt_entails(premises, conclusion) == entails(premises, conclusion)
    assert models(atoms[0]) & models(atoms[1]) != 0


@pytest.mark.parametrize("question_type", QUESTION_TYPES)
def test_make_item_reports_why_a_draw_fails(question_type):
    outcomes = Counter(type(make_item(question_type, random.Random(seed), 3)).__name__ for seed in range(60))
    assert outcomes["SymbolicItem"] > 0 and outcomes["str"] > 0


def test_config_is_validated():
    with pytest.raises(ValueError, match="per_type=0"):
        DivLogicEvalConfig(per_type=0)
    with pytest.raises(ValueError, match="n=1"):
        DivLogicEvalConfig(n=1)


# -------------------------------------------------------------------------------- the default build, re-proven


def atoms_of(formula: Formula) -> set[str]:
    return {f.pred for _, f in subformulas(formula) if isinstance(f, Atom)}


def proves(premises: list[Formula], conclusion: Formula) -> bool:
    result = entails(premises, conclusion)
    assert isinstance(result, bool), f"undecided: {result}"
    return result


def test_every_answer_key_of_the_default_build_is_proven(default_build):
    """Re-derive, from the row's own strings and with Z3 only, that exactly the answer is right."""
    rows = list(default_build.dataset)
    assert len(rows) == 3 * DivLogicEvalConfig().per_type
    for row in rows:
        content = [parse(p) for p in row["content_logic"]]
        options = [parse(o) for o in row["options_logic"]]
        answer = row["answer"]
        if row["question_type"] in ("3c1e", "3e1c"):
            wanted = row["question_type"] == "3c1e"  # 3c1e: the answer is entailed; 3e1c: the answer is not
            verdicts = [proves(content, option) for option in options]
            assert verdicts == [wanted if k == answer else not wanted for k in range(4)], row["id"]
            # the entailed options need at least two propositions (§2.1)
            for k, option in enumerate(options):
                if verdicts[k]:
                    assert not any(proves([p], option) for p in content), row["id"]
        else:
            conclusion = parse(row["conclusion_logic"])
            assert not proves(content, conclusion), row["id"]
            restores = [proves([*content, option], conclusion) for option in options]
            assert restores == [k == answer for k in range(4)], row["id"]
            full = [*content, options[answer]]
            assert not any(proves([p], conclusion) for p in full), row["id"]
            assert not any(proves(full, options[k]) for k in range(4) if k != answer), row["id"]


def test_every_question_type_and_rule_is_represented(default_build):
    rows = default_build.dataset
    per_type = DivLogicEvalConfig().per_type
    assert Counter(rows["question_type"]) == dict.fromkeys(QUESTION_TYPES, per_type)
    content_rules = Counter(rule for rules in rows["rules"] for rule in rules)
    removed = Counter(r for r in rows["removed_rule"] if r)
    assert set(content_rules) == {"1a", "1b", "1c"}
    assert set(removed) == {"1a", "1b", "1c"}  # each rule is also the answer of some missing-premise question


def test_answer_positions_are_uniform(default_build):
    rows = default_build.dataset
    overall = Counter(rows["answer"])
    assert set(overall) == {0, 1, 2, 3} and max(overall.values()) - min(overall.values()) <= 1
    for question_type in QUESTION_TYPES:
        counts = Counter(a for a, t in zip(rows["answer"], rows["question_type"]) if t == question_type)
        assert max(counts.values()) - min(counts.values()) <= 1 and len(counts) == 4


def test_rows_are_well_formed(default_build):
    for row in default_build.dataset:
        assert len(row["options"]) == len(set(row["options"])) == 4
        masks = {models(parse(o)) for o in row["options_logic"]}
        assert len(masks) == 4  # no two options are equivalent
        names = [v["name"] for v in row["variables"]]
        sentences = [v["sentence"] for v in row["variables"]]
        assert len(set(sentences)) == len(sentences)  # a distinct sentence per variable
        used = set().union(*(atoms_of(parse(f)) for f in [*row["content_logic"], *row["options_logic"]]))
        assert used <= set(names)
        assert all(option.endswith(".") and option[0].isupper() for option in row["options"])
        for variable in row["variables"]:  # the English mentions the sentences of the content's variables
            if variable["name"] in set().union(*(atoms_of(parse(f)) for f in row["content_logic"])):
                assert variable["sentence"][1:-1] in row["content"] or variable["negation"][1:-1] in row["content"]
        if row["question_type"] == "missing":
            assert row["conclusion"].startswith("Therefore, ") and row["content"].endswith(row["conclusion"])
            assert len(row["rules"]) == row["num_propositions"] - 1
        else:
            assert row["conclusion"] == row["conclusion_logic"] == row["removed_rule"] == ""
            assert len(row["rules"]) == row["num_propositions"]
        assert row["n"] == 3 and row["seed"] == 0 and row["pool"] == "builtin"


def test_no_option_stands_out_by_its_form(default_build):
    for row in default_build.dataset:
        shapes = [shape(parse(o)) for o in row["options_logic"]]
        answer = shapes.pop(row["answer"])
        assert answer in shapes, row["id"]  # some distractor has the answer's kind and polarity


def test_build_statistics_are_consistent(default_build):
    stats = default_build.stats
    for question_type in QUESTION_TYPES:
        counts = stats.counts[question_type]
        assert counts["drawn"] == counts["proven"] + stats.total_dropped(question_type)
        assert counts["rows"] == counts["proven"] == DivLogicEvalConfig().per_type
        assert not any(reason.startswith(("prover", "undecided")) for reason in stats.dropped.get(question_type, {}))
    assert stats.notes["rows"] == len(default_build.dataset)


# ----------------------------------------------------------------------------------- construction, one item


def test_construction_claims_hold_for_items():
    for question_type in QUESTION_TYPES:
        for seed in range(30):
            item = make_item(question_type, random.Random(seed), 3)
            if isinstance(item, str):
                continue
            for what, premises, conclusion, expected in answer_key_claims(item) + construction_claims(item):
                assert tt_entails(premises, conclusion) == expected, what


# -------------------------------------------------------------------------------- determinism, repository, CLI


def test_same_seed_same_bytes_other_seed_other_rows(tmp_path: Path):
    config = DivLogicEvalConfig(per_type=2, seed=11)
    first, second = tmp_path / "a", tmp_path / "b"
    write_divlogiceval_repo(build_divlogiceval(config), first)
    write_divlogiceval_repo(build_divlogiceval(config), second)
    data = Path(data_file("default", "test"))
    assert (first / data).read_bytes() == (second / data).read_bytes()
    cards = [(folder / "README.md").read_text().replace(str(folder), "OUT") for folder in (first, second)]
    assert cards[0] == cards[1]  # the card differs only by the output folder it names
    other = build_divlogiceval(DivLogicEvalConfig(per_type=2, seed=12))
    assert set(other.dataset["id"]).isdisjoint(load_dataset_repo(first)["id"])


def test_repository_round_trip(small_repo: Path):
    rows = load_dataset_repo(small_repo)
    assert len(rows) == 6 and rows.features["answer"].dtype == "int32"
    card = (small_repo / "README.md").read_text(encoding="utf-8")
    assert "lgmt build divlogiceval --per-type 2 --seed 7" in card
    assert "task_categories:\n- multiple-choice" in card
    stats = json.loads((small_repo / "build_stats.json").read_text())
    assert stats["config"]["per_type"] == 2


def test_shots_are_one_per_type_and_disjoint_from_the_test_items(small_repo: Path):
    from tests.divlogiceval.conftest import SMALL

    ids = load_dataset_repo(small_repo)["id"]
    shots = build_shots(SMALL, exclude_ids=ids)
    assert [s["question_type"] for s in shots] == list(QUESTION_TYPES)
    assert not {s["id"] for s in shots} & set(ids)


def test_cli_builds_a_repository(tmp_path: Path):
    from click.testing import CliRunner

    from lgmt_tasks.cli import main

    out = tmp_path / "cli"
    result = CliRunner().invoke(main, ["build", "divlogiceval", "--per-type", "1", "--seed", "3", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "3 instances" in result.output and (out / data_file("default", "test")).exists()
    bad = CliRunner().invoke(main, ["build", "divlogiceval", "--per-type", "0", "--out", str(out)])
    assert bad.exit_code != 0 and "per_type=0" in bad.output


def test_user_pool_from_a_text_file(tmp_path: Path):
    pool = tmp_path / "pool.txt"
    lines = [
        f"The {thing} is on the table."
        for thing in ("cup", "book", "lamp", "phone", "key", "plate", "pen", "hat", "map", "bell")
    ]
    lines += ["Sam plays chess every day.\tSam never plays chess.", "", "Why?"]
    pool.write_text("\n".join(lines), encoding="utf-8")
    built = build_divlogiceval(DivLogicEvalConfig(per_type=1, pool=str(pool)))
    assert built.stats.notes["pool_sentences"] == 11
    assert built.stats.dropped["pool"] == {"a question": 1, "empty": 1}
    sentences = {v["sentence"] for row in built.dataset for v in row["variables"]}
    assert sentences <= {*lines[:10], "Sam plays chess every day."}
    negations = {v["negation"] for row in built.dataset for v in row["variables"]}
    assert all(n.endswith("is not on the table.") or n == "Sam never plays chess." for n in negations)


def test_too_small_a_pool_is_refused(tmp_path: Path):
    pool = tmp_path / "pool.txt"
    pool.write_text("The cup is on the table.\nThe pen is red.\n", encoding="utf-8")
    with pytest.raises(ValueError, match="2 usable sentences"):
        build_divlogiceval(DivLogicEvalConfig(per_type=1, pool=str(pool)))


# ------------------------------------------------------------------------------ the README fragment stays true

README = Path(__file__).parents[2] / "lgmt_tasks" / "divlogiceval" / "README.md"
"""The suite's README: its example prompt and its default build statistics."""


def test_readme_example_prompt_and_statistics_match_the_default_build(default_build):
    from lgmt_tasks.solvers.divlogiceval import rotation_prompts

    text = README.read_text(encoding="utf-8")
    example = text.split("Example prompt", 1)[1].split("```\n", 2)[1].removesuffix("\n")
    prompts = [rotation_prompts(row)[0] for row in default_build.dataset]
    assert example in prompts
    stats = default_build.stats
    for question_type in QUESTION_TYPES:
        counts = stats.counts[question_type]
        dropped = stats.total_dropped(question_type)
        assert f"| {question_type} | {counts['drawn']} | {counts['rows']} | {dropped} (" in text, question_type


def test_rows_are_ordered_so_that_a_limit_sees_every_type(default_build):
    first = default_build.dataset.select(range(9))["question_type"]
    assert set(first) == set(QUESTION_TYPES)
