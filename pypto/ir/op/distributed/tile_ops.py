"""``ir.op.distributed.tile_ops``: PyPTO's builders of the ``pld.tile.*`` ops
(``span=None``), generated from the registry entries."""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from ...dtype import DataType
from ...enums import AtomicType
from ...expr import Call
from ...node import Expr
from ...span import Span
from .._namespace import Builder, fill_builders

if TYPE_CHECKING:  # the generated builders, to a checker (see ``Builder``)
    def __getattr__(name: str) -> Builder: ...

__all__ = fill_builders(globals(), "pld.tile")

_ = (Sequence, DataType, AtomicType, Call, Expr, Span)
