"""Check a dataset repository folder offline, before it is published or committed.

`lgmt publish` refuses a folder this check rejects, and the tests run it on every committed `datasets/<suite>`.
It checks what the Hub would check or show, without the Hub (`RepoCard.validate()` calls the Hub API):

- the card's YAML parses with `huggingface_hub`'s card model (`DatasetCard`, `DatasetCardData`) and survives a
  round trip through it; its vocabulary fields use the Hub's values (task categories, size buckets and language
  codes from the lists `datasets` ships; licence ids from `HUB_LICENSES`);
- `configs` name existing data files, and no data file is left undeclared (it would be pushed and never read);
- every config loads with `datasets.load_dataset(folder, config)`, the Hub's own loader, into the splits and the
  `dataset_info` features the card declares, which are the suite builder's `FEATURES`, and no split is empty;
- `size_categories` matches the number of rows.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import datasets
from datasets.info import DatasetInfosDict
from datasets.utils.metadata import MetadataConfigs, known_task_ids
from huggingface_hub import DatasetCard, DatasetCardData

from lgmt_tasks.hub.repo import DATA_SUFFIX, content_cache_dir, size_category
from lgmt_tasks.suites import SUITE_NAMES
from lgmt_tasks.suites import suite as registry_entry

HUB_LICENSES: frozenset[str] = frozenset(
    {"mit", "apache-2.0", "cc-by-4.0", "cc-by-sa-4.0", "cc-by-nc-4.0", "cc-by-nc-sa-4.0", "cc0-1.0", "other"}
)
"""Hub licence identifiers our cards may use (a subset of the Hub's list; `other` needs a `license_name`)."""

REQUIRED_FIELDS: tuple[str, ...] = (
    "pretty_name", "license", "language", "task_categories", "tags", "size_categories", "configs", "dataset_info"
)  # fmt: skip


class RepoCheckError(ValueError):
    """A folder is not a publishable dataset repository; `problems` lists every reason."""

    def __init__(self, folder: Path, problems: list[str]) -> None:
        self.folder = folder
        self.problems = [" ".join(problem.split()) for problem in problems]  # one line each (YAML errors are not)
        super().__init__(f"{folder} is not a valid dataset repository: " + "; ".join(self.problems))


@dataclass(frozen=True)
class RepoCheck:
    """What a valid folder holds.

    Attributes:
        folder: The folder.
        metadata: The card's YAML metadata (as `DatasetCardData.to_dict()` gives it).
        rows: `rows[config][split]`: row counts, in the card's order.
        files: Every file to publish (relative POSIX paths, sorted): the card, the data files, the others.
    """

    folder: Path
    metadata: dict[str, Any]
    rows: dict[str, dict[str, int]] = field(default_factory=dict)
    files: tuple[str, ...] = ()

    @property
    def total_rows(self) -> int:
        """Rows over every config and split."""
        return sum(n for splits in self.rows.values() for n in splits.values())


def _vocabulary(name: str) -> list[str]:
    text = resources.files("datasets.utils.resources").joinpath(name).read_text(encoding="utf-8")
    values = json.loads(text)
    return list(values)


def card_problems(metadata: dict[str, Any]) -> list[str]:
    """Problems of a card's metadata against the Hub's vocabulary (empty when it is valid); offline."""
    problems = [f"card metadata has no `{key}`" for key in REQUIRED_FIELDS if not metadata.get(key)]
    licence = metadata.get("license")
    if licence and licence not in HUB_LICENSES:
        problems.append(f"license {licence!r} is not one of {', '.join(sorted(HUB_LICENSES))}")
    if licence == "other" and not metadata.get("license_name"):
        problems.append("license 'other' needs a `license_name`")
    for key, known in [
        ("task_categories", set(known_task_ids)),
        ("size_categories", set(_vocabulary("size_categories.json"))),
        ("language", set(_vocabulary("languages.json"))),
    ]:
        values = metadata.get(key) or []
        if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
            problems.append(f"`{key}` must be a list of strings, got {values!r}")
            continue
        problems += [f"{key}: {v!r} is not a Hub value" for v in values if v not in known]
    tags = metadata.get("tags") or []
    if not isinstance(tags, list) or not all(isinstance(t, str) and t for t in tags):
        problems.append(f"`tags` must be a list of non-empty strings, got {tags!r}")
    return problems


def load_card(folder: Path) -> tuple[DatasetCardData, dict[str, Any]]:
    """The card's data through `huggingface_hub`'s card model, and its metadata as a plain dict.

    Raises:
        RepoCheckError: When there is no card, its YAML does not parse, or it does not survive a round trip through
            `DatasetCardData` (a key the model would change or drop).
    """
    readme = folder / "README.md"
    if not readme.is_file():
        raise RepoCheckError(folder, ["no README.md (the dataset card)"])
    try:
        card = DatasetCard.load(readme)  # a Path: read from disk, never from the Hub
    except Exception as exc:  # huggingface_hub raises ValueError or yaml errors for a bad header
        raise RepoCheckError(folder, [f"README.md: card metadata does not parse ({exc})"]) from exc
    metadata = card.data.to_dict()
    if not metadata:
        raise RepoCheckError(folder, ["README.md has no YAML front matter"])
    again = DatasetCardData(**metadata).to_dict()
    if again != metadata:
        raise RepoCheckError(folder, ["card metadata changes in a round trip through DatasetCardData"])
    return card.data, metadata


def check_repo(folder: str | Path, suite: str | None = None) -> RepoCheck:
    """Check a dataset repository folder (see the module docstring); collect every problem before failing.

    Args:
        folder: The folder (`datasets/<suite>` or any `lgmt build --out`).
        suite: If given, every config's features must be `lgmt_tasks.builders.<suite>.FEATURES`.

    Returns:
        What the folder holds.

    Raises:
        RepoCheckError: Listing every problem found.
        ValueError: On an unknown suite.
    """
    root = Path(folder)
    if suite is not None and suite not in SUITE_NAMES:
        raise ValueError(f"unknown suite {suite!r}; expected one of {', '.join(SUITE_NAMES)}")
    if not root.is_dir():
        raise RepoCheckError(root, ["not a folder (build it with `lgmt build <suite> --out FOLDER`)"])
    data, metadata = load_card(root)
    problems = card_problems(metadata)
    try:
        configs = MetadataConfigs.from_dataset_card_data(data)
        infos = DatasetInfosDict.from_dataset_card_data(data)
    except (ValueError, TypeError, KeyError) as exc:  # what `datasets` raises on a malformed `configs`/`dataset_info`
        raise RepoCheckError(root, [*problems, f"`configs` / `dataset_info` do not parse ({exc})"]) from exc
    declared: dict[str, dict[str, str]] = {}
    for name, params in configs.items():
        files = params.get("data_files") or []
        if isinstance(files, list) and all(isinstance(f, dict) for f in files):
            declared[name] = {str(f["split"]): str(f["path"]) for f in files}
        else:
            problems.append(f"config {name!r}: data_files must list {{split, path}} entries")
    paths = {path for splits in declared.values() for path in splits.values()}
    problems += [f"data file {p} is declared but missing" for p in sorted(paths) if not (root / p).is_file()]
    on_disk = (
        {
            p.relative_to(root).as_posix()
            for p in (root / "data").rglob("*")
            if p.is_file() and p.name.endswith((".jsonl", DATA_SUFFIX, ".parquet", ".json", ".csv"))
        }
        if (root / "data").is_dir()
        else set()
    )
    problems += [f"data file {p} is not declared in the card's configs" for p in sorted(on_disk - paths)]
    expected_features = _suite_features(suite) if suite else None
    rows: dict[str, dict[str, int]] = {}
    if not problems:
        for name, splits in declared.items():
            info = infos.get(name)
            if info is None or info.features is None:
                problems.append(f"config {name!r} has no dataset_info features")
                continue
            if expected_features is not None and info.features != expected_features:
                problems.append(f"config {name!r}: declared features are not those of a {suite} build")
            try:
                loaded = _load_quietly(root, name)
            except Exception as exc:  # any loader failure is a reason to refuse, reported in one line
                problems.append(f"config {name!r} does not load with datasets.load_dataset: {exc}")
                continue
            if list(loaded) != list(splits):
                problems.append(f"config {name!r}: loads splits {list(loaded)}, the card declares {list(splits)}")
            for split, ds in loaded.items():
                if ds.features != info.features:
                    problems.append(f"config {name!r}, split {split!r}: loaded features differ from dataset_info")
                if len(ds) == 0:
                    problems.append(f"config {name!r}, split {split!r} is empty")
            rows[name] = {split: len(ds) for split, ds in loaded.items()}
    total = sum(n for splits in rows.values() for n in splits.values())
    if rows and not problems and metadata.get("size_categories") != [size_category(total)]:
        problems.append(f"size_categories {metadata.get('size_categories')} does not match {total} rows")
    if problems:
        raise RepoCheckError(root, problems)
    files = sorted(
        p.relative_to(root).as_posix()
        for p in root.rglob("*")
        if p.is_file() and not any(part.startswith(".") for part in p.relative_to(root).parts)
    )
    return RepoCheck(root, metadata, rows, tuple(files))


def _suite_features(suite: str) -> datasets.Features:
    module = registry_entry(suite).module("build")
    features = module.FEATURES
    assert isinstance(features, datasets.Features)
    return features


def _load_quietly(root: Path, config: str) -> datasets.DatasetDict:
    """`datasets.load_dataset(root, config)` without progress bars (a refusal must stay one line)."""
    bars_on = datasets.is_progress_bar_enabled()
    datasets.disable_progress_bars()
    try:
        loaded = datasets.load_dataset(str(root), config, cache_dir=str(content_cache_dir(root)))
    finally:
        if bars_on:
            datasets.enable_progress_bars()
    assert isinstance(loaded, datasets.DatasetDict)
    return loaded
