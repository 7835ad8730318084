"""``pl.tensor``: PyPTO's wrappers of the ``tensor.*`` ops.

The 1:1 wrappers are generated from the registry entries (``pypto/ir/ops``), so their
signatures are PyPTO's and they take operands by keyword too
(``pl.tensor.slice(t, shape=[4, 4], offset=[0, 0])``); ``gather``, ``scatter``,
``scatter_update`` and ``mrgsort`` route to one of several ops (``ir/ops/composite.py``).
"""

from __future__ import annotations

from ...ir.dtype import DataType
from ...ir.enums import AtomicType, MemorySpace, PadValue, TensorLayout
from ...ir.node import Expr
from ...ir.ops import composite as _composite
from ...ir.array_types import PtrType
from ..typing import Scalar, Tensor
from ._namespace import fill_namespace



def scatter_update(input, *args, **kwargs):  # noqa: A002  (PyPTO's signature)
    """``scatter_update(input, [dim,] index, src)``: rows of ``input`` replaced by ``src``'s."""
    return _composite.scatter_update(input, *args, **kwargs)


def dump_tag(tensor, *, span=None):
    """``pl.dump_tag(t)``: ``t``, tagged for the device runtime's dumps.  PyPTO's wrapper
    creates no op; pypto has no device runtime to dump from, so in the IR and on the CPU
    it is ``t`` itself (docs/guide/differences.md)."""
    if not (isinstance(tensor, Expr) and type(tensor.type).__name__ == "TensorType"):
        kind = type(tensor.type).__name__ if isinstance(tensor, Expr) else type(tensor).__name__
        raise TypeError(f"pl.dump_tag: 'tensor' must be a Tensor, got {kind}")
    return tensor


__all__ = fill_namespace(globals(), "tensor", {
    "gather": _composite.gather, "scatter": _composite.scatter,
    "scatter_update": scatter_update, "mrgsort": _composite.mrgsort, "dump_tag": dump_tag})

# PyPTO's module-level names besides the wrappers
_ = (DataType, AtomicType, MemorySpace, PadValue, TensorLayout, Expr, Scalar, Tensor, PtrType)
