"""``ir.op``: PyPTO's IR builders, one function per op (``ir.op.tensor.add(lhs, rhs,
span=None)``), generated from the op registry (``pypto/ir/ops``)."""

from __future__ import annotations

from . import array_ops, prefetch_ops, system_ops, tensor_ops, tile_ops
from . import distributed

tensor, tile, system, array, prefetch = tensor_ops, tile_ops, system_ops, array_ops, prefetch_ops

__all__ = ["tensor", "tile", "system", "array", "prefetch", "distributed"]
