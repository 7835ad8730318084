"""``pl.array``: PyPTO's wrappers of the ``array.*`` ops, generated from the registry
(no ``array.*`` op is registered yet: see docs/guide/differences.md)."""

from __future__ import annotations

from ._namespace import fill_namespace

__all__ = fill_namespace(globals(), "array")
