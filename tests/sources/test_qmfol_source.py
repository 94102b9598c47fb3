"""The `qmfol` source: QMFOL problems of a requested depth × width grid as proven LGMT source cases."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from lgmt_tasks.builders.stats import BuildStats
from lgmt_tasks.lgmt.build import build_lgmt
from lgmt_tasks.lgmt.config import LgmtConfig
from lgmt_tasks.logic.phrasing import natural_template
from lgmt_tasks.logic.prover import Label, entailment
from lgmt_tasks.logic.syntax import signature
from lgmt_tasks.sources.pipeline import SourceConfig, load_source_cases, ordered_candidates
from lgmt_tasks.sources.qmfol import (
    DEFAULT_DEPTHS,
    DEFAULT_WIDTHS,
    difficulty_of,
    grid_values,
    problem,
    symbol_name,
)
from lgmt_tasks.suites import suite


@pytest.fixture(scope="module")
def cases():
    config = SourceConfig(source="qmfol", depths=(3, 1), widths=(2, 0), per_cell=6, seed=4)
    stats = BuildStats()
    return config, load_source_cases(config, stats), stats


def test_cases_carry_the_requested_cells_in_grid_order_with_balanced_labels(cases):
    config, loaded, stats = cases
    assert config.depths == (1, 3) and config.widths == (0, 2)  # sorted: equal grids, equal keys
    cells = [difficulty_of(c.source_id) for c in loaded]
    assert cells == [(d, w) for d in (1, 3) for w in (0, 2) for _ in range(6)]
    assert stats.counts["source"] == Counter({"records": 24, "loaded": 24})
    for cell in set(cells):
        labels = Counter(c.label for c, at in zip(loaded, cells, strict=True) if at == cell)
        assert labels == Counter({"True": 2, "False": 2, "Unknown": 2})
    assert {c.source_dataset for c in loaded} == {"qmfol"}


def test_the_rules_have_the_depth_and_width_their_id_says():
    """Measured from QMFOL's rules (not from the parameters), for problems of every cell."""
    measure = suite("qmfol").module("construction").measure
    for depth, width in [(1, 0), (2, 3), (5, 4)]:
        for n in range(3):
            task, _ = problem(depth, width, n, seed=2)
            shape = measure(task.rules)
            assert (shape.depth, shape.width) == (depth, width)


def test_every_label_is_the_one_z3_proves_on_the_renamed_formulas(cases):
    _, loaded, _ = cases
    for case in loaded:
        result = entailment(case.premises_fol, case.conclusion_fol)
        assert isinstance(result, Label) and result.value == case.label, case.source_id


def test_the_english_is_qmfols_and_the_symbols_are_its_phrases(cases):
    """The premises are QMFOL's sentences; LGMT's realiser speaks each renamed predicate as QMFOL's phrase."""
    config, loaded, _ = cases
    build = suite("qmfol").module("build")
    for n, case in enumerate(loaded[:6]):
        task, topic = problem(1, 0, n, config.seed)
        english = build.template_english(topic, task)
        assert (case.premises, case.conclusion) == (english.premises, english.conclusion)
        phrases = {p.phrase for _, p in build.lexicon_of(topic, task).predicates}
        names = signature(*case.premises_fol, case.conclusion_fol).predicate_names
        assert names == {symbol_name(p) for p in phrases}
        for phrase in phrases:
            template = natural_template(symbol_name(phrase), 1)
            assert template is not None and " ".join(map(str, template[1:])) == symbol_name(phrase).replace("_", " ")


def test_symbol_names_read_as_the_phrase():
    assert symbol_name("has a one in the 2^3 place of its binary expansion") == (
        "has_a_one_in_the_2_to_the_3_place_of_its_binary_expansion"
    )
    assert symbol_name("is on the dean's list") == "is_on_the_deans_list"
    assert symbol_name("is left-handed") == "is_left_handed"
    assert symbol_name("Velmora") == "velmora"


def test_difficulty_of_reads_only_qmfol_ids():
    assert difficulty_of("d3-w12/Food_d3_w12_0_1_distract0") == (3, 12)
    assert difficulty_of("FOLIO_dev_12") is None
    assert difficulty_of("gen-0007") is None


def test_candidates_are_stratified_over_cells_as_well_as_labels(cases):
    _, loaded, _ = cases
    first = ordered_candidates(loaded, "MR-C1", seed=0)[:12]
    assert Counter(difficulty_of(c.source_id) for c in first) == Counter({(1, 0): 3, (1, 2): 3, (3, 0): 3, (3, 2): 3})
    assert Counter(c.label for c in first) == Counter({"True": 4, "False": 4, "Unknown": 4})


def test_the_same_seed_gives_byte_identical_rows_and_another_seed_other_rows():
    def rows(seed: int) -> str:
        config = LgmtConfig(
            source="qmfol",
            mrs=("MR-E1.1", "MR-S1", "MR-P3"),
            per_mr=3,
            depths=(1, 2),
            widths=(1,),
            per_cell=3,
            seed=seed,
        )
        return json.dumps(build_lgmt(config).dataset.to_list(), sort_keys=True, ensure_ascii=False)

    first = rows(0)
    assert first == rows(0)
    assert first != rows(1)
    assert '"source_dataset": "qmfol"' in first


def test_the_grid_is_in_the_cache_key_only_for_a_qmfol_build():
    generated = LgmtConfig().key()
    assert not {"depths", "widths", "per_cell"} & set(generated)
    qmfol = LgmtConfig(source="qmfol").key()
    assert (qmfol["depths"], qmfol["widths"]) == (DEFAULT_DEPTHS, DEFAULT_WIDTHS)
    assert LgmtConfig(source="qmfol", depths=(2,)).key() != qmfol
    assert LgmtConfig(source="qmfol", depths=(3, 1, 2)).key() == qmfol
    assert LgmtConfig.from_key(json.loads(json.dumps(qmfol))) == LgmtConfig(source="qmfol")


@pytest.mark.parametrize(
    ("name", "given", "message"),
    [
        ("depth", 0, "depth=0: 0 outside the range; expected integers from 1 to 20"),
        ("depth", "1,21", "depth='1,21': 21 outside the range; expected integers from 1 to 20"),
        ("width", -1, "width=-1: -1 outside the range; expected integers from 0 to 20"),
        ("width", "two", "width='two': expected integers from 0 to 20"),
        ("depth", [1, 2.5], "depth=[1, 2.5]: expected integers from 1 to 20"),
        ("depth", "", "depth='': expected integers from 1 to 20"),
    ],
)
def test_bad_depth_or_width_gives_one_error_naming_the_parameter_and_range(name, given, message):
    with pytest.raises(ValueError) as raised:
        grid_values(name, given, ())
    assert str(raised.value).startswith(message)


def test_the_grid_is_refused_for_another_source_and_a_path_for_qmfol():
    with pytest.raises(ValueError, match="depth=2: depth, width and per_cell set the difficulty grid of source=qmfol"):
        LgmtConfig(depths=(2,))
    with pytest.raises(ValueError, match="source='qmfol' builds its problems and reads no records"):
        SourceConfig(source="qmfol", source_path="/tmp/x.jsonl")
    with pytest.raises(ValueError, match="per_cell=0: expected an integer of at least 1"):
        LgmtConfig(source="qmfol", per_cell=0)


def test_the_cards_command_reproduces_the_grid_and_other_builds_keep_theirs():
    from lgmt_tasks.builders.schema import reproduce_command

    config = LgmtConfig(source="qmfol", depths=(1, 3), widths=(1,), per_cell=6, per_mr=2)
    command = reproduce_command("lgmt", config, "out")
    assert "--source qmfol --per-mr 2 --depth 1,3 --width 1 --per-cell 6 --seed 0" in command
    assert "--depth" not in reproduce_command("lgmt", LgmtConfig(), "out")


def test_two_processes_give_the_same_cases_as_one():
    from lgmt_tasks.builders.parallel import process_pool

    config = SourceConfig(source="qmfol", depths=(1, 2), widths=(0, 1), per_cell=3, seed=1)
    serial = load_source_cases(config, BuildStats())
    with process_pool(2) as workers:
        parallel = load_source_cases(config, BuildStats(), workers)
    assert parallel == serial and len(serial) == 12
