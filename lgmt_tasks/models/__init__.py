"""Local models for Inspect: the `lgmt/smollm2` provider for the embedded SmolLM2-135M-Instruct.

Importing `lgmt_tasks.models.smollm2` registers the provider with Inspect (the plugin entry point,
`lgmt_tasks._registry`, does) and stays light: torch and transformers are imported only when the model is first
converted or used. Importing this package alone imports neither the provider nor Inspect's model layer, so that
`lgmt cache`, which needs only the model's file locations (`_files`), starts fast; `ensure_converted` is imported
from `smollm2` on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lgmt_tasks.models._files import cache_root, converted_dir, gguf_path

if TYPE_CHECKING:
    from lgmt_tasks.models.smollm2 import ensure_converted

__all__ = ["cache_root", "converted_dir", "ensure_converted", "gguf_path"]


def __getattr__(name: str) -> Any:
    """`ensure_converted`, imported from `smollm2` (with Inspect's model layer) when first asked for."""
    if name == "ensure_converted":
        from lgmt_tasks.models.smollm2 import ensure_converted

        return ensure_converted
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
