"""``pld``'s ops: the unified functions (``unified_ops``) and the wrapper modules of the
``pld.system`` / ``pld.tensor`` / ``pld.tile`` ops."""

from __future__ import annotations

from . import system_ops, tensor_ops, tile_ops, unified_ops
from .unified_ops import (UNIFIED_OPS, alloc_window_buffer, get_comm_ctx, nranks, rank,
                          remote_load, remote_store, window, world_size)

system, tensor, tile = system_ops, tensor_ops, tile_ops

# The parser's table: ``pld.<namespace>.<name>`` -> the function it calls.
NAMESPACES = {"system": system_ops, "tensor": tensor_ops, "tile": tile_ops}

__all__ = ["alloc_window_buffer", "get_comm_ctx", "nranks", "rank", "remote_load",
           "remote_store", "window", "world_size", "system", "tensor", "tile"]
_ = UNIFIED_OPS
