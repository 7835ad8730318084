"""``import pypto.language as pl`` (placeholder: the front end is being written)."""
