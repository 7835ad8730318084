"""``ir.op.array``: PyPTO's builders of the ``array.*`` ops (``span=None``), generated
from the registry entries."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..dtype import DataType
from ..expr import Call, ConstInt
from ..node import Expr
from ..span import Span
from ._namespace import Builder, fill_builders

if TYPE_CHECKING:  # the generated builders, to a checker (see ``Builder``)
    def __getattr__(name: str) -> Builder: ...

__all__ = fill_builders(globals(), "array")
# PyPTO's module-level names besides the builders
_ = (Call, Expr, Span, ConstInt, DataType)
