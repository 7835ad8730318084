"""Scalar arithmetic with the IR's semantics: floor division and modulo, true
division, integer wrap-around per dtype, float rounding per dtype, casts, logical
and bitwise operators, and the dtype storage table."""

from __future__ import annotations

import math

import numpy as np
import pytest

import pypto
import pypto.language as pl
from pypto import ir
from pypto.runtime import ExecutionError, numpy_dtype
from pypto.runtime.dtypes import round_to_format

DT = ir.DataType
SPAN = ir.Span("scalars.py", 3, 9)


def evaluate(build, *operands):
    """Run ``return build(p0, p1, ...)`` with one scalar param per ``(value, dtype)``."""
    params = [ir.Var(f"p{i}", ir.ScalarType(dtype), SPAN) for i, (_, dtype) in
              enumerate(operands)]
    expr = build(*params)
    function = ir.Function("f", params, [expr.type], [ir.ReturnStmt([expr], SPAN)], SPAN)
    return pypto.run(function, *(value for value, _ in operands))


def index(value):
    return (value, DT.INDEX)


@pytest.mark.parametrize("a, b", [(7, 2), (-7, 2), (7, -2), (-7, -2)])
def test_floor_division_and_modulo_follow_python(a, b):
    assert evaluate(lambda x, y: ir.FloorDiv(x, y, DT.INDEX, SPAN), index(a), index(b)) == a // b
    assert evaluate(lambda x, y: ir.FloorMod(x, y, DT.INDEX, SPAN), index(a), index(b)) == a % b


def test_float_division_is_true_division_rounded_to_fp32():
    result = evaluate(lambda x, y: x / y, index(1), index(3))
    assert result == float(np.float32(1) / np.float32(3))


@pytest.mark.parametrize("build, symbol", [
    (lambda x, y: ir.FloorDiv(x, y, DT.INDEX, SPAN), "//"),
    (lambda x, y: ir.FloorMod(x, y, DT.INDEX, SPAN), "%"),
    (lambda x, y: ir.FloatDiv(x, y, DT.INDEX, SPAN), "/")])
def test_division_by_zero_names_the_operator_and_its_location(build, symbol):
    with pytest.raises(ExecutionError) as info:
        evaluate(build, index(5), index(0))
    message = str(info.value)
    assert f"({symbol}) at scalars.py:3:9" in message and "division by zero" in message
    assert info.value.span is SPAN and isinstance(info.value, pypto.Error)


def test_integers_wrap_to_their_dtype_width():
    int32 = lambda v: (v, DT.INT32)  # noqa: E731
    assert evaluate(lambda x, y: x + y, int32(2 ** 31 - 1), int32(1)) == -2 ** 31
    assert evaluate(lambda x, y: x * y, index(2 ** 62), index(4)) == 0
    assert evaluate(lambda x, y: x - y, (0, DT.UINT8), (1, DT.UINT8)) == 255
    assert evaluate(lambda x: -x, int32(-2 ** 31)) == -2 ** 31
    assert evaluate(lambda x, y: x << y, index(1), index(63)) == -2 ** 63
    assert evaluate(lambda x, y: x << y, index(3), index(10 ** 9)) == 0


def test_integer_power_is_modular_and_cheap():
    assert evaluate(lambda x, y: x ** y, index(3), index(4)) == 81
    assert evaluate(lambda x, y: x ** y, index(2), index(10 ** 12)) == 0


def test_negative_shift_is_an_error():
    with pytest.raises(ExecutionError, match=r"BitShiftRight \(>>\) at .*negative shift count"):
        evaluate(lambda x, y: x >> y, index(8), index(-1))


def test_float_results_round_to_their_dtype():
    fp32 = evaluate(lambda x, y: x + y, (0.1, DT.FP32), (0.2, DT.FP32))
    assert fp32 == float(np.float32(np.float32(0.1) + np.float32(0.2)))
    fp16 = evaluate(lambda x, y: x * y, (300.0, DT.FP16), (300.0, DT.FP16))
    assert fp16 == math.inf
    bf16 = evaluate(lambda x, y: x + y, (1.0, DT.BF16), (2 ** -9, DT.BF16))
    assert bf16 == 1.0


def test_comparisons_logic_min_max_and_bitwise():
    two, five = index(2), index(5)
    assert evaluate(lambda x, y: x < y, two, five) is True
    assert evaluate(lambda x, y: ir.Min(x, y, DT.INDEX, SPAN), two, five) == 2
    assert evaluate(lambda x, y: ir.Max(x, y, DT.INDEX, SPAN), two, five) == 5
    assert evaluate(lambda x, y: x & y, index(6), index(3)) == 2
    assert evaluate(lambda x, y: x ^ y, index(6), index(3)) == 5
    assert evaluate(lambda x: ~x, (0, DT.UINT8)) == 255
    true, false = (True, DT.BOOL), (False, DT.BOOL)
    assert evaluate(lambda x, y: ir.And(x, y, DT.BOOL, SPAN), true, false) is False
    assert evaluate(lambda x, y: ir.Or(x, y, DT.BOOL, SPAN), true, false) is True
    assert evaluate(lambda x, y: ir.Xor(x, y, DT.BOOL, SPAN), true, true) is False
    assert evaluate(lambda x: ir.Not(x, DT.BOOL, SPAN), false) is True
    assert evaluate(lambda x: ir.Abs(x, DT.INDEX, SPAN), index(-4)) == 4


def test_casts_truncate_wrap_and_convert():
    assert evaluate(lambda x: ir.cast(x, DT.INT32), (-3.9, DT.FP32)) == -3
    assert evaluate(lambda x: ir.cast(x, DT.INT8), index(200)) == -56
    assert evaluate(lambda x: ir.cast(x, DT.FP32), index(3)) == 3.0
    assert evaluate(lambda x: ir.cast(x, DT.BOOL), index(3)) is True
    assert evaluate(lambda x: ir.Cast(x, DT.INDEX, SPAN), (True, DT.BOOL)) == 1
    with pytest.raises(ExecutionError, match="Cast at scalars.py:3:9: cannot convert nan"):
        evaluate(lambda x: ir.cast(x, DT.INT32, SPAN), (math.nan, DT.FP32))


def test_constants_are_normalised_to_their_dtype():
    function = ir.Function("f", [], [ir.ScalarType(DT.INT8)],
                           [ir.ReturnStmt([ir.ConstInt(300, DT.INT8, SPAN)], SPAN)], SPAN)
    assert pypto.run(function) == 44


def test_dsl_scalar_program():
    @pl.function
    def scalars(a: pl.Scalar[pl.INDEX], b: pl.Scalar[pl.INDEX]) -> tuple[
            pl.Scalar[pl.INDEX], pl.Scalar[pl.INDEX], pl.Scalar[pl.FP32], pl.Scalar[pl.BOOL]]:
        return a // b, a % b, a / b, a > b and b != 0

    assert pypto.run(scalars, -7, 2) == (-4, 1, -3.5, False)


@pytest.mark.parametrize("dtype, storage", [
    (DT.BOOL, np.bool_), (DT.INT4, np.int8), (DT.INT8, np.int8), (DT.INT32, np.int32),
    (DT.INDEX, np.int64), (DT.UINT4, np.uint8), (DT.UINT64, np.uint64), (DT.FP16, np.float16),
    (DT.FP32, np.float32), (DT.BF16, np.float32), (DT.FP8E4M3FN, np.float32),
    (DT.FP8E5M2, np.float32), (DT.FP8E8M0, np.float32), (DT.FP4, np.float32),
    (DT.HF4, np.float32), (DT.HF8, np.float32), (DT.TASK_ID, np.int64)])
def test_numpy_storage_dtypes(dtype, storage):
    assert numpy_dtype(dtype) == np.dtype(storage)


def test_numpy_dtype_rejects_non_dtypes():
    with pytest.raises(TypeError, match="expects a pypto DataType"):
        numpy_dtype("fp32")


@pytest.mark.parametrize("dtype, values, expected", [
    (DT.FP8E4M3FN, [0.3, 448.0, 470.0, -1.0625], [0.3125, 448.0, math.nan, -1.0]),
    (DT.FP8E5M2, [0.3, 57344.0, 70000.0], [0.3125, 57344.0, math.inf]),
    (DT.FP4, [0.2, 0.3, 2.6, 9.0, -5.1], [0.0, 0.5, 3.0, 6.0, -6.0]),
    (DT.FP8E8M0, [3.0, 0.1, -1.0], [4.0, 0.125, math.nan]),
    (DT.BF16, [1e39, 3.14159265], [math.inf, 3.140625])])
def test_narrow_float_formats_round_on_cast(dtype, values, expected):
    result = round_to_format(np.array(values), dtype)
    assert result.dtype == np.float32
    np.testing.assert_array_equal(result, np.array(expected, np.float32))
