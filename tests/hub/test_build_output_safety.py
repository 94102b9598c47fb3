"""`lgmt build … --out DIR` never replaces or deletes what a build did not write, and never half-writes DIR.

Real builds (a one-test LogicAsker build through the real `lgmt` command) and the real repository writer; the
interrupted write is a real failure of the writer (a non-finite float in the second config's rows).
"""

from __future__ import annotations

import math
from pathlib import Path

import datasets
import pytest
from click.testing import CliRunner

from lgmt_tasks.builders.cache import cached_repo
from lgmt_tasks.cli import main
from lgmt_tasks.hub.output import OutputFolderError, is_build_folder, write_output_folder
from lgmt_tasks.hub.repo import CardSpec, load_dataset_repo, write_build_repo, write_dataset_repo

SMALL = ["build", "logicasker", "--rule", "modus ponens", "--logic", "propositional", "--per-skill", "1"]
"""A LogicAsker build of one test: the quickest real `lgmt build`."""


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LGMT_CACHE_DIR", str(tmp_path / "lgmt-cache"))


def _build(out: Path, *extra: str, seed: int = 0):
    return CliRunner().invoke(main, [*SMALL, "--seed", str(seed), "--out", str(out), *extra])


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _one_error_line(output: str) -> str:
    lines = [line for line in output.splitlines() if line.startswith("Error:")]
    assert len(lines) == 1, output
    assert "Traceback" not in output, output
    return lines[0]


def _rows(value: float = 1.0) -> datasets.Dataset:
    return datasets.Dataset.from_dict({"id": ["a", "b"], "x": [value, 2.0]})


def _card() -> CardSpec:
    return CardSpec(pretty_name="toy", license="mit", body="A toy build.")


def _toy_build(out: Path, *, overwrite: bool = False, value: float = 1.0) -> Path:
    return write_build_repo(out, _rows(value), _card(), {"seed": 0}, {"counts": {}}, overwrite=overwrite)


def test_a_users_folder_is_refused_and_left_untouched(tmp_path: Path) -> None:
    out = tmp_path / "mine"
    (out / "data" / "default").mkdir(parents=True)
    (out / "README.md").write_text("# my own notes\n", encoding="utf-8")
    (out / "data" / "default" / "other.jsonl").write_text('{"mine": 1}\n', encoding="utf-8")
    before = _snapshot(out)

    for extra in ((), ("--overwrite",)):
        result = _build(out, *extra)
        assert result.exit_code != 0
        assert "not a previous lgmt build" in _one_error_line(result.output)
        assert _snapshot(out) == before
    with pytest.raises(OutputFolderError, match="not a previous lgmt build"):
        write_dataset_repo(out, {"default": {"test": _rows()}}, _card(), overwrite=True)
    assert _snapshot(out) == before


def test_out_naming_a_file_is_one_error_line(tmp_path: Path) -> None:
    target = tmp_path / "a-file"
    target.write_text("keep me\n", encoding="utf-8")
    result = _build(target)
    assert result.exit_code != 0
    assert "is an existing file" in _one_error_line(result.output)
    assert target.read_text(encoding="utf-8") == "keep me\n"


def test_a_previous_build_needs_overwrite_and_is_then_replaced_whole(tmp_path: Path) -> None:
    out = tmp_path / "build"
    assert _build(out).exit_code == 0
    assert is_build_folder(out)
    first = _snapshot(out)

    refused = _build(out, seed=1)
    assert refused.exit_code != 0
    assert "pass --overwrite" in _one_error_line(refused.output)
    assert _snapshot(out) == first

    replaced = _build(out, "--overwrite", seed=1)
    assert replaced.exit_code == 0, replaced.output
    second = _snapshot(out)
    assert sorted(second) == sorted(first)
    assert second["build_stats.json"] != first["build_stats.json"]  # the seed-1 build, not the old one
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "lgmt-cache") == ["build"]  # nothing left beside


def test_overwrite_never_deletes_a_file_the_build_did_not_write(tmp_path: Path) -> None:
    out = _toy_build(tmp_path / "build")
    (out / "notes.txt").write_text("my notes\n", encoding="utf-8")
    (out / "data" / "default" / "other.jsonl").write_text('{"mine": 1}\n', encoding="utf-8")
    before = _snapshot(out)

    result = _build(out, "--overwrite")
    assert result.exit_code != 0
    assert "files it did not write (data/default/other.jsonl and 1 more)" in _one_error_line(result.output)
    assert _snapshot(out) == before


def test_an_interrupted_write_leaves_the_previous_build_intact(tmp_path: Path) -> None:
    out = _toy_build(tmp_path / "build")
    before = _snapshot(out)
    # The writer fails after writing the first config's data file: a non-finite float cannot be written.
    configs = {"default": {"test": _rows()}, "broken": {"test": _rows(math.nan)}}
    with pytest.raises(ValueError, match="non-finite float"):
        write_dataset_repo(out, configs, _card(), {"build_stats.json": "{}\n"}, overwrite=True)
    assert _snapshot(out) == before
    assert [p.name for p in tmp_path.iterdir()] == ["build"]  # the half-written folder is gone

    def interrupted(folder: Path) -> None:
        (folder / "README.md").write_text("half\n", encoding="utf-8")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_output_folder(out, interrupted, overwrite=True)
    assert _snapshot(out) == before
    assert load_dataset_repo(out)["id"] == ["a", "b"]


def test_empty_or_absent_folders_are_written_and_the_build_cache_still_works(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    assert is_build_folder(_toy_build(empty))
    assert is_build_folder(_toy_build(tmp_path / "new" / "nested"))
    cached = cached_repo("toy", {"seed": 0}, lambda folder: _toy_build(folder), build_revision=1)
    assert is_build_folder(cached)
    assert load_dataset_repo(cached)["x"] == [1.0, 2.0]


def test_a_second_build_with_the_same_out_is_refused_before_it_builds(tmp_path: Path) -> None:
    """Another process is building into `--out` (this test holds its claim): `lgmt build` refuses at once."""
    import subprocess
    import sys

    from lgmt_tasks.hub.output import claim_output_folder, release_output_folder

    out = tmp_path / "out"
    claim_output_folder(out)
    try:
        command = [sys.executable, "-m", "lgmt_tasks.cli", "build", "logicasker", "--rule", "modus ponens"]
        run = subprocess.run([*command, "--per-skill", "1", "--out", str(out)], capture_output=True, text=True)
    finally:
        release_output_folder(out)
    assert run.returncode == 1, run.stderr
    assert f"Error: --out {out}: another lgmt build is writing this folder now" in run.stderr
    assert "tests (" not in run.stdout + run.stderr and not out.exists()  # refused before building
    again = subprocess.run([*command, "--per-skill", "1", "--out", str(out)], capture_output=True, text=True)
    assert again.returncode == 0, again.stderr  # the claim is gone with its holder's release


def test_a_build_removes_the_staging_folders_a_killed_build_left_beside_out(tmp_path: Path) -> None:
    out = tmp_path / "out"
    killed = tmp_path / ".out.lgmt-0a1b2c3d"  # what a killed `lgmt build --out out` leaves
    (killed / "data").mkdir(parents=True)
    aside = tmp_path / ".out.lgmt-old-0a1b2c3d"  # a previous build moved aside: kept
    aside.mkdir()
    result = CliRunner().invoke(
        main, ["build", "logicasker", "--rule", "modus ponens", "--per-skill", "1", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert not killed.exists() and aside.is_dir() and is_build_folder(out)
    assert f"removed {killed}, left by a build into --out {out}" in result.stderr
