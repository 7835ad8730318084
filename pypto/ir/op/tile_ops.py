"""``ir.op.tile``: PyPTO's builders of the ``tile.*`` ops (``span=None``), generated
from the registry entries."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..dtype import DataType
from ..enums import MemorySpace, PadValue, TensorLayout, TileLayout
from ..expr import Call, ConstFloat, ConstInt
from ..node import Expr
from ..ops import composite as _composite
from ..span import Span
from ..types import ScalarType
from ._helpers import normalize_pad_value, resolve_cast_mode, resolve_gather_compare_cmp_mode
from ._namespace import Builder, fill_builders

if TYPE_CHECKING:  # the generated builders, to a checker (see ``Builder``)
    def __getattr__(name: str) -> Builder: ...

__all__ = fill_builders(globals(), "tile", {
    "scatter_update": _composite.tile_scatter_update, "mrgsort": _composite.tile_mrgsort,
    "mrgsort_format2": _composite.tile_mrgsort_format2})

_ = (DataType, MemorySpace, PadValue, TensorLayout, TileLayout, Call, ConstFloat, ConstInt, Expr,
     Span, ScalarType, normalize_pad_value, resolve_cast_mode, resolve_gather_compare_cmp_mode)
