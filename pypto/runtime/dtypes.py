"""How pypto dtypes live in NumPy, and dtype-exact scalar and array conversions.

Storage (``numpy_dtype``): each ``DataType`` maps to the closest NumPy dtype that
holds every value of the format exactly.

=====================  ===========  ==============================================
pypto dtype            NumPy dtype  notes
=====================  ===========  ==============================================
BOOL                   bool
INT8/16/32/64, INDEX   int8 ...     INDEX is the 64-bit machine integer
UINT8/16/32/64         uint8 ...
INT4 / UINT4           int8/uint8   casts wrap to 4 bits; arithmetic wraps at 8
FP16, FP32             float16/32   exact
BF16, FP8E4M3FN,       float32      every value is exact in float32; arithmetic runs
FP8E5M2, FP8E8M0, FP4               at float32 precision; a *cast* to the format
                                    rounds to it (nearest-even; FP8E8M0: nearest
                                    power of two)
HF4, HF8               float32      stored at float32 precision, never rounded
TASK_ID                int64        scalars only; the invalid task id is -1
=====================  ===========  ==============================================

Scalars are Python ``bool``/``int``/``float``.  Scalar results are normalised to
their IR dtype: integers wrap to the dtype's width (two's complement), FP32/FP16
round to single/half precision, the narrow formats above round as on a cast.
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass
from typing import Any, Callable

from ..ir.dtype import DataType
from ._numpy import load_numpy
from .errors import OpFailure

np = load_numpy()

__all__ = ["numpy_dtype", "dtype_label", "FloatFormat", "FLOAT_FORMATS", "round_to_format",
           "cast_array", "scalar_coercer", "int_wrapper", "CAST_MODES", "INVALID_TASK_ID"]

DT = DataType
INVALID_TASK_ID = -1

_STORAGE: dict[DataType, Any] = {
    DT.BOOL: np.bool_, DT.INT4: np.int8, DT.INT8: np.int8, DT.INT16: np.int16,
    DT.INT32: np.int32, DT.INT64: np.int64, DT.UINT4: np.uint8, DT.UINT8: np.uint8,
    DT.UINT16: np.uint16, DT.UINT32: np.uint32, DT.UINT64: np.uint64,
    DT.FP4: np.float32, DT.FP8E4M3FN: np.float32, DT.FP8E5M2: np.float32,
    DT.FP8E8M0: np.float32, DT.FP16: np.float16, DT.FP32: np.float32, DT.BF16: np.float32,
    DT.HF4: np.float32, DT.HF8: np.float32, DT.INDEX: np.int64, DT.TASK_ID: np.int64,
}
_STORAGE_DTYPES = {dt: np.dtype(t) for dt, t in _STORAGE.items()}


def numpy_dtype(dtype: DataType) -> Any:
    """The NumPy dtype (a ``numpy.dtype``) that stores ``dtype`` (table in the module doc)."""
    found = _STORAGE_DTYPES.get(dtype)
    if found is None:
        raise TypeError(f"numpy_dtype expects a pypto DataType, got {dtype!r}")
    return found


def dtype_label(dtype: DataType) -> str:
    """``"pl.FP32 (numpy float32)"``: how error messages name an expected dtype."""
    return f"pl.{dtype.name} (numpy {_STORAGE_DTYPES[dtype].name})"


# -- narrow float formats -------------------------------------------------------------

@dataclass(frozen=True)
class FloatFormat:
    """A binary float format narrower than float32, for rounding on casts.

    ``mantissa_bits`` excludes the implicit bit; ``min_exponent`` is the exponent of
    the smallest normal value (subnormals share its quantum); values whose rounded
    magnitude exceeds ``max_finite`` become ``inf``, ``nan`` or the saturated
    maximum, per ``overflow``.
    """

    mantissa_bits: int
    min_exponent: int
    max_finite: float
    overflow: str  # "inf" | "nan" | "saturate"


FLOAT_FORMATS: dict[DataType, FloatFormat] = {
    DT.BF16: FloatFormat(7, -126, (2 - 2 ** -7) * 2.0 ** 127, "inf"),
    DT.FP8E4M3FN: FloatFormat(3, -6, 448.0, "nan"),
    DT.FP8E5M2: FloatFormat(2, -14, 57344.0, "inf"),
    DT.FP4: FloatFormat(1, 0, 6.0, "saturate"),
}


def round_to_format(values: Any, dtype: DataType) -> Any:
    """``values`` rounded to ``dtype``'s precision and range, as a float32 array."""
    x = np.asarray(values, dtype=np.float64)
    with np.errstate(all="ignore"):
        if dtype is DT.FP8E8M0:
            # Exponent-only, unsigned: the nearest power of two in [2^-127, 2^127];
            # zero, negatives and NaN have no encoding but NaN.
            exponent = np.clip(np.rint(np.log2(x)), -127, 127)
            out = np.where(x > 0, np.ldexp(1.0, exponent.astype(np.int32)), np.nan)
            return out.astype(np.float32)
        fmt = FLOAT_FORMATS[dtype]
        magnitude = np.abs(x)
        _, exponent = np.frexp(magnitude)  # magnitude = m * 2**exponent, m in [0.5, 1)
        lead = np.maximum(exponent - 1, fmt.min_exponent)
        quantum = np.ldexp(1.0, lead - fmt.mantissa_bits)
        rounded = np.rint(magnitude / quantum) * quantum
        if fmt.overflow == "saturate":
            limit = fmt.max_finite
            rounded = np.where(np.isnan(magnitude), np.nan, np.minimum(rounded, limit))
        else:
            big = np.inf if fmt.overflow == "inf" else np.nan
            rounded = np.where(rounded > fmt.max_finite, big, rounded)
            if fmt.overflow == "nan":
                rounded = np.where(np.isinf(magnitude), np.nan, rounded)
            else:
                rounded = np.where(np.isinf(magnitude), np.inf, rounded)
            rounded = np.where(np.isnan(magnitude), np.nan, rounded)
        return np.copysign(rounded, x).astype(np.float32)


# -- array casts ------------------------------------------------------------------------

def _round_half_away(x: Any) -> Any:
    return np.where(x >= 0, np.floor(x + 0.5), np.ceil(x - 0.5))


# Float -> integer rounding per cast ``mode``.  "none" is a plain C conversion
# (truncation); "odd" only differs from "rint" for float narrowing, so it rounds
# half-to-even here.
CAST_MODES: dict[str, Callable[[Any], Any]] = {
    "none": np.trunc, "trunc": np.trunc, "rint": np.rint, "odd": np.rint,
    "round": _round_half_away, "floor": np.floor, "ceil": np.ceil,
}


def _wrap_4bit(values: Any, signed: bool) -> Any:
    wide = values.astype(np.int16)
    if signed:
        return (((wide + 8) & 15) - 8).astype(np.int8)
    return (wide & 15).astype(np.uint8)


def cast_array(x: Any, target: DataType, mode: str = "round") -> Any:
    """``x`` converted to ``target``'s storage: floats -> ints round per ``mode`` and
    wrap to the target width; -> BOOL is ``x != 0``; -> a narrow float rounds to it."""
    storage = _STORAGE_DTYPES[target]
    if target is DT.BOOL:
        return np.not_equal(x, 0)
    if target.is_int() or target is DT.INDEX:
        if x.dtype.kind == "f":
            rounder = CAST_MODES.get(mode)
            if rounder is None:
                raise OpFailure(f"unknown cast mode '{mode}'; expected one of "
                                f"{', '.join(sorted(CAST_MODES))}")
            x = rounder(x)
            # Through int64 so out-of-range values wrap instead of hitting the
            # undefined float->narrow-int conversion.
            if storage != np.uint64:
                x = x.astype(np.int64)
        out = x.astype(storage)
        if target.get_bit() == 4:
            out = _wrap_4bit(out, target.is_signed_int())
        return out
    if target in FLOAT_FORMATS or target is DT.FP8E8M0:
        return round_to_format(x, target)
    return x.astype(storage)


# -- scalars ----------------------------------------------------------------------------

_F32 = struct.Struct("<f")
_F16 = struct.Struct("<e")


def _packer_rounding(packer: struct.Struct) -> Callable[[Any], float]:
    def round_scalar(value: Any) -> float:
        try:
            return packer.unpack(packer.pack(value))[0]
        except OverflowError:
            return math.copysign(math.inf, value)
        except struct.error:  # not a number (ill-typed IR): a TypeError, as float() gives
            raise TypeError(f"expected a number, got {type(value).__name__}") from None
    return round_scalar


def int_wrapper(bits: int, signed: bool) -> Callable[[int], int]:
    """Wrap a Python int to ``bits`` bits (two's complement when ``signed``)."""
    modulus = 1 << bits
    low = -(1 << (bits - 1)) if signed else 0
    high = low + modulus

    def wrap(value: int) -> int:
        if low <= value < high:
            return value
        return (value - low) % modulus + low
    return wrap


def _int_coercer(bits: int, signed: bool) -> Callable[[Any], int]:
    low = -(1 << (bits - 1)) if signed else 0
    high = low + (1 << bits)
    wrap = int_wrapper(bits, signed)

    def coerce(value: Any) -> int:
        if type(value) is int and low <= value < high:  # the common case, kept cheap
            return value
        if isinstance(value, float):
            if math.isnan(value) or math.isinf(value):
                raise OpFailure(f"cannot convert {value} to an integer")
            value = int(value)  # C conversion: truncates toward zero
        return wrap(int(value))
    return coerce


def scalar_coercer(dtype: DataType) -> Callable[[Any], Any]:
    """A function normalising a Python number to a value of ``dtype``."""
    if dtype is DT.BOOL:
        return bool
    if dtype.is_int() or dtype is DT.INDEX:
        return _int_coercer(dtype.get_bit(), not dtype.is_unsigned_int())
    if dtype is DT.TASK_ID:
        return _int_coercer(64, True)
    if dtype is DT.FP32:
        return _packer_rounding(_F32)
    if dtype is DT.FP16:
        return _packer_rounding(_F16)
    if dtype in FLOAT_FORMATS or dtype is DT.FP8E8M0:
        return lambda value: float(round_to_format(float(value), dtype))
    return float
