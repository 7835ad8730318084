"""Arithmetic ops (elementwise, scalar forms, unary, cast, matmul, reductions,
row/column expands, compare/select) against NumPy references, in both namespaces."""

from __future__ import annotations

import numpy as np
import pytest

import pypto
from pypto import ir
from pypto.ir.ops import list_ops
from pypto.runtime.op_semantics import OP_SEMANTICS

from ._helpers import DT, Scalar, Tile, run_op

RNG = np.random.default_rng(1234)


def rand(*shape: int, dtype=np.float32) -> np.ndarray:
    return (RNG.random(shape) * 4 - 2).astype(dtype)


def operand(namespace: str, array: np.ndarray):
    return Tile(array) if namespace == "tile" else array


NAMESPACES = ["tensor", "tile"]


def test_every_registered_op_has_semantics():
    assert sorted(OP_SEMANTICS) == list_ops()


@pytest.mark.parametrize("namespace", NAMESPACES)
@pytest.mark.parametrize("name, reference", [
    ("add", np.add), ("sub", np.subtract), ("mul", np.multiply), ("div", np.divide),
    ("maximum", np.maximum), ("minimum", np.minimum)])
def test_binary_elementwise_with_broadcasting(namespace, name, reference):
    lhs, rhs = rand(4, 8), rand(1, 8)
    result = run_op(f"{namespace}.{name}", [operand(namespace, lhs), operand(namespace, rhs)])
    assert result.dtype == np.float32 and result.shape == (4, 8)
    np.testing.assert_array_equal(result, reference(lhs, rhs))


SCALAR_FORMS = [("adds", np.add), ("subs", np.subtract), ("muls", np.multiply),
                ("divs", np.divide)]
# PyPTO has maximums/minimums on tiles only.
TILE_SCALAR_FORMS = [("maximums", np.maximum), ("minimums", np.minimum)]


@pytest.mark.parametrize("namespace, name, reference",
                         [(ns, *form) for ns in NAMESPACES for form in SCALAR_FORMS]
                         + [("tile", *form) for form in TILE_SCALAR_FORMS])
def test_scalar_rhs_forms(namespace, name, reference):
    lhs = rand(3, 5)
    result = run_op(f"{namespace}.{name}", [operand(namespace, lhs), 0.75])
    assert result.dtype == np.float32
    np.testing.assert_array_equal(result, reference(lhs, np.float32(0.75)))


def test_scalar_rhs_from_a_scalar_param_is_converted_to_the_tensor_dtype():
    lhs = np.arange(6, dtype=np.int32).reshape(2, 3)
    result = run_op("tensor.adds", [lhs, Scalar(2 ** 31 + 5, DT.INT64)])
    assert result.dtype == np.int32
    # 2**31 + 5 wraps to -2**31 + 5 in int32, so the sum wraps as on the device.
    np.testing.assert_array_equal(result, lhs + np.int32(-2 ** 31 + 5))


def test_integer_division_truncates_toward_zero():
    lhs = np.array([[7, -7, 7, -7]], dtype=np.int32)
    rhs = np.array([[2, 2, -2, -2]], dtype=np.int32)
    np.testing.assert_array_equal(run_op("tensor.div", [lhs, rhs]), [[3, -3, -3, 3]])
    np.testing.assert_array_equal(run_op("tile.divs", [Tile(lhs), 2]), [[3, -3, 3, -3]])


def test_float_division_by_zero_follows_ieee():
    lhs = np.array([[1.0, -1.0, 0.0]], dtype=np.float32)
    result = run_op("tensor.divs", [lhs, 0.0])
    assert result[0, 0] == np.inf and result[0, 1] == -np.inf and np.isnan(result[0, 2])


@pytest.mark.parametrize("namespace", NAMESPACES)
@pytest.mark.parametrize("name, reference", [
    ("exp", np.exp), ("log", np.log), ("sqrt", np.sqrt),
    ("rsqrt", lambda x: 1 / np.sqrt(x)), ("recip", lambda x: 1 / x),
    ("neg", np.negative), ("abs", np.abs)])
def test_unary(namespace, name, reference):
    x = np.abs(rand(4, 4)) + np.float32(0.5)
    result = run_op(f"{namespace}.{name}", [operand(namespace, x)])
    assert result.dtype == np.float32
    np.testing.assert_allclose(result, reference(x).astype(np.float32), rtol=1e-6)


def test_relu_and_bitwise_tile_ops():
    x = rand(3, 3)
    np.testing.assert_array_equal(run_op("tile.relu", [Tile(x)]), np.maximum(x, 0))
    a = np.array([[0b1100, 0b1010]], dtype=np.int32)
    b = np.array([[0b1010, 0b0110]], dtype=np.int32)
    np.testing.assert_array_equal(run_op("tile.and", [Tile(a), Tile(b)]), a & b)
    np.testing.assert_array_equal(run_op("tile.or", [Tile(a), Tile(b)]), a | b)


def test_fp16_arithmetic_stays_in_fp16():
    x, y = rand(2, 4, dtype=np.float16), rand(2, 4, dtype=np.float16)
    result = run_op("tensor.add", [x, y])
    assert result.dtype == np.float16
    np.testing.assert_array_equal(result, x + y)


@pytest.mark.parametrize("namespace", NAMESPACES)
def test_cast_modes(namespace):
    x = np.array([[-2.5, -1.5, -0.5, 0.5, 1.5, 2.7]], dtype=np.float32)
    expected = {
        "round": [-3, -2, -1, 1, 2, 3], "rint": [-2, -2, 0, 0, 2, 3],
        "floor": [-3, -2, -1, 0, 1, 2], "ceil": [-2, -1, 0, 1, 2, 3],
        "trunc": [-2, -1, 0, 0, 1, 2], "none": [-2, -1, 0, 0, 1, 2]}
    for mode, values in expected.items():
        result = run_op(f"{namespace}.cast", [operand(namespace, x)],
                        {"target_type": DT.INT32, "mode": mode})
        assert result.dtype == np.int32, mode
        np.testing.assert_array_equal(result[0], values, err_msg=mode)


def test_cast_to_bf16_rounds_to_bfloat16_precision_in_float32_storage():
    x = np.array([[1.0 + 2 ** -8, 1.0 + 3 * 2 ** -8, 3.14159265]], dtype=np.float32)
    result = run_op("tensor.cast", [x], {"target_type": DT.BF16})
    assert result.dtype == np.float32
    np.testing.assert_array_equal(result[0], [1.0, 1.0 + 2 ** -6, 3.140625])


def test_cast_to_narrow_integers_wraps():
    x = np.array([[127, 128, 300, -129]], dtype=np.int32)
    np.testing.assert_array_equal(run_op("tensor.cast", [x], {"target_type": DT.INT8})[0],
                                  [127, -128, 44, 127])
    np.testing.assert_array_equal(run_op("tensor.cast", [x], {"target_type": DT.INT4})[0],
                                  [-1, 0, -4, -1])
    flags = run_op("tensor.cast", [np.array([[0.0, 2.5]], np.float32)],
                   {"target_type": DT.BOOL})
    assert flags.dtype == np.bool_ and flags.tolist() == [[False, True]]


@pytest.mark.parametrize("a_trans, b_trans", [(False, False), (True, False), (False, True),
                                              (True, True)])
def test_tensor_matmul_with_transposes(a_trans, b_trans):
    lhs = rand(5, 3) if a_trans else rand(3, 5)
    rhs = rand(4, 5) if b_trans else rand(5, 4)
    result = run_op("tensor.matmul", [lhs, rhs], {"a_trans": a_trans, "b_trans": b_trans})
    expected = (lhs.T if a_trans else lhs) @ (rhs.T if b_trans else rhs)
    assert result.shape == (3, 4) and result.dtype == np.float32
    np.testing.assert_allclose(result, expected, rtol=1e-5)


def test_matmul_out_dtype_accumulates_fp16_in_fp32():
    lhs, rhs = rand(4, 64, dtype=np.float16), rand(64, 2, dtype=np.float16)
    result = run_op("tensor.matmul", [lhs, rhs], {"out_dtype": DT.FP32})
    assert result.dtype == np.float32
    np.testing.assert_allclose(result, lhs.astype(np.float32) @ rhs.astype(np.float32),
                               rtol=1e-5)


def test_matmul_of_int8_accumulates_in_wide_integers():
    lhs = np.full((2, 64), 100, dtype=np.int8)
    rhs = np.full((64, 2), 100, dtype=np.int8)
    result = run_op("tensor.matmul", [lhs, rhs], {"out_dtype": DT.INT32})
    assert result.dtype == np.int32 and result[0, 0] == 64 * 100 * 100


@pytest.mark.parametrize("namespace", NAMESPACES)
def test_matmul_acc_adds_to_the_accumulator_without_modifying_it(namespace):
    acc, lhs, rhs = rand(3, 4), rand(3, 2), rand(2, 4)
    result = run_op(f"{namespace}.matmul_acc", [operand(namespace, acc), operand(namespace, lhs),
                                                operand(namespace, rhs)])
    np.testing.assert_allclose(result, acc + lhs @ rhs, rtol=1e-5)


def test_tile_matmul_result_is_float32_accumulator_typed():
    lhs, rhs = rand(2, 3), rand(3, 2)
    result = run_op("tile.matmul", [Tile(lhs), Tile(rhs)])
    np.testing.assert_allclose(result, lhs @ rhs, rtol=1e-6)


@pytest.mark.parametrize("name, reference", [("sum", np.sum), ("max", np.max), ("min", np.min)])
def test_row_and_col_reductions(name, reference):
    x = rand(2, 3, 5)
    rows = run_op(f"tensor.row_{name}", [x])
    cols = run_op(f"tensor.col_{name}", [x])
    assert rows.shape == (2, 3, 1) and cols.shape == (2, 1, 5)
    np.testing.assert_allclose(rows, reference(x, axis=-1, keepdims=True), rtol=1e-6)
    np.testing.assert_allclose(cols, reference(x, axis=-2, keepdims=True), rtol=1e-6)
    tmp = np.zeros((3, 5), np.float32)
    tile_rows = run_op(f"tile.row_{name}", [Tile(x[0]), Tile(tmp)])
    np.testing.assert_allclose(tile_rows, reference(x[0], axis=-1, keepdims=True), rtol=1e-6)


@pytest.mark.parametrize("namespace", NAMESPACES)
@pytest.mark.parametrize("suffix, combine", [
    ("", lambda a, v: np.broadcast_to(v, a.shape)), ("_add", np.add), ("_sub", np.subtract),
    ("_mul", np.multiply), ("_div", np.divide)])
def test_row_and_col_expand(namespace, suffix, combine):
    x, row_vec, col_vec = rand(4, 6), rand(4, 1) + 3, rand(1, 6) + 3
    rows = run_op(f"{namespace}.row_expand{suffix}", [operand(namespace, x),
                                                      operand(namespace, row_vec)])
    cols = run_op(f"{namespace}.col_expand{suffix}", [operand(namespace, x),
                                                      operand(namespace, col_vec)])
    np.testing.assert_array_equal(rows, combine(x, row_vec))
    np.testing.assert_array_equal(cols, combine(x, col_vec))


@pytest.mark.parametrize("namespace", NAMESPACES)
def test_expands_fills_the_target_shape(namespace):
    result = run_op(f"{namespace}.expands", [operand(namespace, rand(2, 3)), 1.5])
    np.testing.assert_array_equal(result, np.full((2, 3), 1.5, np.float32))


COMPARISONS = [np.equal, np.not_equal, np.less, np.less_equal, np.greater, np.greater_equal]


def test_tile_cmp_and_cmps_for_every_cmp_type():
    lhs = np.array([[1.0, 2.0, 3.0]], np.float32)
    rhs = np.array([[2.0, 2.0, 2.0]], np.float32)
    for code, reference in enumerate(COMPARISONS):
        both = run_op("tile.cmp", [Tile(lhs), Tile(rhs)], {"cmp_type": code})
        scalar = run_op("tile.cmps", [Tile(lhs), 2.0], {"cmp_type": code})
        assert both.dtype == np.bool_ and scalar.dtype == np.bool_
        np.testing.assert_array_equal(both, reference(lhs, rhs))
        np.testing.assert_array_equal(scalar, reference(lhs, rhs))


def test_tensor_cmp_keeps_the_operand_dtype_as_pypto_does():
    lhs = np.array([[1.0, 2.0, 3.0]], np.float32)
    rhs = np.array([[2.0, 2.0, 2.0]], np.float32)
    for code, reference in enumerate(COMPARISONS):
        result = run_op("tensor.cmp", [lhs, rhs], {"cmp_type": code})
        assert result.dtype == np.float32
        np.testing.assert_array_equal(result, reference(lhs, rhs).astype(np.float32))


def test_sel_picks_lhs_where_the_mask_is_set():
    mask = np.array([[True, False, True]])
    lhs, rhs = rand(1, 3), rand(1, 3)
    result = run_op("tile.sel", [Tile(mask), Tile(lhs), Tile(rhs), Tile(np.zeros_like(lhs))])
    np.testing.assert_array_equal(result, np.where(mask, lhs, rhs))


def test_results_are_fresh_arrays():
    x = rand(2, 2)
    result = run_op("tensor.adds", [x, 0.0])
    assert result is not x
    result[0, 0] = 99.0
    assert x[0, 0] != 99.0


def test_ops_on_an_untyped_call_fall_back_to_the_operand_dtype():
    x = ir.Var("x", ir.TensorType([2], DT.FP16), ir.Span.unknown())
    call = ir.Call(ir.get_op("tensor.exp"), [x], ir.Span.unknown())
    result_var = ir.Var("r", ir.UnknownType(), ir.Span.unknown())
    function = ir.Function("f", [x], [ir.UnknownType()],
                           [ir.AssignStmt(result_var, call), ir.ReturnStmt([result_var])])
    result = pypto.run(function, np.array([0.0, 1.0], np.float16))
    assert result.dtype == np.float16
    np.testing.assert_allclose(result, np.exp(np.array([0.0, 1.0], np.float16)), rtol=1e-3)
