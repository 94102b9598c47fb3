"""The paper's evaluation set as one source: `source="paper"` reads FOLIO, LogicNLI and ProverQA from one folder.

LGMT (§4.1, §4.3) evaluates one pooled set: up to 200 groups per relation, sampled from the candidate pool over FOLIO
(995 source cases), LogicNLI (4,245) and ProverQA (1,000). `paper` with a folder laid out as the shared data folder
(`folio/`, `logicnli/`, `proverqa/`) stands for the (source, path) pairs of that pooled build, file by file
(`PAPER_FILES`): the build's config, cache key and rows are those of the explicit multi-source build, and its card's
command says `--source paper` again (`paper_folder`). Files, not folders, because a data folder holds more than the
set: `folio/` also has FOLIO v0.0 (an earlier revision of the same stories), `logicnli/` the train stories.

The splits are the nearest to the paper's that can be had: FOLIO v2 train only (1,001 records; the paper's 995 are
train less six records "with unparseable logical expressions", §4.1, and adding v2 validation's 203 would give a set
the paper did not have), LogicNLI dev + test (the paper's 4,245 =
283 stories × 15 statements, more stories than dev + test have), ProverQA dev easy + medium + hard (the paper used
"the complete set of 1,000"; dev has 1,500). The `PAPER_*` numbers are the paper's, to compare a build with.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from lgmt_tasks.sources.common import SourceDataError

PAPER = "paper"
"""The `source` value of the paper's evaluation set (LGMT only; it needs a `source_path` folder)."""

PAPER_FILES: tuple[tuple[str, str], ...] = (
    ("folio", "folio/folio_v2_train.jsonl"),
    ("logicnli", "logicnli/logicnli_dev.jsonl"),
    ("logicnli", "logicnli/logicnli_test.jsonl"),
    ("proverqa", "proverqa/proverqa_dev_easy.jsonl"),
    ("proverqa", "proverqa/proverqa_dev_medium.jsonl"),
    ("proverqa", "proverqa/proverqa_dev_hard.jsonl"),
)
"""`(source, file relative to the folder)` of the paper's set, in the build's source order."""

PAPER_SPLITS: dict[str, str] = {
    "folio": "FOLIO v2 train",
    "logicnli": "LogicNLI dev + test",
    "proverqa": "ProverQA dev easy + medium + hard",
}
"""What each source's files are, for messages and reports."""

PAPER_SOURCE_CASES: dict[str, int] = {"folio": 995, "logicnli": 4245, "proverqa": 1000}
"""Source cases per dataset in the paper (§4.3)."""

PAPER_CANDIDATE_POOL = 76298
"""The paper's candidate pool: applicable (source case, relation) pairs (§4.3)."""

PAPER_GROUPS_PER_RELATION: dict[str, int] = {
    "MR-E1.1": 200, "MR-E1.2": 200, "MR-E1.3": 42, "MR-E1.4": 200, "MR-E1.5": 22, "MR-E1.6": 200,
    "MR-E2.1": 12, "MR-E2.2": 15, "MR-E2.3": 0, "MR-E2.4": 200,
    "MR-S1": 200, "MR-S2": 200,
    "MR-P1": 200, "MR-P2": 200, "MR-P3": 200, "MR-P4": 200, "MR-P5": 200,
    "MR-C1": 200, "MR-C2": 200, "MR-C3": 200,
}  # fmt: skip
"""Groups per relation in the paper's evaluation set, as Table 9's MVRs imply them (each a multiple of 1/n): the cap
of 200, except five relations whose whole pool was smaller (MR-E2.3: none, "absence of applicable MG instances")."""

PAPER_GROUPS = 3091
"""The paper's evaluation set (§4.3): the sum of `PAPER_GROUPS_PER_RELATION`."""

PAPER_CAP = 200
"""The paper's groups per relation ("up to 200 instances per sub-rule", §4.3): `per_mr`'s default."""


def layout_text() -> str:
    """The expected folder layout, in words (for messages)."""
    by_source: dict[str, list[str]] = {}
    for source, file in PAPER_FILES:
        by_source.setdefault(source, []).append(file)
    return "; ".join(f"{', '.join(files)} ({PAPER_SPLITS[s]})" for s, files in by_source.items())


def paper_sources(folder: str | Path) -> list[tuple[str, str]]:
    """The `(source, path)` pairs of the paper's set in `folder`, every file checked.

    Raises:
        SourceDataError: `folder` is not a folder, or lacks a subfolder or a file of the layout; the message names
            what is missing and the whole expected layout.
    """
    root = Path(folder)
    expected = f"source=paper expects a folder with one subfolder per dataset: {layout_text()}"
    if not root.is_dir():
        raise SourceDataError(f"source_path={str(folder)!r} is not a folder; {expected}")
    missing: dict[str, list[str]] = {}
    for _source, file in PAPER_FILES:
        if not (root / file).is_file():
            sub, name = file.split("/", 1)
            missing.setdefault(sub, []).append(name)
    if missing:
        what = []
        for sub, names in missing.items():
            if not (root / sub).is_dir():
                what.append(f"the {sub}/ subfolder ({', '.join(names)})")
            else:
                what.append(f"{', '.join(f'{sub}/{n}' for n in names)}")
        raise SourceDataError(f"source_path={str(folder)!r} lacks {' and '.join(what)}; {expected}")
    return [(source, str(root / file)) for source, file in PAPER_FILES]


def expand_paper(pairs: Sequence[tuple[str, str | None]]) -> list[tuple[str, str | None]]:
    """`pairs` with every `("paper", folder)` replaced by the paper's pairs in that folder (others kept in place).

    Raises:
        SourceDataError: A `paper` source without a folder, or a folder that lacks part of the layout.
    """
    expanded: list[tuple[str, str | None]] = []
    for source, path in pairs:
        if source != PAPER:
            expanded.append((source, path))
        elif not path:
            raise SourceDataError(
                f"source=paper needs source_path, a folder with one subfolder per dataset: {layout_text()}"
            )
        else:
            expanded.extend(paper_sources(path))
    return expanded


def paper_folder(pairs: Sequence[tuple[str, str | None]]) -> str | None:
    """The folder whose paper set `pairs` are exactly (what `paper_sources` gives), else None."""
    if len(pairs) != len(PAPER_FILES) or not pairs[0][1]:
        return None
    first = Path(pairs[0][1])
    depth = len(Path(PAPER_FILES[0][1]).parts)
    if len(first.parts) < depth:
        return None
    folder = str(first.parents[depth - 1])
    same = [(source, str(Path(folder) / file)) for source, file in PAPER_FILES]
    return folder if list(pairs) == same else None


__all__ = [
    "PAPER",
    "PAPER_CANDIDATE_POOL",
    "PAPER_CAP",
    "PAPER_FILES",
    "PAPER_GROUPS",
    "PAPER_GROUPS_PER_RELATION",
    "PAPER_SOURCE_CASES",
    "PAPER_SPLITS",
    "expand_paper",
    "layout_text",
    "paper_folder",
    "paper_sources",
]
