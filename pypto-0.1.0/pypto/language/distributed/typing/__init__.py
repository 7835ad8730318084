"""The annotation types of distributed programs: ``pld.DistributedTensor``, ``pld.CommCtx``."""

from __future__ import annotations

from . import comm_ctx, distributed_tensor
from .comm_ctx import CommCtx
from .distributed_tensor import DistributedTensor

__all__ = ["CommCtx", "DistributedTensor"]
