"""``ir.op.distributed.system_ops``: PyPTO's builders of the ``pld.system.*`` ops
(``span=None``), generated from the registry entries."""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from ...dtype import DataType
from ...enums import NotifyOp, WaitCmp
from ...expr import Call
from ...span import Span
from .._namespace import Builder, fill_builders

if TYPE_CHECKING:  # the generated builders, to a checker (see ``Builder``)
    def __getattr__(name: str) -> Builder: ...

__all__ = fill_builders(globals(), "pld.system")

_ = (Sequence, DataType, NotifyOp, WaitCmp, Call, Span)
