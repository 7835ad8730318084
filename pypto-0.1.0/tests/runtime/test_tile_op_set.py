"""Every ``tile.*`` op of PyPTO's set: its type rule agrees with what the executor
returns, the result matches a NumPy oracle, and the one-op function prints to text that
parses back to the same IR.  Device-only ops are refused by name; the cross-core pipes
are tested with their partners in ``test_cross_core.py``."""

from __future__ import annotations

import numpy as np
import pytest

import pypto
import pypto.language as pl
from pypto import ir
from pypto.ir.ops import DEVICE_ONLY, get_op, ops_in
from pypto.runtime import ExecutionError

from ._helpers import Out, Tile, check_result, op_function, part_oracle as _part, run_op

DT, Mem = ir.DataType, ir.MemorySpace
RNG = np.random.default_rng(11)


def rand(*shape, dtype=np.float32, low=0.5, high=2.0):
    return RNG.uniform(low, high, size=shape).astype(dtype)


def ints(*shape, low=0, high=8, dtype=np.int32):
    return RNG.integers(low, high, size=shape).astype(dtype)


A, B, R, C = rand(4, 8), rand(4, 8), rand(4, 1), rand(1, 8)
N = rand(4, 8, low=-2.0, high=2.0)  # signed values
I, J = ints(4, 8, low=1), ints(4, 8, low=0, high=3)
H = rand(4, 8, dtype=np.float16)
BT = rand(8, 4)  # a right-hand matrix for [4, 8] lhs
MASK = N > 0
FLAT = ints(2, 8, high=32)  # element indices into a [4, 8] tile
PAIRS_SRC = rand(1, 32)
ORDER = np.arange(32, dtype=np.int32).reshape(1, 32)
SCALE_L = np.exp2(ints(4, 2, low=-2, high=3)).astype(np.float32)  # MX scales: powers of two
SCALE_R = np.exp2(ints(2, 4, low=-2, high=3)).astype(np.float32)


def t(array, dtype=None):
    return Tile(array.copy(), dtype)


def _sorted_pairs(values, ids):
    """sort32's result for one block: values descending, each followed by its index bits."""
    order = np.argsort(-values, kind="stable")
    return np.stack([values[order], ids.astype(np.uint32).view(np.float32)[order]], -1).reshape(-1)


def _runs(count, length):
    """One row of ``count`` sorted runs of ``length`` (value, index) pairs."""
    values = rand(count * length)
    ids = np.arange(count * length, dtype=np.uint32)
    return np.concatenate([_sorted_pairs(values[k * length:(k + 1) * length],
                                         ids[k * length:(k + 1) * length])
                           for k in range(count)]).reshape(1, -1), values, ids


RUNS, RUN_VALUES, RUN_IDS = _runs(4, 16)
LIST0, LIST1 = _runs(1, 4)[0], _runs(1, 4)[0]


def _merged(values, ids):
    return _sorted_pairs(values, ids).reshape(1, -1)


def _pair_values(row):
    return row.reshape(-1, 2)[:, 0]


def _gather_row(dst, src):
    out = dst.copy()
    out[1:3, 0:4] = src[0:2, 2:6]
    return out


def _scatter_flat(dst, src, idx):
    out = dst.copy()
    out.reshape(-1)[idx.reshape(-1)] = src.reshape(-1)
    return out


def _mx(lhs, ls, rhs, rs):
    return (lhs * np.repeat(ls, 4, 1)) @ (rhs * np.repeat(rs, 4, 0))


def _update_rows(x, index, src):
    out = x.copy()
    out[index.reshape(-1)] = src
    return out


# name -> (operands, attributes, oracle over the operands' arrays/values)
CASES = {
    # elementwise, scalar, bitwise, remainder
    "add": ([t(A), t(B)], {}, np.add), "sub": ([t(A), t(R)], {}, np.subtract),
    "mul": ([t(A), t(C)], {}, np.multiply), "div": ([t(A), t(B)], {}, np.divide),
    "maximum": ([t(A), t(B)], {}, np.maximum), "minimum": ([t(A), t(B)], {}, np.minimum),
    "adds": ([t(A), 1.5], {}, lambda a, s: a + np.float32(s)),
    "subs": ([t(A), 1.5], {}, lambda a, s: a - np.float32(s)),
    "muls": ([t(A), 1.5], {}, lambda a, s: a * np.float32(s)),
    "divs": ([t(A), 2.0], {}, lambda a, s: a / np.float32(s)),
    "maximums": ([t(A), 1.0], {}, lambda a, s: np.maximum(a, s)),
    "minimums": ([t(A), 1.0], {}, lambda a, s: np.minimum(a, s)),
    "and": ([t(I), t(J)], {}, np.bitwise_and), "or": ([t(I), t(J)], {}, np.bitwise_or),
    "ands": ([t(I), 6], {}, lambda a, s: a & s), "ors": ([t(I), 6], {}, lambda a, s: a | s),
    "xor": ([t(I), t(J), t(I)], {}, lambda a, b, tmp: a ^ b),
    "xors": ([t(I), 6, t(I)], {}, lambda a, s, tmp: a ^ s),
    "shl": ([t(I), t(J)], {}, np.left_shift), "shr": ([t(I), t(J)], {}, np.right_shift),
    "shls": ([t(I), 2], {}, lambda a, s: a << s), "shrs": ([t(I), 1], {}, lambda a, s: a >> s),
    "not": ([t(I)], {}, np.invert),
    "fmod": ([t(N), t(B)], {}, np.fmod),
    "fmods": ([t(N), 0.7], {}, lambda a, s: np.fmod(a, np.float32(s))),
    # rem takes the divisor's sign (fmod the dividend's)
    "rem": ([t(N), t(B), t(B)], {}, lambda a, b, tmp: np.remainder(a, b)),
    "rems": ([t(N), 0.7, t(N)], {}, lambda a, s, tmp: np.remainder(a, np.float32(s))),
    "addc": ([t(A), t(B), t(R)], {}, lambda a, b, c: a + b + c),
    "subc": ([t(A), t(B), t(R)], {}, lambda a, b, c: a - b + c),
    "addsc": ([t(A), 1.5, t(B)], {}, lambda a, s, c: a + np.float32(s) + c),
    "subsc": ([t(A), 1.5, t(B)], {}, lambda a, s, c: a - np.float32(s) + c),
    "part_add": ([t(A), t(rand(2, 8))], {}, _part(np.add)),
    "part_max": ([t(rand(2, 8)), t(A)], {}, _part(np.maximum)),
    "part_min": ([t(A), t(rand(4, 3))], {}, _part(np.minimum)),
    "part_mul": ([t(A), t(rand(2, 8))], {}, _part(np.multiply)),
    # unary, activations, casts
    "exp": ([t(A)], {}, np.exp), "sqrt": ([t(A)], {}, np.sqrt), "neg": ([t(A)], {}, np.negative),
    "abs": ([t(N)], {}, np.abs), "relu": ([t(N)], {}, lambda a: np.maximum(a, 0)),
    "log": ([t(A)], {"high_precision": True}, np.log), "recip": ([t(A)], {}, np.reciprocal),
    "rsqrt": ([t(A)], {}, lambda a: 1 / np.sqrt(a)), "sin": ([t(A)], {}, np.sin),
    "cos": ([t(A)], {}, np.cos),
    "lrelu": ([t(N), 0.1], {}, lambda a, s: np.where(a > 0, a, np.float32(s) * a)),
    "prelu": ([t(N), t(B), t(B)], {}, lambda a, s, tmp: np.where(a > 0, a, s * a)),
    "cast": ([t(A * 10)], {"target_type": DT.INT32, "mode": "floor"},
             lambda a: np.floor(a).astype(np.int32)),
    # matmul family: half products accumulate into FP32
    "matmul": ([t(H), t(H.T.copy())], {},
               lambda a, b: a.astype(np.float32) @ b.astype(np.float32)),
    "matmul_acc": ([t(rand(4, 4)), t(A), t(BT)], {}, lambda c, a, b: c + a @ b),
    "batch_matmul": ([t(rand(2, 4, 8)), t(rand(2, 8, 3))], {}, np.matmul),
    "batch_matmul_acc": ([t(rand(2, 4, 3)), t(rand(2, 4, 8)), t(rand(2, 8, 3))], {},
                         lambda c, a, b: c + a @ b),
    "matmul_bias": ([t(A), t(BT), t(rand(1, 4))], {}, lambda a, b, bias: a @ b + bias),
    "gemv": ([t(A[:1]), t(BT)], {}, np.matmul),
    "gemv_acc": ([t(rand(1, 4)), t(A[:1]), t(BT)], {"acc_phase": "unspecified"},
                 lambda c, a, b: c + a @ b),
    "gemv_bias": ([t(A[:1]), t(BT), t(rand(1, 4))], {}, lambda a, b, bias: a @ b + bias),
    "matmul_mx": ([t(A), t(SCALE_L, DT.FP8E8M0), t(BT), t(SCALE_R, DT.FP8E8M0)], {}, _mx),
    "matmul_mx_acc": ([t(rand(4, 4)), t(A), t(SCALE_L, DT.FP8E8M0), t(BT),
                       t(SCALE_R, DT.FP8E8M0)], {}, lambda c, *rest: c + _mx(*rest)),
    "matmul_mx_bias": ([t(A), t(SCALE_L, DT.FP8E8M0), t(BT), t(SCALE_R, DT.FP8E8M0),
                        t(rand(1, 4))], {}, lambda *args: _mx(*args[:4]) + args[4]),
    # reductions and broadcasts
    "row_sum": ([t(A), t(A)], {}, lambda a, tmp: a.sum(-1, keepdims=True)),
    "row_max": ([t(A), t(A)], {}, lambda a, tmp: a.max(-1, keepdims=True)),
    "row_min": ([t(A), t(A)], {}, lambda a, tmp: a.min(-1, keepdims=True)),
    "row_prod": ([t(A), t(A)], {}, lambda a, tmp: a.prod(-1, keepdims=True)),
    "row_argmax": ([t(A), t(A)], {}, lambda a, tmp: a.argmax(-1)[:, None]),
    "row_argmin": ([t(A), t(A)], {}, lambda a, tmp: a.argmin(-1)[:, None]),
    "col_sum": ([t(A)], {}, lambda a: a.sum(0, keepdims=True)),
    "col_max": ([t(A)], {}, lambda a: a.max(0, keepdims=True)),
    "col_min": ([t(A)], {}, lambda a: a.min(0, keepdims=True)),
    "col_prod": ([t(A)], {}, lambda a: a.prod(0, keepdims=True)),
    "col_argmax": ([t(A), t(A)], {}, lambda a, tmp: a.argmax(0)[None, :]),
    "col_argmin": ([t(A), t(A)], {}, lambda a, tmp: a.argmin(0)[None, :]),
    "row_expand": ([t(A), t(R)], {}, lambda a, r: np.broadcast_to(r, a.shape)),
    "row_expand_add": ([t(A), t(R)], {}, np.add), "row_expand_sub": ([t(A), t(R)], {}, np.subtract),
    "row_expand_mul": ([t(A), t(R)], {}, np.multiply),
    "row_expand_div": ([t(A), t(R)], {}, np.divide),
    "row_expand_max": ([t(A), t(R)], {}, np.maximum),
    "row_expand_min": ([t(A), t(R)], {}, np.minimum),
    "row_expand_expdif": ([t(A), t(R)], {}, lambda a, r: np.exp(a - r)),
    "col_expand": ([t(A), t(C)], {}, lambda a, c: np.broadcast_to(c, a.shape)),
    "col_expand_add": ([t(A), t(C)], {}, np.add), "col_expand_sub": ([t(A), t(C)], {}, np.subtract),
    "col_expand_mul": ([t(A), t(C)], {}, np.multiply),
    "col_expand_div": ([t(A), t(C)], {}, np.divide),
    "col_expand_max": ([t(A), t(C)], {}, np.maximum),
    "col_expand_min": ([t(A), t(C)], {}, np.minimum),
    "col_expand_expdif": ([t(A), t(C)], {}, lambda a, c: np.exp(a - c)),
    "expands": ([t(A), 2.5], {}, lambda a, s: np.full(a.shape, s, np.float32)),
    "cmp": ([t(A), t(B)], {"cmp_type": 4}, lambda a, b: a > b),
    "cmps": ([t(A), 1.0], {"cmp_type": 2}, lambda a, s: a < s),
    "sel": ([t(MASK), t(A), t(B), t(A)], {}, lambda m, a, b, tmp: np.where(m, a, b)),
    "sels": ([t(MASK), t(A), t(A), 7.0], {}, lambda m, a, tmp, s: np.where(m, a, np.float32(s))),
    # creation and addresses
    "create": ([[2, 3]], {"dtype": DT.FP32}, lambda s: np.zeros((2, 3), np.float32)),
    "full": ([[3, 4], 2.5], {"dtype": DT.FP32}, lambda s, v: np.full((3, 4), 2.5, np.float32)),
    "ci": ([5, [2, 3]], {"descending": True},
           lambda start, s: (5 - np.arange(6)).reshape(2, 3).astype(np.int32)),
    "tri": ([1, [4, 4]], {}, lambda k, s: np.tril(np.ones((4, 4), np.int32), 1)),
    "alloc": ([int(Mem.Vec), 4096], {}, lambda space, size: 0),
    "get_block_idx": ([], {}, lambda: 0), "get_block_num": ([], {}, lambda: 1),
    "get_subblock_idx": ([], {}, lambda: 0),
    # data movement, windows, views, padding
    "load": ([A, [1, 0], [2, 8]], {}, lambda a, o, s: a[1:3]),
    "store": ([t(R), [0, 2], Out(np.zeros((4, 8), np.float32))], {}, None),
    "move": ([t(A)], {"target_memory": Mem.Mat}, lambda a: a),
    "extract": ([t(A), 1, 2, [2, 4]], {"target_memory": Mem.Left}, lambda a, r, c, s: a[1:3, 2:6]),
    "slice": ([t(A), [2, 4], [1, 2]], {}, lambda a, s, o: a[1:3, 2:6]),
    "assemble": ([t(A), t(rand(2, 2)), [1, 1]], {}, None),
    "reshape": ([t(A), [8, 4]], {}, lambda a, s: a.reshape(8, 4)),
    "transpose": ([t(A), 0, 1], {}, lambda a, x, y: a.T),
    "transpose_view": ([t(A)], {}, lambda a: a.T),
    "reinterpret_view": ([t(A)], {"dtype": DT.INT32}, lambda a: a.view(np.int32)),
    "set_validshape": ([t(A), 2, 4], {}, lambda a, r, c: a),
    "read": ([t(A), [2, 3]], {}, lambda a, i: a[2, 3]),
    "write": ([t(A), [2, 3], 9.0], {}, None),
    "concat": ([t(A), t(R)], {}, lambda a, r: np.concatenate([a, r], axis=-1)),
    "fillpad": ([t(A)], {"pad_value": ir.PadValue.max}, lambda a: a),
    "fillpad_inplace": ([t(A)], {}, lambda a: a),
    "fillpad_expand": ([t(R), [4, 3]], {"pad_value": ir.PadValue.min},
                       lambda r, s: np.concatenate(
                           [r, np.full((4, 2), np.finfo(np.float32).min, np.float32)], 1)),
    "aic_gather": ([t(A)], {}, lambda a: a), "aiv_shard": ([t(A)], {"split": 1}, lambda a: a),
    # gathers, scatters, sorts
    "gather": ([t(A), t(FLAT), t(A)], {}, lambda a, i, tmp: a.reshape(-1)[i]),
    "gather_mask": ([t(A)], {"mask_pattern": 1}, lambda a: a[:, 0::2]),
    "gather_row": ([t(A), t(B), [1, 0], [0, 2], [2, 4]], {}, lambda d, s, *_: _gather_row(d, s)),
    "mgather": ([A, t(FLAT)], {}, lambda mem, i: mem.reshape(-1)[i]),
    "mscatter": ([t(rand(2, 8)), t(np.arange(16, dtype=np.int32).reshape(2, 8) * 2),
                  Out(np.zeros((4, 8), np.float32))], {}, None),
    "scatter": ([t(A), t(rand(1, 8)), t(np.arange(8, dtype=np.int32).reshape(1, 8) * 3)], {},
                _scatter_flat),
    "scatter_mask": ([t(A), t(rand(4, 2))], {"mask_pattern": 6},
                     lambda d, s: np.concatenate([d[:, :3], s[:, :1], d[:, 4:7], s[:, 1:]], 1)),
    "scatter_update": ([t(A), t(np.array([[3], [0]], np.int32)), t(rand(2, 8))], {},
                       _update_rows),
    "sort32": ([t(PAIRS_SRC), t(ORDER)], {}, lambda s, i: _sorted_pairs(s[0], i[0])[None]),
    "mrgsort_format1": ([t(RUNS), 16], {}, lambda runs, n: _merged(RUN_VALUES, RUN_IDS)),
    "mrgsort_format2": ([t(LIST0), t(LIST1), t(LIST0)], {},
                        lambda a, b, tmp: _merged(np.concatenate([_pair_values(a),
                                                                  _pair_values(b)]),
                                                  np.concatenate([a.reshape(-1, 2)[:, 1],
                                                                  b.reshape(-1, 2)[:, 1]]
                                                                 ).view(np.uint32))),
}
DEVICE_CASES = {
    "random": ([1, 2, 3, 4, 5, 6, [2, 4]], {}),
    "gather_compare": ([t(A), 1.0, t(A)], {"out_cols": 4}),
    "gatherb": ([t(A), t(I)], {}),
    "tget_scale_addr": ([t(SCALE_L), t(A)], {}),
}
PIPES = {"tpush_to_aiv", "tpush_to_aic", "tpop_from_aic", "tpop_from_aiv"}


def test_every_tile_op_has_a_case():
    names = {op.short_name for op in ops_in("tile")}
    assert names == set(CASES) | set(DEVICE_CASES) | PIPES
    for name in DEVICE_CASES:
        assert get_op(f"tile.{name}").semantics == DEVICE_ONLY
    for name in CASES:
        assert get_op(f"tile.{name}").semantics != DEVICE_ONLY


def _values(operands):
    return [o.array if isinstance(o, (Tile, Out)) else o for o in operands]


def _copies(operands):
    out = []
    for o in operands:
        if isinstance(o, Tile):
            out.append(Tile(o.array.copy(), o.dtype))
        elif isinstance(o, Out):
            out.append(Out(o.array.copy()))
        else:
            out.append(o.copy() if isinstance(o, np.ndarray) else o)
    return out


@pytest.mark.parametrize("name", sorted(CASES))
def test_tile_op_against_numpy(name):
    operands, attrs, oracle = CASES[name]
    function, _ = op_function(f"tile.{name}", _copies(operands), attrs)
    # the printed one-op function is PyPTO-readable text that parses back to it
    ir.assert_structural_equal(function, pl.parse(ir.python_print(function)))
    result = run_op(f"tile.{name}", _copies(operands), attrs)
    check_result(result, function.return_types[0], oracle, _values(operands))


def test_remainder_takes_the_divisors_sign():
    x = np.array([[-7.0, 7.0, -7.0, 7.0]], np.float32)
    y = np.array([[3.0, -3.0, -3.0, 3.0]], np.float32)
    np.testing.assert_array_equal(run_op("tile.rem", [t(x), t(y), t(y)]), [[2, -2, -1, 1]])
    np.testing.assert_array_equal(run_op("tile.fmod", [t(x), t(y)]), [[-1, 1, -1, 1]])
    np.testing.assert_allclose(run_op("tile.rems", [t(x), 3.0, t(x)]), [[2, 1, 2, 1]])
    with pytest.raises(ExecutionError, match="integer remainder by zero"):
        run_op("tile.rem", [t(I), t(np.zeros_like(I)), t(I)])


def test_writers_update_their_target():
    target = np.zeros((4, 8), np.float32)
    out = Out(target)
    run_op("tile.mscatter", [t(np.ones((1, 2), np.float32)),
                             t(np.array([[3, 9]], np.int32)), out])
    assert target.reshape(-1)[[3, 9]].tolist() == [1, 1] and target.sum() == 2
    stored = np.zeros((4, 8), np.float32)
    run_op("tile.store", [t(np.ones((2, 2), np.float32)), [1, 1], Out(stored)])
    assert stored.sum() == 4 and stored[1:3, 1:3].all()


@pytest.mark.parametrize("name", sorted(DEVICE_CASES))
def test_device_only_tile_ops_type_print_and_are_refused_by_name(name):
    operands, attrs = DEVICE_CASES[name]
    function, values = op_function(f"tile.{name}", _copies(operands), attrs)
    ir.assert_structural_equal(function, pl.parse(ir.python_print(function)))
    with pytest.raises(ExecutionError, match=f"tile.{name} is a device-only op"):
        pypto.run(function, *values)


def test_sort32_needs_blocks_of_32_four_byte_scores():
    with pytest.raises(ExecutionError, match="sort32 sorts blocks of 32 4-byte values"):
        run_op("tile.sort32", [t(rand(1, 16)), t(ORDER[:, :16])])


def test_mrgsort_exhausted_mode_is_refused_by_name():
    with pytest.raises(ExecutionError, match="exhausted=True"):
        run_op("tile.mrgsort_format2", [t(LIST0), t(LIST1), t(LIST0)], {"exhausted": True})


def test_out_of_range_gather_indices_are_reported():
    with pytest.raises(ExecutionError, match=r"gather index out of range \[0, 32\)"):
        run_op("tile.gather", [t(A), t(FLAT + 32), t(A)])
    with pytest.raises(ExecutionError, match=r"mgather index out of range"):
        run_op("tile.mgather", [A, t(FLAT + 32)])
    with pytest.raises(ExecutionError, match="gather_oob='zero' is not modelled"):
        run_op("tile.mgather", [A, t(FLAT)], {"gather_oob": "zero"})
