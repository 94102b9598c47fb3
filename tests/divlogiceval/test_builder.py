"""The DivLogicEval builder: Algorithm 1, the answer sets, every answer key re-proven, balance, determinism, CLI."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from lgmt_tasks.builders.stats import BuildStats
from lgmt_tasks.divlogiceval.build import (
    QUESTION_TYPES,
    DivLogicEvalBuild,
    DivLogicEvalConfig,
    answer_key_claims,
    build_divlogiceval,
    build_shots,
    construction_claims,
    make_item,
)
from lgmt_tasks.divlogiceval.card import write_divlogiceval_repo
from lgmt_tasks.divlogiceval.logic import (
    FACT,
    RULE_FORMS,
    VARIABLES,
    is_literal,
    literal_variable,
    models,
    potential_answers,
    sample_content,
    selection_weights,
    split_answers,
    surface_signature,
    tt_entails,
    vacuity_witnesses,
)
from lgmt_tasks.hub.repo import data_file, load_dataset_repo
from lgmt_tasks.logic.parse import parse
from lgmt_tasks.logic.prover import entails
from lgmt_tasks.logic.syntax import Atom, Formula, subformulas

# --------------------------------------------------------------------------------------------------- Algorithm 1


def test_selection_weights_mix_the_raw_eq_3_numerators_with_the_overrides():
    # make_expression.py:68-72: numerators max(o) + 1 - o (not divided by their sum), 0.1 at n - 1 uses, 0 at n,
    # then one normalisation. priority = (0, 0, 1, 2, 3, 0, 0, 0): numerators 4, 4, 3, 2, 1, 4, 4, 4.
    priority = [0, 0, 1, 2, 3, 0, 0, 0]
    uses = [0, 0, 1, 2, 3, 0, 0, 0]
    raw = [4, 4, 3, 0.1, 0.0, 4, 4, 4]
    assert selection_weights(priority, uses, 3) == pytest.approx([w / sum(raw) for w in raw])
    assert selection_weights([0] * 8, [0] * 8, 3) == pytest.approx([1 / 8] * 8)


def test_sampled_contents_respect_algorithm_1_and_add_literal_facts():
    rules: Counter[str] = Counter()
    for seed in range(300):
        for n in (2, 3, 4):
            propositions, uses = sample_content(random.Random(seed), n)  # type: ignore[misc]
            premises = [p for p in propositions if p.rule != FACT]
            facts = [p for p in propositions if p.rule == FACT]
            assert 2 <= len(premises) <= n + 1
            assert max(uses) <= n
            counted = Counter(v for p in premises for v in p.variables)
            assert [counted[v] for v in VARIABLES] == uses  # facts do not count as uses
            eligible = [v for v, u in zip(VARIABLES, uses) if 0 < u < n]
            assert len(facts) <= int(len(eligible) / 1.5)  # make_expression.py:94
            assert len({f.variables for f in facts}) == len(facts)
            for p in facts:
                assert p.variables[0] in eligible and is_literal(p.formula)
                assert literal_variable(p.formula) == p.variables[0]
            for p in premises:
                rules[p.rule] += 1
                assert len(set(p.variables)) == len(p.variables) == (2 if p.rule == "1a" else 3)
                letters = dict(zip("ABC", p.variables))
                expected = parse("".join(letters.get(ch, ch) for ch in RULE_FORMS[p.rule]))
                assert p.formula == expected
            rules[FACT] += len(facts)
    assert set(rules) == {"1a", "1b", "1c", FACT}


def test_rule_mix_and_nth_use_follow_the_authors_generator():
    """randint(0, 3) gives 1a half the draws; the raw-numerator mixture makes an n-th use rare (about 0.024)."""
    rules: Counter[str] = Counter()
    nth_uses = 0
    draws = 4000
    for seed in range(draws):
        propositions, uses = sample_content(random.Random(seed), 3)  # type: ignore[misc]
        rules.update(p.rule for p in propositions if p.rule != FACT)
        nth_uses += sum(u == 3 for u in uses)
    total = sum(rules.values())
    assert 0.47 < rules["1a"] / total < 0.53
    assert 0.22 < rules["1b"] / total < 0.28 and 0.22 < rules["1c"] / total < 0.28
    assert nth_uses / draws < 0.06  # normalised Eq. (3) values mixed with 0.1 would give about 0.24


def test_potential_answer_set_and_split():
    candidates = potential_answers(["A", "B"])
    assert len(candidates) == 4 + 4 * 2  # ±A, ±B; each ordered pair of literals of different variables
    content = [parse("A → B"), parse("(B ∨ C) → D")]
    split = split_answers(content, potential_answers(["A", "C", "D"]))
    assert parse("A → D") in split.entailed and parse("¬D → ¬A") in split.entailed
    assert parse("C → D") in split.single  # the second proposition alone entails it
    assert parse("D → A") in split.not_entailed and parse("A") in split.not_entailed


def test_vacuous_entailments_are_set_apart():
    # With the fact A, the content entails D, so every implication into D holds vacuously.
    content = [parse("A"), parse("A → B"), parse("(B ∨ C) → D")]
    split = split_answers(content, potential_answers(["B", "C", "D", "E"]))
    assert parse("E → D") in split.vacuous and parse("¬D → E") in split.vacuous
    assert parse("D") in split.entailed  # a literal needing two propositions is a proper entailment
    for formula in split.entailed:
        assert not any(tt_entails(content, w) for w in vacuity_witnesses(formula))
    assert vacuity_witnesses(parse("¬A → B")) == [parse("B"), parse("A")]
    assert vacuity_witnesses(parse("(A ∨ B) → C")) == []


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
    outcomes = Counter(type(make_item(question_type, random.Random(seed), 3)).__name__ for seed in range(400))
    assert outcomes["SymbolicItem"] > 0 and outcomes["str"] > 0


def test_config_is_validated():
    with pytest.raises(ValueError, match="per_type=0"):
        DivLogicEvalConfig(per_type=0)
    with pytest.raises(ValueError, match="n=1"):
        DivLogicEvalConfig(n=1)


# -------------------------------------------------------------------------------- the default build, re-proven


COMMITTED = Path(__file__).parents[2] / "datasets" / "divlogiceval"
"""The committed default build (`tests/hub/test_published_repos.py` checks it equals a fresh build byte for byte)."""


@pytest.fixture(scope="module")
def default_build() -> DivLogicEvalBuild:
    """The default build, read from its committed folder: rebuilding 900 proven items would take minutes."""
    data = json.loads((COMMITTED / "build_stats.json").read_text(encoding="utf-8"))
    stats = BuildStats(
        counts={bucket: Counter(c) for bucket, c in data["counts"].items()},
        dropped={bucket: Counter(c) for bucket, c in data["dropped"].items()},
        notes=data["notes"],
    )
    config = DivLogicEvalConfig(**data["config"])
    return DivLogicEvalBuild(load_dataset_repo(COMMITTED, "default", "test"), stats, config)


def test_the_committed_build_is_the_default_config(default_build):
    assert default_build.config == DivLogicEvalConfig()
    assert DivLogicEvalConfig().per_type == 300  # the paper's 900 questions


def atoms_of(formula: Formula) -> set[str]:
    return {f.pred for _, f in subformulas(formula) if isinstance(f, Atom)}


def proves(premises: list[Formula], conclusion: Formula) -> bool:
    result = entails(premises, conclusion)
    assert isinstance(result, bool), f"undecided: {result}"
    return result


def test_answer_keys_of_the_default_build_are_proven(default_build):
    """Re-derive, from the row's own strings and with Z3 only, that exactly the answer is right.

    Every third row (300 of the 900, all three types): the builder has already proven every claim of every row with
    Z3, and `lgmt verify` re-proves them all with a second prover; re-proving all 900 here would take minutes.
    """
    rows = list(default_build.dataset)
    assert len(rows) == 3 * DivLogicEvalConfig().per_type
    sample = rows[::3]
    assert set(r["question_type"] for r in sample) == set(QUESTION_TYPES)
    for row in sample:
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
            verdicts = [k == answer for k in range(4)]
        # no entailed implication holds vacuously (the content alone fixing one of its literals)
        entailed = [o for k, o in enumerate(options) if verdicts[k] and row["question_type"] != "missing"]
        if row["question_type"] == "missing":
            entailed, content = [parse(row["conclusion_logic"])], [*content, options[answer]]
        for formula in entailed:
            assert not any(proves(content, w) for w in vacuity_witnesses(formula)), row["id"]


def test_every_question_type_and_rule_is_represented(default_build):
    rows = default_build.dataset
    per_type = DivLogicEvalConfig().per_type
    assert Counter(rows["question_type"]) == dict.fromkeys(QUESTION_TYPES, per_type)
    content_rules = Counter(rule for rules in rows["rules"] for rule in rules)
    removed = Counter(r for r in rows["removed_rule"] if r)
    assert set(content_rules) == {"1a", "1b", "1c", FACT}
    assert set(removed) == {"1a", "1b", "1c", FACT}  # each is also the answer of some missing-premise question
    literal_options = sum(t == "literal" for templates in rows["option_templates"] for t in templates)
    assert literal_options > 0.1 * 4 * len(rows)  # literal facts make literal options common (they were ~3%)


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
        in_content = set().union(*(atoms_of(parse(f)) for f in row["content_logic"]))
        for variable in row["variables"]:  # the passage says each of its variables in one of the recorded renderings
            forms = [variable["sentence"], *variable["paraphrases"], variable["negation"], *variable["contradictions"]]
            assert len(forms) == len(set(forms)) >= 2
            if variable["name"] in in_content:
                assert any(form[1:-1] in row["content"] for form in forms), (variable["name"], row["id"])
        assert all(option.endswith(".") and (option[0].isupper() or option[0].isdigit()) for option in row["options"])
        if row["question_type"] == "missing":
            assert row["conclusion"].startswith("Therefore, ") and row["content"].endswith(row["conclusion"])
            assert len(row["rules"]) == row["num_propositions"] - 1
        else:
            assert row["conclusion"] == row["conclusion_logic"] == row["removed_rule"] == ""
            assert len(row["rules"]) == row["num_propositions"]
        assert row["n"] == 3 and row["seed"] == 0 and row["pool"] == "snli+coco"


def test_every_distractor_has_the_answers_surface_signature(default_build):
    for row in default_build.dataset:
        content = [parse(p) for p in row["content_logic"]]
        conclusion = parse(row["conclusion_logic"]) if row["conclusion_logic"] else None
        signatures = {surface_signature(parse(o), content, conclusion) for o in row["options_logic"]}
        assert len(signatures) == 1, row["id"]


def test_surface_signature_tells_apart_what_a_shortcut_could_read():
    content = [parse("A → B"), parse("C"), parse("(B ∨ D) → E")]
    signature = surface_signature(parse("A → E"), content, None)
    assert signature == surface_signature(parse("D → A"), content, None)  # same polarity, both in content
    assert signature != surface_signature(parse("A → B"), content, None)  # these two occur together
    assert signature != surface_signature(parse("A → ¬E"), content, None)  # polarity
    assert signature != surface_signature(parse("A → G"), content, None)  # G is not in the content
    assert signature != surface_signature(parse("C → E"), content, None)  # C is a fact
    assert signature != surface_signature(parse("A → E"), content, parse("D → E"))  # shares the conclusion's consequent


def test_build_statistics_are_consistent(default_build):
    stats = default_build.stats
    for question_type in QUESTION_TYPES:
        counts = stats.counts[question_type]
        assert counts["drawn"] == counts["proven"] + stats.total_dropped(question_type)
        assert counts["rows"] == counts["proven"] == DivLogicEvalConfig().per_type
        assert not any(reason.startswith(("prover", "undecided")) for reason in stats.dropped.get(question_type, {}))
    assert stats.notes["rows"] == len(default_build.dataset)
    sampling = stats.notes["sampling"]
    rules = Counter(r for row in default_build.dataset for r in [*row["rules"], row["removed_rule"]] if r)
    assert sampling["rules"] == {rule: rules[rule] for rule in ("1a", "1b", "1c", FACT)}
    assert (
        sum(sampling["facts_per_instance"].values()) == sum(sampling["uses"].values()) / 8 == len(default_build.dataset)
    )
    assert "language" in stats.notes  # reserved for the English-side statistics


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


def test_rows_do_not_depend_on_the_number_of_processes():
    config = DivLogicEvalConfig(per_type=4, seed=7)
    one = [dict(r) for r in build_divlogiceval(config, num_proc=1).dataset]
    two = [dict(r) for r in build_divlogiceval(config, num_proc=2).dataset]
    assert one == two


def test_the_answer_length_rank_follows_its_schedule(default_build):
    """The answer is the shortest (and the longest) option a quarter of the time in every type, by construction."""
    for question_type in QUESTION_TYPES:
        rows = [r for r in default_build.dataset if r["question_type"] == question_type]
        ranks = Counter(sum(len(o) < len(r["options"][r["answer"]]) for o in r["options"]) for r in rows)
        assert all(abs(ranks[k] - len(rows) / 4) <= 8 for k in range(4)), (question_type, ranks)


def test_committed_variables_keep_origins_and_pair_exclusivity(default_build):
    """Every variable sentence says where it was read; no instance has two sentences of one pair group."""
    from lgmt_tasks.divlogiceval.english import snli_coco_pool
    from lgmt_tasks.divlogiceval.snli import describe_origin

    entries = {entry.sentence: entry for entry in snli_coco_pool()}
    uses: Counter[str] = Counter()
    for row in default_build.dataset:
        chosen = [entries[v["sentence"]] for v in row["variables"]]
        for variable, entry in zip(row["variables"], chosen, strict=True):
            assert variable["origins"] == [describe_origin(o) for o in entry.origins] != []
            assert variable["negation"] == entry.negation
        pairs = [p for entry in chosen for p in entry.pairs]
        assert len(pairs) == len(set(pairs)), row["id"]
        words = [w for entry in chosen for w in entry.topic_words]
        assert len(words) == len(set(words)), row["id"]
        uses.update(v["sentence"] for v in row["variables"])
    assert sum(c > 1 for c in uses.values()) < 0.02 * len(uses)  # the sentence plan: sentences hardly recur


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
