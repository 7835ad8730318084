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
from ..typing import Scalar, Tensor
from ._namespace import fill_namespace



def scatter_update(input, *args, **kwargs):  # noqa: A002  (PyPTO's signature)
    """``scatter_update(input, [dim,] index, src)``: rows of ``input`` replaced by ``src``'s."""
    return _composite.scatter_update(input, *args, **kwargs)


__all__ = fill_namespace(globals(), "tensor", {
    "gather": _composite.gather, "scatter": _composite.scatter,
    "scatter_update": scatter_update, "mrgsort": _composite.mrgsort})

# PyPTO's module-level names besides the wrappers
_ = (DataType, AtomicType, MemorySpace, PadValue, TensorLayout, Expr, Scalar, Tensor)
