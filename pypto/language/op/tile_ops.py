"""``pl.tile``: PyPTO's wrappers of the ``tile.*`` ops, generated from the registry
entries (``pypto/ir/ops/tile_ops.py``, ``tile_memory_ops.py``, ``cross_core_ops.py``):
PyPTO's signatures, operands by keyword too (``pl.tile.load(t, offsets=[0, 0],
shapes=[16, 16])``); ``mrgsort`` and ``scatter_update`` route to one of several ops
(``ir/ops/composite.py``)."""

from __future__ import annotations

from ...ir.dtype import DataType
from ...ir.enums import AtomicType, MemorySpace, PadValue, TileLayout
from ...ir.node import Expr
from ...ir.ops import composite as _composite
from ...ir.span import Span
from ...ir.array_types import PtrType
from ..typing import Scalar, Tensor, Tile
from ._namespace import fill_namespace
from ._tile_extras import (MaskPattern, MemRefType, caller_warning_stacklevel,  # noqa: A004
                           has_partial_valid_region, max, min, predicate_to_expr)


def scatter_update(input, *args, **kwargs):  # noqa: A002  (PyPTO's signature)
    """``scatter_update(input, [dim,] index, src)``: rows of ``input`` replaced by ``src``'s."""
    return _composite.tile_scatter_update(input, *args, **kwargs)


def mrgsort(src0, src1=None, src2=None, src3=None, tmp=None, exhausted=False, *,
            block_len=None, span=None):
    """Merge sorted (value, index) lists: one tile's runs of ``block_len`` pairs, or two to
    four tiles (with the scratch ``tmp``)."""
    return _composite.tile_mrgsort(src0, src1, src2, src3, tmp, exhausted,
                                   block_len=block_len, span=span)


__all__ = [*fill_namespace(globals(), "tile", {"scatter_update": scatter_update,
                                                "mrgsort": mrgsort}),
           "MaskPattern", "MemRefType", "max", "min"]
_HELPERS = (caller_warning_stacklevel, has_partial_valid_region, predicate_to_expr)

# PyPTO's module-level names besides the wrappers
_ = (DataType, AtomicType, MemorySpace, PadValue, TileLayout, Expr, Span, Scalar, Tensor, Tile,
     PtrType)
