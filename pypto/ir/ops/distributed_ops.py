"""The distributed op tables: ``pld.system.*``, ``pld.tensor.*``, ``pld.tile.*``
(reference: ops.md, groups ``pld.system`` / ``pld.tensor`` / ``pld.tile``).

Every op names its executor meaning with a ``dist_*`` kernel family: the CPU executor
runs the ranks of a distributed launch in one process (``pypto/runtime/distributed``).
Wrappers PyPTO writes by hand (``alloc_window_buffer``'s ``dtype=``, ``allreduce``'s
optional ``signal``, ``reduce_scatter``'s ir flavour) are ``pl=None``/``ir=None`` here
and hand-written in the wrapper modules.

PyPTO's internal ``builtin.tensor.*`` and ``dist.*`` ops are not registered: they are
what its backend lowering (out of scope) turns these ops into, and ``dist.*`` work on
handles of its device runtime; no DSL text or wrapper names them
(docs/guide/differences.md).
"""

from __future__ import annotations

from typing import Any

from ..enums import NotifyOp, ReduceOp, WaitCmp
from . import deduce_distributed as rule
from .keywords import ATOMIC
from .registry import (BOOL, DTYPE, EMPTY, INT, STR, ArgKind, DeduceRule, Effect, KwargSpec,
                       OpDef, ParamSpec, Semantics, enum_kind, register_op)

__all__ = ["DISTRIBUTED_OPS", "REDUCE_OP", "COLLECTIVE_MODES"]

T, S, V, I, TL = ArgKind.Tensor, ArgKind.Scalar, ArgKind.Value, ArgKind.IndexTuple, ArgKind.Tile
P, K, X = ParamSpec, KwargSpec, Semantics
RW, W = Effect.ReadWrite, Effect.Write

COLLECTIVE_MODES = ("mesh", "ring")
REDUCE_OP = K("op", enum_kind(ReduceOp), default=ReduceOp.Sum)
_CHUNKS = (K("chunk_rows", INT, default=0), K("chunk_cols", INT, default=0),
           K("pipeline", BOOL, default=False))


def _op(name: str, params: list, deduce: DeduceRule, kernel: str, keywords: tuple = (),
        **extra: Any) -> OpDef:
    return OpDef("pld." + name, params, deduce, keywords, semantics=X("dist_" + kernel),
                 **extra)


def _windows(*names: str) -> list[ParamSpec]:
    return [P(name, I, optional=True, fill=EMPTY) for name in names]


DISTRIBUTED_OPS: tuple[OpDef, ...] = (
    # -- pld.system: ranks, contexts, signals ----------------------------------------
    _op("system.world_size", [], rule.rank_scalar, "world_size", ir="*, span"),
    _op("system.get_comm_ctx", [P("dist_tensor", T)], rule.comm_ctx, "comm_ctx",
        ir="dist_tensor, *, span"),
    _op("system.rank", [P("ctx", V)], rule.rank_scalar, "rank", ir="ctx, *, span"),
    _op("system.nranks", [P("ctx", V)], rule.rank_scalar, "nranks", ir="ctx, *, span"),
    _op("system.notify", [P("target", T, RW), P("peer", S), P("offsets", I), P("value", S)],
        rule.notify, "notify", (K("op", enum_kind(NotifyOp), required=True),),
        pl="target, peer, offsets, value, *, op", ir="target, peer, offsets, value, op, *, span"),
    _op("system.wait", [P("signal", T), P("offsets", I), P("expected", S)], rule.wait, "wait",
        (K("cmp", enum_kind(WaitCmp), required=True),),
        pl="signal, offsets, expected, *, cmp", ir="signal, offsets, expected, cmp, *, span"),
    _op("system.defer_wait", [P("signal", T), P("offsets", I), P("expected", S)], rule.wait,
        "wait", (K("cmp", enum_kind(WaitCmp), required=True),),
        pl="signal, offsets, expected, *, cmp", ir="signal, offsets, expected, cmp, *, span"),

    # -- pld.tensor: windows, one-sided copies, collectives ----------------------------
    _op("tensor.alloc_window_buffer", [P("size", S)], rule.window_buffer, "alloc",
        (K("name", STR, default=""),), pl=None, ir=None),
    _op("tensor.window", [P("buf", V), P("shape", I)], rule.window, "window",
        (K("dtype", DTYPE, required=True),), pl="buf, shape, *, dtype",
        ir="buf, shape, *, dtype, span"),
    _op("tensor.put", [P("dst", T, RW), P("peer", S), P("src", T),
                       *_windows("dst_offsets", "src_offsets", "shape")],
        rule.remote_copy, "put", (ATOMIC, *_CHUNKS),
        pl="dst, peer, src, dst_offsets, src_offsets, shape, *, atomic, chunk_rows, chunk_cols,"
           " pipeline",
        ir="dst, peer, src, atomic, *, dst_offsets, src_offsets, shape, chunk_rows, chunk_cols,"
           " pipeline, span"),
    _op("tensor.get", [P("dst", T, W), P("peer", S), P("src", T),
                       *_windows("dst_offsets", "src_offsets", "shape")],
        rule.remote_copy, "get", _CHUNKS,
        pl="dst, peer, src, dst_offsets, src_offsets, shape, *, chunk_rows, chunk_cols, "
           "pipeline",
        ir="dst, peer, src, *, dst_offsets, src_offsets, shape, chunk_rows, chunk_cols, "
           "pipeline, span"),
    _op("tensor.remote_store", [P("src", T), P("target", T, RW), P("peer", S), P("offsets", I)],
        rule.remote_store, "remote_store", (ATOMIC,), pl="src, target, peer, offsets, *, atomic",
        ir="src, target, peer, offsets, *, atomic=0, span"),
    _op("tensor.allreduce", [P("target", T, RW), P("signal", T, RW, optional=True)],
        rule.in_place, "allreduce",
        (REDUCE_OP, K("mode", STR, default="mesh", choices=COLLECTIVE_MODES),
         K("core_num", INT, default=1)), pl=None, ir=None),
    _op("tensor.reduce_scatter", [P("target", T, RW), P("signal", T, RW)], rule.in_place,
        "reduce_scatter", (REDUCE_OP,), pl="target, signal, *, op", ir=None),
    _op("tensor.broadcast", [P("target", T, RW), P("signal", T, RW)], rule.in_place,
        "broadcast", (K("root", INT, required=True),), pl="target, signal, *, root",
        ir="target, signal, root, *, span"),
    _op("tensor.allgather", [P("input", T), P("target", T, RW), P("signal", T, RW)],
        rule.collective_into_target, "allgather", pl="local_data:input, target, signal",
        ir="local_data:input, target, signal, *, span"),
    _op("tensor.all_to_all", [P("input", T), P("target", T, RW), P("signal", T, RW)],
        rule.collective_into_target, "all_to_all", ir="input, target, signal, *, span"),
    _op("tensor.all_to_all_v", [P("input", T), P("target", T, RW), P("signal", T, RW),
                                P("send_counts", V), P("recv_counts", V)],
        rule.collective_into_target, "all_to_all_v",
        ir="input, target, signal, send_counts, recv_counts, *, span"),
    _op("tensor.barrier", [P("signal", T, RW)], rule.no_result, "barrier",
        ir="signal, *, span"),

    # -- pld.tile: tile-level remote access --------------------------------------------
    _op("tile.remote_load", [P("target", T), P("peer", S), P("offsets", I), P("shape", I),
                             P("valid_shape", I, optional=True)],
        rule.remote_load, "remote_load",
        (K("allow_physical_tail_padding", BOOL, default=False, hidden=True),),
        ir="target, peer, offsets, shape, valid_shape, *, span"),
    _op("tile.remote_store", [P("src_tile", TL), P("target", T, RW), P("peer", S),
                              P("offsets", I)],
        rule.remote_store, "remote_store", (ATOMIC,),
        pl="src_tile, target, peer, offsets, *, atomic",
        ir="src_tile, target, peer, offsets, *, atomic=0, span"),
    _op("tile.put", [P("dst", T, RW), P("peer", S), P("src", T), P("stage", TL),
                     P("stage2", V, optional=True, fill=EMPTY),
                     *_windows("dst_offsets", "src_offsets", "shape")],
        rule.staged_copy, "put", (ATOMIC,),
        pl="dst, peer, src, stage, stage2, dst_offsets, src_offsets, shape, *, atomic",
        ir="dst, peer, src, stage, atomic, *, stage2, dst_offsets, src_offsets, shape, span"),
    _op("tile.get", [P("dst", T, W), P("peer", S), P("src", T), P("stage", TL),
                     P("stage2", V, optional=True, fill=EMPTY),
                     *_windows("dst_offsets", "src_offsets", "shape")],
        rule.staged_copy, "get",
        ir="dst, peer, src, stage, *, stage2, dst_offsets, src_offsets, shape, span"),
)

for _entry in DISTRIBUTED_OPS:
    register_op(_entry)
