"""The ``tile.*`` op table (01-language.md §12.2).  One entry per op.

Tile ops run inside kernels, so none carries the ``compute`` flag (that flag is
the orchestration-body warning for *tensor* ops).  ``tile.and``/``tile.or`` print
and parse as ``pl.tile.and_``/``pl.tile.or_`` (Python keywords).
"""

from __future__ import annotations

from typing import Iterable

from ..enums import MemorySpace
from . import deduce as rule
from .keywords import ATOMIC, CAST_MODE, CMP_TYPE, HIGH_PRECISION
from .registry import (DTYPE, INT_TUPLE, ArgKind, DeduceRule, Effect, KwargSpec, OpDef,
                       ParamSpec, enum_kind, register_op)

__all__ = ["TILE_OPS"]

T, TI, S, IDX = ArgKind.Tensor, ArgKind.Tile, ArgKind.Scalar, ArgKind.IndexTuple
P, K = ParamSpec, KwargSpec
MEMORY = enum_kind(MemorySpace)
# Loads bring data on chip into the vector or matrix buffers only.
LOAD_TARGETS = (MemorySpace.Vec, MemorySpace.Mat)
ON_CHIP = tuple(m for m in MemorySpace if m is not MemorySpace.DDR)


def _op(name: str, params: Iterable[ParamSpec], deduce: DeduceRule,
        keywords: Iterable[KwargSpec] = ()) -> OpDef:
    return OpDef("tile." + name, params, deduce, keywords)


def _binary(name: str, keywords: Iterable[KwargSpec] = (),
            deduce: DeduceRule = rule.elementwise) -> OpDef:
    return _op(name, [P("lhs", TI), P("rhs", TI)], deduce, keywords)


def _scalar_rhs(name: str, keywords: Iterable[KwargSpec] = ()) -> OpDef:
    return _op(name, [P("lhs", TI), P("rhs", S)], rule.same_as_first, keywords)


def _unary(name: str, keywords: Iterable[KwargSpec] = (HIGH_PRECISION,)) -> OpDef:
    return _op(name, [P("x", TI)], rule.same_as_first, keywords)


def _row_reduce(name: str) -> OpDef:
    return _op(name, [P("x", TI), P("tmp_tile", TI)], rule.row_reduce)


def _vec(name: str, deduce: DeduceRule) -> OpDef:
    return _op(name, [P("lhs", TI), P("vec", TI)], deduce)


TILE_OPS: tuple[OpDef, ...] = (
    _binary("add"), _binary("sub"), _binary("mul"), _binary("div", [HIGH_PRECISION]),
    _binary("maximum"), _binary("minimum"),
    _binary("and", deduce=rule.bitwise), _binary("or", deduce=rule.bitwise),
    _scalar_rhs("adds"), _scalar_rhs("subs"), _scalar_rhs("muls"),
    _scalar_rhs("divs", [HIGH_PRECISION]), _scalar_rhs("maximums"), _scalar_rhs("minimums"),
    _unary("exp"), _unary("log"), _unary("sqrt"), _unary("rsqrt"), _unary("recip"),
    _unary("neg"), _unary("abs"), _unary("relu", keywords=()),
    _op("cast", [P("x", TI)], rule.cast, [K("target_type", DTYPE, required=True), CAST_MODE]),
    _op("matmul", [P("lhs", TI), P("rhs", TI)], rule.matmul),
    _op("matmul_acc", [P("acc", TI), P("lhs", TI), P("rhs", TI)], rule.matmul_acc),
    _row_reduce("row_sum"), _row_reduce("row_max"), _row_reduce("row_min"),
    _op("col_sum", [P("x", TI)], rule.col_reduce),
    _op("col_max", [P("x", TI)], rule.col_reduce),
    _op("col_min", [P("x", TI)], rule.col_reduce),
    _vec("row_expand", rule.row_expand), _vec("row_expand_add", rule.row_expand),
    _vec("row_expand_sub", rule.row_expand), _vec("row_expand_mul", rule.row_expand),
    _vec("row_expand_div", rule.row_expand),
    _vec("col_expand", rule.col_expand), _vec("col_expand_add", rule.col_expand),
    _vec("col_expand_sub", rule.col_expand), _vec("col_expand_mul", rule.col_expand),
    _vec("col_expand_div", rule.col_expand),
    _op("expands", [P("target", TI), P("scalar", S)], rule.same_as_first),
    _op("cmp", [P("lhs", TI), P("rhs", TI)], rule.compare, [CMP_TYPE]),
    _op("cmps", [P("lhs", TI), P("rhs", S)], rule.compare_scalar, [CMP_TYPE]),
    _op("sel", [P("mask", TI), P("lhs", TI), P("rhs", TI), P("tmp", TI)], rule.select),
    _op("create", [P("shape", IDX)], rule.create_tile,
        [K("dtype", DTYPE, required=True),
         K("target_memory", MEMORY, MemorySpace.Vec, choices=ON_CHIP)]),
    _op("load", [P("tensor", T), P("offsets", IDX), P("shapes", IDX),
                 P("valid_shape", IDX, optional=True)], rule.load,
        [K("target_memory", MEMORY, MemorySpace.Vec, choices=LOAD_TARGETS)]),
    _op("store", [P("tile", TI), P("offsets", IDX),
                  P("output_tensor", T, Effect.Write, read_write_if="atomic"),
                  P("shapes", IDX, optional=True)], rule.store, [ATOMIC]),
    _op("move", [P("tile", TI)], rule.move,
        [K("target_memory", MEMORY, required=True, choices=ON_CHIP)]),
    _op("slice", [P("x", TI), P("shape", IDX), P("offset", IDX),
                  P("valid_shape", IDX, optional=True)], rule.slice_,
        [K("drop_dims", INT_TUPLE)]),
    _op("assemble", [P("target", TI, Effect.Write, read_write_if="atomic"), P("source", TI),
                     P("offset", IDX)], rule.assemble, [ATOMIC]),
    _op("reshape", [P("x", TI), P("shape", IDX)], rule.reshape),
    _op("transpose", [P("x", TI), P("axis1", S), P("axis2", S)], rule.transpose),
    _op("read", [P("src", TI), P("offset", IDX)], rule.read),
    _op("write", [P("dst", TI, Effect.Write), P("offset", IDX), P("value", S)], rule.write),
    _op("get_block_idx", [], rule.index_scalar),
    _op("get_block_num", [], rule.index_scalar),
    _op("get_subblock_idx", [], rule.index_scalar),
)

for _entry in TILE_OPS:
    register_op(_entry)
