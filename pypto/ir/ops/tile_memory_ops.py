"""The ``tile.*`` ops that create tiles, take views and windows of them, pad them, and
gather, scatter and sort their elements (reference: ops.md).

Ops whose PyPTO wrapper routes to one of several ops (``mrgsort``, ``scatter_update``)
get hand-written routers (``composite.py``); their entries say ``pl=None`` where the
router replaces the 1:1 wrapper.
"""

from __future__ import annotations

from typing import Any, Iterable

from ..dtype import DataType
from ..enums import MemorySpace
from . import deduce as rule
from . import deduce_gather as gather_rule
from . import deduce_tile as tile_rule
from . import deduce_views as view
from .keywords import CMP_MODE, PAD_VALUE
from .registry import (BOOL, DEVICE_ONLY, DTYPE, EMPTY, INT, STR, ArgKind, DeduceRule, Effect,
                       KwargSpec, OpDef, ParamSpec, Semantics, enum_kind, register_op)

__all__ = ["TILE_MEMORY_OPS", "MASK_PATTERN"]

T, TI, S, IDX, V = (ArgKind.Tensor, ArgKind.Tile, ArgKind.Scalar, ArgKind.IndexTuple,
                    ArgKind.Value)
P, K, X = ParamSpec, KwargSpec, Semantics
MEMORY = enum_kind(MemorySpace)
ON_CHIP = tuple(m for m in MemorySpace if m is not MemorySpace.DDR)
MASK_PATTERN = K("mask_pattern", INT, required=True, choices=tuple(gather_rule.MASK_KEEP))


def _op(name: str, params: Iterable[ParamSpec], deduce: DeduceRule, semantics: Semantics,
        keywords: Iterable[KwargSpec] = (), **extra: Any) -> OpDef:
    return OpDef("tile." + name, params, deduce, keywords, semantics=semantics, **extra)


def _opt(name: str, kind: ArgKind = IDX, fill: str | None = None) -> ParamSpec:
    return P(name, kind, optional=True, fill=fill)


TILE_MEMORY_OPS: tuple[OpDef, ...] = (
    # -- creation -----------------------------------------------------------------------
    _op("full", [P("shape", IDX), P("value", S)], tile_rule.full_tile, X("full"),
        [K("dtype", DTYPE, required=True)], pl="shape, dtype, value"),
    _op("ci", [P("start", S), P("shape", IDX)], tile_rule.arange_tile, X("arange"),
        [K("dtype", DTYPE, DataType.INT32), K("descending", BOOL, False)], aliases=("arange",)),
    _op("tri", [P("diagonal", S), P("shape", IDX), _opt("valid_shape")], tile_rule.tri, X("tri"),
        [K("dtype", DTYPE, DataType.INT32), K("upper", BOOL, False)]),
    _op("random", [P("key0", S), P("key1", S), P("counter0", S), P("counter1", S),
                   P("counter2", S), P("counter3", S), P("shape", IDX), _opt("valid_shape")],
        tile_rule.random_tile, DEVICE_ONLY,
        [K("dtype", DTYPE, DataType.UINT32), K("rounds", INT, 10)]),
    _op("alloc", [P("memory_space", S, enum=MemorySpace), P("size", S), _opt("addr", S),
                  _opt("alloc_id", S)], tile_rule.alloc, X("alloc"), [K("pinned", BOOL, False)],
        pl="memory_space, size, *, pinned", ir="memory_space, addr!, size, alloc_id!, span"),
    # -- windows, views, padding ------------------------------------------------------------
    _op("extract", [P("src", TI), P("index_row", S), P("index_col", S), P("shape", IDX)],
        tile_rule.extract, X("extract"),
        [K("target_memory", MEMORY, required=True, choices=ON_CHIP)],
        pl="src, index_row, index_col, shape, *, target_memory",
        ir="src, index_row, index_col, shape, *, target_memory, span"),
    _op("concat", [P("src0", TI), P("src1", TI)], view.concat, X("concat")),
    _op("fillpad", [P("tile", TI)], rule.same_as_first, X("fillpad"), [PAD_VALUE]),
    _op("fillpad_expand", [P("tile", TI), P("shape", IDX)], view.fillpad_expand,
        X("fillpad_expand"), [PAD_VALUE]),
    _op("fillpad_inplace", [P("tile", TI, Effect.ReadWrite)], rule.same_as_first,
        X("fillpad_inplace"), [PAD_VALUE]),
    _op("reinterpret_view", [P("data", TI), _opt("shape")], view.reinterpret_view,
        X("reinterpret_view"), [K("dtype", DTYPE, required=True)], pl="data, dtype, *, shape",
        ir="data, dtype, *, shape, span"),
    _op("set_validshape", [P("tile", TI), P("valid_rows", S), P("valid_cols", S)],
        view.set_validshape, X("set_validshape")),
    _op("transpose_view", [P("input", TI)], tile_rule.transpose_view, X("transpose_view"),
        pl="tile:input"),
    # -- gathers and scatters ------------------------------------------------------------
    _op("gather", [P("src", TI), P("indices", TI), P("tmp", TI)], gather_rule.gather_flat,
        X("gather_flat")),
    _op("gather_mask", [P("src", TI)], gather_rule.gather_mask, X("gather_mask"),
        [MASK_PATTERN, K("output_dtype", DTYPE)], pl="src, mask_pattern, *, output_dtype",
        ir="src, mask_pattern, *, output_dtype, span"),
    _op("gather_compare", [P("src", TI), P("kvalue", V), P("tmp", TI)],
        gather_rule.gather_compare_tile, DEVICE_ONLY,
        [K("cmp_mode", CMP_MODE, "eq"), K("offset", INT, 0),
         K("out_cols", INT, required=True), K("count_dtype", DTYPE)],
        pl="src, kvalue, tmp, *, cmp_mode, offset, out_cols, count_dtype",
        ir="src, kvalue, tmp, *, cmp_mode!, offset, out_cols, count_dtype, span"),
    _op("gather_row", [P("dst", TI), P("src", TI), P("dst_offset", IDX), P("src_offset", IDX),
                       P("shapes", IDX), _opt("valid_shape")], view.gather_row, X("gather_row"),
        [K("transpose", BOOL, False)],
        pl="dst, src, dst_offset, src_offset, shapes, transpose, *, valid_shape",
        ir="dst, src, dst_offset, src_offset, shapes, transpose, span, *, valid_shape"),
    _op("gatherb", [P("src", TI), P("offset", TI)], gather_rule.gatherb, DEVICE_ONLY,
        [K("output_dtype", DTYPE)], pl="src, offset, *, output_dtype",
        ir="src, offset, span, *, output_dtype"),
    _op("mgather", [P("mem", T), P("idx", TI), _opt("scratch", TI, fill=EMPTY),
                    _opt("valid_shape")], gather_rule.mgather, X("mgather"),
        [K("target_memory", MEMORY, MemorySpace.Vec, choices=ON_CHIP),
         K("gather_oob", STR, "undefined"), K("coalesce", STR, "row")],
        pl="mem, idx, coalesce, *, gather_oob, target_memory, scratch, valid_shape",
        ir="mem, idx, coalesce, span, *, gather_oob, target_memory, scratch, valid_shape"),
    _op("mscatter", [P("src", TI), P("idx", TI), P("output_tensor", T, Effect.Write)],
        gather_rule.mscatter, X("mscatter")),
    _op("scatter", [P("dst", TI), P("src", TI), P("indexes", TI)], gather_rule.scatter_flat,
        X("scatter_flat")),
    _op("scatter_mask", [P("dst", TI), P("src", TI)], gather_rule.scatter_mask_tile,
        X("scatter_mask"), [MASK_PATTERN], pl="dst, src, mask_pattern",
        ir="dst, src, mask_pattern, span"),
    _op("scatter_update", [P("input", TI), P("index", TI), P("src", TI)], view.scatter,
        X("scatter_update"), [K("dim", INT)], pl="input, *, dim, index, src", ir=None),
    # -- sorts ---------------------------------------------------------------------------
    _op("sort32", [P("src", TI), P("idx", TI)], view.sort32, X("sort32")),
    _op("mrgsort_format1", [P("src", TI), P("block_len", S)], rule.same_as_first,
        X("mrgsort_runs"), pl=None, ir="src0:src, block_len, span",
        router=("mrgsort", "src0:src, *, block_len")),
    _op("mrgsort_format2", [P("src0", TI), P("src1", TI), P("tmp_or_src2", TI),
                            _opt("tmp_or_src3", TI), _opt("tmp", TI)],
        gather_rule.mrgsort_merge, X("mrgsort_merge"), [K("exhausted", BOOL, False)], pl=None,
        ir=None),
    # -- the split of a tile over the vector cores (split_aiv) ---------------------------------
    _op("aic_gather", [P("tile", TI)], rule.same_as_first, X("identity"), [K("split", INT, 0)],
        pl="x:tile, span", ir="tile, *, split!, span"),
    _op("aiv_shard", [P("tile", TI)], rule.same_as_first, X("identity"),
        [K("split", INT, 0), K("lane_stride", INT)], pl="x:tile, span",
        ir="tile, *, split!, lane_stride, span"),
)

for _entry in TILE_MEMORY_OPS:
    register_op(_entry)
