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
from ._tile_extras import (caller_warning_stacklevel, has_partial_valid_region,
                           predicate_to_expr)



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


def no_dep(tensor, *, span=None):
    """``pl.no_dep(t)`` in a ``pl.at`` body: ``t``, listed in the region's ``no_dep_args``
    (the parser records it; PyPTO's wrapper creates no op).  Run as Python it is ``t``."""
    if not (isinstance(tensor, Expr) and type(tensor.type).__name__ in
            ("TensorType", "DistributedTensorType")):
        kind = type(tensor.type).__name__ if isinstance(tensor, Expr) else type(tensor).__name__
        raise TypeError(f"pl.no_dep: 'tensor' must be a Tensor, got {kind}")
    return tensor


__all__ = fill_namespace(globals(), "tensor", {
    "gather": _composite.gather, "scatter": _composite.scatter,
    "scatter_update": scatter_update, "mrgsort": _composite.mrgsort, "dump_tag": dump_tag,
    "no_dep": no_dep})

# PyPTO's module-level names besides the wrappers
_ = (DataType, AtomicType, MemorySpace, PadValue, TensorLayout, Expr, Scalar, Tensor, PtrType,
     caller_warning_stacklevel, has_partial_valid_region, predicate_to_expr)
