"""Every ``tensor.*`` op of PyPTO's set: its type rule agrees with what the executor
returns, the result matches a NumPy oracle, and the one-op function prints to text that
parses back to the same IR.  Device-only ops are refused by name."""

from __future__ import annotations

import numpy as np
import pytest

import pypto
import pypto.language as pl
from pypto import ir
from pypto.ir.ops import DEVICE_ONLY, get_op, ops_in
from pypto.runtime import ExecutionError

from ._helpers import Scalar, check_result, op_function, part_oracle as _part, run_op

DT = ir.DataType
RNG = np.random.default_rng(7)


def rand(*shape, dtype=np.float32):
    return RNG.uniform(0.5, 2.0, size=shape).astype(dtype)


def ints(*shape, low=0, high=8, dtype=np.int32):
    return RNG.integers(low, high, size=shape).astype(dtype)


A, B, R, C = rand(4, 8), rand(4, 8), rand(4, 1), rand(1, 8)
I, J = ints(4, 8, low=1), ints(4, 8, low=0, high=3)
H = rand(4, 8, dtype=np.float16)


def _gather_rows(x, index):
    return np.take_along_axis(x, index.astype(np.int64), axis=0)


def _scatter_rows(x, index, src):
    out = x.copy()
    np.put_along_axis(out, index.astype(np.int64), src, axis=0)
    return out


def _update_rows(x, index, src):
    out = x.copy()
    out[index.reshape(-1)] = src
    return out


def _gather_row(acc, src):
    out = acc.copy()
    out[1:3, 0:4] = src[0:2, 2:6]
    return out


ROWS = np.array([[2, 0, 1, 3, 0, 1, 2, 3]], np.int32)
# name -> (operands, attributes, oracle over the operands' arrays/values)
CASES = {
    "add": ([A, B], {}, np.add), "sub": ([A, R], {}, np.subtract),
    "mul": ([A, C], {}, np.multiply), "div": ([A, B], {}, np.divide),
    "maximum": ([A, B], {}, np.maximum), "minimum": ([A, B], {}, np.minimum),
    "adds": ([A, 1.5], {}, lambda a, s: a + np.float32(s)),
    "subs": ([A, 1.5], {}, lambda a, s: a - np.float32(s)),
    "muls": ([A, 1.5], {}, lambda a, s: a * np.float32(s)),
    "divs": ([A, 2.0], {}, lambda a, s: a / np.float32(s)),
    "and": ([I, J], {}, np.bitwise_and), "or": ([I, J], {}, np.bitwise_or),
    "xor": ([I, J], {}, np.bitwise_xor), "shl": ([I, J], {}, np.left_shift),
    "shr": ([I, J], {}, np.right_shift), "fmod": ([A, B], {}, np.fmod),
    "ands": ([I, 6], {}, lambda a, s: a & s), "ors": ([I, 6], {}, lambda a, s: a | s),
    "xors": ([I, 6], {}, lambda a, s: a ^ s), "shls": ([I, 2], {}, lambda a, s: a << s),
    "shrs": ([I, 1], {}, lambda a, s: a >> s),
    "fmods": ([A, 0.7], {}, lambda a, s: np.fmod(a, np.float32(s))),
    "part_add": ([A, rand(2, 8)], {}, _part(np.add)),
    "part_max": ([rand(2, 8), A], {}, _part(np.maximum)),
    "part_min": ([A, rand(4, 3)], {}, _part(np.minimum)),
    "part_mul": ([A, rand(2, 8)], {}, _part(np.multiply)),
    "exp": ([A], {}, np.exp), "sqrt": ([A], {}, np.sqrt), "neg": ([A], {}, np.negative),
    "abs": ([A - 1.0], {}, np.abs), "sin": ([A], {}, np.sin), "cos": ([A], {}, np.cos),
    "not": ([I], {}, np.invert), "log": ([A], {"high_precision": True}, np.log),
    "recip": ([A], {}, np.reciprocal), "rsqrt": ([A], {}, lambda a: 1 / np.sqrt(a)),
    "cast": ([A * 10], {"target_type": DT.INT32, "mode": "floor"},
             lambda a: np.floor(a).astype(np.int32)),
    # FP16 products accumulate into FP32, as PyPTO's do
    "matmul": ([H, H], {"b_trans": True},
               lambda a, b: a.astype(np.float32) @ b.astype(np.float32).T),
    "matmul_acc": ([rand(4, 4), A, B], {"b_trans": True}, lambda c, a, b: c + a @ b.T),
    "row_sum": ([A], {}, lambda a: a.sum(-1, keepdims=True)),
    "row_max": ([A], {}, lambda a: a.max(-1, keepdims=True)),
    "row_min": ([A], {}, lambda a: a.min(-1, keepdims=True)),
    "row_prod": ([A], {}, lambda a: a.prod(-1, keepdims=True)),
    "row_argmax": ([A], {}, lambda a: a.argmax(-1)[:, None].astype(np.int32)),
    "row_argmin": ([A], {}, lambda a: a.argmin(-1)[:, None].astype(np.int32)),
    "col_sum": ([A], {}, lambda a: a.sum(0, keepdims=True)),
    "col_max": ([A], {}, lambda a: a.max(0, keepdims=True)),
    "col_min": ([A], {}, lambda a: a.min(0, keepdims=True)),
    "col_prod": ([A], {}, lambda a: a.prod(0, keepdims=True)),
    "col_argmax": ([A], {}, lambda a: a.argmax(0)[None, :].astype(np.int32)),
    "col_argmin": ([A], {}, lambda a: a.argmin(0)[None, :].astype(np.int32)),
    "row_expand": ([A, R], {}, lambda a, r: np.broadcast_to(r, a.shape)),
    "row_expand_add": ([A, R], {}, np.add), "row_expand_sub": ([A, R], {}, np.subtract),
    "row_expand_mul": ([A, R], {}, np.multiply), "row_expand_div": ([A, R], {}, np.divide),
    "row_expand_max": ([A, R], {}, np.maximum), "row_expand_min": ([A, R], {}, np.minimum),
    "row_expand_expdif": ([A, R], {}, lambda a, r: np.exp(a - r)),
    "col_expand": ([A, C], {}, lambda a, c: np.broadcast_to(c, a.shape)),
    "col_expand_add": ([A, C], {}, np.add), "col_expand_sub": ([A, C], {}, np.subtract),
    "col_expand_mul": ([A, C], {}, np.multiply), "col_expand_div": ([A, C], {}, np.divide),
    "col_expand_max": ([A, C], {}, np.maximum), "col_expand_min": ([A, C], {}, np.minimum),
    "col_expand_expdif": ([A, C], {}, lambda a, c: np.exp(a - c)),
    "expands": ([A, 2.5], {}, lambda a, s: np.full(a.shape, s, np.float32)),
    "cmp": ([A, B], {"cmp_type": 4}, lambda a, b: (a > b).astype(np.float32)),
    "create": ([[2, 3]], {"dtype": DT.FP32, "init_value": 1.5},
               lambda s: np.full((2, 3), 1.5, np.float32)),
    "create_l1": ([[2, 3]], {"dtype": DT.FP16}, lambda s: np.zeros((2, 3), np.float16)),
    "full": ([[3], 4.0], {"dtype": DT.FP32}, lambda s, v: np.full(3, 4.0, np.float32)),
    "ci": ([5, [2, 3]], {"descending": True},
           lambda start, s: (5 - np.arange(6)).reshape(2, 3).astype(np.int32)),
    "slice": ([A, [2, 4], [1, 2]], {}, lambda a, s, o: a[1:3, 2:6]),
    "assemble": ([A, rand(2, 2), [1, 1]], {}, None),
    "reshape": ([A, [8, 4]], {}, lambda a, s: a.reshape(8, 4)),
    "transpose": ([A, 0, 1], {}, lambda a, x, y: a.T),
    "view": ([A, [2, 16]], {}, lambda a, s: a.reshape(2, 16)),
    "reinterpret_view": ([A], {"dtype": DT.INT32}, lambda a: a.view(np.int32)),
    "set_validshape": ([A, 2, 4], {}, lambda a, r, c: a),
    "read": ([A, [2, 3]], {}, lambda a, i: a[2, 3]),
    "write": ([A.copy(), [2, 3], 9.0], {}, None),
    "dim": ([A, 1], {}, lambda a, axis: 8),
    "concat": ([A, R], {}, lambda a, r: np.concatenate([a, r], axis=-1)),
    "fillpad": ([A], {}, lambda a: a),
    "fillpad_expand": ([R, [4, 3]], {"pad_value": ir.PadValue.max},
                       lambda r, s: np.concatenate(
                           [r, np.full((4, 2), np.finfo(np.float32).max, np.float32)], 1)),
    "expand_clone": ([C, A], {}, lambda c, a: np.broadcast_to(c, a.shape)),
    "gather": ([A, ints(2, 8, high=4)], {"dim": 0}, _gather_rows),
    "scatter": ([A, ROWS, rand(1, 8)], {"dim": 0}, _scatter_rows),
    "scatter_update": ([A, np.array([[3], [0]], np.int32), rand(2, 8)], {}, _update_rows),
    "gather_row": ([A, B, [1, 0], [0, 2], [2, 4]], {}, lambda acc, src, *_: _gather_row(acc, src)),
    "aic_gather": ([A], {}, lambda a: a), "aiv_shard": ([A], {}, lambda a: a),
    "get_block_idx": ([], {}, lambda: 0), "get_block_num": ([], {}, lambda: 1),
    "get_subblock_idx": ([], {}, lambda: 0),
    # an address in DDR (the first of the run): pl.Ptr
    "alloc": ([0, 1024], {}, lambda space, size: 0),
}
DEVICE_CASES = {
    "gather_mask": ([A], {"mask_pattern": 1}),
    "gather_compare": ([A, 1.0], {"cmp_mode": 0, "out_cols": 4}),
    "scatter_mask": ([A, B], {"mask_pattern": 1}),
    "sort32": ([rand(1, 32), ints(1, 32)], {}),
    "mrgsort_format1": ([A, 4], {}),
    "mrgsort_format2": ([A, B], {}),
    "paged_gather": ([A, ints(4), ints(2)], {"block_size": 2, "size": 8, "max_indices": 4}),
    "random": ([1, 2, 3, 4, 5, 6, [2, 4]], {}),
}


def test_every_tensor_op_has_a_case():
    names = {op.short_name for op in ops_in("tensor")}
    assert names == set(CASES) | set(DEVICE_CASES)
    for name in DEVICE_CASES:
        assert get_op(f"tensor.{name}").semantics == DEVICE_ONLY
    for name in CASES:
        assert get_op(f"tensor.{name}").semantics != DEVICE_ONLY


def _values(operands):
    return [o.value if isinstance(o, Scalar) else o for o in operands]


@pytest.mark.parametrize("name", sorted(CASES))
def test_tensor_op_against_numpy(name):
    operands, attrs, oracle = CASES[name]
    function, _ = op_function(f"tensor.{name}", operands, attrs)
    # the printed one-op function is PyPTO-readable text that parses back to it
    ir.assert_structural_equal(function, pl.parse(ir.python_print(function)))
    result = run_op(f"tensor.{name}", [o.copy() if isinstance(o, np.ndarray) else o
                                       for o in operands], attrs)
    check_result(result, function.return_types[0], oracle, _values(operands))


def test_writers_update_their_target():
    target, part = np.zeros((4, 8), np.float32), np.ones((2, 2), np.float32)
    result = run_op("tensor.assemble", [target, part, [1, 1]])
    expected = np.zeros((4, 8), np.float32)
    expected[1:3, 1:3] = 1
    np.testing.assert_array_equal(result, expected)
    written = run_op("tensor.write", [np.zeros((2, 2), np.float32), [1, 0], 9.0])
    np.testing.assert_array_equal(written, [[0, 0], [9, 0]])


@pytest.mark.parametrize("name", sorted(DEVICE_CASES))
def test_device_only_ops_type_print_and_are_refused_by_name(name):
    operands, attrs = DEVICE_CASES[name]
    function, values = op_function(f"tensor.{name}", operands, attrs)
    ir.assert_structural_equal(function, pl.parse(ir.python_print(function)))
    with pytest.raises(ExecutionError, match=f"tensor.{name} is a device-only op"):
        pypto.run(function, *values)


def test_every_kernel_an_entry_names_exists():
    from pypto.ir.ops import list_ops
    from pypto.runtime.op_semantics import KERNELS, OP_SEMANTICS
    for name in list_ops():
        semantics = get_op(name).semantics
        assert semantics == DEVICE_ONLY or semantics.kernel in KERNELS, name
        assert name in OP_SEMANTICS, name


def test_matmul_acc_init_cond_starts_afresh():
    acc, lhs, rhs = rand(2, 2), rand(2, 3), rand(3, 2)
    fresh = run_op("tensor.matmul_acc", [acc, lhs, rhs, True])
    np.testing.assert_allclose(fresh, lhs @ rhs, rtol=1e-6)
    kept = run_op("tensor.matmul_acc", [acc, lhs, rhs, False])
    np.testing.assert_allclose(kept, acc + lhs @ rhs, rtol=1e-6)
