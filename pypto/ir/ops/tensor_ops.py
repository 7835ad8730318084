"""The ``tensor.*`` arithmetic ops (elementwise, unary, matmul, reductions, row/column
broadcasts, compares): one entry per op, PyPTO's operand names, attributes and
wrapper signatures (reference: ops.md).  Creation, views and data movement are in
``tensor_memory_ops``.

``compute=True`` marks arithmetic that needs a device kernel: the SplitIncoreOrch
verifier warns when such an op sits directly in an orchestration body.
"""

from __future__ import annotations

from typing import Any, Iterable

from . import deduce as rule
from .keywords import CAST_MODE, CMP_TYPE, HIGH_PRECISION, col_reduce_attrs, row_reduce_attrs
from .registry import (BOOL, DTYPE, ArgKind, DeduceRule, KwargSpec, OpDef, ParamSpec,
                       Semantics, register_op)

__all__ = ["TENSOR_OPS"]

T, S = ArgKind.Tensor, ArgKind.Scalar
P, K, X = ParamSpec, KwargSpec, Semantics


def _op(name: str, params: Iterable[ParamSpec], deduce: DeduceRule, semantics: Semantics,
        keywords: Iterable[KwargSpec] = (), **extra: Any) -> OpDef:
    return OpDef("tensor." + name, params, deduce, keywords, compute=True,
                 semantics=semantics, **extra)


def _binary(name: str, ufunc: str, deduce: DeduceRule = rule.elementwise,
            keywords: Iterable[KwargSpec] = (), scalar_form: str | None = None) -> OpDef:
    # ``pl.tensor.add(t, 2.0)`` builds ``tensor.adds``: the wrapper routes a scalar rhs.
    return _op(name, [P("lhs", T), P("rhs", T)], deduce, X("elementwise", (ufunc,)), keywords,
               scalar_form=scalar_form)


def _scalar_rhs(name: str, ufunc: str, deduce: DeduceRule = rule.same_as_first) -> OpDef:
    return _op(name, [P("lhs", T), P("rhs", S)], deduce, X("elementwise_scalar", (ufunc,)))


def _pair(name: str, ufunc: str, deduce: DeduceRule = rule.elementwise,
          scalar_deduce: DeduceRule = rule.same_as_first) -> tuple[OpDef, OpDef]:
    return (_binary(name, ufunc, deduce, scalar_form=name + "s"),
            _scalar_rhs(name + "s", ufunc, scalar_deduce))


def _unary(name: str, fn: str, keywords: Iterable[KwargSpec] = (), **extra: Any) -> OpDef:
    return _op(name, [P("input", T)], rule.same_as_first, X("unary", (fn,)), keywords, **extra)


def _part(name: str, ufunc: str) -> OpDef:
    return _op(name, [P("src0", T), P("src1", T)], rule.partial, X("partial", (ufunc,)),
               pl="lhs:src0, rhs:src1")


def _reduce(axis: str, name: str, reducer: str, deduce: DeduceRule) -> OpDef:
    attrs = row_reduce_attrs if axis == "row" else col_reduce_attrs
    return _op(f"{axis}_{name}", [P("input", T)], deduce, X(f"reduce_{axis}s", (reducer,)),
               attrs)


def _expand(axis: str, name: str, combine: str | None, first: str = "tensor") -> OpDef:
    suffix = f"_{name}" if name else ""
    deduce = rule.row_expand if axis == "row" else rule.col_expand
    return _op(f"{axis}_expand{suffix}", [P(first, T), P(f"{axis}_vec", T)], deduce,
               X(f"{axis}_expand", (combine,)))


TENSOR_OPS: tuple[OpDef, ...] = (
    *_pair("add", "add"), *_pair("sub", "subtract"), *_pair("mul", "multiply"),
    _op("div", [P("lhs", T), P("rhs", T)], rule.elementwise, X("divide"), [HIGH_PRECISION],
        scalar_form="divs", ir="lhs, rhs, span, *, high_precision"),
    _op("divs", [P("lhs", T), P("rhs", S)], rule.same_as_first, X("divide_scalar")),
    _binary("maximum", "maximum"), _binary("minimum", "minimum"),
    *_pair("and", "bitwise_and", rule.bitwise, rule.bitwise_scalar),
    *_pair("or", "bitwise_or", rule.bitwise, rule.bitwise_scalar),
    *_pair("xor", "bitwise_xor", rule.bitwise, rule.bitwise_scalar),
    *_pair("shl", "left_shift", rule.bitwise, rule.bitwise_scalar),
    *_pair("shr", "right_shift", rule.bitwise, rule.bitwise_scalar),
    *_pair("fmod", "fmod"),
    _part("part_add", "add"), _part("part_max", "maximum"), _part("part_min", "minimum"),
    _part("part_mul", "multiply"),
    _unary("exp", "exp"), _unary("sqrt", "sqrt"), _unary("neg", "negative"),
    _unary("abs", "absolute"), _unary("sin", "sin"), _unary("cos", "cos"),
    _op("not", [P("input", T)], rule.bitwise_unary, X("unary", ("invert",))),
    _unary("log", "log", [HIGH_PRECISION], ir="input, span, *, high_precision"),
    _unary("recip", "reciprocal", [HIGH_PRECISION], ir="input, span, *, high_precision"),
    _unary("rsqrt", "rsqrt", [HIGH_PRECISION]),
    _op("cast", [P("input", T)], rule.cast, X("cast"),
        [K("target_type", DTYPE, required=True), CAST_MODE]),
    _op("matmul", [P("lhs", T), P("rhs", T)], rule.matmul, X("matmul"),
        [K("out_dtype", DTYPE), K("a_trans", BOOL, False), K("b_trans", BOOL, False),
         K("c_matrix_nz", BOOL, False)]),
    _op("matmul_acc", [P("acc", T), P("lhs", T), P("rhs", T), P("init_cond", S, optional=True)],
        rule.matmul_acc, X("matmul_acc"), [K("a_trans", BOOL, False), K("b_trans", BOOL, False)],
        pl="acc, lhs, rhs, a_trans, b_trans, init_cond",
        ir="acc, lhs, rhs, a_trans, b_trans, span, *, init_cond"),
    _reduce("row", "sum", "sum", rule.row_reduce), _reduce("row", "max", "max", rule.row_reduce),
    _reduce("row", "min", "min", rule.row_reduce),
    _reduce("row", "prod", "prod", rule.row_reduce),
    _reduce("row", "argmax", "argmax", rule.row_arg_reduce),
    _reduce("row", "argmin", "argmin", rule.row_arg_reduce),
    _reduce("col", "sum", "sum", rule.col_reduce), _reduce("col", "max", "max", rule.col_reduce),
    _reduce("col", "min", "min", rule.col_reduce),
    _reduce("col", "prod", "prod", rule.col_reduce),
    _reduce("col", "argmax", "argmax", rule.col_arg_reduce),
    _reduce("col", "argmin", "argmin", rule.col_arg_reduce),
    _expand("row", "", None, first="target"), _expand("row", "add", "add"),
    _expand("row", "sub", "subtract"), _expand("row", "mul", "multiply"),
    _expand("row", "div", "divide"), _expand("row", "max", "maximum"),
    _expand("row", "min", "minimum"), _expand("row", "expdif", "expdif"),
    _expand("col", "", None), _expand("col", "add", "add"),
    _expand("col", "sub", "subtract"), _expand("col", "mul", "multiply"),
    _expand("col", "div", "divide"), _expand("col", "max", "maximum"),
    _expand("col", "min", "minimum"), _expand("col", "expdif", "expdif"),
    _op("expands", [P("target", T), P("scalar", S)], rule.same_as_first, X("expands")),
    _op("cmp", [P("lhs", T), P("rhs", T)], rule.compare_keep_dtype, X("compare"), [CMP_TYPE]),
)

for _entry in TENSOR_OPS:
    register_op(_entry)
