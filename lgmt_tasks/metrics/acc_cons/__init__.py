"""The `acc_cons` evaluate module (load it with `evaluate.load(lgmt_tasks.metrics.metric_path(...))`)."""
