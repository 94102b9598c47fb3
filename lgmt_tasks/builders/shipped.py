"""The default builds shipped with the package, so a task run with default parameters reads rows instead of building.

The committed `datasets/<suite>/` folders are the default builds, `lgmt build <suite>` byte for byte
(`tests/hub/test_published_repos.py` checks it). Building them on a first run costs up to half a minute before the
evaluation framework shows anything (LGMT's 2,928 groups), so the package ships them: `lgmt_tasks/default_builds` is a
symbolic link to `../datasets`, whose files setuptools copies into the wheel as package data (it follows the link),
and which an editable install reads in the checkout. One copy in git, no second copy to keep in step. Where the link
cannot be followed (a checkout without symbolic links), the checkout's `datasets/` beside the package is used, and
without either, tasks build as before.

Whether a requested build *is* a shipped one is decided by the build cache's own key, never by the parameters alone.
`shipped_builds.json` (beside this module) records for each suite the config, package version, builder revision and
cache digest (`lgmt_tasks.builders.cache.cache_digest`) the folder was built under, and the fingerprint of its rows.
A build is read from the folder only when its digest equals the recorded one, so a changed parameter, a bumped
`BUILD_REVISION`, a new package version or repository format builds as before; and only when the folder's rows still
have the recorded fingerprint, so a folder rebuilt without a regenerated record is not trusted either (a warning says
so, and the task builds). After `make datasets`, regenerate the record with `python -m lgmt_tasks.builders.shipped`;
a test fails while it is out of date.

Subsets: a suite's `dataset.py` may declare (`SHIPPED_SUBSETS`, `SHIPPED_COUNTS`) key fields whose value can be a part
of the shipped one, and the columns that select it; every other field must equal the shipped config. LGMT's builder
seeds each group from (seed, relation, source id) and orders rows by a hash of (seed, id), and with one follow-up and no
composition (the shipped config) a group depends on its own relation only, so a build for some relations is exactly the
default build's groups of those relations: `mr_e`, `mr_s`, ... read the shipped build and keep their relations. QMFOL's
builder makes each task from its (depth, width, seed, label, distractors) and topic alone and orders rows by a hash of
the id, so the task's 96-task default grid is a part of the shipped 2,880-task grid.
`tests/builders/test_shipped_builds.py` checks both claims by building and comparing.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lgmt_tasks.builders.cache import cache_digest

PACKAGE = Path(__file__).resolve().parents[1]

SHIPPED_LINK = PACKAGE / "default_builds"
"""The symbolic link to the repository's `datasets/` (a real folder of the same files in an installed wheel)."""

CHECKOUT_DATASETS = PACKAGE.parent / "datasets"
"""The checkout's folder, for when the link is not followed (a Windows checkout makes it a text file)."""

MANIFEST = Path(__file__).with_name("shipped_builds.json")
"""What each shipped folder was built under (see the module docstring)."""

BUILD_MINUTES: dict[str, int] = {"lgmt": 1, "logicasker": 1, "lexical": 1, "qmfol": 3, "divlogiceval": 7}
"""Wall minutes that building each shipped default took on 2 cores shared with other jobs, rounded up (the suite
READMEs' build figures, `make reproduce`'s durations in `benchmarks/results/test_durations.md`). A build of other
parameters is announced with it (`lgmt_tasks.builders.load.build_notice`): no measurement predicts that build, but the
shipped one gives its scale (DivLogicEval's 60-instance build took 24 s, its 900-instance default 3 to 7 minutes)."""


def subset_fields(suite: str) -> tuple[dict[str, str], dict[str, tuple[str, str]]]:
    """The suite's `SHIPPED_SUBSETS` and `SHIPPED_COUNTS` (declared in its `dataset.py`, read through the registry)."""
    from lgmt_tasks.suites import suite as suite_record

    module = suite_record(suite).module("dataset")
    return getattr(module, "SHIPPED_SUBSETS", {}), getattr(module, "SHIPPED_COUNTS", {})


@dataclass(frozen=True)
class Shipped:
    """A shipped default build that serves a requested build.

    Attributes:
        folder: The repository folder.
        fingerprint: The rows' fingerprint recorded for it (`sha256:...`, as `repo_folder.FolderFacts`).
        keep: For a subset request, `{column: values}`: keep the rows whose every such column is among its values.
    """

    folder: Path
    fingerprint: str
    keep: dict[str, frozenset[Any]] | None = None


def shipped_root() -> Path | None:
    """The folder holding the shipped `<suite>/` folders, or None when the package has none."""
    if SHIPPED_LINK.is_dir():
        return SHIPPED_LINK
    # only in a checkout: installed, the package's parent is site-packages, where `datasets` is Hugging Face's
    if (PACKAGE.parent / "pyproject.toml").is_file() and CHECKOUT_DATASETS.is_dir():
        return CHECKOUT_DATASETS
    return None


@functools.cache
def manifest() -> dict[str, dict[str, Any]]:
    """`shipped_builds.json`, `{suite: {config, version, build_revision, digest, fingerprint}}` (empty if absent)."""
    try:
        loaded = json.loads(MANIFEST.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    return loaded if isinstance(loaded, dict) else {}


def plain(key: dict[str, Any]) -> dict[str, Any]:
    """A build key as JSON data (tuples become lists), the form `build_stats.json` records and the digest hashes."""
    result = json.loads(json.dumps(key, sort_keys=True, default=str))
    assert isinstance(result, dict)
    return result


def shipped_build(suite: str, key: dict[str, Any], build_revision: int | str) -> Shipped | None:
    """The shipped folder that serves the build `(suite, key, build_revision)`, or None (then build as usual).

    The build is served when its cache digest equals the one recorded for the suite's shipped folder, or, for a
    request along `SHIPPED_SUBSETS` / `SHIPPED_COUNTS` fields, when it equals it after putting the shipped values back
    into them.
    """
    record = manifest().get(suite)
    root = shipped_root()
    if record is None or root is None or not (root / suite / "README.md").is_file():
        return None
    folder = root / suite
    if cache_digest(suite, key, build_revision) == record["digest"]:
        return Shipped(folder, record["fingerprint"])
    keep = subset_of(suite, plain(key), record["config"])
    if keep is not None and cache_digest(suite, keep[0], build_revision) == record["digest"]:
        return Shipped(folder, record["fingerprint"], keep[1])
    return None


def subset_of(
    suite: str, requested: dict[str, Any], shipped: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, frozenset[Any]]] | None:
    """Whether `requested` asks for a part of `shipped` along the suite's `SHIPPED_SUBSETS` and `SHIPPED_COUNTS` fields.

    Returns:
        The requested key with the shipped values put back into those fields (to compare digests), and the
        columns to keep rows by; None when some field asks for more than, or other than, the shipped build.
    """
    subsets, counts = subset_fields(suite)
    whole, keep = dict(requested), {}
    for field, column in subsets.items():
        wanted, available = requested.get(field), shipped.get(field)
        if wanted == available:
            continue
        if not isinstance(wanted, list) or not isinstance(available, list) or not set(wanted) <= set(available):
            return None
        whole[field], keep[column] = available, frozenset(wanted)
    for field, (start, column) in counts.items():
        wanted, available, first = requested.get(field), shipped.get(field), requested.get(start)
        if wanted == available:
            continue
        if not isinstance(wanted, int) or not isinstance(available, int) or not isinstance(first, int):
            return None
        if first != shipped.get(start) or not 1 <= wanted <= available:
            return None
        whole[field], keep[column] = available, frozenset(range(first, first + wanted))
    return (whole, keep) if keep else None


def manifest_record(suite: str, root: Path) -> dict[str, Any]:
    """What `shipped_builds.json` records for `root/<suite>` under the current package (read from its files)."""
    from lgmt_tasks import __version__
    from lgmt_tasks.builders.repo_folder import check_folder
    from lgmt_tasks.suites import suite as suite_record

    facts = check_folder(root / suite, suite)
    config = facts.stats["config"]
    revision = suite_record(suite).module("build").BUILD_REVISION
    return {
        "config": config,
        "version": __version__,
        "build_revision": revision,
        "digest": cache_digest(suite, config, revision),
        "fingerprint": facts.fingerprint,
    }


def write_manifest() -> Path:
    """Regenerate `shipped_builds.json` from the shipped folders (run after `make datasets`)."""
    from lgmt_tasks.suites import SUITE_NAMES

    root = shipped_root()
    if root is None:
        raise FileNotFoundError(f"no shipped builds: neither {SHIPPED_LINK} nor {CHECKOUT_DATASETS} is a folder")
    records = {name: manifest_record(name, root) for name in SUITE_NAMES if (root / name / "README.md").is_file()}
    MANIFEST.write_text(json.dumps(records, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    manifest.cache_clear()
    return MANIFEST


if __name__ == "__main__":
    print(f"wrote {write_manifest()}")
