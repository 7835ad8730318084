"""Valid regions of tiles (``pypto/runtime/_valid.py``): what a partial tile means to
the ops that read it.  A load or slice with ``valid_shape`` and ``set_validshape`` make
one; reductions and matmuls work on the valid part, elementwise ops keep the region,
``fillpad`` fills around it, a store writes only it."""

from __future__ import annotations

import numpy as np

import pypto
import pypto.language as pl

from ._helpers import Tile, run_op

N = pl.dynamic("N")
RNG = np.random.default_rng(9)


def negative(*shape):
    return RNG.uniform(-3.0, -1.0, size=shape).astype(np.float32)


@pl.program
class RowStats:
    @pl.function
    def main(self, x: pl.Tensor[[8, 32], pl.FP32], n: pl.Scalar[pl.INDEX],
             out: pl.Out[pl.Tensor[[8, 2], pl.FP32]]) -> pl.Tensor[[8, 2], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.load(x, [0, 0], [8, 32], valid_shape=[8, n])
            tmp = pl.tile.create([8, 32], pl.FP32)
            shifted = pl.add(t, 1.0)  # keeps the region: exp(0) = 1 outside must not count
            pl.store(pl.row_max(shifted, tmp), [0, 0], out)
            pl.store(pl.row_sum(pl.exp(t), tmp), [0, 1], out)
        return out


def test_reductions_read_only_the_valid_columns():
    x = negative(8, 32)
    out = pypto.run(RowStats, x, 20, np.zeros((8, 2), np.float32))
    np.testing.assert_allclose(out[:, 0], x[:, :20].max(1) + 1, rtol=1e-6)
    np.testing.assert_allclose(out[:, 1], np.exp(x[:, :20]).sum(1), rtol=1e-5)


@pl.program
class Tail:
    @pl.function
    def main(self, x: pl.Tensor[[16, N], pl.FP32], n: pl.Scalar[pl.INDEX],
             out: pl.Out[pl.Tensor[[16, N], pl.FP32]]) -> pl.Tensor[[16, N], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.load(x, [0, 0], [16, 64], valid_shape=[16, n])
            pl.store(pl.exp(t), [0, 0], out)
        return out


def test_a_store_writes_only_the_valid_region():
    # the tile is wider than the tensor; only its 40 valid columns go back
    x = negative(16, 40)
    out = pypto.run(Tail, x, 40, np.zeros((16, 40), np.float32))
    np.testing.assert_allclose(out, np.exp(x), rtol=1e-6)


@pl.program
class PartialK:
    @pl.function
    def main(self, a: pl.Tensor[[16, 32], pl.FP32], b: pl.Tensor[[32, 16], pl.FP32],
             k: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]
             ) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            la = pl.exp(pl.load(a, [0, 0], [16, 32], valid_shape=[16, k]))
            lb = pl.load(b, [0, 0], [32, 16], valid_shape=[k, 16], target_memory=pl.Mem.Mat)
            product = pl.matmul(pl.move(la, pl.Mem.Left), pl.move(lb, pl.Mem.Right))
            pl.store(pl.move(product, pl.Mem.Vec), [0, 0], out)
        return out


def test_matmul_sums_the_valid_k_only():
    a, b = negative(16, 32), negative(32, 16)
    out = pypto.run(PartialK, a, b, 12, np.zeros((16, 16), np.float32))
    np.testing.assert_allclose(out, np.exp(a[:, :12]) @ b[:12], rtol=1e-5)


def test_set_validshape_then_fillpad():
    x = negative(4, 8)
    partial = run_op("tile.set_validshape", [Tile(x), 2, 3])
    assert partial.valid_shape == (2, 3)
    padded = run_op("tile.fillpad", [Tile(partial)], {"pad_value": pl.PadValue.zero})
    expected = np.zeros_like(x)
    expected[:2, :3] = x[:2, :3]
    np.testing.assert_array_equal(padded, expected)
    assert getattr(padded, "valid_shape", None) is None  # whole again
    biggest = run_op("tile.fillpad", [Tile(partial)], {"pad_value": pl.PadValue.max})
    assert biggest[3, 7] == np.finfo(np.float32).max and biggest[1, 2] == x[1, 2]


def test_fillpad_inplace_fills_the_tile_itself():
    x = negative(4, 8)
    partial = run_op("tile.set_validshape", [Tile(x), 4, 5])
    result = run_op("tile.fillpad_inplace", [Tile(partial)], {"pad_value": pl.PadValue.min})
    assert np.all(result[:, 5:] == np.finfo(np.float32).min)
    np.testing.assert_array_equal(result[:, :5], x[:, :5])


def test_a_slice_with_a_valid_shape_is_partial_and_drop_dims_keep_it():
    x = negative(4, 8)
    part = run_op("tile.slice", [Tile(x), [2, 8], [1, 0], [2, 5]])
    assert part.valid_shape == (2, 5)
    np.testing.assert_array_equal(part[:, 5:], 0)
    row = run_op("tile.slice", [Tile(x), [1, 8], [0, 0], [1, 3], [0]])
    assert row.shape == (8,) and row.valid_shape == (3,)


def test_transpose_view_swaps_the_region():
    partial = run_op("tile.set_validshape", [Tile(negative(4, 8)), 2, 6])
    assert run_op("tile.transpose_view", [Tile(partial)]).valid_shape == (6, 2)
