"""What a scalar constant means at run time, for folding: the executor evaluates every
scalar operator on Python numbers and then normalises the result to the node's dtype
(integers wrap around to their width, FP32/FP16 round to nearest-even), and reads a
constant through the same normalisation.  A fold is only sound if it computes exactly
that, so this module is the one place that knows it.

Only the dtypes whose normalisation is exactly reproducible here are folded: integers
(INDEX and the fixed-width ints), BOOL, FP32 and FP16.  BF16 and the narrow float
formats are left alone (their rounding lives in the executor's format tables).
"""

from __future__ import annotations

import math
import struct
from typing import Any, Optional

from ...ir import expr as E
from ...ir.dtype import DataType
from ...ir.node import Expr

__all__ = ["int_width", "wrap", "dtype_range", "float_packer", "const_value", "make_const"]

_FLOAT_PACKERS = {DataType.FP32: struct.Struct("<f"), DataType.FP16: struct.Struct("<e")}


def int_width(dtype: Any) -> Optional[tuple[int, bool]]:
    """``(bits, signed)`` of an integer dtype (INDEX included), else ``None``."""
    if isinstance(dtype, DataType) and dtype.is_int():
        return dtype.get_bit(), not dtype.is_unsigned_int()
    return None


def wrap(value: int, width: tuple[int, bool]) -> int:
    """``value`` wrapped to ``width`` (two's complement when signed)."""
    bits, signed = width
    low = -(1 << (bits - 1)) if signed else 0
    return (value - low) % (1 << bits) + low


def dtype_range(width: tuple[int, bool]) -> tuple[int, int]:
    bits, signed = width
    low = -(1 << (bits - 1)) if signed else 0
    return low, low + (1 << bits) - 1


def float_packer(dtype: Any) -> Optional[struct.Struct]:
    return _FLOAT_PACKERS.get(dtype)


def _round_float(value: float, packer: struct.Struct) -> float:
    try:
        return float(packer.unpack(packer.pack(value))[0])
    except OverflowError:
        return math.copysign(math.inf, value)


def const_value(expr: Expr) -> Any:
    """The run-time value of a constant the folder understands, else ``None``."""
    if isinstance(expr, E.ConstBool):
        return expr.value
    if isinstance(expr, E.ConstInt):
        width = int_width(expr.dtype)
        return wrap(expr.value, width) if width is not None else None
    if isinstance(expr, E.ConstFloat):
        packer = float_packer(expr.dtype)
        return _round_float(expr.value, packer) if packer is not None else None
    return None


def make_const(value: Any, dtype: DataType, like: Expr) -> Optional[Expr]:
    """The constant of ``dtype`` holding ``value`` normalised as the executor would
    normalise an operator's result; ``None`` when that cannot be reproduced."""
    span = like.span
    if dtype is DataType.BOOL:
        return E.ConstBool(bool(value), span)
    width = int_width(dtype)
    if width is not None:
        if isinstance(value, float):
            if math.isnan(value) or math.isinf(value):
                return None  # the executor refuses the conversion: keep the expression
            value = int(value)  # C conversion, toward zero
        return E.ConstInt(wrap(int(value), width), dtype, span)
    packer = float_packer(dtype)
    if packer is not None and not isinstance(value, bool):
        return E.ConstFloat(_round_float(float(value), packer), dtype, span)
    return None
