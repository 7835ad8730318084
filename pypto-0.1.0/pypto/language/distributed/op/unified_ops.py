"""The unified ``pld.*`` functions: the ones PyPTO offers without a namespace, routed
to ``pld.system`` / ``pld.tensor`` / ``pld.tile`` (``remote_store`` by the kind of its
source: a tile or a tensor)."""

from __future__ import annotations

from ....ir.enums import AtomicType
from ....ir.expr import Call
from ....ir.node import Expr
from ....ir.types import TileType
from ...typing import Tensor, Tile
from ..typing import DistributedTensor
from . import system_ops, tensor_ops, tile_ops
from ._utils import _unwrap

__all__ = ["alloc_window_buffer", "get_comm_ctx", "nranks", "rank", "remote_load",
           "remote_store", "window", "world_size"]


def alloc_window_buffer(size, *, dtype=None, name="", span=None):
    """A window buffer of ``size`` bytes, or of ``size`` elements of ``dtype``."""
    return tensor_ops.alloc_window_buffer(size, dtype=dtype, name=name, span=span)


def get_comm_ctx(dist_tensor, *, span=None):
    """The communication context of a distributed tensor."""
    return system_ops.get_comm_ctx(_unwrap(dist_tensor), span=span)


def nranks(ctx, *, span=None):
    """The number of ranks of a communication context."""
    return system_ops.nranks(_unwrap(ctx), span=span)


def rank(ctx, *, span=None):
    """This rank's index in a communication context."""
    return system_ops.rank(_unwrap(ctx), span=span)


def world_size(*, span=None):
    """The number of ranks the program runs on."""
    return system_ops.world_size(span=span)


def window(buf, shape, *, dtype, span=None):
    """A distributed tensor of ``shape`` and ``dtype`` over the window buffer ``buf``."""
    return tensor_ops.window(_unwrap(buf), shape, dtype=dtype, span=span)


def remote_load(target, peer, offsets, shape, valid_shape=None, *, span=None):
    """A tile of a peer's window: ``pld.tile.remote_load``."""
    return tile_ops.remote_load(_unwrap(target), peer, offsets, shape, valid_shape, span=span)


def remote_store(src, target, peer, offsets, *, atomic=AtomicType.None_, span=None):
    """Store a tile (``pld.tile.remote_store``) or a tensor (``pld.tensor.remote_store``)
    into a peer's window."""
    src = _unwrap(src)
    if isinstance(src, Expr) and isinstance(src.type, TileType):
        return tile_ops.remote_store(src, _unwrap(target), peer, offsets, atomic=atomic,
                                     span=span)
    return tensor_ops.remote_store(src, _unwrap(target), peer, offsets, atomic=atomic,
                                   span=span)


UNIFIED_OPS = {name: globals()[name] for name in __all__}

_ = (Call, Tensor, Tile, DistributedTensor)
