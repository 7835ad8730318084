"""``ir.op.distributed.system_ops``: PyPTO's builders of the ``pld.system.*`` ops
(``span=None``), generated from the registry entries."""

from __future__ import annotations

from typing import Sequence

from ...dtype import DataType
from ...enums import NotifyOp, WaitCmp
from ...expr import Call
from ...span import Span
from .._namespace import fill_builders

__all__ = fill_builders(globals(), "pld.system")

_ = (Sequence, DataType, NotifyOp, WaitCmp, Call, Span)
