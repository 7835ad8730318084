"""Realistic kernels over the tile op set inside ``pl.at`` regions: each compiles through
the Default pipeline and gives the same results before and after it, matching NumPy.

* a softmax over a dynamic number of valid columns (valid regions, fillpad, row
  reductions and broadcasts);
* a split-K matmul: tiles loaded into Mat, K-blocks extracted into Left/Right, the
  accumulator moved out of Acc;
* a top-k: sort32 + mrgsort + gather_mask, and a gather of the payload by the indices;
* a cube/vector pair talking through a cross-core pipe.
"""

from __future__ import annotations

import numpy as np

import pypto
import pypto.language as pl

from ._helpers import assert_same_results, default_pipeline

RNG = np.random.default_rng(5)


def rand(*shape, dtype=np.float32, low=0.0, high=1.0):
    return RNG.uniform(low, high, size=shape).astype(dtype)


def compiled(program):
    after = default_pipeline(program)
    assert after is not program
    return after


@pl.program
class MaskedSoftmax:
    @pl.function
    def main(self, x: pl.Tensor[[32, 64], pl.FP32], n: pl.Scalar[pl.INDEX],
             out: pl.Out[pl.Tensor[[32, 64], pl.FP32]]) -> pl.Tensor[[32, 64], pl.FP32]:
        for r in pl.range(2):
            with pl.at(level=pl.Level.CORE_GROUP):
                t = pl.load(x, [r * 16, 0], [16, 64], valid_shape=[16, n])
                t = pl.fillpad(t, pad_value=pl.PadValue.min)
                tmp = pl.tile.create([16, 64], pl.FP32)
                peak = pl.row_max(t, tmp)
                e = pl.row_expand_expdif(t, peak)
                total = pl.row_sum(e, tmp)
                pl.store(pl.row_expand_div(e, total), [r * 16, 0], out)
        return out


def test_softmax_over_the_valid_columns():
    after = compiled(MaskedSoftmax)
    x = rand(32, 64, low=-4.0, high=-1.0)  # all negative: a zero pad would win row_max
    result = assert_same_results(MaskedSoftmax, after,
                                 lambda: [x.copy(), 40, np.zeros((32, 64), np.float32)])
    valid = np.exp(x[:, :40] - x[:, :40].max(1, keepdims=True))
    np.testing.assert_allclose(result[:, :40], valid / valid.sum(1, keepdims=True), rtol=1e-5)
    np.testing.assert_array_equal(result[:, 40:], 0)  # exp(min - max) underflows to 0


@pl.program
class SplitK:
    @pl.function
    def main(self, a: pl.Tensor[[32, 64], pl.FP16], b: pl.Tensor[[64, 32], pl.FP16],
             out: pl.Out[pl.Tensor[[32, 32], pl.FP32]]) -> pl.Tensor[[32, 32], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            a_l1 = pl.load(a, [0, 0], [32, 64], target_memory=pl.Mem.Mat)
            b_l1 = pl.load(b, [0, 0], [64, 32], target_memory=pl.Mem.Mat)
            acc = pl.tile.create([32, 32], pl.FP32, pl.Mem.Acc)
            for k in pl.range(2):
                a_k = pl.tile.extract(a_l1, 0, k * 32, [32, 32], target_memory=pl.Mem.Left)
                b_k = pl.tile.extract(b_l1, k * 32, 0, [32, 32], target_memory=pl.Mem.Right)
                acc = pl.matmul_acc(acc, a_k, b_k, init_cond=k == 0)
            pl.store(pl.move(acc, pl.Mem.Vec), [0, 0], out)
        return out


def test_split_k_matmul_with_extract_and_moves():
    after = compiled(SplitK)
    a, b = rand(32, 64, dtype=np.float16), rand(64, 32, dtype=np.float16)
    result = assert_same_results(SplitK, after,
                                 lambda: [a.copy(), b.copy(), np.zeros((32, 32), np.float32)])
    np.testing.assert_allclose(result, a.astype(np.float32) @ b.astype(np.float32), rtol=1e-5)


@pl.program
class TopK:
    @pl.function
    def main(self, scores: pl.Tensor[[1, 128], pl.FP32], payload: pl.Tensor[[1, 128], pl.FP32],
             top: pl.Out[pl.Tensor[[1, 8], pl.FP32]], picked: pl.Out[pl.Tensor[[1, 8], pl.FP32]]
             ) -> pl.Tensor[[1, 8], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            s = pl.load(scores, [0, 0], [1, 128])
            runs = pl.sort32(s, pl.tile.ci(0, [1, 128], dtype=pl.INT32))
            merged = pl.mrgsort(runs, block_len=32)
            values = pl.tile.gather_mask(merged, pl.tile.MaskPattern.P0101)
            ids = pl.tile.gather_mask(merged, pl.tile.MaskPattern.P1010, output_dtype=pl.INT32)
            top_ids = pl.slice(ids, [1, 8], [0, 0])
            p = pl.load(payload, [0, 0], [1, 128])
            pl.store(pl.slice(values, [1, 8], [0, 0]), [0, 0], top)
            pl.store(pl.tile.gather(p, top_ids, p), [0, 0], picked)
        return top


def test_top_k_by_sort_merge_and_gather():
    after = compiled(TopK)
    scores, payload = rand(1, 128), rand(1, 128)
    zeros = np.zeros((1, 8), np.float32)
    top = assert_same_results(TopK, after,
                              lambda: [scores.copy(), payload.copy(), zeros.copy(), zeros.copy()])
    order = np.argsort(-scores[0], kind="stable")[:8]
    np.testing.assert_array_equal(top[0], scores[0, order])
    picked = zeros.copy()
    pypto.run(after, scores, payload, zeros.copy(), picked)
    np.testing.assert_array_equal(picked[0], payload[0, order])


@pl.program
class CubeThenVector:
    @pl.function
    def main(self, a: pl.Tensor[[16, 32], pl.FP32], b: pl.Tensor[[32, 16], pl.FP32],
             out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.at(level=pl.Level.AIC):
            pl.aic_initialize_pipe(0, 0, dir_mask=1, slot_size=1024)
            la = pl.load(a, [0, 0], [16, 32], target_memory=pl.Mem.Mat)
            lb = pl.load(b, [0, 0], [32, 16], target_memory=pl.Mem.Mat)
            acc = pl.matmul(pl.move(la, pl.Mem.Left), pl.move(lb, pl.Mem.Right))
            pl.tpush_to_aiv(acc, split=0)
        with pl.at(level=pl.Level.AIV):
            buf = pl.import_peer_buffer(name="c2v", peer_func="main")
            pl.aiv_initialize_pipe(buf, 0, dir_mask=1, slot_size=1024)
            t = pl.tpop_from_aic(shape=[16, 16], dtype=pl.FP32)
            r = pl.exp(t)
            pl.tfree_to_aic(t)
            pl.store(r, [0, 0], out)
        return out


def test_cube_and_vector_through_a_pipe():
    after = compiled(CubeThenVector)
    assert {"main_aic_0", "main_aiv_1"} <= {f.name for f in after.functions.values()}
    a, b = rand(16, 32), rand(32, 16)
    result = assert_same_results(CubeThenVector, after,
                                 lambda: [a.copy(), b.copy(), np.zeros((16, 16), np.float32)])
    np.testing.assert_allclose(result, np.exp(a @ b), rtol=1e-5)
