"""`lgmt cache list|clear` on a temporary cache root: what it lists, what each selector removes, and what it never
touches (entries of other kinds or suites, a symbolic link's target, anything without an explicit selector)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from lgmt_tasks.builders.cache import cached_repo, entry_lock
from lgmt_tasks.cli import main
from lgmt_tasks.cli.cache import LOADER_DIR
from lgmt_tasks.hub.repo import content_cache_dir
from lgmt_tasks.models import _files as model_files


class Cache:
    """A cache root holding two real cached builds (lgmt, lexical), their loader folders and a converted model."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.lgmt = cached_repo("lgmt", {"per_mr": 2, "seed": 0}, self._writer("lgmt rows"), build_revision=1)
        self.lexical = cached_repo("lexical", {"per_mr": 3, "seed": 0}, self._writer("lexical"), build_revision=1)
        self.loaders = {}
        for build in (self.lgmt, self.lexical):
            loader = content_cache_dir(build)
            (loader / "repo").mkdir(parents=True, exist_ok=True)
            (loader / "repo" / f"{build.name}.arrow").write_bytes(b"a" * 500)
            self.loaders[build] = loader
        self.model = root / model_files.MODELS_DIR / "0123456789abcdef"
        self.model.mkdir(parents=True)
        (self.model / "model.safetensors").write_bytes(b"w" * 3000)
        (self.model / model_files.COMPLETE_MARKER).write_text(json.dumps({"gguf": "x.gguf", "dtype": "float32"}))

    @staticmethod
    def _writer(text: str):
        def write(folder: Path) -> None:
            (folder / "README.md").write_text(text, encoding="utf-8")
            (folder / "build_stats.json").write_text(json.dumps({"config": {"marker": text}}), encoding="utf-8")

        return write


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Cache:
    root = tmp_path / "cache"
    monkeypatch.setenv("LGMT_CACHE_DIR", str(root))
    return Cache(root)


def run(*args: str) -> Result:
    return CliRunner().invoke(main, ["cache", *args])


def test_loader_folder_name_matches_where_datasets_copies_go(cache: Cache) -> None:
    assert content_cache_dir(cache.lgmt).parent == cache.root / LOADER_DIR


def test_list_shows_every_entry_with_suite_size_and_config_then_totals(cache: Cache) -> None:
    result = run("list")
    assert result.exit_code == 0, result.output
    rows = [line for line in result.output.splitlines() if line.startswith("| build") or line.startswith("| model")]
    assert any(cache.lgmt.name in r and "| lgmt |" in r and "marker=lgmt rows" in r for r in rows), result.output
    assert any(cache.lexical.name in r and "| lexical |" in r for r in rows), result.output
    assert any(r.startswith("| model | smollm2 | 3.0 kB") and "x.gguf, float32" in r for r in rows), result.output
    loader_rows = [line for line in result.output.splitlines() if line.startswith("| loader")]
    assert len(loader_rows) == len(set(cache.loaders.values()))
    assert "total:" in result.output and "1 model 3.0 kB" in result.output


def test_clear_without_a_selector_refuses_and_removes_nothing(cache: Cache) -> None:
    result = run("clear")
    assert result.exit_code == 2 and "--builds" in result.output
    assert cache.lgmt.is_dir() and cache.lexical.is_dir() and cache.model.is_dir()


def test_an_unknown_suite_is_refused(cache: Cache) -> None:
    result = run("clear", "--suite", "lgmtt")
    assert result.exit_code == 2 and "lgmtt" in result.output
    assert cache.lgmt.is_dir()


def test_clear_suite_removes_only_that_suites_builds(cache: Cache) -> None:
    result = run("clear", "--suite", "lexical")
    assert result.exit_code == 0, result.output
    assert not cache.lexical.exists() and cache.lgmt.is_dir() and cache.model.is_dir()
    assert "removed build lexical" in result.output and "freed" in result.output


def test_clear_builds_removes_builds_and_loader_copies_but_keeps_the_model(cache: Cache) -> None:
    result = run("clear", "--builds")
    assert result.exit_code == 0, result.output
    assert not cache.lgmt.exists() and not cache.lexical.exists()
    assert not any(loader.exists() for loader in cache.loaders.values())
    assert cache.model.is_dir()


def test_clear_model_removes_only_the_model_and_reports_its_size(cache: Cache) -> None:
    result = run("clear", "--model")
    assert result.exit_code == 0, result.output
    assert not cache.model.exists() and cache.lgmt.is_dir()
    assert "removed model smollm2 3.0 kB" in result.output


def test_dry_run_removes_nothing(cache: Cache) -> None:
    result = run("clear", "--all", "--dry-run")
    assert result.exit_code == 0, result.output
    assert "would remove model" in result.output
    assert cache.lgmt.is_dir() and cache.model.is_dir()


def test_an_unfinished_build_is_left_alone_while_it_is_written_unless_all(cache: Cache) -> None:
    unfinished = cache.root / "builds" / ".lgmt-00000000000000aa-xyz"
    unfinished.mkdir()
    (unfinished / "half").write_text("x")
    with entry_lock(cache.root / "builds" / "lgmt-00000000000000aa", "lgmt"):  # a build writing it now
        run("clear", "--builds")
        assert unfinished.is_dir()
        assert "(incomplete)" in run("list").output
        run("clear", "--all")
        assert not unfinished.exists()


def test_clear_builds_removes_an_unfinished_build_whose_build_has_stopped(cache: Cache) -> None:
    """A killed build leaves its temporary folder; its entry's lock is free, so `--builds` takes it, and says so."""
    left = cache.root / "builds" / ".lgmt-00000000000000aa-xyz"
    left.mkdir()
    (left / "half").write_text("x")
    result = run("clear", "--builds")
    assert not left.exists()
    assert "removed build lgmt" in result.output and str(left) in result.output


def test_clear_all_never_follows_links_out_of_the_cache(cache: Cache, tmp_path: Path) -> None:
    outside = tmp_path / "precious"
    (outside / "k").mkdir(parents=True)
    (outside / "k" / "data").write_text("keep")
    (cache.root / "builds" / "lgmt-linked").symlink_to(outside, target_is_directory=True)
    shared_models = tmp_path / "shared-models"
    (shared_models / model_files.MODELS_DIR / "key").mkdir(parents=True)
    (shared_models / model_files.MODELS_DIR / "key" / "model.safetensors").write_text("shared")
    (shared_models / model_files.MODELS_DIR / "key" / model_files.COMPLETE_MARKER).write_text("{}")
    linked_root = tmp_path / "linked-root"
    linked_root.mkdir()
    (linked_root / model_files.MODELS_DIR).symlink_to(shared_models / model_files.MODELS_DIR, target_is_directory=True)

    result = run("clear", "--all")
    assert result.exit_code == 0, result.output
    assert (outside / "k" / "data").read_text() == "keep"
    assert not cache.lgmt.exists() and not cache.model.exists()

    # A model folder reached through a linked `smollm2-f32` is listed, but clearing it is refused.
    result = CliRunner(env={"LGMT_CACHE_DIR": str(linked_root)}).invoke(main, ["cache", "clear", "--model"])
    assert result.exit_code == 0, result.output
    assert "skipped" in result.output
    assert (shared_models / model_files.MODELS_DIR / "key" / "model.safetensors").read_text() == "shared"


def test_a_cache_hit_records_its_use(cache: Cache) -> None:
    old = 1_000_000_000
    os.utime(cache.lgmt, (old, old))
    again = cached_repo("lgmt", {"per_mr": 2, "seed": 0}, Cache._writer("unused"), build_revision=1)
    assert again == cache.lgmt and cache.lgmt.stat().st_mtime > old
    assert (cache.lgmt / "README.md").read_text() == "lgmt rows"
