"""`content_cache_dir` keys the `datasets` cache by the repository's contents, wherever the repository lives."""

from __future__ import annotations

from pathlib import Path

from lgmt_tasks.hub.repo import content_cache_dir


def _repo(folder: Path, text: str) -> Path:
    (folder / "data").mkdir(parents=True)
    (folder / "data" / "test.jsonl").write_text(text)
    (folder / ".cache").mkdir()
    (folder / ".cache" / "lock").write_text("written by datasets")
    return folder


def test_repositories_under_a_cache_folder_get_their_own_cache_dir(tmp_path, monkeypatch):
    """The build cache lives under `~/.cache`: a `.cache` in the absolute path must not hide every file."""
    monkeypatch.setenv("LGMT_CACHE_DIR", str(tmp_path / "root"))
    one = _repo(tmp_path / ".cache" / "builds" / "one", '{"id": 1}\n')
    two = _repo(tmp_path / ".cache" / "builds" / "two", '{"id": 2}\n')
    same = _repo(tmp_path / "elsewhere", '{"id": 1}\n')
    assert content_cache_dir(one) != content_cache_dir(two)
    assert content_cache_dir(one) == content_cache_dir(same)


def test_the_repository_own_cache_folder_is_ignored(tmp_path, monkeypatch):
    monkeypatch.setenv("LGMT_CACHE_DIR", str(tmp_path / "root"))
    repo = _repo(tmp_path / "repo", '{"id": 1}\n')
    before = content_cache_dir(repo)
    (repo / ".cache" / "lock").write_text("changed by datasets")
    assert content_cache_dir(repo) == before
