"""``import pypto.language.distributed as pld``: distributed programs.

Types: ``pld.DistributedTensor[[...], dtype]`` (a tensor with one copy per rank, in a
communication window), ``pld.CommCtx`` (a communication context), ``pld.WindowBuffer``
(the annotation of a window buffer).  Ops: the unified ``pld.window``,
``pld.alloc_window_buffer``, ``pld.world_size``, ``pld.rank``, ``pld.nranks``,
``pld.get_comm_ctx``, ``pld.remote_load``, ``pld.remote_store`` and the namespaces
``pld.system`` (notify, wait ...), ``pld.tensor`` (put, get, allreduce ...) and
``pld.tile`` (remote tile loads and stores).  A program function runs on one rank
when called as ``self.kernel(..., device=r)``.  See docs/guide/distributed.md.
"""

from __future__ import annotations

from ...ir.distributed_types import CommCtxType
from ...ir.enums import AtomicType, NotifyOp, ReduceOp, WaitCmp
from ..typing import _AnnotationMeta
from . import op, typing
from .op import (alloc_window_buffer, get_comm_ctx, nranks, rank, remote_load, remote_store,
                 system, tensor, tile, window, world_size)
from .typing import CommCtx, DistributedTensor


class WindowBuffer(metaclass=_AnnotationMeta):
    """``pld.WindowBuffer``: the annotation of a window buffer (``pld.alloc_window_buffer``)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        raise TypeError("pld.WindowBuffer is an annotation; make one with "
                        "pld.alloc_window_buffer(size, name=...)")


__all__ = ["AtomicType", "CommCtx", "CommCtxType", "DistributedTensor", "NotifyOp", "ReduceOp",
           "WaitCmp", "alloc_window_buffer", "get_comm_ctx", "nranks", "rank", "remote_load",
           "remote_store", "system", "tensor", "tile", "window", "world_size"]
