"""A prover query that exhausts its limit never stops a build: the item is dropped, counted, named, never shipped.

The limit is made tiny the way a user's limit would be: by lowering the resource limit (`rlimit`) that every
public prover function takes by default (its keyword default, `DEFAULT_RLIMIT`), not by replacing any prover code.
Z3's rlimit is deterministic, so which queries it stops does not depend on the machine. With `rlimit=1` every
query is undecided; with a small one, some are, so kept and dropped items can be compared.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from lgmt_tasks.builders.stats import BuildStats
from lgmt_tasks.divlogiceval.build import DivLogicEvalConfig, build_divlogiceval
from lgmt_tasks.lexical.build import LexicalConfig, build_lexical
from lgmt_tasks.lgmt.build import build_lgmt
from lgmt_tasks.lgmt.config import LgmtConfig
from lgmt_tasks.logic import prover
from lgmt_tasks.logic.parse import parse
from lgmt_tasks.logicasker.build import build_logicasker
from lgmt_tasks.logicasker.config import LogicAskerConfig
from lgmt_tasks.qmfol.build import build_qmfol
from lgmt_tasks.qmfol.config import QmfolConfig

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
FOLIO = DATA / "folio" / "folio_v0_validation.jsonl"
PROVER_FUNCTIONS = (prover.entailment, prover.entails, prover.equivalent, prover.satisfiable)


@pytest.fixture
def tiny_rlimit(monkeypatch: pytest.MonkeyPatch):
    """Set the default Z3 resource limit of every prover function (the limit constant, not the prover's logic)."""

    def set_limit(rlimit: int) -> None:
        for fn in PROVER_FUNCTIONS:
            assert fn.__kwdefaults__ is not None and fn.__kwdefaults__["rlimit"] == prover.DEFAULT_RLIMIT
            monkeypatch.setitem(fn.__kwdefaults__, "rlimit", rlimit)

    return set_limit


@pytest.fixture
def folio_subset(tmp_path: Path) -> Path:
    """The first 40 FOLIO v0 validation records (real rows, few enough to build in seconds)."""
    if not FOLIO.exists():
        pytest.skip("../shared/data is absent")
    lines = FOLIO.read_text(encoding="utf-8").splitlines()[:40]
    path = tmp_path / "folio_v0_validation.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def undecided(stats: BuildStats) -> Iterator[tuple[str, str, int]]:
    """`(bucket, reason, count)` of every drop whose reason is an undecided prover query."""
    for bucket, reasons in stats.dropped.items():
        for reason, n in reasons.items():
            if reason.startswith("undecided"):
                yield bucket, reason, n


def assert_undecided_counted_and_named(stats: BuildStats) -> dict[str, dict[str, list[str]]]:
    """Some query was undecided; each such drop is counted and named once; the statistics are plain JSON."""
    dropped = list(undecided(stats))
    assert dropped, stats.to_dict()["dropped"]
    data = json.loads(json.dumps(stats.to_dict()))
    names = data["dropped_ids"]
    for bucket, reason, n in dropped:
        assert len(names[bucket][reason]) == n, (bucket, reason)
        assert names[bucket][reason] == sorted(names[bucket][reason])
    return names


def test_build_stats_name_dropped_items_and_merge_them():
    one, two = BuildStats(), BuildStats()
    one.drop("source", "undecided: resource limit", ids=["b"])
    two.drop("source", "undecided: resource limit", ids=["a"])
    two.drop("source", "misaligned", 3)  # a count without names stays a count
    one.merge(two)
    data = one.to_dict()
    assert data["dropped"]["source"] == {"misaligned": 3, "undecided: resource limit": 2}
    assert data["dropped_ids"] == {"source": {"undecided: resource limit": ["a", "b"]}}


def test_lgmt_with_every_query_undecided_completes_empty(tiny_rlimit, folio_subset):
    tiny_rlimit(1)
    build = build_lgmt(LgmtConfig(source="folio", source_path=str(folio_subset), per_mr=2, mrs=("MR-E1.1", "MR-P4")))
    assert len(build.dataset) == 0
    assert "premises_fol" in build.dataset.column_names  # an empty build keeps its columns
    names = assert_undecided_counted_and_named(build.stats)
    source = build.stats.counts["source"]
    assert "proven" not in source
    named = {i for reason, ids in names["source"].items() if reason.startswith("undecided") for i in ids}
    assert len(named) == source["loaded"]  # every loaded record was tried, dropped and named once
    assert all(i.startswith("folio_v0_validation_") for i in named)


def test_lgmt_with_a_small_limit_ships_only_decided_groups(tiny_rlimit, folio_subset):
    tiny_rlimit(200)
    build = build_lgmt(
        LgmtConfig(source="folio", source_path=str(folio_subset), per_mr=3, mrs=("MR-E1.1", "MR-P4", "MR-C3"))
    )
    names = assert_undecided_counted_and_named(build.stats)
    rows = build.dataset.to_list()
    assert rows, "a small limit still lets some groups through"
    dropped_sources = {
        i for reason, ids in names.get("source", {}).items() if reason.startswith("undecided") for i in ids
    }
    for row in rows:
        assert row["source_id"] not in dropped_sources
        mr_drops = names.get(row["mr"], {})
        assert all(row["source_id"] not in ids for r, ids in mr_drops.items() if r.startswith("undecided"))
    # What shipped is decided under the default limit too, with the label the row carries.
    for row in rows:
        premises = [parse(p) for p in row["followup_premises_fol"]]
        label = prover.entailment(premises, parse(row["followup_conclusion_fol"]), rlimit=prover.DEFAULT_RLIMIT)
        assert isinstance(label, prover.Label)


def test_lexical_with_every_query_undecided_completes_empty(tiny_rlimit, folio_subset):
    tiny_rlimit(1)
    build = build_lexical(LexicalConfig(source="folio", source_path=str(folio_subset), per_mr=2))
    assert len(build.dataset) == 0
    names = assert_undecided_counted_and_named(build.stats)
    assert set(names) == {"source"}


def test_logicasker_with_every_query_undecided_completes_empty(tiny_rlimit):
    tiny_rlimit(1)
    rules = ("modus_ponens", "universal_modus_ponens")
    build = build_logicasker(LogicAskerConfig(rules=rules, per_skill=2, attempts=2))
    assert len(build.dataset) == 0
    names = assert_undecided_counted_and_named(build.stats)
    for skill in rules:
        assert build.stats.counts[skill]["unfilled"] == 2
        assert all(i.startswith(f"{skill}/") for ids in names[skill].values() for i in ids)


def test_divlogiceval_with_every_query_undecided_completes_empty(tiny_rlimit):
    tiny_rlimit(1)
    build = build_divlogiceval(DivLogicEvalConfig(per_type=1, max_attempts=6))
    assert len(build.dataset) == 0
    assert_undecided_counted_and_named(build.stats)
    for question_type in ("3c1e", "3e1c", "missing"):
        assert "proven" not in build.stats.counts[question_type]


def test_qmfol_with_every_query_undecided_completes_empty(tiny_rlimit):
    tiny_rlimit(1)
    config = QmfolConfig(depths=(3,), widths=(4,), distractors=(0, 5), topics=("Food", "Animal"), seeds=1)
    build = build_qmfol(config)
    assert len(build.dataset) == 0
    names = assert_undecided_counted_and_named(build.stats)
    ids = [i for reasons in names.values() for named in reasons.values() for i in named]
    assert len(ids) == len(set(ids)) == config.size()  # every requested task named once
