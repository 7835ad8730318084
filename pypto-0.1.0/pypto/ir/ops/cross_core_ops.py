"""The cross-core ops (reference: ops.md): the pipes between a cube core (AIC) and its
vector cores (AIV) -- ``tile.tpush_to_aiv``/``tile.tpop_from_aic`` one way,
``tile.tpush_to_aic``/``tile.tpop_from_aiv`` the other, ``system.tfree_to_*`` releasing
a popped slot -- their set-up (``system.aic/aiv_initialize_pipe``) and the buffers they
live in (``system.reserve_buffer``, ``system.import_peer_buffer``, ``system.set_ffts``).

On the device the two sides run at once and a pop waits for its push.  The executor
runs one side after the other in program order, so a pipe is a FIFO per direction, pipe
id and vector lane: a push queues a copy of the tile (its lane pieces when ``split``
halves it, as ``pl.SplitMode`` numbers: 1 = rows, 2 = columns), a pop takes the oldest
(``runtime/_cross_core.py``).  That gives each consumer the data the device gives it,
in the same order; a pop that finds its FIFO empty is reported, naming the pipe.
"""

from __future__ import annotations

from ..enums import MemorySpace
from . import deduce_gather as rule
from .registry import (DTYPE, INT, INT_TUPLE, STR, TYPE, ArgKind, KwargSpec, OpDef, ParamSpec,
                       Semantics, register_op)

__all__ = ["CROSS_CORE_OPS"]

TI, S, V = ArgKind.Tile, ArgKind.Scalar, ArgKind.Value
P, K, X = ParamSpec, KwargSpec, Semantics
ID, SPLIT, LANE_STRIDE = K("id", INT), K("split", INT, required=True), K("lane_stride", INT)
# What a pop's wrapper takes to type the popped tile (the Call keeps only its type).
POP_TYPE = (K("result_type", TYPE), K("shape", INT_TUPLE), K("dtype", DTYPE))
PIPE_ATTRS = (ID, K("slot_num", INT), K("local_slot_num", INT), K("slot_size", INT, required=True),
              K("dir_mask", INT, required=True))
PIPE_SPEC = ("c2v_consumer_buf=0, v2c_consumer_buf=0, *, dir_mask, slot_size, slot_num, "
             "local_slot_num, id")


def _pipe_init(name: str) -> OpDef:
    return OpDef(f"system.{name}", [P("c2v_consumer_buf", S), P("v2c_consumer_buf", S)],
                 rule.no_value, PIPE_ATTRS, semantics=X("noop"), pl=PIPE_SPEC,
                 ir=PIPE_SPEC + ", span")


def _tfree(name: str) -> OpDef:
    return OpDef(f"system.{name}", [P("tile", TI)], rule.no_value, [K("split", INT), ID],
                 semantics=X("noop"), pl="tile, span, *, split, id",
                 ir="tile, span, *, split, id")


CROSS_CORE_OPS: tuple[OpDef, ...] = (
    OpDef("tile.tpush_to_aiv", [P("tile", TI)], rule.no_value, [SPLIT, LANE_STRIDE, ID],
          semantics=X("tpush", ("c2v",)), pl="tile, *, split, lane_stride, id",
          ir="tile, *, split, lane_stride, id, span"),
    OpDef("tile.tpush_to_aic", [P("tile", TI)], rule.no_value, [SPLIT, ID],
          semantics=X("tpush", ("v2c",)), pl="tile, *, split, id", ir="tile, *, split, id, span"),
    OpDef("tile.tpop_from_aic", [], rule.tpop(MemorySpace.Vec),
          [K("split", INT, 0), LANE_STRIDE, ID], semantics=X("tpop", ("c2v",)),
          type_params=POP_TYPE, pl="*, shape, dtype, split, lane_stride, id",
          ir="*, result_type, shape, dtype, split, lane_stride, id, span"),
    OpDef("tile.tpop_from_aiv", [], rule.tpop(MemorySpace.Mat), [K("split", INT, 0), ID],
          semantics=X("tpop", ("v2c",)), type_params=POP_TYPE, pl="*, shape, dtype, split, id",
          ir="*, result_type, shape, dtype, split, id, span"),
    _tfree("tfree_to_aic"), _tfree("tfree_to_aiv"),
    _pipe_init("aic_initialize_pipe"), _pipe_init("aiv_initialize_pipe"),
    OpDef("system.reserve_buffer", [], rule.address,
          [K("name", STR, required=True), K("size", INT, required=True), K("base", INT, -1)],
          semantics=X("reserve_buffer"), pl="*, name, size, base", ir="*, name, size, base, span"),
    OpDef("system.import_peer_buffer", [], rule.address,
          [K("name", STR, required=True), K("peer_func", STR, required=True)],
          semantics=X("import_peer_buffer"), pl="*, name, peer_func",
          ir="*, name, peer_func, span"),
    OpDef("system.set_ffts", [P("workspace", V)], rule.no_value, semantics=X("noop"),
          ir="workspace, *, span"),
)

for _entry in CROSS_CORE_OPS:
    register_op(_entry)
