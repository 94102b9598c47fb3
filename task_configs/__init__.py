"""lm-evaluation-harness task configs (YAML) and their typed utils; point lm_eval --include_path here."""
