"""``pl.tile``: PyPTO's wrappers of the ``tile.*`` ops, generated from the registry
entries (``pypto/ir/ops/tile_ops.py``): PyPTO's signatures, operands by keyword too
(``pl.tile.load(t, offsets=[0, 0], shapes=[16, 16])``)."""

from __future__ import annotations

from ...ir.dtype import DataType
from ...ir.enums import AtomicType, MemorySpace, PadValue, TileLayout
from ...ir.node import Expr
from ...ir.span import Span
from ..typing import Scalar, Tensor, Tile
from ._namespace import fill_namespace

__all__ = fill_namespace(globals(), "tile")

# PyPTO's module-level names besides the wrappers
_ = (DataType, AtomicType, MemorySpace, PadValue, TileLayout, Expr, Span, Scalar, Tensor, Tile)
