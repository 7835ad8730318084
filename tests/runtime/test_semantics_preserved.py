"""The passes keep meaning: DSL programs give identical results (returned values and
every argument buffer written in place) before and after the default pipeline, on
random inputs."""

from __future__ import annotations

import numpy as np
import pytest

import pypto.language as pl
from pypto import ir

from ._helpers import assert_same_results, default_pipeline

RNG = np.random.default_rng(2024)
T = pl.Tensor[[64, 32], pl.FP32]
ROWS = 16


def rand(*shape: int) -> np.ndarray:
    return RNG.random(shape, dtype=np.float32)


def zeros(*shape: int) -> np.ndarray:
    return np.zeros(shape, np.float32)


def check(program: ir.Program, make_args, trials: int = 3):
    after = default_pipeline(program)
    assert after is not program
    return after, assert_same_results(program, after, make_args, trials)


@pl.program
class StoreInLoop:
    @pl.function
    def main(self, x: T, out: pl.Out[T]) -> T:
        for r in pl.range(4):
            with pl.at(level=pl.Level.CORE_GROUP):
                t = pl.load(x, [r * ROWS, 0], [ROWS, 32])
                pl.store(pl.exp(t), [r * ROWS, 0], out)
        return out


def test_incore_region_storing_inside_a_loop():
    after, result = check(StoreInLoop, lambda: [rand(64, 32), zeros(64, 32)])
    assert after["main"].func_type is pl.FunctionType.Orchestration
    assert "main_incore_0" in after


@pl.program
class Softmaxish:
    @pl.function
    def main(self, x: T, bias: pl.Tensor[[1, 32], pl.FP32], out: pl.Out[T],
             scale: pl.Scalar[pl.FP32]) -> T:
        for r in pl.range(64 // ROWS):
            with pl.at(level=pl.Level.CORE_GROUP):
                t = pl.load(x, [r * ROWS, 0], [ROWS, 32])
                b = pl.load(bias, [0, 0], [1, 32])
                shifted = pl.col_expand_add(pl.mul(t, scale), b)
                tmp = pl.create_tile([ROWS, 32], pl.FP32)
                peak = pl.row_max(shifted, tmp)
                e = pl.exp(pl.row_expand_sub(shifted, peak))
                total = pl.row_sum(e, tmp)
                pl.store(pl.row_expand_div(e, total), [r * ROWS, 0], out)
        return out


def test_row_softmax_with_scalar_and_broadcast_operands():
    _, result = check(Softmaxish, lambda: [rand(64, 32), rand(1, 32), zeros(64, 32), 0.5])
    x_rows = result.reshape(4, ROWS, 32)
    np.testing.assert_allclose(x_rows.sum(axis=-1), 1.0, rtol=1e-5)


@pl.program
class Branchy:
    @pl.function
    def main(self, x: T, y: T, n: pl.Scalar[pl.INDEX], out: pl.Out[T]) -> T:
        acc = pl.add(x, y)
        k = 0
        for i in pl.range(n):
            if i % 2 == 0:
                acc = pl.mul(acc, 0.5)
                k = k + 1
            else:
                acc = pl.add(acc, x)
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.load(acc, [0, 0], [64, 32])
            u = pl.add(t, pl.cast(k, pl.FP32))
            pl.store(u, [0, 0], out)
        return out


@pytest.mark.parametrize("n", [0, 1, 4])
def test_implicit_carries_and_branches_around_a_kernel(n):
    check(Branchy, lambda: [rand(64, 32), rand(64, 32), n, zeros(64, 32)])


@pl.program
class TwoOutputs:
    @pl.function
    def main(self, x: T, y: T) -> tuple[T, T]:
        with pl.at(level=pl.Level.CORE_GROUP):
            a = pl.load(x, [0, 0], [64, 32])
            b = pl.load(y, [0, 0], [64, 32])
            s = pl.create_tensor([64, 32], pl.FP32)
            d = pl.create_tensor([64, 32], pl.FP32)
            s2 = pl.store(pl.add(a, b), [0, 0], s)
            d2 = pl.store(pl.sub(a, b), [0, 0], d)
        return pl.mul(s2, d2), pl.add(s2, d2)


def test_a_region_with_several_outputs():
    check(TwoOutputs, lambda: [rand(64, 32), rand(64, 32)])


@pl.program
class Layers:
    @pl.function
    def main(self, w: T, acc: pl.InOut[T]) -> T:
        for i in pl.range(4):
            with pl.graph("accumulate_band"):
                base = i * ROWS
                with pl.at(level=pl.Level.CORE_GROUP):
                    band = pl.load(w, [base, 0], [ROWS, 32])
                    cur = pl.load(acc, [base, 0], [ROWS, 32])
                    pl.store(pl.add(cur, band), [base, 0], acc)
        return acc


def test_graph_regions_in_a_loop_accumulating_in_place():
    after, _ = check(Layers, lambda: [rand(64, 32), rand(64, 32)])
    assert after["accumulate_band"].func_type is pl.FunctionType.Graph


@pl.program
class Hosted:
    @pl.function
    def main(self, x: T, out: pl.Out[T]) -> T:
        with pl.at(level=pl.Level.HOST, role=pl.Role.Orchestrator):
            y = pl.mul(x, 2.0)
            with pl.at(level=pl.Level.CORE_GROUP):
                t = pl.load(y, [0, 0], [64, 32])
                pl.store(pl.sqrt(t), [0, 0], out)
        return out


def test_hierarchy_region_holding_an_incore_region():
    after, _ = check(Hosted, lambda: [rand(64, 32), zeros(64, 32)])
    assert "main_host_orch_0" in after


@pl.program
class Blocks:
    @pl.function
    def main(self, x: T, out: pl.Out[T]) -> T:
        for i in pl.spmd(4):
            t = pl.load(x, [i * ROWS, 0], [ROWS, 32])
            pl.store(pl.mul(t, pl.cast(i + 1, pl.FP32)), [i * ROWS, 0], out)
        return out


def test_spmd_blocks():
    _, result = check(Blocks, lambda: [rand(64, 32), zeros(64, 32)])
    assert result.any()


@pl.program
class Clustered:
    @pl.function(type=pl.FunctionType.InCore)
    def twice(x: T, o: pl.Out[T]) -> T:
        t = pl.load(x, [0, 0], [64, 32])
        o2 = pl.store(pl.add(t, t), [0, 0], o)
        return o2

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: T, o1: pl.Out[T], o2: pl.Out[T]) -> T:
        with pl.cluster():
            a = self.twice(x, o1)
            b = self.twice(a, o2)
        return b


def test_cluster_of_kernel_calls():
    after, _ = check(Clustered, lambda: [rand(64, 32), zeros(64, 32), zeros(64, 32)])
    assert "main_cluster_0" in after


@pl.program
class Inlined:
    @pl.function(type=pl.FunctionType.Inline)
    def scaled(self, x: T, s: pl.Scalar[pl.FP32]) -> T:
        return pl.mul(x, s)

    @pl.function
    def main(self, x: T, out: pl.Out[T]) -> T:
        y = self.scaled(x, 3.0)
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.load(y, [0, 0], [64, 32])
            pl.store(pl.neg(t), [0, 0], out)
        return out


def test_inline_functions_are_spliced():
    after, _ = check(Inlined, lambda: [rand(64, 32), zeros(64, 32)])
    assert "scaled" not in after


@pl.program
class Assembled:
    @pl.function
    def main(self, x: T) -> T:
        out = pl.create_tensor([64, 32], pl.FP32)
        for r in pl.range(4):
            part = pl.tensor.slice(x, [ROWS, 32], [r * ROWS, 0])
            out[r * ROWS:(r + 1) * ROWS, :] = pl.exp(part)
        total = 0.0
        k = 0
        while k < 3:
            total = total + pl.tensor.read(out, [k, k])
            k = k + 1
        return pl.add(out, total)


def test_assemble_rebinding_and_while_loops():
    _, result = check(Assembled, lambda: [rand(64, 32)])
    assert result.shape == (64, 32)


@pl.program
class Tasks:
    @pl.function
    def main(self, x: T, out: pl.Out[T], go: pl.Scalar[pl.BOOL]) -> T:
        with pl.at(level=pl.Level.CORE_GROUP) as first:
            t = pl.load(x, [0, 0], [64, 32])
            pl.store(pl.abs(t), [0, 0], out)
        with pl.at(level=pl.Level.CORE_GROUP, deps=[first], predicate=go):
            u = pl.load(out, [0, 0], [64, 32])
            pl.store(pl.add(u, 1.0), [0, 0], out)
        return out


@pytest.mark.parametrize("go", [True, False])
def test_task_regions_with_deps_and_predicates(go):
    check(Tasks, lambda: [rand(64, 32) - 0.5, zeros(64, 32), go])


@pl.program
class Matmuls:
    @pl.function
    def main(self, a: pl.Tensor[[32, 16], pl.FP16], b: pl.Tensor[[16, 32], pl.FP16],
             out: pl.Out[pl.Tensor[[32, 32], pl.FP32]]) -> pl.Tensor[[32, 32], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            ta = pl.load(a, [0, 0], [32, 16], target_memory=pl.Mem.Mat)
            tb = pl.load(b, [0, 0], [16, 32], target_memory=pl.Mem.Mat)
            c = pl.tile.matmul(ta, tb)
            acc = pl.tile.matmul_acc(c, ta, tb)
            pl.store(pl.cast(acc, pl.FP32), [0, 0], out)
        return out


def test_tile_matmuls():
    def args():
        return [rand(32, 16).astype(np.float16), rand(16, 32).astype(np.float16),
                zeros(32, 32)]
    check(Matmuls, args)


@pl.program
class ClusterOfBlocks:
    @pl.function(type=pl.FunctionType.InCore)
    def band(x: T, o: pl.Out[T]) -> T:
        i = pl.tile.get_block_idx()
        t = pl.load(x, [i * ROWS, 0], [ROWS, 32])
        o2 = pl.store(pl.exp(t), [i * ROWS, 0], o)
        return o2

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: T, o: pl.Out[T], launches: pl.InOut[pl.Tensor[[1], pl.INT64]]) -> T:
        with pl.cluster():
            seen = pl.tensor.read(launches, [0])
            pl.tensor.write(launches, [0], seen + 1)
            with pl.spmd(4):
                o2 = self.band(x, o)
        return o2


def test_cluster_launching_an_spmd_kernel():
    after, _ = check(ClusterOfBlocks, lambda: [rand(64, 32), zeros(64, 32),
                                               np.zeros(1, np.int64)])
    assert after["main_cluster_0"].func_type is pl.FunctionType.Group


@pl.program
class HoistedScalar:
    @pl.function
    def main(self, x: T, n: pl.Scalar[pl.INDEX], out: pl.Out[T]) -> T:
        with pl.at(level=pl.Level.CORE_GROUP):
            row = n * 2 + 1
            t = pl.load(x, [0, 0], [64, 32])
            pl.store(pl.mul(t, pl.cast(row, pl.FP32)), [0, 0], out)
        corner = pl.tensor.read(out, [row, 0])
        return pl.add(out, corner)


def test_a_scalar_computed_in_a_region_and_used_after_it():
    _, result = check(HoistedScalar, lambda: [rand(64, 32), 5, zeros(64, 32)])
    assert result.shape == (64, 32)


@pl.program
class BlocksRebindingAScalar:
    @pl.function
    def main(self, x: T, out: pl.Out[T]) -> T:
        row: pl.Scalar[pl.INDEX] = 0
        for i in pl.spmd(4):
            row = row + ROWS            # every block starts from row = 0, as on the device
            t = pl.load(x, [row - ROWS, 0], [ROWS, 32])
            pl.store(t, [i * ROWS, 0], out)
        return out


def test_spmd_blocks_each_start_from_the_values_the_region_was_entered_with():
    x = rand(64, 32)
    after, result = check(BlocksRebindingAScalar, lambda: [x, zeros(64, 32)])
    assert np.array_equal(result, np.tile(x[:ROWS], (4, 1)))


@pl.program
class LanesRebindingAScalar:
    @pl.function
    def main(self, x: T, out: pl.Out[T]) -> T:
        with pl.at(level=pl.Level.CORE_GROUP):
            col: pl.Scalar[pl.INDEX] = 0
            for lane in pl.split_aiv(2, mode=pl.SplitMode.LEFT_RIGHT):
                col = col + 16          # each vector core starts from col = 0
                t = pl.load(x, [0, col - 16], [64, 16])
                out = pl.store(t, [0, lane * 16], out)
        return out


def test_split_aiv_lanes_each_start_from_the_values_the_split_was_entered_with():
    x = rand(64, 32)
    after, result = check(LanesRebindingAScalar, lambda: [x, zeros(64, 32)])
    assert np.array_equal(result, np.tile(x[:, :16], (1, 2)))
