"""Local models for Inspect: the `lgmt/smollm2` provider for the embedded SmolLM2-135M-Instruct.

Importing this package registers the provider with Inspect and stays light: torch and transformers are imported only
when the model is first converted or used (see `lgmt_tasks.models.smollm2`).
"""

from lgmt_tasks.models._files import cache_root, converted_dir, gguf_path
from lgmt_tasks.models.smollm2 import ensure_converted

__all__ = ["cache_root", "converted_dir", "ensure_converted", "gguf_path"]
