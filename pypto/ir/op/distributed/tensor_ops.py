"""``ir.op.distributed.tensor_ops``: PyPTO's builders of the ``pld.tensor.*`` ops
(``span=None``).  Generated from the registry entries, except the three whose
signatures PyPTO spells by hand: ``alloc_window_buffer`` (``name`` required),
``allreduce`` (``signal`` may be left out) and ``reduce_scatter`` (``op`` positional)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from ...dtype import DataType
from ...enums import AtomicType, ReduceOp
from ...expr import Call
from ...node import Expr
from ...ops import create_op_call
from ...span import Span
from .._namespace import Builder, fill_builders

# ``allreduce(target)``: no signal window.
_NO_SIGNAL = object()


def alloc_window_buffer(size, *, name, span=None):
    """A window buffer of ``size`` bytes named ``name``."""
    return create_op_call("pld.tensor.alloc_window_buffer", [size], {"name": name}, span)


def allreduce(target, signal=_NO_SIGNAL, op=ReduceOp.Sum, *, mode="mesh", core_num=1,
              span=None):
    """Reduce ``target`` over every rank, in place."""
    args = [target] if signal is _NO_SIGNAL or signal is None else [target, signal]
    return create_op_call("pld.tensor.allreduce", args,
                          {"op": op, "mode": mode, "core_num": core_num}, span)


def reduce_scatter(target, signal, op, *, span=None):
    """Reduce ``target`` over every rank; each rank keeps its share."""
    return create_op_call("pld.tensor.reduce_scatter", [target, signal], {"op": op}, span)


if TYPE_CHECKING:  # the generated builders, to a checker (see ``Builder``)
    def __getattr__(name: str) -> Builder: ...

__all__ = fill_builders(globals(), "pld.tensor", {
    "alloc_window_buffer": alloc_window_buffer, "allreduce": allreduce,
    "reduce_scatter": reduce_scatter})

_ = (Sequence, DataType, AtomicType, Call, Expr, Span)
