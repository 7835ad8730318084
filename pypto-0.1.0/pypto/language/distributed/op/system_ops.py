"""``pld.system``: PyPTO's wrappers of the ``pld.system.*`` ops (ranks, communication
contexts, signals), generated from the registry entries."""

from __future__ import annotations

from ....ir.enums import NotifyOp, WaitCmp
from ....ir.expr import Call
from ....language.op._namespace import fill_namespace
from ...typing import Scalar, Tensor
from ..typing import CommCtx, DistributedTensor

__all__ = fill_namespace(globals(), "pld.system")

_ = (NotifyOp, WaitCmp, Call, Scalar, Tensor, CommCtx, DistributedTensor)
