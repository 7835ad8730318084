"""``pl.prefetch``: PyPTO's wrappers of the ``prefetch.*`` ops, generated from the
registry (no ``prefetch.*`` op is registered yet: see docs/guide/differences.md)."""

from __future__ import annotations

from ._namespace import fill_namespace

__all__ = fill_namespace(globals(), "prefetch")
