"""Push a checked dataset repository folder to the Hugging Face Hub (`lgmt publish`).

The folder is checked offline first (`lgmt_tasks.hub.check.check_repo`), so nothing invalid leaves the machine.
The token is `huggingface_hub`'s usual one (`HF_TOKEN`, else the stored `hf auth login` / `huggingface-cli login`
token); it is passed to `HfApi` and never printed: every message that leaves this module goes through `scrub`.
Failures (offline mode, no token, an unreachable endpoint, a refused request) raise `PublishError` with one line.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from lgmt_tasks import __version__
from lgmt_tasks.hub.check import RepoCheck, check_repo

_TOKEN_PATTERN = re.compile(r"hf_[A-Za-z0-9]{8,}")
_TRUE = {"1", "on", "yes", "true"}


class PublishError(RuntimeError):
    """Publishing failed; the message is one line and holds no token."""


@dataclass(frozen=True)
class PublishResult:
    """What was pushed.

    Attributes:
        repo_id: `ORG/NAME`.
        revision: The branch pushed to.
        commit: The commit id of the upload (pin evaluations to it with `-T revision=`).
        url: The repository's URL.
        check: The checked folder.
    """

    repo_id: str
    revision: str
    commit: str
    url: str
    check: RepoCheck


def scrub(text: str, token: str | None) -> str:
    """`text` on one line with the token (and anything shaped like a Hub token) replaced by `***`."""
    if token:
        text = text.replace(token, "***")
    text = _TOKEN_PATTERN.sub("***", text)
    return " ".join(text.split())


OFFLINE_VARIABLES: tuple[str, ...] = ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")
"""The variables that put `huggingface_hub` in offline mode (it reads `TRANSFORMERS_OFFLINE` too)."""


def offline_variable() -> str | None:
    """The variable that puts the Hub client in offline mode, read now; None when online.

    `huggingface_hub` reads both `OFFLINE_VARIABLES` when it is imported; when neither is set now but it was at
    import, both names are given.
    """
    from huggingface_hub import constants

    for name in OFFLINE_VARIABLES:
        if os.environ.get(name, "").strip().lower() in _TRUE:
            return name
    return " or ".join(OFFLINE_VARIABLES) if constants.HF_HUB_OFFLINE else None


def offline() -> bool:
    """Whether the Hub client is in offline mode (see `offline_variable`)."""
    return offline_variable() is not None


def endpoint() -> str:
    """The Hub endpoint: `HF_ENDPOINT` (read now), else `huggingface_hub`'s default."""
    from huggingface_hub import constants

    return (os.environ.get("HF_ENDPOINT") or constants.ENDPOINT).rstrip("/")


def validate_repo_id(repo_id: str) -> None:
    """Refuse anything but `ORG/NAME` with the Hub's allowed characters."""
    from huggingface_hub.errors import HFValidationError
    from huggingface_hub.utils import validate_repo_id as hub_validate

    if repo_id.count("/") != 1:
        raise PublishError(f"--repo-id {repo_id!r}: expected ORG/NAME (for example my-org/lgmt)")
    try:
        hub_validate(repo_id)
    except HFValidationError as exc:
        raise PublishError(f"--repo-id {repo_id!r}: {scrub(str(exc), None)}") from exc


def publish(
    folder: str | Path,
    repo_id: str,
    *,
    suite: str | None = None,
    private: bool = False,
    revision: str | None = None,
    token: str | None = None,
) -> PublishResult:
    """Check `folder`, then create the dataset repository (if needed), the branch (if not `main`), and upload.

    Args:
        folder: A folder written by `lgmt build`.
        repo_id: `ORG/NAME` of the dataset repository.
        suite: If given, the folder must hold this suite's build (its features).
        private: Create the repository private (an existing repository keeps its visibility).
        revision: Branch to push to (created from `main` when missing); default `main`.
        token: A Hub token; default `huggingface_hub.get_token()` (`HF_TOKEN` or the stored login).

    Returns:
        What was pushed.

    Raises:
        RepoCheckError: When the folder is not a valid dataset repository (nothing is pushed).
        PublishError: On a bad repo id, offline mode, no token, or any failure talking to the Hub.
    """
    validate_repo_id(repo_id)
    check = check_repo(folder, suite)
    variable = offline_variable()
    if variable is not None:
        raise PublishError(f"{variable} is set: cannot push to the Hub (unset it to publish)")
    from huggingface_hub import HfApi, get_token

    token = token or get_token()
    if not token:
        raise PublishError("no Hugging Face token: set HF_TOKEN or log in with `hf auth login`")
    branch = revision or "main"
    api = HfApi(endpoint=endpoint(), token=token)
    step = "create the repository"
    try:
        url = api.create_repo(repo_id, repo_type="dataset", private=private, exist_ok=True)
        if branch != "main":
            step = f"create branch {branch!r}"
            api.create_branch(repo_id, branch=branch, repo_type="dataset", exist_ok=True)
        step = "upload the folder"
        info = api.upload_folder(
            repo_id=repo_id,
            folder_path=str(check.folder),
            repo_type="dataset",
            revision=branch,
            allow_patterns=list(check.files),
            commit_message=f"lgmt-tasks {__version__}: dataset build",
        )
    except Exception as exc:  # network boundary: any failure becomes one scrubbed line (never a traceback)
        detail = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        raise PublishError(
            scrub(f"could not {step} {repo_id} on {endpoint()}: {type(exc).__name__}: {detail}", token)
        ) from None
    commit = getattr(info, "oid", "") or ""
    return PublishResult(repo_id, branch, commit, str(url), check)
