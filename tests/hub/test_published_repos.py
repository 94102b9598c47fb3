"""The committed default builds under `datasets/<suite>`: valid Hub repositories, reproducible, and evaluable.

For every suite:
- the folder loads with `datasets.load_dataset(folder, config)` (the Hub's loader) into the configs, splits and
  `dataset_info` features its card declares, which are the builder's `FEATURES`;
- the card's YAML survives `huggingface_hub`'s card model and uses the Hub's vocabulary (checked offline), and the
  body has what a dataset card must say (command, seed, version, statistics, columns, licence, citation, usage);
- `lgmt build <suite> --out <tmp>` rebuilds the folder file for file (data files compared decompressed: gzip bytes
  may differ between zlib builds, the JSON Lines inside may not) - marked `reproduce`: run by `make reproduce`, not
  by `make test`, which rebuilds a slice of each builder instead (`tests/verify/test_reproduce_slices.py`);
- the suite's Inspect task evaluates the folder (`-T dataset=`) and its samples are the folder's rows.
"""

from __future__ import annotations

import gzip
import importlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import datasets
import pytest
import yaml
from click.testing import CliRunner
from huggingface_hub import DatasetCard, DatasetCardData
from huggingface_hub.repocard import metadata_load
from inspect_ai import Task, eval
from inspect_ai.model import ModelOutput, ModelUsage, get_model

from lgmt_tasks import __version__
from lgmt_tasks.cli import main
from lgmt_tasks.divlogiceval.build import DivLogicEvalConfig
from lgmt_tasks.hub.check import card_problems, check_repo
from lgmt_tasks.hub.repo import DATA_SUFFIX, data_file
from lgmt_tasks.lexical.build import LexicalConfig
from lgmt_tasks.lgmt.config import LgmtConfig
from lgmt_tasks.logicasker.build import build_logicasker
from lgmt_tasks.logicasker.card import write_logicasker_repo
from lgmt_tasks.logicasker.config import LogicAskerConfig
from lgmt_tasks.qmfol.config import QmfolConfig
from lgmt_tasks.suites import SUITE_NAMES
from tests.hub.repo_contents import repo_contents

ROOT = Path(__file__).resolve().parents[2]
DATASETS = ROOT / "datasets"

DEFAULT_CONFIGS: dict[str, Any] = {
    "lgmt": LgmtConfig,
    "logicasker": LogicAskerConfig,
    "divlogiceval": DivLogicEvalConfig,
    "qmfol": QmfolConfig,
    "lexical": LexicalConfig,
}


def folder(suite: str) -> Path:
    return DATASETS / suite


def front_matter(path: Path) -> dict[str, Any]:
    text = (path / "README.md").read_text(encoding="utf-8")
    assert text.startswith("---\n")
    meta = yaml.safe_load(text.split("---\n", 2)[1])
    assert isinstance(meta, dict)
    return meta


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LGMT_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "lgmt-cache"))
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")


@pytest.mark.parametrize("suite", SUITE_NAMES)
def test_committed_folder_loads_into_the_declared_configs_and_features(suite: str, tmp_path: Path) -> None:
    path = folder(suite)
    meta = front_matter(path)
    builder = importlib.import_module(f"lgmt_tasks.{suite}.build")
    declared_features = {
        c["config_name"]: datasets.Features._from_yaml_list(c["features"]) for c in meta["dataset_info"]
    }
    assert [c["config_name"] for c in meta["configs"]] == list(declared_features)
    total = 0
    for config in meta["configs"]:
        name = config["config_name"]
        splits = [f["split"] for f in config["data_files"]]
        assert [f["path"] for f in config["data_files"]] == [data_file(name, s) for s in splits]
        loaded = datasets.load_dataset(str(path), name, cache_dir=str(tmp_path / "hf"))
        assert isinstance(loaded, datasets.DatasetDict)
        assert list(loaded) == splits
        for split in splits:
            ds = loaded[split]
            assert ds.features == declared_features[name] == builder.FEATURES
            assert len(ds) > 0 and len(set(ds["id"])) == len(ds)
            total += len(ds)
    on_disk = sorted(p.relative_to(path).as_posix() for p in (path / "data").rglob("*") if p.is_file())
    assert on_disk == sorted(f["path"] for c in meta["configs"] for f in c["data_files"])
    assert all(p.endswith(DATA_SUFFIX) for p in on_disk)
    check = check_repo(path, suite)  # the check `lgmt publish` runs agrees
    assert check.total_rows == total


@pytest.mark.parametrize("suite", SUITE_NAMES)
def test_committed_card_validates_offline_and_says_what_a_card_must(suite: str) -> None:
    path = folder(suite)
    card = DatasetCard.load(path / "README.md")
    meta = card.data.to_dict()
    assert meta == metadata_load(path / "README.md") == front_matter(path)
    assert DatasetCardData(**meta).to_dict() == meta  # nothing lost or changed by the card model
    assert card_problems(meta) == []
    assert meta["language"] == ["en"] and meta["license"] in ("mit", "cc-by-sa-4.0")
    body = card.text
    for heading in ("## How it was built", "## Columns", "## Run it", "## Licence", "## Citation"):
        assert heading in body, heading
    assert "Build statistics" in body and f"Version {__version__}" in body and "seed" in body
    assert f"lgmt build {suite}" in body and f"--out datasets/{suite}" in body
    assert f"inspect eval lgmt_tasks/{suite}" in body and "-T revision=" in body and "lm_eval" in body
    assert "@inproceedings{" in body or "@article{" in body
    stats = json.loads((path / "build_stats.json").read_text(encoding="utf-8"))
    default = json.loads(json.dumps(DEFAULT_CONFIGS[suite]().key(), default=str))
    assert stats["config"] == default  # the committed folder is the default build


def test_data_files_are_deterministic_gzip(tmp_path: Path) -> None:
    for suite in SUITE_NAMES:
        raw = (folder(suite) / data_file("default", "test")).read_bytes()
        assert raw[:3] == b"\x1f\x8b\x08"  # gzip, deflate
        assert raw[3] == 0, "no file name or other optional header fields"
        assert raw[4:8] == b"\x00\x00\x00\x00", "mtime 0"
        assert gzip.decompress(raw).endswith(b"\n")


def test_same_seed_same_bytes_other_seed_other_bytes(tmp_path: Path) -> None:
    def build(seed: int, name: str) -> dict[str, bytes]:
        config = LogicAskerConfig(rules=("modus ponens", "disjunctive syllogism"), per_skill=2, seed=seed)
        return repo_contents(write_logicasker_repo(build_logicasker(config), tmp_path / name))

    first, again, other = build(0, "a"), build(0, "b"), build(1, "c")
    assert first == again
    assert (tmp_path / "a" / data_file("default", "test")).read_bytes() == (
        tmp_path / "b" / data_file("default", "test")
    ).read_bytes()
    assert first[data_file("default", "test")] != other[data_file("default", "test")]


@pytest.mark.slow
@pytest.mark.reproduce  # `make reproduce` (a release check); `make test` rebuilds a slice of each builder instead
@pytest.mark.parametrize("suite", SUITE_NAMES)
def test_default_build_reproduces_the_committed_folder(suite: str, tmp_path: Path) -> None:
    out = tmp_path / suite
    parallel = ["--num-proc", "2"] if suite != "lexical" else []  # the output does not depend on it
    result = CliRunner().invoke(main, ["build", suite, *parallel, "--out", str(out)])
    assert result.exit_code == 0, result.output
    rebuilt, committed = repo_contents(out), repo_contents(folder(suite))
    assert sorted(rebuilt) == sorted(committed)
    for name in committed:
        assert rebuilt[name] == committed[name], f"{suite}/{name} differs from a rebuild"


GOLD: dict[str, Callable[[dict[str, Any]], str]] = {
    "lgmt": lambda row: row["label"],
    "logicasker": lambda row: row["answer"],
    "divlogiceval": lambda row: "ABCD"[row["answer"]],
    "qmfol": lambda row: row["label"],
    "lexical": lambda row: row["label"],
}
"""The sample target each task takes from a row."""


def _task(suite: str, dataset: str) -> Task:
    from lgmt_tasks.divlogiceval.task import divlogiceval
    from lgmt_tasks.lexical.task import lexical
    from lgmt_tasks.lgmt.task import lgmt
    from lgmt_tasks.logicasker.task import logicasker
    from lgmt_tasks.qmfol.task import qmfol

    tasks: dict[str, Callable[..., Task]] = {
        "lgmt": lgmt,
        "logicasker": logicasker,
        "divlogiceval": divlogiceval,
        "qmfol": qmfol,
        "lexical": lexical,
    }
    task = tasks[suite](dataset=dataset)
    return task


def _constant_reply(*_: Any) -> ModelOutput:
    output = ModelOutput.from_content(model="mockllm/model", content="Answer: True")
    output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
    return output


@pytest.mark.parametrize("suite", SUITE_NAMES)
def test_task_evaluates_the_committed_folder(suite: str, tmp_path: Path) -> None:
    path = folder(suite)
    rows = {row["id"]: row for row in datasets.load_dataset(str(path), split="test", cache_dir=str(tmp_path / "hf"))}
    [log] = eval(
        _task(suite, str(path)),
        model=get_model("mockllm/model", custom_outputs=_constant_reply),
        limit=2,
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert log.status == "success", log.error
    assert log.samples is not None and len(log.samples) == 2
    for sample in log.samples:
        assert sample.id in rows
        assert sample.target == GOLD[suite](rows[str(sample.id)])
