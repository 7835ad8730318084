"""``pl.array``: PyPTO's wrappers of the ``array.*`` ops (on-chip scalar arrays),
generated from the registry entries (``pypto/ir/ops/array_ops.py``)."""

from __future__ import annotations

from ...ir.dtype import DataType
from ...ir.node import Expr
from ..array_types import Array
from ..typing import Scalar
from ._namespace import fill_namespace

__all__ = fill_namespace(globals(), "array")
# PyPTO's module-level names besides the wrappers
_ = (DataType, Expr, Array, Scalar)
