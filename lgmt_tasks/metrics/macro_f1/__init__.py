"""The `macro_f1` evaluate module (load it with `evaluate.load(lgmt_tasks.metrics.metric_path(...))`)."""
