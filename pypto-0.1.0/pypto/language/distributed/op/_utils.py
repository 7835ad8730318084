"""Argument helpers of the hand-written ``pld`` wrappers."""

from __future__ import annotations

from typing import Any, Sequence

from ....ir.distributed_types import DistributedTensorType
from ....ir.node import Expr
from ...typing import Scalar  # noqa: F401  (PyPTO's module-level name)

__all__ = ["_normalize_intlike", "_unwrap", "_unwrap_distributed_tensors"]


def _unwrap(value: Any) -> Any:
    """The IR expression behind a DSL value (``pld.CommCtx(expr=e)`` -> ``e``); anything
    else as it is."""
    unwrap = getattr(value, "unwrap", None)
    return unwrap() if callable(unwrap) and not isinstance(value, Expr) else value


def _normalize_intlike(seq: Sequence[Any]) -> list[Any]:
    """A shape or offset list: Python and NumPy integers as ``int``, IR expressions kept."""
    if isinstance(seq, (str, bytes)) or not isinstance(seq, (list, tuple)):
        raise TypeError(f"expected a list of integers or scalar expressions, got "
                        f"{type(seq).__name__}")
    out = []
    for item in seq:
        item = _unwrap(item)
        if isinstance(item, Expr) or isinstance(item, bool):
            out.append(item)
        elif hasattr(item, "__index__"):
            out.append(item.__index__())
        else:
            out.append(item)
    return out


def _unwrap_distributed_tensors(op_name: str, **named: Any) -> dict[str, Any]:
    """Each named operand unwrapped; ``TypeError`` naming the op and the operand when one
    is not a ``pld.DistributedTensor``."""
    out = {}
    for name, value in named.items():
        value = _unwrap(value)
        if not (isinstance(value, Expr) and isinstance(value.type, DistributedTensorType)):
            shown = value.type if isinstance(value, Expr) else type(value).__name__
            raise TypeError(f"{op_name}: '{name}' must be a pld.DistributedTensor, got {shown}")
        out[name] = value
    return out
