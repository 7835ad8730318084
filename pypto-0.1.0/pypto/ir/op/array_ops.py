"""``ir.op.array``: PyPTO's builders of the ``array.*`` ops (``span=None``), generated
from the registry entries."""

from __future__ import annotations

from ._namespace import fill_builders

__all__ = fill_builders(globals(), "array")
