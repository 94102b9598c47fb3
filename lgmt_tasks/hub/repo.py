"""Write a built suite as a Hugging Face dataset repository: data files plus a card with YAML `configs`.

The folder this writes is exactly what `lgmt publish` pushes and what `datasets.load_dataset(folder)` reads, so
the loader the Hub uses is the loader our tests use. Data files are JSON Lines written by us (not by
`Dataset.to_json`) so that the same rows always give the same bytes: keys in feature order, UTF-8, no
platform-dependent floats.

Data files are gzip-compressed (`data/<config>/<split>.jsonl.gz`): the default builds are committed to the
repository and the QMFOL grid alone is 23 MB of JSON Lines (3.3 MB compressed). The gzip stream is deterministic
(no file name, `mtime=0`, level 9), so the same zlib gives the same bytes; across zlib builds the compressed bytes
may differ while the JSON Lines inside cannot, which is why tests compare decompressed data (`read_data_file`).
`datasets` and the Hub's viewer read `.jsonl.gz` directly.

`datasets` (with pandas and pyarrow behind it) is imported inside `load_dataset_repo`, not at module level: every
task imports this module, and Inspect imports every installed plugin before any eval, so a module-level import would
cost each `inspect eval` about a second, even of someone else's task (`tests/test_import_graph.py`).
"""

from __future__ import annotations

import gzip
import io
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from lgmt_tasks.hub.output import write_output_folder

if TYPE_CHECKING:  # `datasets` is imported where it is called: every task imports this module (see the docstring)
    import datasets

# Hub metadata vocabulary for `size_categories` (the card validator accepts these buckets).
_SIZE_BUCKETS = [
    (1_000, "n<1K"),
    (10_000, "1K<n<10K"),
    (100_000, "10K<n<100K"),
    (1_000_000, "100K<n<1M"),
    (10_000_000, "1M<n<10M"),
]


@dataclass(frozen=True)
class CardSpec:
    """What a dataset card says besides the data layout.

    Attributes:
        pretty_name: Title of the dataset.
        license: SPDX-like Hub licence id (`mit`, `cc-by-sa-4.0`, `other`).
        body: Markdown body of the card (without front matter).
        tags: Hub tags.
        task_categories: Hub task categories.
        language: Language codes.
        extra: Further front-matter keys (for example `license_name`, `source_datasets`).
    """

    pretty_name: str
    license: str
    body: str
    tags: tuple[str, ...] = ("logic", "reasoning", "metamorphic-testing", "lgmt-tasks")
    task_categories: tuple[str, ...] = ("text-classification",)
    language: tuple[str, ...] = ("en",)
    extra: Mapping[str, Any] = field(default_factory=dict)


def size_category(n: int) -> str:
    """The Hub's size bucket for `n` rows."""
    for bound, name in _SIZE_BUCKETS:
        if n < bound:
            return name
    return "n>1T"


def _jsonable(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"non-finite float {value!r} cannot be written to a data file")
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value


REPO_FORMAT = 2
"""Bumped whenever the repository layout changes (2: gzip data files); part of the build-cache key."""

DATA_SUFFIX = ".jsonl.gz"
"""How every data file of a repository ends (JSON Lines, gzip-compressed)."""

GZIP_LEVEL = 9


def data_file(config: str, split: str) -> str:
    """The repository-relative path of a split's data file, as the card's `configs` list it."""
    return f"data/{config}/{split}{DATA_SUFFIX}"


def jsonl_bytes(dataset: datasets.Dataset) -> bytes:
    """Rows as JSON Lines, one object per line, keys in feature order, UTF-8 (byte-stable)."""
    columns = list(dataset.features)
    lines = (json.dumps({c: _jsonable(row[c]) for c in columns}, ensure_ascii=False) + "\n" for row in dataset)
    return "".join(lines).encode("utf-8")


def gzip_bytes(data: bytes) -> bytes:
    """Deterministic gzip: no file name, no timestamp, a fixed level (same zlib → same bytes)."""
    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, compresslevel=GZIP_LEVEL, mtime=0) as fh:
        fh.write(data)
    return buffer.getvalue()


def write_jsonl(dataset: datasets.Dataset, path: Path) -> None:
    """Write rows as JSON Lines (byte-stable), gzip-compressed if `path` ends in `.gz`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = jsonl_bytes(dataset)
    path.write_bytes(gzip_bytes(data) if path.suffix == ".gz" else data)


def read_data_file(path: str | Path) -> bytes:
    """The JSON Lines bytes of a data file (decompressed if it is gzip): what byte-identity is checked on."""
    raw = Path(path).read_bytes()
    return gzip.decompress(raw) if str(path).endswith(".gz") else raw


def front_matter(configs: Mapping[str, Mapping[str, datasets.Dataset]], card: CardSpec) -> dict[str, Any]:
    """The card's YAML metadata: licence, Hub vocabulary, `configs` with data files, `dataset_info` features."""
    total = sum(len(ds) for splits in configs.values() for ds in splits.values())
    meta: dict[str, Any] = {
        "pretty_name": card.pretty_name,
        "license": card.license,
        "language": list(card.language),
        "task_categories": list(card.task_categories),
        "tags": list(card.tags),
        "size_categories": [size_category(total)],
        **dict(card.extra),
        "configs": [
            {
                "config_name": name,
                **({"default": True} if i == 0 else {}),
                "data_files": [{"split": split, "path": data_file(name, split)} for split in splits],
            }
            for i, (name, splits) in enumerate(configs.items())
        ],
        "dataset_info": [
            {
                "config_name": name,
                "features": next(iter(splits.values())).features._to_yaml_list(),
            }
            for name, splits in configs.items()
        ],
    }
    return meta


def write_dataset_repo(
    out_dir: str | Path,
    configs: Mapping[str, Mapping[str, datasets.Dataset]],
    card: CardSpec,
    extra_files: Mapping[str, str] | None = None,
    *,
    overwrite: bool = False,
) -> Path:
    """Write a Hub dataset repository folder, atomically, never over a folder we did not write.

    The folder is written whole into a fresh folder beside `out_dir` and moved into place
    (`lgmt_tasks.hub.output.write_output_folder`), so it holds exactly what its card lists and an interrupted
    write leaves `out_dir` as it was.

    Args:
        out_dir: Target folder: absent or empty, or (with `overwrite`) a previous build of ours.
        configs: `configs[config_name][split] = Dataset`; every split of a config must share its features.
        card: Card metadata and body.
        extra_files: Further text files to write (relative path -> content), e.g. `build_stats.json`.
        overwrite: Replace a previous build of ours at `out_dir` (`lgmt build --overwrite`).

    Returns:
        The folder path.

    Raises:
        OutputFolderError: `out_dir` is a file, a folder that is not a previous build of ours, or a previous build
            without `overwrite`.
    """
    if not configs:
        raise ValueError("a dataset repository needs at least one config")
    for name, splits in configs.items():
        if not splits:
            raise ValueError(f"config {name!r} has no splits")
        features = {str(ds.features) for ds in splits.values()}
        if len(features) != 1:
            raise ValueError(f"config {name!r}: splits have different features")
    return write_output_folder(
        out_dir, lambda folder: _write_repo_files(folder, configs, card, extra_files or {}), overwrite=overwrite
    )


def _write_repo_files(
    out: Path, configs: Mapping[str, Mapping[str, datasets.Dataset]], card: CardSpec, extra_files: Mapping[str, str]
) -> None:
    """Write the data files, the card and the extra files into the empty folder `out`."""
    for name, splits in configs.items():
        for split, ds in splits.items():
            write_jsonl(ds, out / data_file(name, split))
    meta = yaml.safe_dump(front_matter(configs, card), sort_keys=False, allow_unicode=True, width=1000)
    (out / "README.md").write_text(f"---\n{meta}---\n\n{card.body.strip()}\n", encoding="utf-8")
    for rel, text in extra_files.items():
        target = out / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


def content_cache_dir(folder: Path) -> Path:
    """A `datasets` cache folder unique to the repository's file contents.

    `.cache` folders inside the repository (written by `datasets`) are skipped; the test is on the path relative to
    the repository, because the repository itself usually lives under `~/.cache` (the build cache).
    """
    import hashlib
    import os

    h = hashlib.sha256()
    for f in sorted(p for p in folder.rglob("*") if p.is_file() and ".cache" not in p.relative_to(folder).parts):
        h.update(str(f.relative_to(folder)).encode())
        h.update(f.read_bytes())
    root = Path(os.environ.get("LGMT_CACHE_DIR") or Path.home() / ".cache" / "lgmt-tasks")
    return root / "hf-datasets" / h.hexdigest()[:16]


def load_dataset_repo(
    path: str | Path, config: str | None = None, split: str = "test", revision: str | None = None
) -> datasets.Dataset:
    """Load one split of a dataset repository: a local folder or a Hub id (`ORG/NAME`, at `revision`).

    This is the one place tasks read a built or published dataset, through `datasets.load_dataset`, the same
    loader the Hub uses on the repository's files.
    """
    kwargs: dict[str, Any] = {"split": split}
    if revision is not None:
        kwargs["revision"] = revision
    if Path(path).is_dir():
        # `datasets` keys its cache of a local folder by the folder's *name*, so a rebuilt folder (or another
        # folder with the same name) would silently load stale rows. A cache directory per content avoids that.
        kwargs["cache_dir"] = str(content_cache_dir(Path(path)))
    import datasets

    bars_on = datasets.is_progress_bar_enabled()
    datasets.disable_progress_bars()  # tasks load at eval start; progress bars would clutter Inspect's display
    try:
        ds = datasets.load_dataset(str(path), config, **kwargs)
    finally:
        if bars_on:
            datasets.enable_progress_bars()
    assert isinstance(ds, datasets.Dataset)
    return ds


def write_build_repo(
    out_dir: str | Path,
    dataset: datasets.Dataset,
    card: CardSpec,
    config: Mapping[str, Any],
    stats: Mapping[str, Any],
    *,
    overwrite: bool = False,
) -> Path:
    """Write one suite build as a repository, the same way for every suite.

    The rows become the `default` config's `test` split, beside the card and `build_stats.json` (the build config
    and what was generated, dropped and why).

    Args:
        out_dir: Target folder (see `write_dataset_repo`).
        dataset: The built rows.
        card: Card metadata and body.
        config: The build config as plain data (`Config.key()`).
        stats: The build statistics as plain data (`BuildStats.to_dict()`).
        overwrite: Replace a previous build of ours at `out_dir`.

    Returns:
        The folder path.
    """
    text = json.dumps({"config": dict(config), **stats}, indent=2, sort_keys=True, default=str)
    return write_dataset_repo(
        out_dir,
        {"default": {"test": dataset}},
        card,
        extra_files={"build_stats.json": text + "\n"},
        overwrite=overwrite,
    )
