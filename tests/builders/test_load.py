"""`load_selected_rows` and the five loaders built on it: two selections of the same repository, made one after the
other, give each its own rows (selection is by computed indices, never a cached `Dataset.filter`)."""

from __future__ import annotations

import sys
import types
from collections.abc import Callable
from pathlib import Path

import datasets
import pytest

from lgmt_tasks.builders.load import BuildRecipe, Selector, load_selected_rows, where
from lgmt_tasks.hub.repo import CardSpec, load_dataset_repo, write_dataset_repo


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Builds and `datasets` caches go to a temporary folder; nothing touches the network."""
    monkeypatch.setenv("LGMT_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "lgmt-cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")


@pytest.fixture
def no_filter(monkeypatch: pytest.MonkeyPatch) -> None:
    """`Dataset.filter` fails the test if a loader calls it."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a loader called Dataset.filter; select by computed indices instead")

    monkeypatch.setattr(datasets.Dataset, "filter", refuse)


def _write_toy(out: Path) -> Path:
    rows = datasets.Dataset.from_dict({"id": [f"r{i}" for i in range(9)], "kind": ["a", "b", "c"] * 3})
    return write_dataset_repo(out, {"default": {"test": rows}}, CardSpec(pretty_name="toy", license="mit", body="t"))


@pytest.fixture(scope="module")
def toy_repo(tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(_write_toy(tmp_path_factory.mktemp("toy") / "repo"))


def _kinds(allowed: Callable[[], set[str]]) -> Selector:
    return where(("kind",), lambda kind: kind in allowed())


def _no_build() -> BuildRecipe:
    raise AssertionError("a dataset was given: nothing should be built")


# --- the helper -------------------------------------------------------------------------------------------------


def test_the_helper_selects_by_index_in_repository_order(toy_repo: str, no_filter: None) -> None:
    rows = load_selected_rows(
        "toy", dataset=toy_repo, revision=None, build=_no_build, select=_kinds(lambda: {"c", "a"}), selection="x"
    )
    assert rows["id"] == ["r0", "r2", "r3", "r5", "r6", "r8"]


def test_where_without_columns_keeps_every_row(toy_repo: str) -> None:
    rows = load_selected_rows(
        "toy", dataset=toy_repo, revision=None, build=_no_build, select=where((), bool), selection="x"
    )
    assert len(rows) == 9


def test_a_selection_read_through_an_installed_module_is_not_served_from_a_cache(
    toy_repo: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The case `Dataset.filter` gets wrong: dill pickles an installed module by reference, so a closure reading its
    attribute has the same fingerprint whatever the attribute holds, and `filter` reads the first result back."""
    module = types.ModuleType("lgmt_fake_installed")
    module.__file__ = f"{sys.prefix}/lib/site-packages/lgmt_fake_installed.py"
    monkeypatch.setitem(sys.modules, module.__name__, module)
    selected = []
    for allowed in ({"a"}, {"b"}):
        module.__dict__["ALLOWED"] = allowed
        select = _kinds(lambda: module.__dict__["ALLOWED"])
        rows = load_selected_rows("toy", dataset=toy_repo, revision=None, build=_no_build, select=select, selection="x")
        selected.append(sorted(set(rows["kind"])))
    assert selected == [["a"], ["b"]]


def test_nothing_left_names_the_suite_the_selection_and_the_dataset(toy_repo: str) -> None:
    with pytest.raises(ValueError, match=r"^no toy rows of kind \['z'\] in toy dataset '.*repo'$"):
        load_selected_rows(
            "toy",
            dataset=toy_repo,
            revision=None,
            build=_no_build,
            select=_kinds(lambda: {"z"}),
            selection="toy rows of kind ['z']",
        )


def test_nothing_left_names_the_build_and_a_build_is_cached(no_filter: None) -> None:
    writes: list[Path] = []

    def build() -> BuildRecipe:
        return BuildRecipe({"seed": 3}, lambda out: writes.append(_write_toy(out)), 1)

    def load(allowed: set[str]) -> datasets.Dataset:
        return load_selected_rows(
            "toy",
            dataset=None,
            revision=None,
            build=build,
            select=_kinds(lambda: allowed),
            selection=f"toy rows of kind {sorted(allowed)}",
        )

    assert set(load({"a"})["kind"]) == {"a"} and set(load({"b"})["kind"]) == {"b"}
    with pytest.raises(ValueError, match=r"^no toy rows of kind \['z'\] in toy build \{'seed': 3\}$"):
        load({"z"})
    assert len(writes) == 1


# --- the suites' loaders: two selections of one repository, one after the other ----------------------------------


@pytest.fixture(scope="module")
def logicasker_repo(tmp_path_factory: pytest.TempPathFactory) -> str:
    from lgmt_tasks.logicasker.build import build_logicasker
    from lgmt_tasks.logicasker.card import write_logicasker_repo
    from lgmt_tasks.logicasker.config import LogicAskerConfig

    config = LogicAskerConfig(rules=("modus ponens", "modus tollens"), lengths=(1, 2), per_skill=2, seed=3)
    return str(write_logicasker_repo(build_logicasker(config), tmp_path_factory.mktemp("logicasker") / "repo"))


@pytest.fixture(scope="module")
def qmfol_repo(tmp_path_factory: pytest.TempPathFactory) -> str:
    from lgmt_tasks.qmfol.build import build_qmfol
    from lgmt_tasks.qmfol.card import write_qmfol_repo
    from lgmt_tasks.qmfol.config import QmfolConfig

    config = QmfolConfig(depths=(5, 10), widths=(5,), distractors=(0,), topics=("Food",), seeds=1)
    return str(write_qmfol_repo(build_qmfol(config), tmp_path_factory.mktemp("qmfol") / "repo"))


@pytest.fixture(scope="module")
def lgmt_repo(tmp_path_factory: pytest.TempPathFactory) -> str:
    from lgmt_tasks.lgmt.build import build_lgmt
    from lgmt_tasks.lgmt.card import write_lgmt_repo
    from lgmt_tasks.lgmt.config import LgmtConfig

    config = LgmtConfig(mrs=("MR-E1.2", "MR-P1"), per_mr=2, generated_cases=12)
    return str(write_lgmt_repo(build_lgmt(config), tmp_path_factory.mktemp("lgmt") / "repo"))


@pytest.fixture(scope="module")
def lexical_repo(tmp_path_factory: pytest.TempPathFactory) -> str:
    from lgmt_tasks.lexical.build import LexicalConfig, build_lexical
    from lgmt_tasks.lexical.card import write_lexical_repo

    config = LexicalConfig(mrs=("MR-1", "MR-49"), parts=("premises", "conclusion"), per_mr=2, generated_cases=12)
    return str(write_lexical_repo(build_lexical(config), tmp_path_factory.mktemp("lexical") / "repo"))


def _ids(repo: str, keep: Callable[[dict[str, object]], bool]) -> list[str]:
    """The ids a selection must give, read row by row from the whole repository."""
    return [row["id"] for row in load_dataset_repo(repo) if keep(row)]


def test_logicasker_selections_one_after_the_other(logicasker_repo: str, no_filter: None) -> None:
    from lgmt_tasks.logicasker.dataset import load_logicasker_rows

    first = load_logicasker_rows(rule="modus ponens", length=1, dataset=logicasker_repo)
    second = load_logicasker_rows(rule="modus tollens", length=2, dataset=logicasker_repo)
    both = load_logicasker_rows(rule="modus ponens,modus tollens", dataset=logicasker_repo)
    assert first["id"] == _ids(logicasker_repo, lambda r: r["rule"] == "modus ponens" and r["length"] == 1)
    assert second["id"] == _ids(logicasker_repo, lambda r: r["rule"] == "modus tollens" and r["length"] == 2)
    assert len(first) == len(second) == 2 and not set(first["id"]) & set(second["id"]) and len(both) == 8


def test_qmfol_selections_one_after_the_other(qmfol_repo: str, no_filter: None) -> None:
    from lgmt_tasks.qmfol.dataset import load_qmfol_rows

    first = load_qmfol_rows(depth=5, label="True", dataset=qmfol_repo)
    second = load_qmfol_rows(depth=10, dataset=qmfol_repo)
    assert first["id"] == _ids(qmfol_repo, lambda r: r["depth"] == 5 and r["label"] == "True")
    assert second["id"] == _ids(qmfol_repo, lambda r: r["depth"] == 10)
    assert len(first) == 1 and len(second) == 3 and len(load_qmfol_rows(dataset=qmfol_repo)) == 6
    with pytest.raises(
        ValueError,
        match=r"no QMFOL tasks for the requested parameters \(depth in \[7\]\) in qmfol "
        r"dataset '.*repo'",
    ):
        load_qmfol_rows(depth=7, dataset=qmfol_repo)


def test_lgmt_selections_one_after_the_other(lgmt_repo: str, no_filter: None) -> None:
    from lgmt_tasks.lgmt.dataset import load_lgmt_rows

    first = load_lgmt_rows(("MR-E1.2",), dataset=lgmt_repo)
    second = load_lgmt_rows(("MR-P1",), dataset=lgmt_repo)
    assert first["id"] == _ids(lgmt_repo, lambda r: str(r["mr"]).split("+")[0] == "MR-E1.2")
    assert second["id"] == _ids(lgmt_repo, lambda r: str(r["mr"]).split("+")[0] == "MR-P1")
    assert first["id"] and second["id"] and not set(first["id"]) & set(second["id"])


def test_lexical_selections_one_after_the_other(lexical_repo: str, no_filter: None) -> None:
    from lgmt_tasks.lexical.dataset import load_lexical_rows

    first = load_lexical_rows(("MR-1",), ("premises",), dataset=lexical_repo)
    second = load_lexical_rows(("MR-1",), ("conclusion",), dataset=lexical_repo)
    assert first["id"] == _ids(lexical_repo, lambda r: r["mr"] == "MR-1" and r["part"] == "premises")
    assert second["id"] == _ids(lexical_repo, lambda r: r["mr"] == "MR-1" and r["part"] == "conclusion")
    assert first["id"] and second["id"] and not set(first["id"]) & set(second["id"])


def test_divlogiceval_selections_of_one_cached_build(no_filter: None) -> None:
    """Both selections read the same on-the-fly build (the question type is not part of the build key)."""
    from lgmt_tasks.divlogiceval.dataset import load_divlogiceval_rows

    first = load_divlogiceval_rows("3c1e", per_type=1, seed=5)
    second = load_divlogiceval_rows("3e1c", per_type=1, seed=5)
    every = load_divlogiceval_rows("all", per_type=1, seed=5)
    assert set(first["question_type"]) == {"3c1e"} and set(second["question_type"]) == {"3e1c"}
    assert first["id"] == [i for i, t in zip(every["id"], every["question_type"], strict=True) if t == "3c1e"]
    assert second["id"] == [i for i, t in zip(every["id"], every["question_type"], strict=True) if t == "3e1c"]
