"""Scalar operator semantics: one entry per ``BinaryExpr``/``UnaryExpr`` class.

Each entry computes on Python values; the interpreter then normalises the result
to the node's dtype (``dtypes.scalar_coercer``: integer wrap-around, float
rounding).  The IR's meaning, not C's or Python's where they differ:

* ``FloorDiv``/``FloorMod`` floor (Python ``//`` and ``%``); ``FloatDiv`` is true
  division; any division or modulo by zero is an error.
* ``And``/``Or``/``Xor`` are logical and both operands are already evaluated (the
  IR has no short circuit).
* Integer ``Pow`` and ``<<`` are computed modulo the dtype's width, so huge
  exponents or shift counts cannot exhaust memory; negative shift counts fail.
* ``Cast`` to an integer truncates toward zero (C conversion) and wraps; NaN and
  infinities cannot be converted.
"""

from __future__ import annotations

import math
import operator
from typing import Any, Callable

from ..ir import expr as E
from ..ir.dtype import DataType
from .errors import OpFailure

__all__ = ["BINARY_SEMANTICS", "UNARY_SEMANTICS", "OPERATOR_SYMBOLS", "binary_semantics",
           "cast_semantics"]

BinaryFn = Callable[[Any, Any], Any]


def _nonzero_divisor(symbol: str, a: Any, b: Any) -> None:
    if b == 0:
        raise OpFailure(f"division by zero ({a} {symbol} {b})")


def _floordiv(a: Any, b: Any) -> Any:
    _nonzero_divisor("//", a, b)
    return a // b


def _floormod(a: Any, b: Any) -> Any:
    _nonzero_divisor("%", a, b)
    return a % b


def _floatdiv(a: Any, b: Any) -> Any:
    _nonzero_divisor("/", a, b)
    return a / b


def _power(a: Any, b: Any) -> Any:
    try:
        return a ** b
    except ZeroDivisionError:
        raise OpFailure(f"zero raised to a negative power ({a} ** {b})") from None
    except OverflowError:
        return math.inf


def _shift_count(b: Any) -> int:
    if b < 0:
        raise OpFailure(f"negative shift count {b}")
    return b


def _shift_left(a: Any, b: Any) -> Any:
    # Counts >= 128 give the same result as 128 once wrapped to <= 64 bits.
    return a << min(_shift_count(b), 128)


def _shift_right(a: Any, b: Any) -> Any:
    return a >> min(_shift_count(b), 128)


def _logical_xor(a: Any, b: Any) -> bool:
    return bool(a) != bool(b)


BINARY_SEMANTICS: dict[type, BinaryFn] = {
    E.Add: operator.add,
    E.Sub: operator.sub,
    E.Mul: operator.mul,
    E.FloorDiv: _floordiv,
    E.FloorMod: _floormod,
    E.FloatDiv: _floatdiv,
    E.Min: min,
    E.Max: max,
    E.Pow: _power,
    E.Eq: operator.eq,
    E.Ne: operator.ne,
    E.Lt: operator.lt,
    E.Le: operator.le,
    E.Gt: operator.gt,
    E.Ge: operator.ge,
    E.And: lambda a, b: bool(a) and bool(b),
    E.Or: lambda a, b: bool(a) or bool(b),
    E.Xor: _logical_xor,
    E.BitAnd: operator.and_,
    E.BitOr: operator.or_,
    E.BitXor: operator.xor,
    E.BitShiftLeft: _shift_left,
    E.BitShiftRight: _shift_right,
}

UNARY_SEMANTICS: dict[type, Callable[[Any], Any]] = {
    E.Abs: abs,
    E.Neg: operator.neg,
    E.Not: operator.not_,
    E.BitNot: operator.invert,
    E.Cast: lambda value: value,  # the dtype normalisation does the conversion
}

OPERATOR_SYMBOLS: dict[type, str] = {
    E.Add: "+", E.Sub: "-", E.Mul: "*", E.FloorDiv: "//", E.FloorMod: "%", E.FloatDiv: "/",
    E.Pow: "**", E.BitShiftLeft: "<<", E.BitShiftRight: ">>",
}


def binary_semantics(node_class: type, dtype: DataType) -> BinaryFn:
    """The Python function for ``node_class`` at result ``dtype``.

    Integer ``Pow`` uses modular exponentiation so a wrapped result never needs
    the full-size intermediate.
    """
    fn = BINARY_SEMANTICS.get(node_class)
    if fn is None:
        raise OpFailure(f"no semantics for scalar operator {node_class.__name__}")
    if node_class is E.Pow and (dtype.is_int() or dtype is DataType.INDEX):
        modulus = 1 << dtype.get_bit()

        def int_power(a: Any, b: Any) -> Any:
            if isinstance(a, int) and isinstance(b, int) and b >= 0:
                return pow(a, b, modulus)
            return _power(a, b)
        return int_power
    return fn


def cast_semantics(source: DataType | None, target: DataType) -> Callable[[Any], Any]:
    """Pre-conversion for ``Cast``: bools become ints before integer/float targets so
    the dtype normalisation sees a number."""
    if target is DataType.BOOL:
        return bool
    if source is DataType.BOOL:
        return int
    return UNARY_SEMANTICS[E.Cast]
