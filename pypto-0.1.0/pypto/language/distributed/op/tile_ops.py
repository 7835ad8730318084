"""``pld.tile``: PyPTO's wrappers of the ``pld.tile.*`` ops (tile-level remote loads,
stores and staged copies), generated from the registry entries."""

from __future__ import annotations

from ....ir.enums import AtomicType
from ....ir.expr import Call
from ....ir.node import Expr
from ...op._namespace import fill_namespace
from ...typing import Tensor, Tile
from ..typing import DistributedTensor

__all__ = fill_namespace(globals(), "pld.tile")

_ = (AtomicType, Call, Expr, Tensor, Tile, DistributedTensor)
