"""``ir.op.distributed``: PyPTO's IR builders of the distributed ops, by namespace
(``system_ops``, ``tensor_ops``, ``tile_ops``) and, for the common ones, here."""

from __future__ import annotations

from . import system_ops, tensor_ops, tile_ops
from .system_ops import get_comm_ctx, nranks, rank, world_size
from .tensor_ops import (allgather, alloc_window_buffer, allreduce, barrier, broadcast, get, put,
                         reduce_scatter, window)
from .tile_ops import remote_load

__all__ = ["allgather", "alloc_window_buffer", "allreduce", "barrier", "broadcast", "get",
           "get_comm_ctx", "nranks", "put", "rank", "reduce_scatter", "remote_load",
           "system_ops", "tensor_ops", "tile_ops", "window", "world_size"]
