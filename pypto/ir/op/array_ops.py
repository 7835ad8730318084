"""``ir.op.array``: PyPTO's builders of the ``array.*`` ops (``span=None``), generated
from the registry entries."""

from __future__ import annotations

from ..dtype import DataType
from ..expr import Call, ConstInt
from ..node import Expr
from ..span import Span
from ._namespace import fill_builders

__all__ = fill_builders(globals(), "array")
# PyPTO's module-level names besides the builders
_ = (Call, Expr, Span, ConstInt, DataType)
