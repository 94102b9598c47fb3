"""Dataset loaders for tasks: build (cached) or read a built/published dataset, and filter it."""
