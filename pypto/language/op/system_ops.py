"""``pl.system``: PyPTO's wrappers of the ``system.*`` ops, generated from the registry
(``pypto/ir/ops/system_ops.py``, ``cross_core_ops.py``), and of the cross-core pipe ops
PyPTO files under ``pl.system`` too (``tpush_to_aiv`` ... build ``tile.*`` ops);
``sync_set``/``sync_wait`` route a constant or a runtime event id
(``ir/ops/composite.py``)."""

from __future__ import annotations

from ...ir.dtype import DataType
from ...ir.enums import PipeType
from ...ir.expr import Call, ConstInt
from ...ir.node import Expr
from ...ir.ops import composite as _composite
from ...ir.span import Span
from ..array_types import Array
from ..typing import Scalar, Tensor, Tile
from . import tile_ops as _tile_ops
from ._namespace import fill_namespace

AUTO = -1  # PyPTO's "pick automatically" value of buffer/slot arguments

# The pipe ops are tile.* ops; PyPTO's pl.system offers the same wrappers.
_PIPES = {name: getattr(_tile_ops, name) for name in
          ("tpush_to_aiv", "tpush_to_aic", "tpop_from_aic", "tpop_from_aiv")}

__all__ = [*fill_namespace(globals(), "system", {"sync_set": _composite.sync_set,
                                                  "sync_wait": _composite.sync_wait,
                                                  **_PIPES}), "AUTO"]
# PyPTO's module-level names besides the wrappers
_ = (PipeType, DataType, Call, ConstInt, Expr, Span, Scalar, Tensor, Tile, Array)
