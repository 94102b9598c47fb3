"""`lgmt publish`: refuses invalid folders, fails in one line without a Hub, never shows the token, and pushes
exactly the checked files (against a small local stand-in for the Hub's HTTP API; no real network anywhere).

Runs that could reach `huggingface_hub`'s network code are subprocesses whose `HF_ENDPOINT` points at a closed port
or at the local stand-in from the start (the library reads some endpoints when it is imported).
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from lgmt_tasks.cli import main
from lgmt_tasks.hub.check import RepoCheckError, check_repo
from lgmt_tasks.hub.publish import scrub
from lgmt_tasks.hub.repo import data_file

ROOT = Path(__file__).resolve().parents[2]
SMALL = ROOT / "datasets" / "logicasker"  # the smallest committed build that has every part of a repository
TOKEN = "hf_FakeTokenForTests0123456789abcdef"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A private copy of a committed build, to break."""
    return Path(shutil.copytree(SMALL, tmp_path / "repo"))


@pytest.fixture(autouse=True)
def _isolated(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LGMT_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "lgmt-cache"))


def run_cli(args: list[str], tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """`lgmt ...` in a fresh process with an isolated Hugging Face home (no stored token) and `env`."""
    base = {k: v for k, v in os.environ.items() if not k.startswith("HF_")}
    home = tmp_path / "hf-home"
    base.update(
        HF_HOME=str(home),
        HF_TOKEN_PATH=str(home / "token"),
        HF_HUB_DISABLE_TELEMETRY="1",
        LGMT_CACHE_DIR=str(tmp_path / "lgmt-cache"),
    )
    return subprocess.run(
        [sys.executable, "-m", "lgmt_tasks.cli", *args],
        capture_output=True,
        text=True,
        env={**base, **env},
        cwd=tmp_path,
        timeout=120,
    )


def one_error_line(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode != 0
    output = result.stdout + result.stderr
    assert "Traceback" not in output and TOKEN not in output
    lines = [line for line in output.splitlines() if line.strip()]
    assert len(lines) == 1, output
    assert lines[0].startswith("Error: ")
    return lines[0]


def test_unreachable_hub_fails_in_one_line_without_the_token(tmp_path: Path) -> None:
    result = run_cli(
        ["publish", "logicasker", "--repo-id", "my-org/lgmt-logicasker", "--folder", str(SMALL)],
        tmp_path,
        HF_TOKEN=TOKEN,
        HF_ENDPOINT="http://127.0.0.1:9",
        HF_HUB_OFFLINE="0",
    )
    line = one_error_line(result)
    assert "could not create the repository my-org/lgmt-logicasker on http://127.0.0.1:9" in line


def test_no_token_fails_in_one_line(tmp_path: Path) -> None:
    result = run_cli(
        ["publish", "logicasker", "--repo-id", "my-org/x", "--folder", str(SMALL)],
        tmp_path,
        HF_ENDPOINT="http://127.0.0.1:9",
        HF_HUB_OFFLINE="0",
    )
    assert "no Hugging Face token" in one_error_line(result)


def test_offline_mode_fails_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_TOKEN", TOKEN)
    result = CliRunner().invoke(main, ["publish", "logicasker", "--repo-id", "my-org/x", "--folder", str(SMALL)])
    assert result.exit_code != 0 and TOKEN not in result.output
    assert result.output.strip() == "Error: HF_HUB_OFFLINE is set: cannot push to the Hub (unset it to publish)"


def test_offline_mode_names_the_variable_that_is_set(tmp_path: Path) -> None:
    # `huggingface_hub` goes offline on TRANSFORMERS_OFFLINE too; the message must not blame HF_HUB_OFFLINE.
    result = run_cli(
        ["publish", "logicasker", "--repo-id", "my-org/x", "--folder", str(SMALL)],
        tmp_path,
        TRANSFORMERS_OFFLINE="1",
    )
    assert one_error_line(result) == (
        "Error: TRANSFORMERS_OFFLINE is set: cannot push to the Hub (unset it to publish)"
    )


def test_bad_repo_id_is_refused_before_anything_else() -> None:
    result = CliRunner().invoke(main, ["publish", "logicasker", "--repo-id", "no-slash", "--folder", str(SMALL)])
    assert result.exit_code != 0 and "expected ORG/NAME" in result.output


def test_scrub_removes_the_token_and_token_shaped_strings() -> None:
    text = f"401 for Bearer {TOKEN}\nand hf_abcdefghijklmnop and secret-xyz"
    assert scrub(text, "secret-xyz") == "401 for Bearer *** and *** and ***"


def _refusal(folder: Path, suite: str = "logicasker") -> str:
    result = CliRunner().invoke(main, ["publish", suite, "--repo-id", "my-org/x", "--folder", str(folder)])
    assert result.exit_code != 0
    assert result.output.startswith(f"Error: refusing to publish {folder}: "), result.output
    assert len(result.output.strip().splitlines()) == 1
    return result.output


def test_missing_folder_or_card_is_refused(repo: Path, tmp_path: Path) -> None:
    assert "not a folder" in _refusal(tmp_path / "nothing")
    (repo / "README.md").unlink()
    assert "no README.md" in _refusal(repo)


def test_card_that_does_not_parse_is_refused(repo: Path) -> None:
    card = repo / "README.md"
    card.write_text(card.read_text(encoding="utf-8").replace("license: mit", "license: [mit", 1), encoding="utf-8")
    assert "card metadata does not parse" in _refusal(repo)


def test_card_outside_the_hub_vocabulary_is_refused(repo: Path) -> None:
    card = repo / "README.md"
    text = card.read_text(encoding="utf-8")
    text = text.replace("license: mit", "license: wtfpl", 1).replace("- question-answering", "- logic-puzzles", 1)
    card.write_text(text, encoding="utf-8")
    output = _refusal(repo)
    assert "license 'wtfpl'" in output and "task_categories: 'logic-puzzles' is not a Hub value" in output


def test_undeclared_or_missing_data_files_are_refused(repo: Path) -> None:
    stale = repo / "data" / "default" / "test.jsonl"
    stale.write_text("{}\n", encoding="utf-8")
    assert "data file data/default/test.jsonl is not declared" in _refusal(repo)
    stale.unlink()
    (repo / data_file("default", "test")).unlink()
    assert f"data file {data_file('default', 'test')} is declared but missing" in _refusal(repo)


def test_data_that_does_not_match_the_declared_features_is_refused(repo: Path) -> None:
    import gzip

    (repo / data_file("default", "test")).write_bytes(gzip.compress(b'{"id": "x", "surprise": 1}\n'))
    assert "config 'default'" in _refusal(repo)


def test_a_folder_of_another_suite_is_refused() -> None:
    assert "declared features are not those of a qmfol build" in _refusal(SMALL, suite="qmfol")


def test_check_lists_every_file_to_push() -> None:
    check = check_repo(SMALL, "logicasker")
    assert check.files == ("README.md", "build_stats.json", data_file("default", "test"))
    with pytest.raises(ValueError, match="unknown suite"):
        check_repo(SMALL, "nope")
    with pytest.raises(RepoCheckError):
        check_repo(ROOT / "datasets")


class FakeHub(BaseHTTPRequestHandler):
    """The few Hub API routes `HfApi.create_repo / create_branch / upload_folder` call, answering like the Hub."""

    requests: list[tuple[str, str, str, bytes]] = []

    def log_message(self, *args: Any) -> None:  # keep test output clean
        pass

    def _json(self, code: int, payload: Any) -> None:
        body = json.dumps(payload).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        self.requests.append(("GET", self.path, self.headers.get("Authorization") or "", b""))
        self._json(404, {"error": "not found"})

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.requests.append(("POST", self.path, self.headers.get("Authorization") or "", body))
        base = f"http://{self.headers['Host']}"
        if self.path == "/api/repos/create":
            self._json(200, {"url": f"{base}/datasets/my-org/lgmt-logicasker", "name": "my-org/lgmt-logicasker"})
        elif self.path == "/api/validate-yaml":
            self._json(200, {"errors": [], "warnings": []})
        elif "/branch/" in self.path:
            self._json(200, {})
        elif "/preupload/" in self.path:
            files = json.loads(body)["files"]
            self._json(
                200, {"files": [{"path": f["path"], "uploadMode": "regular", "shouldIgnore": False} for f in files]}
            )
        elif "/commit/" in self.path:
            self._json(
                200, {"commitUrl": f"{base}/datasets/my-org/lgmt-logicasker/commit/{'c' * 40}", "commitOid": "c" * 40}
            )
        else:
            self._json(404, {"error": "not found"})


@pytest.fixture
def fake_hub() -> Iterator[str]:
    FakeHub.requests = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), FakeHub)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_publish_pushes_exactly_the_checked_files_to_a_branch(fake_hub: str, tmp_path: Path) -> None:
    result = run_cli(
        [
            "publish",
            "logicasker",
            "--repo-id",
            "my-org/lgmt-logicasker",
            "--folder",
            str(SMALL),
            "--private",
            "--revision",
            "v1",
        ],
        tmp_path,
        HF_TOKEN=TOKEN,
        HF_ENDPOINT=fake_hub,
        HF_HUB_OFFLINE="0",
    )
    assert result.returncode == 0, result.stderr
    assert TOKEN not in result.stdout + result.stderr
    assert f"-T dataset=my-org/lgmt-logicasker -T revision={'c' * 40}" in result.stdout
    calls = {(method, path): (auth, body) for method, path, auth, body in FakeHub.requests}
    auth, body = calls[("POST", "/api/repos/create")]
    assert auth == f"Bearer {TOKEN}"
    assert json.loads(body) == {
        "name": "lgmt-logicasker",
        "organization": "my-org",
        "visibility": "private",
        "type": "dataset",
    }
    assert ("POST", "/api/datasets/my-org/lgmt-logicasker/branch/v1") in calls
    _, commit = calls[("POST", "/api/datasets/my-org/lgmt-logicasker/commit/v1")]
    pushed = {}
    for line in commit.decode().splitlines():
        entry = json.loads(line)
        if entry["key"] == "file":
            pushed[entry["value"]["path"]] = base64.b64decode(entry["value"]["content"])
    expected = {p.relative_to(SMALL).as_posix(): p.read_bytes() for p in SMALL.rglob("*") if p.is_file()}
    assert pushed == expected
