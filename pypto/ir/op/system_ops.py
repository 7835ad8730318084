"""``ir.op.system``: PyPTO's builders of the ``system.*`` ops (``span=None``), generated
from the registry entries, with the cross-core pipe builders PyPTO files here too
(they build ``tile.*`` ops) and the hand-written ``sync_set``/``sync_wait``/
``syncall_soft``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..dtype import DataType
from ..enums import PipeType
from ..expr import Call, ConstInt
from ..node import Expr
from ..ops import composite as _composite
from ..span import Span
from ..types import ScalarType, TensorType
from . import tile_ops as _tile_ops
from ._namespace import Builder, fill_builders

_PIPES = {name: getattr(_tile_ops, name) for name in
          ("tpush_to_aiv", "tpush_to_aic", "tpop_from_aic", "tpop_from_aiv")}

if TYPE_CHECKING:  # the generated builders, to a checker (see ``Builder``)
    def __getattr__(name: str) -> Builder: ...

__all__ = fill_builders(globals(), "system", {
    "sync_set": _composite.sync_set, "sync_wait": _composite.sync_wait,
    "syncall_soft": _composite.syncall_soft, **_PIPES})

AUTO = -1  # PyPTO's "pick automatically" value of buffer/slot arguments
_ = (DataType, PipeType, Call, ConstInt, Expr, Span, ScalarType, TensorType)
