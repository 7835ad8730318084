"""``ir.op.system``: PyPTO's builders of the ``system.*`` ops (``span=None``), generated
from the registry entries."""

from __future__ import annotations

from ..dtype import DataType
from ..enums import PipeType
from ..expr import Call, ConstInt
from ..node import Expr
from ..span import Span
from ..types import ScalarType, TensorType
from ._namespace import fill_builders

__all__ = fill_builders(globals(), "system")

AUTO = -1  # PyPTO's "pick automatically" value of buffer/slot arguments
_ = (DataType, PipeType, Call, ConstInt, Expr, Span, ScalarType, TensorType)
