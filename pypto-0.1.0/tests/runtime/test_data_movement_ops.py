"""Creation, load/store/move/slice/assemble, reshape/transpose, read/write/dim, and
the aliasing model: registry-declared writers update their target in place."""

from __future__ import annotations

import numpy as np
import pytest

import pypto
import pypto.language as pl
from pypto import ir

from ._helpers import DT, Out, Scalar, Tile, run_op

RNG = np.random.default_rng(99)


def rand(*shape: int) -> np.ndarray:
    return RNG.random(shape, dtype=np.float32)


@pytest.mark.parametrize("op_name, kwargs", [("tensor.create", {"dtype": DT.INT16}),
                                             ("tile.create", {"dtype": DT.INT16})])
def test_create_gives_a_zero_buffer_of_the_dtype(op_name, kwargs):
    result = run_op(op_name, [[2, 3]], kwargs)
    assert result.dtype == np.int16 and result.shape == (2, 3) and not result.any()


def test_full():
    result = run_op("tensor.full", [[2, 2], 2.5], {"dtype": DT.FP16})
    assert result.dtype == np.float16
    np.testing.assert_array_equal(result, np.full((2, 2), 2.5, np.float16))


def test_create_with_bf16_uses_float32_storage():
    assert run_op("tensor.create", [[4]], {"dtype": DT.BF16}).dtype == np.float32


def test_load_copies_the_window():
    x = rand(8, 6)
    tile = run_op("tile.load", [x, [2, 1], [3, 4]])
    np.testing.assert_array_equal(tile, x[2:5, 1:5])
    assert not np.shares_memory(tile, x)


def test_load_with_valid_shape_zero_fills_the_rest():
    x = rand(6, 6)
    tile = run_op("tile.load", [x, [2, 1], [4, 4], [2, 3]])
    expected = np.zeros((4, 4), np.float32)
    expected[:2, :3] = x[2:4, 1:4]
    np.testing.assert_array_equal(tile, expected)


def test_store_writes_into_an_out_param_in_place_and_returns_it():
    out = np.zeros((6, 6), np.float32)
    tile = rand(2, 3)
    result = run_op("tile.store", [Tile(tile), [4, 3], Out(out)])
    assert result is out
    np.testing.assert_array_equal(out[4:6, 3:6], tile)
    assert out.sum() == pytest.approx(tile.sum())


def test_store_with_shapes_writes_the_leading_part_of_the_tile():
    out = np.zeros((4, 4), np.float32)
    tile = rand(3, 3)
    run_op("tile.store", [Tile(tile), [0, 0], Out(out), [2, 2]])
    np.testing.assert_array_equal(out[:2, :2], tile[:2, :2])
    assert not out[2:].any() and not out[:, 2:].any()


def test_atomic_store_and_assemble_accumulate():
    out = np.ones((2, 2), np.float32)
    run_op("tile.store", [Tile(np.full((2, 2), 2.0, np.float32)), [0, 0], Out(out)],
           {"atomic": pl.AtomicType.Add})
    np.testing.assert_array_equal(out, np.full((2, 2), 3.0))
    run_op("tensor.assemble", [Out(out), np.ones((1, 2), np.float32), [1, 0]],
           {"atomic": pl.AtomicType.Add})
    np.testing.assert_array_equal(out, [[3.0, 3.0], [4.0, 4.0]])


def test_writers_on_in_params_never_touch_the_callers_array():
    x = np.zeros((2, 2), np.float32)
    result = run_op("tensor.write", [x, [1, 1], 5.0])
    assert result[1, 1] == 5.0 and x[1, 1] == 0.0


def test_assemble_updates_the_target_in_place():
    target = np.zeros((4, 4), np.float32)
    source = rand(2, 4)
    result = run_op("tensor.assemble", [Out(target), source, [2, 0]])
    assert result is target
    np.testing.assert_array_equal(target[2:], source)
    assert not target[:2].any()


def test_tile_assemble_and_move():
    target, source = np.zeros((3, 3), np.float32), rand(1, 2)
    result = run_op("tile.assemble", [Tile(target), Tile(source), [2, 1]])
    np.testing.assert_array_equal(result[2, 1:], source[0])
    moved = run_op("tile.move", [Tile(source)], {"target_memory": pl.Mem.Mat})
    np.testing.assert_array_equal(moved, source)


def test_tile_slice_copies_the_window():
    x = rand(5, 6)
    result = run_op("tile.slice", [Tile(x), [2, 3], [1, 2]])
    np.testing.assert_array_equal(result, x[1:3, 2:5])
    assert not np.shares_memory(result, x)


def test_tensor_slice_is_a_view_of_the_window():
    x = rand(5, 6)
    result = run_op("tensor.slice", [x, [2, 3], [1, 2]])
    np.testing.assert_array_equal(result, x[1:3, 2:5])
    assert result.base is not None and result.flags.writeable


def test_tensor_slice_with_drop_dims_and_valid_shape():
    x = rand(4, 4)
    row = run_op("tensor.slice", [x, [1, 4], [2, 0], None, [0]])
    assert row.shape == (4,) and row.base is not None
    np.testing.assert_array_equal(row, x[2])
    # The whole window fits: a view, whatever lies outside the valid part.
    partial = run_op("tensor.slice", [x, [2, 2], [2, 2], [1, 2]])
    np.testing.assert_array_equal(partial, x[2:4, 2:4])


def test_tile_slice_with_valid_shape_zero_fills_the_rest():
    x = rand(4, 4)
    partial = run_op("tile.slice", [Tile(x), [2, 2], [2, 2], [1, 2]])
    np.testing.assert_array_equal(partial, [[x[2, 2], x[2, 3]], [0.0, 0.0]])


T16 = pl.Tensor[[16, 16], pl.FP32]
T32 = pl.Tensor[[32, 16], pl.FP32]


@pl.program
class KernelWritesSlicesOfOut:
    @pl.function(type=pl.FunctionType.InCore)
    def fill(self, a: T16, o: pl.Out[T16]) -> T16:
        o = pl.store(pl.add(pl.load(a, [0, 0], [16, 16]), 1.0), [0, 0], o)
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: T16, out: pl.Out[T32]) -> T32:
        for i in pl.range(2):
            view: T16 = pl.slice(out, [16, 16], [i * 16, 0])
            view = self.fill(a, view)
        return out


@pytest.mark.parametrize("lowered", [False, True], ids=["parsed", "lowered"])
def test_a_kernel_writing_a_slice_of_an_out_tensor_writes_the_out_tensor(lowered):
    program = KernelWritesSlicesOfOut
    if lowered:
        program = ir.PassManager.get_strategy(ir.OptimizationStrategy.Default).run_passes(program)
    a = rand(16, 16)
    out = np.zeros((32, 16), np.float32)
    pypto.run(program, a, out)
    np.testing.assert_array_equal(out, np.concatenate([a + 1, a + 1]))


@pl.program
class SliceReachingPastTheSource:
    @pl.function
    def main(self, x: pl.Tensor[[4, 4], pl.FP32], row: pl.Scalar[pl.INDEX],
             write: pl.Scalar[pl.BOOL]) -> pl.Tensor[[2, 2], pl.FP32]:
        part: pl.Tensor[[2, 2], pl.FP32] = pl.tensor.slice(x, [2, 2], [row, 0], [1, 2])
        if write:
            part = pl.tensor.write(part, [0, 0], 1.0)
        return part


def test_a_slice_whose_window_reaches_past_the_source_is_a_padded_copy():
    x = rand(4, 4)
    part = pypto.run(SliceReachingPastTheSource, x, 3, False)
    np.testing.assert_array_equal(part, [[x[3, 0], x[3, 1]], [0.0, 0.0]])


def test_a_write_into_a_padded_slice_copy_is_refused_by_name():
    with pytest.raises(pypto.runtime.ExecutionError,
                       match=r"tensor.write at .*: the destination is a copy, not a view"):
        pypto.run(SliceReachingPastTheSource, rand(4, 4), 3, True)


def test_tensor_reshape_is_a_view():
    x = rand(4, 6)
    flat = run_op("tensor.reshape", [x, [24]])
    assert flat.base is not None and flat.flags.writeable
    np.testing.assert_array_equal(flat, x.reshape(24))


def test_a_reshape_of_a_strided_slice_is_a_copy_that_refuses_writes():
    @pl.program
    class ReshapeOfColumns:
        @pl.function
        def main(self, out: pl.Out[pl.Tensor[[4, 6], pl.FP32]]) -> pl.Tensor[[4, 6], pl.FP32]:
            columns: pl.Tensor[[4, 3], pl.FP32] = pl.tensor.slice(out, [4, 3], [0, 0])
            flat: pl.Tensor[[12], pl.FP32] = pl.tensor.reshape(columns, [12])
            flat = pl.tensor.write(flat, [0], 1.0)
            return out

    with pytest.raises(pypto.runtime.ExecutionError,
                       match=r"tensor.write at .*: the destination is a copy, not a view"):
        pypto.run(ReshapeOfColumns, np.zeros((4, 6), np.float32))


@pytest.mark.parametrize("namespace", ["tensor", "tile"])
def test_reshape_and_transpose(namespace):
    x = rand(2, 3, 4)
    operand = Tile(x) if namespace == "tile" else x
    np.testing.assert_array_equal(run_op(f"{namespace}.reshape", [operand, [6, 4]]),
                                  x.reshape(6, 4))
    transposed = run_op(f"{namespace}.transpose", [operand, 0, 2])
    np.testing.assert_array_equal(transposed, np.swapaxes(x, 0, 2))
    assert transposed.flags["C_CONTIGUOUS"]
    np.testing.assert_array_equal(run_op(f"{namespace}.transpose", [operand, -1, 1]),
                                  np.swapaxes(x, 2, 1))


def test_read_write_and_dim():
    x = np.arange(12, dtype=np.int32).reshape(3, 4)
    value = run_op("tensor.read", [x, [2, 1]])
    assert value == 9 and type(value) is int
    assert run_op("tile.read", [Tile(x), [0, 3]]) == 3
    written = run_op("tile.write", [Tile(x), [1, 1], Scalar(-7, DT.INT32)])
    assert written[1, 1] == -7
    assert run_op("tensor.dim", [x, 1]) == 4 and run_op("tensor.dim", [x, -2]) == 3
    assert type(run_op("tensor.read", [rand(2, 2), [0, 0]])) is float


def test_block_queries_outside_spmd_and_task_invalid():
    assert run_op("tile.get_block_idx", []) == 0
    assert run_op("tile.get_block_num", []) == 1
    assert run_op("tile.get_subblock_idx", []) == 0
    assert run_op("system.task_invalid", []) == -1


def test_store_result_aliases_the_target_so_later_reads_see_the_write():
    @pl.program
    class StoreThenRead:
        @pl.function
        def main(self, x: pl.Tensor[[4, 4], pl.FP32],
                 out: pl.Out[pl.Tensor[[4, 4], pl.FP32]]) -> pl.Scalar[pl.FP32]:
            t = pl.load(x, [0, 0], [2, 2])
            alias = pl.store(t, [2, 2], out)
            return pl.tensor.read(alias, [3, 3]) + pl.tensor.read(out, [3, 3])

    x = rand(4, 4)
    out = np.zeros((4, 4), np.float32)
    result = pypto.run(StoreThenRead, x, out)
    assert result == pytest.approx(2 * float(x[1, 1]))
    np.testing.assert_array_equal(out[2:, 2:], x[:2, :2])
