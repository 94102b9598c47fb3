"""Builders: prover-backed generators that turn sources and relations into Hugging Face datasets."""
