"""Scalar expression builders (``ir.add``, ``ir.lt``, ...) with dtype promotion.

Rules (02-ir.md §5.3): operands must be scalars of the same category (int or
float; BOOL only for logical ops); the result takes the wider dtype (ties go to
the left operand) and the narrower operand is wrapped in a ``Cast`` -- except
INDEX and INT64, which are interchangeable and never cast.  Comparisons give BOOL.
"""

from __future__ import annotations

import sys
from typing import Any, Protocol

from . import expr as E
from .dtype import DataType
from .node import Expr
from .span import Span
from .types import ScalarType

__all__ = ["add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "eq", "ne", "lt", "le",
           "gt", "ge", "neg", "cast", "bit_and", "bit_or", "bit_xor", "bit_shift_left",
           "bit_shift_right", "bit_not", "not_", "and_", "or_", "min_", "max_", "abs_",
           "to_expr", "caller_span"]

_INDEX, _INT64, _BOOL, _FP32 = DataType.INDEX, DataType.INT64, DataType.BOOL, DataType.FP32


def caller_span(depth: int = 2) -> Span:
    """Span of the Python line ``depth`` frames up (for operator overloads)."""
    try:
        frame = sys._getframe(depth)
    except ValueError:
        return Span.unknown()
    return Span(frame.f_code.co_filename, frame.f_lineno, -1)


def to_expr(value: Any, span: Span | None = None) -> Expr:
    """Python scalars become constants: int -> INDEX, float -> FP32, bool -> BOOL."""
    if isinstance(value, Expr):
        return value
    span = span or Span.unknown()
    if isinstance(value, bool):
        return E.ConstBool(value, span)
    if isinstance(value, int):
        return E.ConstInt(value, _INDEX, span)
    if isinstance(value, float):
        return E.ConstFloat(value, _FP32, span)
    raise TypeError(f"Cannot convert {type(value).__name__} value {value!r} to an IR expression")


def _scalar_dtype(op: str, side: str, value: Expr) -> DataType:
    t = value.type
    if not isinstance(t, ScalarType):
        raise ValueError(f"Operator '{op}': {side} operand must be a scalar, got {t}")
    return t.dtype


def _category(dtype: DataType) -> str:
    if dtype is _BOOL:
        return "bool"
    if dtype.is_float():
        return "float"
    if dtype.is_int():
        return "int"
    return dtype.to_string()


def _cast_to(value: Expr, current: DataType, dtype: DataType, span: Span) -> Expr:
    """``value`` (of dtype ``current``) as ``dtype``."""
    if current is dtype or {current, dtype} == {_INDEX, _INT64}:
        return value
    return E.Cast(value, dtype, span)


def _promote(op: str, lhs: Any, rhs: Any, span: Span | None, allow: str) -> tuple:
    """Shared operand checks; ``allow`` is the set of categories the op accepts."""
    span = span or Span.unknown()
    lhs, rhs = to_expr(lhs, span), to_expr(rhs, span)
    ld, rd = _scalar_dtype(op, "left", lhs), _scalar_dtype(op, "right", rhs)
    lc, rc = _category(ld), _category(rd)
    for side, cat, dt in (("left", lc, ld), ("right", rc, rd)):
        if cat not in allow:
            raise ValueError(f"Operator '{op}' does not accept {dt.to_string()} "
                             f"({side} operand)")
    if lc != rc:
        raise ValueError(f"Operator '{op}': operands have different categories "
                         f"({ld.to_string()} vs {rd.to_string()}); cast one explicitly")
    result = ld if ld.get_bit() >= rd.get_bit() else rd
    return _cast_to(lhs, ld, result, span), _cast_to(rhs, rd, result, span), result, span


class _OperatorBuilder(Protocol):
    """``ir.add`` ...: two operands (IR or Python values) and an optional span."""

    def __call__(self, lhs: Any, rhs: Any, span: Span | None = None) -> Expr: ...


def _arith(cls: type[E.BinaryExpr], op: str, allow: str = "int float") -> _OperatorBuilder:
    def build(lhs: Any, rhs: Any, span: Span | None = None) -> Expr:
        left, right, dtype, sp = _promote(op, lhs, rhs, span, allow)
        return cls(left, right, dtype, sp)
    build.__name__ = op
    return build


def _compare(cls: type[E.BinaryExpr], op: str) -> _OperatorBuilder:
    def build(lhs: Any, rhs: Any, span: Span | None = None) -> Expr:
        left, right, _, sp = _promote(op, lhs, rhs, span, "int float bool")
        return cls(left, right, _BOOL, sp)
    build.__name__ = op
    return build


add = _arith(E.Add, "+")
sub = _arith(E.Sub, "-")
mul = _arith(E.Mul, "*")
floordiv = _arith(E.FloorDiv, "//")
mod = _arith(E.FloorMod, "%")
pow = _arith(E.Pow, "**")  # noqa: A001
min_ = _arith(E.Min, "min")
max_ = _arith(E.Max, "max")
bit_and = _arith(E.BitAnd, "&", "int")
bit_or = _arith(E.BitOr, "|", "int")
bit_xor = _arith(E.BitXor, "^", "int")
bit_shift_left = _arith(E.BitShiftLeft, "<<", "int")
bit_shift_right = _arith(E.BitShiftRight, ">>", "int")
and_ = _arith(E.And, "and", "bool")
or_ = _arith(E.Or, "or", "bool")
eq = _compare(E.Eq, "==")
ne = _compare(E.Ne, "!=")
lt = _compare(E.Lt, "<")
le = _compare(E.Le, "<=")
gt = _compare(E.Gt, ">")
ge = _compare(E.Ge, ">=")


def truediv(lhs: Any, rhs: Any, span: Span | None = None) -> Expr:
    """``/``: float division; integer operands are cast to FP32 first."""
    left, right, dtype, sp = _promote("/", lhs, rhs, span, "int float")
    if not dtype.is_float():
        left, right, dtype = E.Cast(left, _FP32, sp), E.Cast(right, _FP32, sp), _FP32
    return E.FloatDiv(left, right, dtype, sp)


def _unary_operand(op: str, value: Any, span: Span | None, allow: str) -> tuple:
    span = span or Span.unknown()
    operand = to_expr(value, span)
    dtype = _scalar_dtype(op, "the", operand)
    if _category(dtype) not in allow:
        raise ValueError(f"Operator '{op}' does not accept {dtype.to_string()}")
    return operand, dtype, span


def neg(operand: Any, span: Span | None = None) -> Expr:
    value, dtype, sp = _unary_operand("-", operand, span, "int float")
    return E.Neg(value, dtype, sp)


def abs_(value: Any, span: Span | None = None) -> Expr:
    operand, dtype, sp = _unary_operand("abs", value, span, "int float")
    return E.Abs(operand, dtype, sp)


def bit_not(operand: Any, span: Span | None = None) -> Expr:
    value, dtype, sp = _unary_operand("~", operand, span, "int")
    return E.BitNot(value, dtype, sp)


def not_(operand: Any, span: Span | None = None) -> Expr:
    value, dtype, sp = _unary_operand("not", operand, span, "bool")
    return E.Not(value, dtype, sp)


def cast(operand: Any, dtype: DataType, span: Span | None = None) -> Expr:
    if not isinstance(dtype, DataType):
        raise TypeError(f"cast: target dtype must be a DataType, got {type(dtype).__name__}")
    value, _, sp = _unary_operand("cast", operand, span, "int float bool")
    return E.Cast(value, dtype, sp)
