"""The ``tensor.*`` op table (01-language.md §12.2).  One entry per op.

``compute=True`` marks arithmetic that needs a device kernel: the SplitIncoreOrch
verifier warns when such an op sits directly in an orchestration body.  Creation,
views and element access (create, full, slice, assemble, reshape, transpose, read,
write, dim) are orchestration-legal and stay unflagged.
"""

from __future__ import annotations

from typing import Iterable

from ..enums import TensorLayout
from . import deduce as rule
from .keywords import ATOMIC, CAST_MODE, CMP_TYPE, HIGH_PRECISION
from .registry import (BOOL, DTYPE, INT_TUPLE, ArgKind, DeduceRule, Effect, KwargSpec,
                       OpDef, ParamSpec, enum_kind, register_op)

__all__ = ["TENSOR_OPS"]

T, S, IDX = ArgKind.Tensor, ArgKind.Scalar, ArgKind.IndexTuple
P, K = ParamSpec, KwargSpec


def _op(name: str, params: Iterable[ParamSpec], deduce: DeduceRule,
        keywords: Iterable[KwargSpec] = (), compute: bool = False) -> OpDef:
    return OpDef("tensor." + name, params, deduce, keywords, compute)


def _binary(name: str, keywords: Iterable[KwargSpec] = ()) -> OpDef:
    return _op(name, [P("lhs", T), P("rhs", T)], rule.elementwise, keywords, compute=True)


def _scalar_rhs(name: str, keywords: Iterable[KwargSpec] = ()) -> OpDef:
    return _op(name, [P("lhs", T), P("rhs", S)], rule.same_as_first, keywords, compute=True)


def _unary(name: str) -> OpDef:
    return _op(name, [P("x", T)], rule.same_as_first, [HIGH_PRECISION], compute=True)


def _vec(name: str, deduce: DeduceRule) -> OpDef:
    return _op(name, [P("lhs", T), P("vec", T)], deduce, compute=True)


TENSOR_OPS: tuple[OpDef, ...] = (
    _binary("add"), _binary("sub"), _binary("mul"), _binary("div", [HIGH_PRECISION]),
    _binary("maximum"), _binary("minimum"),
    _scalar_rhs("adds"), _scalar_rhs("subs"), _scalar_rhs("muls"),
    _scalar_rhs("divs", [HIGH_PRECISION]), _scalar_rhs("maximums"), _scalar_rhs("minimums"),
    _unary("exp"), _unary("log"), _unary("sqrt"), _unary("rsqrt"), _unary("recip"),
    _unary("neg"), _unary("abs"),
    _op("cast", [P("x", T)], rule.cast,
        [K("target_type", DTYPE, required=True), CAST_MODE], compute=True),
    _op("matmul", [P("lhs", T), P("rhs", T)], rule.matmul,
        [K("out_dtype", DTYPE), K("a_trans", BOOL, False), K("b_trans", BOOL, False)],
        compute=True),
    _op("matmul_acc", [P("acc", T), P("lhs", T), P("rhs", T)], rule.matmul_acc, compute=True),
    _op("row_sum", [P("x", T)], rule.row_reduce, compute=True),
    _op("row_max", [P("x", T)], rule.row_reduce, compute=True),
    _op("row_min", [P("x", T)], rule.row_reduce, compute=True),
    _op("col_sum", [P("x", T)], rule.col_reduce, compute=True),
    _op("col_max", [P("x", T)], rule.col_reduce, compute=True),
    _op("col_min", [P("x", T)], rule.col_reduce, compute=True),
    _vec("row_expand", rule.row_expand), _vec("row_expand_add", rule.row_expand),
    _vec("row_expand_sub", rule.row_expand), _vec("row_expand_mul", rule.row_expand),
    _vec("row_expand_div", rule.row_expand),
    _vec("col_expand", rule.col_expand), _vec("col_expand_add", rule.col_expand),
    _vec("col_expand_sub", rule.col_expand), _vec("col_expand_mul", rule.col_expand),
    _vec("col_expand_div", rule.col_expand),
    _op("expands", [P("target", T), P("scalar", S)], rule.same_as_first, compute=True),
    _op("cmp", [P("lhs", T), P("rhs", T)], rule.compare, [CMP_TYPE], compute=True),
    _op("cmps", [P("lhs", T), P("rhs", S)], rule.compare_scalar, [CMP_TYPE], compute=True),
    _op("create", [P("shape", IDX)], rule.create_tensor,
        [K("dtype", DTYPE, required=True), K("layout", enum_kind(TensorLayout), TensorLayout.ND)]),
    _op("full", [P("shape", IDX), P("value", S)], rule.full, [K("dtype", DTYPE, required=True)]),
    _op("slice", [P("x", T), P("shape", IDX), P("offset", IDX),
                  P("valid_shape", IDX, optional=True)], rule.slice_,
        [K("drop_dims", INT_TUPLE)]),
    _op("assemble", [P("target", T, Effect.Write, read_write_if="atomic"), P("source", T),
                     P("offset", IDX)], rule.assemble, [ATOMIC]),
    _op("reshape", [P("x", T), P("shape", IDX)], rule.reshape),
    _op("transpose", [P("x", T), P("axis1", S), P("axis2", S)], rule.transpose),
    _op("read", [P("src", T), P("offset", IDX)], rule.read),
    _op("write", [P("dst", T, Effect.Write), P("offset", IDX), P("value", S)], rule.write),
    _op("dim", [P("tensor", T), P("axis", S)], rule.dim),
)

for _entry in TENSOR_OPS:
    register_op(_entry)
