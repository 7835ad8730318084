"""``pld.tensor``: PyPTO's wrappers of the ``pld.tensor.*`` ops (windows, one-sided
copies, collectives).  The 1:1 wrappers are generated from the registry entries;
``alloc_window_buffer`` (sized in elements of ``dtype`` when one is given) and
``allreduce`` (``signal`` may be left out) are written here."""

from __future__ import annotations

from typing import Any

from ....ir.dtype import DataType
from ....ir.enums import AtomicType, ReduceOp
from ....ir.expr import Call, ConstInt
from ....ir.node import Expr
from ....ir.ops import create_op_call
from ....ir.types import ScalarType
from ...op._namespace import fill_namespace
from ...array_types import Ptr
from ...typing import Tensor
from ..typing import DistributedTensor
from ._utils import _unwrap, _unwrap_distributed_tensors

# ``allreduce(target)``: no signal window; the reduction synchronises by itself.
_NO_SIGNAL = object()


def window_bytes(size: Any, dtype: DataType | None) -> Any:
    """``size`` elements of ``dtype`` in bytes (``size`` itself when no dtype)."""
    size = _unwrap(size)
    if dtype is None:
        return size
    if not isinstance(dtype, DataType):
        raise TypeError(f"pld.alloc_window_buffer: dtype must be a DataType such as pl.FP32, "
                        f"got {type(dtype).__name__}")
    if isinstance(size, ConstInt):
        return ConstInt(size.value * dtype.get_byte(), size.dtype, size.span)
    if isinstance(size, Expr) and isinstance(size.type, ScalarType):
        return size * dtype.get_byte()
    if isinstance(size, bool) or not isinstance(size, int):
        raise TypeError(f"pld.alloc_window_buffer: size must be an integer, got "
                        f"{type(size).__name__}")
    return size * dtype.get_byte()


def alloc_window_buffer(size, *, dtype=None, name="", span=None):
    """A window buffer of ``size`` bytes, or of ``size`` elements of ``dtype``."""
    return create_op_call("pld.tensor.alloc_window_buffer", [window_bytes(size, dtype)],
                          {"name": name}, span)


def allreduce(target, signal=_NO_SIGNAL, *, op=ReduceOp.Sum, mode="mesh", core_num=1,
              span=None):
    """Reduce ``target`` over every rank, in place (``op``: sum, max, min or product)."""
    operands = _unwrap_distributed_tensors("pld.tensor.allreduce", target=target)
    args = [operands["target"]]
    if signal is not _NO_SIGNAL and signal is not None:
        args.append(_unwrap_distributed_tensors("pld.tensor.allreduce", signal=signal)["signal"])
    return create_op_call("pld.tensor.allreduce", args,
                          {"op": op, "mode": mode, "core_num": core_num}, span)


__all__ = fill_namespace(globals(), "pld.tensor", {
    "alloc_window_buffer": alloc_window_buffer, "allreduce": allreduce})

_ = (AtomicType, Call, Tensor, DistributedTensor, Ptr)
