"""The ``tile.*`` arithmetic, matmul and core data-movement ops (reference: ops.md).
One entry per op, PyPTO's operand names, attributes and wrapper signatures; creation,
views, gathers, scatters and sorts are in ``tile_memory_ops``, the cross-core pipes in
``cross_core_ops``.

Tile ops run inside kernels, so none carries the ``compute`` flag (that flag is the
orchestration-body warning for *tensor* ops).  ``tile.and``/``tile.or``/``tile.not``
print and parse as ``pl.tile.and_``/``or_``/``not_`` (Python keywords).  Scratch
operands (``tmp``, ``tmp_tile``) are the device's working space: the executor ignores
them.
"""

from __future__ import annotations

from typing import Any, Iterable

from ..enums import MemorySpace, PadValue, TileLayout
from . import deduce as rule
from . import deduce_tile as tile_rule
from .keywords import ATOMIC, CAST_MODE, CMP_TYPE, HIGH_PRECISION
from .registry import (BOOL, DEVICE_ONLY, DTYPE, EMPTY, STR, ArgKind, DeduceRule, Effect,
                       KwargSpec, OpDef, ParamSpec, Semantics, enum_kind, register_op)

__all__ = ["TILE_OPS", "TILE_MORE_OPS", "TILE_MATMUL_OPS"]

T, TI, S, IDX = ArgKind.Tensor, ArgKind.Tile, ArgKind.Scalar, ArgKind.IndexTuple
P, K, X = ParamSpec, KwargSpec, Semantics
MEMORY = enum_kind(MemorySpace)
# Loads bring data on chip into the vector or matrix buffers only.
LOAD_TARGETS = (MemorySpace.Vec, MemorySpace.Mat)
ON_CHIP = tuple(m for m in MemorySpace if m is not MemorySpace.DDR)


def _op(name: str, params: Iterable[ParamSpec], deduce: DeduceRule, semantics: Semantics,
        keywords: Iterable[KwargSpec] = (), **extra: Any) -> OpDef:
    return OpDef("tile." + name, params, deduce, keywords, semantics=semantics, **extra)


def _binary(name: str, ufunc: str, deduce: DeduceRule = rule.elementwise,
            scalar_form: str | None = None) -> OpDef:
    return _op(name, [P("lhs", TI), P("rhs", TI)], deduce, X("elementwise", (ufunc,)),
               scalar_form=scalar_form)


def _scalar_rhs(name: str, ufunc: str, deduce: DeduceRule = rule.same_as_first) -> OpDef:
    return _op(name, [P("lhs", TI), P("rhs", S)], deduce, X("elementwise_scalar", (ufunc,)))


def _with_tmp(name: str, ufunc: str, rhs: ArgKind, deduce: DeduceRule = tile_rule.with_tmp
              ) -> OpDef:
    kernel = "elementwise_scalar" if rhs is S else "elementwise"
    return _op(name, [P("lhs", TI), P("rhs", rhs), P("tmp", TI)], deduce, X(kernel, (ufunc,)))


def _ternary(name: str, combine: str, middle: ArgKind) -> OpDef:
    deduce = tile_rule.scalar_ternary if middle is S else tile_rule.ternary
    return _op(name, [P("lhs", TI), P("rhs", middle), P("rhs2", TI)], deduce,
               X("ternary", (combine,)))


def _part(name: str, ufunc: str) -> OpDef:
    return _op(name, [P("src0", TI), P("src1", TI)], rule.partial, X("partial", (ufunc,)))


def _gemv(name: str, params: list, deduce: DeduceRule, kernel: str) -> OpDef:
    names = ", ".join(p.name for p in params)
    return _op(name, params, deduce, X(kernel), [K("acc_phase", STR, "unspecified")],
               ir=f"{names}, span, *, acc_phase")


def _unary(name: str, fn: str, keywords: Iterable[KwargSpec] = (), **extra: Any) -> OpDef:
    return _op(name, [P("tile", TI)], rule.same_as_first, X("unary", (fn,)), keywords, **extra)


def _row_reduce(name: str, reducer: str, deduce: DeduceRule = rule.row_reduce) -> OpDef:
    return _op(name, [P("tile", TI), P("tmp_tile", TI)], deduce, X("reduce_rows", (reducer,)))


def _col_reduce(name: str, reducer: str, deduce: DeduceRule = rule.col_reduce,
                tmp: bool = False) -> OpDef:
    params = [P("tile", TI)] + ([P("tmp_tile", TI)] if tmp else [])
    return _op(name, params, deduce, X("reduce_cols", (reducer,)))


def _expand(axis: str, name: str, combine: str | None) -> OpDef:
    suffix = f"_{name}" if name else ""
    deduce = rule.row_expand if axis == "row" else rule.col_expand
    first = "target" if not name else ("tile" if axis == "row" else "target")
    vec = "row_vec" if axis == "row" else "col_tile"
    params = [P(first, TI), P(vec, TI)]
    extra: dict = {}
    if axis == "col":
        extra["pl"] = ("target" if not name else "tile:target") + ", col_vec:col_tile"
    if axis == "row" and name == "add":
        params.append(P("tmp", TI, optional=True))
        extra["ir"] = "tile, row_vec, span, *, tmp"
    return _op(f"{axis}_expand{suffix}", params, deduce, X(f"{axis}_expand", (combine,)),
               **extra)


TILE_OPS: tuple[OpDef, ...] = (
    _binary("add", "add", scalar_form="adds"), _binary("sub", "subtract", scalar_form="subs"),
    _binary("mul", "multiply", scalar_form="muls"),
    _op("div", [P("lhs", TI), P("rhs", TI)], rule.elementwise, X("divide"), [HIGH_PRECISION],
        scalar_form="divs", ir="lhs, rhs, span, *, high_precision"),
    _binary("maximum", "maximum"), _binary("minimum", "minimum"),
    _binary("and", "bitwise_and", rule.bitwise), _binary("or", "bitwise_or", rule.bitwise),
    _scalar_rhs("adds", "add"), _scalar_rhs("subs", "subtract"), _scalar_rhs("muls", "multiply"),
    _op("divs", [P("lhs", TI), P("rhs", S)], rule.same_as_first, X("divide_scalar")),
    _scalar_rhs("maximums", "maximum"), _scalar_rhs("minimums", "minimum"),
    _unary("exp", "exp"), _unary("sqrt", "sqrt"), _unary("neg", "negative"),
    _unary("abs", "absolute"), _unary("relu", "relu"),
    _unary("log", "log", [HIGH_PRECISION], ir="tile, span, *, high_precision"),
    _unary("recip", "reciprocal", [HIGH_PRECISION], ir="tile, span, *, high_precision"),
    _op("rsqrt", [P("tile", TI), P("tmp", TI, optional=True)], rule.same_as_first,
        X("unary", ("rsqrt",))),
    _op("cast", [P("tile", TI)], rule.cast, X("cast"),
        [K("target_type", DTYPE, required=True), CAST_MODE]),
    _op("matmul", [P("lhs", TI), P("rhs", TI)], rule.matmul, X("matmul")),
    _op("matmul_acc", [P("acc", TI), P("lhs", TI), P("rhs", TI), P("init_cond", S, optional=True)],
        rule.matmul_acc, X("matmul_acc"), ir="acc, lhs, rhs, span, *, init_cond"),
    _row_reduce("row_sum", "sum"), _row_reduce("row_max", "max"), _row_reduce("row_min", "min"),
    _op("col_sum", [P("tile", TI), P("tmp_tile", TI, optional=True)], rule.col_reduce,
        X("reduce_cols", ("sum",))),
    _op("col_max", [P("tile", TI)], rule.col_reduce, X("reduce_cols", ("max",))),
    _op("col_min", [P("tile", TI)], rule.col_reduce, X("reduce_cols", ("min",))),
    _expand("row", "", None), _expand("row", "add", "add"), _expand("row", "sub", "subtract"),
    _expand("row", "mul", "multiply"), _expand("row", "div", "divide"),
    _expand("col", "", None), _expand("col", "add", "add"), _expand("col", "sub", "subtract"),
    _expand("col", "mul", "multiply"), _expand("col", "div", "divide"),
    _op("expands", [P("target", TI), P("scalar", S)], rule.same_as_first, X("expands")),
    _op("cmp", [P("lhs", TI), P("rhs", TI)], rule.compare, X("compare"), [CMP_TYPE]),
    _op("cmps", [P("lhs", TI), P("rhs", S)], rule.compare_scalar, X("compare_scalar"),
        [CMP_TYPE]),
    _op("sel", [P("mask", TI), P("lhs", TI), P("rhs", TI), P("tmp", TI)], rule.select,
        X("select")),
    _op("create", [P("shape", IDX)], rule.create_tile, X("create"),
        [K("dtype", DTYPE, required=True),
         K("target_memory", MEMORY, MemorySpace.Vec, choices=ON_CHIP),
         K("transpose", BOOL), K("flat_layout", BOOL)],
        pl="shape, dtype, target_memory, transpose, *, flat_layout", aliases=("create_tile",)),
    _op("load", [P("tensor", T), P("offsets", IDX), P("shapes", IDX),
                 P("valid_shape", IDX, optional=True, fill="shapes")], rule.load, X("load"),
        [K("target_memory", MEMORY, MemorySpace.Vec, choices=LOAD_TARGETS),
         K("clamp", BOOL, False)]),
    _op("store", [P("tile", TI), P("offsets", IDX),
                  P("output_tensor", T, Effect.Write, read_write_if="atomic"),
                  P("shapes", IDX, optional=True)], rule.store, X("store"), [ATOMIC],
        pl="tile, offsets, output_tensor, shapes, *, atomic",
        ir="tile, offsets, output_tensor, shapes, span, *, atomic=0"),
    _op("move", [P("tile", TI)], rule.move, X("move"),
        [K("target_memory", MEMORY, required=True, choices=ON_CHIP),
         K("blayout", enum_kind(TileLayout)), K("slayout", enum_kind(TileLayout))]),
    _op("slice", [P("input", TI), P("shape", IDX), P("offset", IDX),
                  P("valid_shape", IDX, optional=True, fill=EMPTY),
                  P("drop_dims", IDX, optional=True)], rule.slice_, X("slice"),
        [K("pad_value", enum_kind(PadValue))],
        pl="tile:input, shape, offset, valid_shape, drop_dims, pad_value"),
    _op("assemble", [P("target", TI, Effect.Write), P("source", TI), P("offset", IDX)],
        rule.assemble, X("assemble")),
    _op("reshape", [P("input", TI), P("shape", IDX)], rule.reshape, X("reshape"),
        pl="tile:input, shape"),
    _op("transpose", [P("input", TI), P("axis1", S), P("axis2", S),
                      P("tmp", TI, optional=True)], rule.transpose, X("transpose"),
        pl="tile:input, axis1, axis2, tmp_tile:tmp", ir="tile:input, axis1, axis2, tmp, span"),
    _op("read", [P("tile", TI), P("indices", IDX)], rule.read, X("read")),
    _op("write", [P("tile", TI, Effect.Write), P("indices", IDX), P("value", S)], rule.write,
        X("write")),
    _op("get_block_idx", [], rule.index_scalar, X("block_idx")),
    _op("get_block_num", [], rule.index_scalar, X("block_num")),
    _op("get_subblock_idx", [], rule.index_scalar, X("subblock_idx")),
)

# The rest of PyPTO's tile arithmetic: bitwise and remainder ops (some with a scratch
# tile), ternary adds, activations, partial ops, more reductions and broadcasts.
TILE_MORE_OPS: tuple[OpDef, ...] = (
    _scalar_rhs("ands", "bitwise_and", rule.bitwise_scalar),
    _scalar_rhs("ors", "bitwise_or", rule.bitwise_scalar),
    _with_tmp("xor", "bitwise_xor", TI, rule.bitwise),
    _with_tmp("xors", "bitwise_xor", S, rule.bitwise_scalar),
    _binary("shl", "left_shift", rule.bitwise), _binary("shr", "right_shift", rule.bitwise),
    _scalar_rhs("shls", "left_shift", rule.bitwise_scalar),
    _scalar_rhs("shrs", "right_shift", rule.bitwise_scalar),
    _op("not", [P("tile", TI)], rule.bitwise_unary, X("unary", ("invert",))),
    _binary("fmod", "fmod"), _scalar_rhs("fmods", "fmod"),
    _with_tmp("rem", "remainder", TI), _with_tmp("rems", "remainder", S),
    _ternary("addc", "add_add", TI), _ternary("subc", "sub_add", TI),
    _ternary("addsc", "add_add", S), _ternary("subsc", "sub_add", S),
    _unary("sin", "sin"), _unary("cos", "cos"),
    _op("lrelu", [P("tile", TI), P("slope", S)], rule.same_as_first, X("leaky_relu")),
    _op("prelu", [P("tile", TI), P("slope", TI), P("tmp", TI)], tile_rule.prelu, X("prelu")),
    _op("sels", [P("mask", TI), P("src", TI), P("tmp", TI), P("scalar", S)],
        tile_rule.select_scalar, X("select_scalar")),
    _part("part_add", "add"), _part("part_max", "maximum"), _part("part_min", "minimum"),
    _part("part_mul", "multiply"),
    _row_reduce("row_prod", "prod"), _row_reduce("row_argmax", "argmax", rule.row_arg_reduce),
    _row_reduce("row_argmin", "argmin", rule.row_arg_reduce),
    _col_reduce("col_prod", "prod"),
    _col_reduce("col_argmax", "argmax", rule.col_arg_reduce, tmp=True),
    _col_reduce("col_argmin", "argmin", rule.col_arg_reduce, tmp=True),
    _expand("row", "max", "maximum"), _expand("row", "min", "minimum"),
    _expand("row", "expdif", "expdif"), _expand("col", "max", "maximum"),
    _expand("col", "min", "minimum"), _expand("col", "expdif", "expdif"),
)

# The matmul family beyond matmul/matmul_acc: batched, biased, GEMV (``acc_phase`` tells
# the device how its accumulator is staged; the product is the same), MX (microscaled)
# products, and the scale-address query of the MX lowering.
TILE_MATMUL_OPS: tuple[OpDef, ...] = (
    _op("batch_matmul", [P("lhs", TI), P("rhs", TI)], tile_rule.batch_matmul, X("batch_matmul")),
    _op("batch_matmul_acc", [P("acc", TI), P("lhs", TI), P("rhs", TI)],
        tile_rule.batch_matmul_acc, X("batch_matmul_acc")),
    _op("matmul_bias", [P("lhs", TI), P("rhs", TI), P("bias", TI)], tile_rule.matmul_bias,
        X("matmul_bias")),
    _gemv("gemv", [P("lhs", TI), P("rhs", TI)], rule.matmul, "matmul"),
    _gemv("gemv_acc", [P("acc", TI), P("lhs", TI), P("rhs", TI)], rule.matmul_acc,
          "matmul_acc"),
    _gemv("gemv_bias", [P("lhs", TI), P("rhs", TI), P("bias", TI)], tile_rule.matmul_bias,
          "matmul_bias"),
    _op("matmul_mx", [P("lhs", TI), P("lhs_scale", TI), P("rhs", TI), P("rhs_scale", TI)],
        tile_rule.matmul_mx, X("matmul_mx", ("plain",))),
    _op("matmul_mx_acc", [P("acc", TI), P("lhs", TI), P("lhs_scale", TI), P("rhs", TI),
                          P("rhs_scale", TI)], tile_rule.matmul_mx_acc, X("matmul_mx", ("acc",))),
    _op("matmul_mx_bias", [P("lhs", TI), P("lhs_scale", TI), P("rhs", TI), P("rhs_scale", TI),
                           P("bias", TI)], tile_rule.matmul_mx_bias, X("matmul_mx", ("bias",))),
    _op("tget_scale_addr", [P("dst_scale", TI), P("src", TI)], rule.same_as_first, DEVICE_ONLY,
        pl=None),
)

for _entry in (*TILE_OPS, *TILE_MORE_OPS, *TILE_MATMUL_OPS):
    register_op(_entry)
