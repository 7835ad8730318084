"""``pl.tile``: PyPTO's wrappers of the ``tile.*`` ops, generated from the registry
entries (``pypto/ir/ops/tile_ops.py``): PyPTO's signatures, operands by keyword too
(``pl.tile.load(t, offsets=[0, 0], shapes=[16, 16])``)."""

from __future__ import annotations

from ...ir.dtype import DataType
from ...ir.enums import AtomicType, MemorySpace, PadValue, TileLayout
from ...ir.node import Expr
from ._namespace import fill_namespace

__all__ = fill_namespace(globals(), "tile")

_ = (DataType, AtomicType, MemorySpace, PadValue, TileLayout, Expr)  # PyPTO's module names
