"""Type rules of the distributed ops (``pld.system.*``, ``pld.tensor.*``, ``pld.tile.*``).

Operands are kind-checked by the entry (Tensor, Tile, Scalar, index tuple); what the
kinds cannot say -- that a tensor is a ``DistributedTensor``, that a value is a window
buffer or a communication context -- is checked here.  Messages leave out the op name
(``create_op_call`` adds it).
"""

from __future__ import annotations

from typing import Any, Mapping

from ..distributed_types import CommCtxType, DistributedTensorType, WindowBuffer, WindowBufferType
from ..dtype import DataType
from ..enums import MemorySpace
from ..expr import MakeTuple
from ..node import Expr
from ..scalar_types import scalar_type
from ..types import ScalarType, TileType, TupleType, Type
from .shapes import check_positive_dims, check_rank, elements

__all__ = ["no_result", "comm_ctx", "rank_scalar", "window_buffer", "window", "in_place",
           "remote_copy", "staged_copy", "remote_load", "remote_store", "notify", "wait",
           "collective_into_target"]

Args = tuple
Kwargs = Mapping[str, Any]

_NO_RESULT = TupleType([])


def _distributed(arg: Expr, name: str) -> DistributedTensorType:
    if not isinstance(arg.type, DistributedTensorType):
        raise ValueError(f"'{name}' must be a pld.DistributedTensor (a window, see pld.window), "
                         f"got {arg.type}")
    return arg.type


def _int_scalar(arg: Expr, name: str) -> None:
    if not (isinstance(arg.type, ScalarType) and arg.type.dtype.is_int()):
        raise ValueError(f"'{name}' must be an integer scalar, got {arg.type}")


def _int_signal(arg: Expr, name: str) -> None:
    t = _distributed(arg, name)
    if not t.dtype.is_int():
        raise ValueError(f"'{name}' must be an integer pld.DistributedTensor (a signal "
                         f"array), got {t}")


def no_result(args: Args, kwargs: Kwargs) -> Type:
    """Ops that only synchronise (``barrier``) have no result."""
    for index, arg in enumerate(args):
        if isinstance(arg.type, DistributedTensorType) or index == 0:
            _int_signal(arg, "signal")
    return _NO_RESULT


def comm_ctx(args: Args, kwargs: Kwargs) -> Type:
    """``get_comm_ctx(dist_tensor)`` -> ``pld.CommCtx``."""
    _distributed(args[0], "dist_tensor")
    return CommCtxType.get()


def rank_scalar(args: Args, kwargs: Kwargs) -> Type:
    """``rank(ctx)`` / ``nranks(ctx)`` / ``world_size()`` -> ``Scalar[INT32]`` (the
    context holds them as 32-bit fields, ``pypto.ir.comm_layout``)."""
    if args and not isinstance(args[0].type, CommCtxType):
        raise ValueError(f"'ctx' must be a pld.CommCtx (from pld.get_comm_ctx), got "
                         f"{args[0].type}")
    return scalar_type(DataType.INT32)


def window_buffer(args: Args, kwargs: Kwargs) -> Type:
    """``alloc_window_buffer(size, name=)`` -> ``pld.WindowBuffer``; ``size`` in bytes."""
    _int_scalar(args[0], "size")
    return WindowBufferType.get()


def window(args: Args, kwargs: Kwargs) -> Type:
    """``window(buf, shape, dtype=)`` -> ``pld.DistributedTensor[shape, dtype]`` cut from
    ``buf``."""
    buf = args[0]
    if not isinstance(buf.type, WindowBufferType):
        raise ValueError(f"'buf' must be a window buffer (from pld.alloc_window_buffer), got "
                         f"{buf.type}")
    shape = elements(args[1])
    check_positive_dims(shape, "shape")
    return DistributedTensorType(shape, kwargs["dtype"],
                                 buf if isinstance(buf, WindowBuffer) else None)


def in_place(args: Args, kwargs: Kwargs) -> Type:
    """Collectives on one window (``allreduce``, ``broadcast``, ``reduce_scatter``):
    the result is the target itself; the signal, if any, is an integer window."""
    target = _distributed(args[0], "target")
    if len(args) > 1:
        _int_signal(args[1], "signal")
    return target


def collective_into_target(args: Args, kwargs: Kwargs) -> Type:
    """``allgather`` / ``all_to_all`` / ``all_to_all_v``: a local input gathered into a
    window target of the same dtype; the result is the target."""
    source, target = args[0].type, _distributed(args[1], "target")
    if source.dtype is not target.dtype:
        raise ValueError(f"input dtype {source.dtype.name} does not match target dtype "
                         f"{target.dtype.name}")
    _int_signal(args[2], "signal")
    return target


def _check_window_args(args: Args, first: int, dst: Any, src: Any) -> None:
    for position, name in ((first, "dst_offsets"), (first + 1, "src_offsets"),
                           (first + 2, "shape")):
        if position < len(args):
            items = elements(args[position])
            if items:
                rank = len(dst.shape) if name == "dst_offsets" else len(src.shape)
                check_rank(items, rank, name, "the tensor")


def remote_copy(args: Args, kwargs: Kwargs) -> Type:
    """``put(dst, peer, src, ...)`` / ``get(dst, peer, src, ...)``: one side is a window
    (``put``: dst, ``get``: src); dtypes agree; the result is ``dst``."""
    dst, src = args[0].type, args[2].type
    _int_scalar(args[1], "peer")
    if not (isinstance(dst, DistributedTensorType) or isinstance(src, DistributedTensorType)):
        raise ValueError("one of 'dst' and 'src' must be a pld.DistributedTensor (a window)")
    if dst.dtype is not src.dtype:
        raise ValueError(f"dst dtype {dst.dtype.name} does not match src dtype {src.dtype.name}")
    _check_window_args(args, 3, dst, src)
    return dst


def staged_copy(args: Args, kwargs: Kwargs) -> Type:
    """``pld.tile.put/get(dst, peer, src, stage, stage2, ...)``: a copy through one or
    two staging tiles; ``stage2`` may be left empty (``[]``)."""
    for position, name in ((3, "stage"), (4, "stage2")):
        if position < len(args):
            arg = args[position]
            empty = isinstance(arg, MakeTuple) and not arg.elements
            if not (isinstance(arg.type, TileType) or (empty and position == 4)):
                raise ValueError(f"'{name}' must be a Tile, got {arg.type}")
    dst, src = args[0].type, args[2].type
    _int_scalar(args[1], "peer")
    if not (isinstance(dst, DistributedTensorType) or isinstance(src, DistributedTensorType)):
        raise ValueError("one of 'dst' and 'src' must be a pld.DistributedTensor (a window)")
    if dst.dtype is not src.dtype:
        raise ValueError(f"dst dtype {dst.dtype.name} does not match src dtype {src.dtype.name}")
    _check_window_args(args, 5, dst, src)
    return dst


def remote_load(args: Args, kwargs: Kwargs) -> Type:
    """``remote_load(target, peer, offsets, shape[, valid_shape])`` -> a Vec tile of the
    peer's window data."""
    target = _distributed(args[0], "target")
    _int_scalar(args[1], "peer")
    offsets, sizes = elements(args[2]), elements(args[3])
    check_rank(offsets, len(target.shape), "offsets", "the target")
    check_rank(sizes, len(target.shape), "shape", "the target")
    if len(args) > 4 and elements(args[4]):
        check_rank(elements(args[4]), len(target.shape), "valid_shape", "the target")
    check_positive_dims(sizes, "shape")
    return TileType(sizes, target.dtype, memory_space=MemorySpace.Vec)


def remote_store(args: Args, kwargs: Kwargs) -> Type:
    """``remote_store(src, target, peer, offsets)``: src (tensor or tile) into the peer's
    window at ``offsets``; the result is the target."""
    src, target = args[0].type, _distributed(args[1], "target")
    _int_scalar(args[2], "peer")
    if src.dtype is not target.dtype:
        raise ValueError(f"src dtype {src.dtype.name} does not match target dtype "
                         f"{target.dtype.name}")
    offsets = elements(args[3])
    check_rank(offsets, len(target.shape), "offsets", "the target")
    check_rank(src.shape, len(target.shape), "the source's shape", "the target")
    return target


def notify(args: Args, kwargs: Kwargs) -> Type:
    """``notify(target, peer, offsets, value, op=)``: changes one element of the peer's
    integer signal window."""
    _int_signal(args[0], "target")
    _int_scalar(args[1], "peer")
    check_rank(elements(args[2]), len(args[0].type.shape), "offsets", "the target")
    _int_scalar(args[3], "value")
    return _NO_RESULT


def wait(args: Args, kwargs: Kwargs) -> Type:
    """``wait(signal, offsets, expected, cmp=)``: blocks until the local signal element
    compares true with ``expected``."""
    _int_signal(args[0], "signal")
    check_rank(elements(args[1]), len(args[0].type.shape), "offsets", "the signal")
    _int_scalar(args[2], "expected")
    return _NO_RESULT
