"""Pass implementations (one module per pass; the outliners live in ``passes.outline``).

Each module exposes ``transform``; ``passes/registry.py`` declares the pass and
points at it.  They live in this subpackage so that importing one never
shadows the factory of the same name (``passes.convert_to_ssa()``).
"""
