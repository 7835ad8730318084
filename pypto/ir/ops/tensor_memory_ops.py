"""The ``tensor.*`` ops that create, view, move, gather and scatter data (reference:
ops.md).  Creation, views and element access are orchestration-legal and carry no
``compute`` flag; gathers, scatters and sorts do arithmetic on the device and do.

Ops whose PyPTO wrapper is a router over several ops (``gather``, ``scatter``,
``scatter_update``, ``mrgsort``) are built by hand-written routers (``composite.py``,
which replace the generated wrapper of the same name); their ``pl`` spec is the
keyword layout the router reads, so printed calls parse back through it.  Ops PyPTO
has no wrapper of their own for print through the router that builds them
(``router=``: ``gather_mask`` as ``pl.tensor.gather(x, mask_pattern=...)``).
"""

from __future__ import annotations

from typing import Any, Iterable

from ..dtype import DataType
from ..enums import MemorySpace, PadValue, TensorLayout
from . import deduce as rule
from . import deduce_views as view
from .keywords import ATOMIC, PAD_VALUE
from .registry import (BOOL, DEVICE_ONLY, DTYPE, EMPTY, FLOAT, INT, ArgKind, DeduceRule, Effect,
                       KwargSpec, OpDef, ParamSpec, Semantics, enum_kind, register_op)

__all__ = ["TENSOR_MEMORY_OPS"]

T, S, IDX, V = ArgKind.Tensor, ArgKind.Scalar, ArgKind.IndexTuple, ArgKind.Value
P, K, X = ParamSpec, KwargSpec, Semantics


def _op(name: str, params: Iterable[ParamSpec], deduce: DeduceRule, semantics: Semantics,
        keywords: Iterable[KwargSpec] = (), **extra: Any) -> OpDef:
    return OpDef("tensor." + name, params, deduce, keywords, semantics=semantics, **extra)


def _opt(name: str, kind: ArgKind = IDX, fill: str | None = None) -> ParamSpec:
    return P(name, kind, optional=True, fill=fill)


def _index(name: str) -> OpDef:
    return _op(name, [], rule.index_scalar, X(name.removeprefix("get_")))


TENSOR_MEMORY_OPS: tuple[OpDef, ...] = (
    _op("create", [P("shape", IDX)], rule.create_tensor, X("create"),
        [K("dtype", DTYPE, required=True), K("layout", enum_kind(TensorLayout), TensorLayout.ND),
         K("manual_dep", BOOL, False), K("init_value", FLOAT)], aliases=("create_tensor",)),
    _op("create_l1", [P("shape", IDX)], rule.create_tensor, X("create"),
        [K("dtype", DTYPE, required=True), K("transpose", BOOL, False)]),
    _op("full", [P("shape", IDX), P("value", S)], rule.full, X("full"),
        [K("dtype", DTYPE, required=True)], pl="shape, dtype, value"),
    _op("ci", [P("start", S), P("shape", IDX)], view.arange, X("arange"),
        [K("dtype", DTYPE, DataType.INT32), K("descending", BOOL, False)], aliases=("arange",)),
    _op("slice", [P("input", T), P("shape", IDX), P("offset", IDX), _opt("valid_shape", fill=EMPTY),
                  _opt("drop_dims")], rule.slice_, X("slice", ("view",)),
        [K("pad_value", enum_kind(PadValue)), K("clamp", BOOL, False)],
        pl="tensor:input, shape, offset, valid_shape, drop_dims, pad_value, clamp"),
    _op("assemble", [P("target", T, Effect.Write, read_write_if="atomic"), P("source", T),
                     P("offset", IDX)], rule.assemble, X("assemble"), [ATOMIC],
        pl="target, source, offset, *, atomic", ir="target, source, offset, span, *, atomic=0"),
    _op("reshape", [P("input", T), P("shape", IDX), _opt("valid_shape")], rule.reshape,
        X("reshape", ("view",)), pl="tensor:input, shape", ir="tensor:input, shape, valid_shape, span"),
    _op("transpose", [P("input", T), P("axis1", S), P("axis2", S), _opt("valid_shape")],
        rule.transpose, X("transpose"), pl="tensor:input, axis1, axis2",
        ir="tensor:input, axis1, axis2, valid_shape, span"),
    _op("view", [P("input", T), _opt("shape", fill=EMPTY), _opt("valid_shape")], view.view,
        X("view"), [K("layout", enum_kind(TensorLayout))],
        pl="tensor:input, shape, valid_shape, *, layout"),
    _op("reinterpret_view", [P("data", T), _opt("shape")], view.reinterpret_view,
        X("reinterpret_view"), [K("dtype", DTYPE, required=True)], pl="data, dtype, *, shape",
        ir="data, dtype, *, shape, span"),
    _op("set_validshape", [P("tensor", T), P("valid_rows", S), P("valid_cols", S)],
        view.set_validshape, X("set_validshape")),
    _op("read", [P("tensor", T), P("indices", IDX)], rule.read, X("read")),
    _op("write", [P("tensor", T, Effect.Write), P("indices", IDX), P("value", S)], rule.write,
        X("write")),
    _op("dim", [P("tensor", T), P("axis", S)], rule.dim, X("dim")),
    _op("concat", [P("src0", T), P("src1", T)], view.concat, X("concat"), compute=True),
    _op("fillpad", [P("tensor", T)], rule.same_as_first, X("fillpad"), [PAD_VALUE],
        compute=True),
    _op("fillpad_expand", [P("tensor", T), P("shape", IDX)], view.fillpad_expand,
        X("fillpad_expand"), [PAD_VALUE], compute=True),
    _op("expand_clone", [P("input", T), P("target", T)], view.expand_clone, X("expand_clone"),
        pl="src:input, target", compute=True),
    _op("gather", [P("input", T), P("index", T)], view.gather, X("gather"), [K("dim", INT)],
        pl="input, *, dim, index", ir=None, compute=True),
    _op("gather_mask", [P("input", T)], view.gather_mask, DEVICE_ONLY,
        [K("mask_pattern", INT, required=True), K("output_dtype", DTYPE)], pl=None,
        ir="input, mask_pattern, output_dtype, span", compute=True,
        router=("gather", "input, *, mask_pattern, output_dtype")),
    _op("gather_compare", [P("input", T), P("kvalue", V)], view.gather_compare, DEVICE_ONLY,
        [K("cmp_mode", INT, required=True), K("offset", INT, 0), K("out_cols", INT, required=True),
         K("count_dtype", DTYPE)], pl=None,
        ir="input, kvalue, *, cmp_mode, offset, out_cols, count_dtype, span", compute=True,
        router=("gather", "input, *, kvalue, cmp_mode, out_cols, offset, count_dtype")),
    _op("gather_row", [P("acc", T), P("src", T), P("dst_offset", IDX), P("src_offset", IDX),
                       P("shapes", IDX), _opt("valid_shape")], view.gather_row, X("gather_row"),
        [K("transpose", BOOL, False)],
        pl="acc, src, dst_offset, src_offset, shapes, transpose, *, valid_shape",
        ir="acc, src, dst_offset, src_offset, shapes, transpose, span, *, valid_shape"),
    _op("scatter", [P("input", T), P("index", T), P("src", T)], view.scatter, X("scatter"),
        [K("dim", INT)], pl="input, *, dim, index, src", ir=None, compute=True),
    _op("scatter_mask", [P("input", T), P("dst", T)], view.scatter_mask, DEVICE_ONLY,
        [K("mask_pattern", INT, required=True)], pl=None, ir="input, dst, mask_pattern, span",
        compute=True, router=("scatter", "input, *, mask_pattern, dst")),
    _op("scatter_update", [P("input", T), P("index", T), P("src", T)], view.scatter,
        X("scatter_update"), [K("dim", INT)], pl="input, *, dim, index, src", ir=None,
        compute=True),
    _op("sort32", [P("src", T), P("idx", T)], view.sort32, DEVICE_ONLY, compute=True),
    _op("mrgsort_format1", [P("src", T), P("block_len", S)], rule.same_as_first, DEVICE_ONLY,
        pl=None, ir="src0:src, block_len, span", compute=True,
        router=("mrgsort", "src0:src, *, block_len")),
    _op("mrgsort_format2", [P("src0", T), P("src1", T), _opt("src2", T), _opt("src3", T)],
        rule.same_as_first, DEVICE_ONLY, [K("exhausted", BOOL, False)], pl=None, ir=None,
        compute=True, router=("mrgsort", "src0, src1, src2, src3, *, exhausted")),
    _op("paged_gather", [P("src", T), P("indices", T), P("block_table", T)], view.paged_gather,
        DEVICE_ONLY,
        [K("block_size", INT, required=True), K("size", INT, required=True),
         K("max_indices", INT, required=True), K("space", enum_kind(MemorySpace), MemorySpace.Mat),
         K("col_off", INT, 0), K("is_trans", BOOL, False), K("is_b_matrix", BOOL, False)],
        pl="src, indices, block_table, block_size, size, max_indices, *, space, col_off, "
           "is_trans, is_b_matrix", compute=True),
    _op("random", [P("key0", S), P("key1", S), P("counter0", S), P("counter1", S),
                   P("counter2", S), P("counter3", S), P("shape", IDX)], view.random, DEVICE_ONLY,
        [K("dtype", DTYPE, DataType.UINT32), K("rounds", INT, 10)], compute=True),
    _op("alloc", [P("memory_space", S, enum=MemorySpace), P("size", S)], view.alloc,
        X("alloc"), ir=None),
    _op("aic_gather", [P("tensor", T)], rule.same_as_first, X("identity"),
        [K("split", INT, 0, hidden=True)], pl=None, ir=None,
        router=("pl.aic_gather", "x:tensor")),
    _op("aiv_shard", [P("tensor", T)], rule.same_as_first, X("identity"),
        [K("split", INT, 0, hidden=True)], pl=None, ir=None,
        router=("pl.aiv_shard", "x:tensor")),
    _index("get_block_idx"), _index("get_block_num"), _index("get_subblock_idx"),
)

for _entry in TENSOR_MEMORY_OPS:
    register_op(_entry)
