"""``pypto.passes`` (placeholder: the pass infrastructure is being written)."""
