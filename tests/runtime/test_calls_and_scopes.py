"""Calls between functions (InOut/Out buffers written in place, tuple returns),
Submit with task ids, deps and predicates, SPMD launches, scopes run in place,
dynamic dims, and entry selection."""

from __future__ import annotations

import numpy as np
import pytest

import pypto
import pypto.language as pl
from pypto import ir
from pypto.runtime import ExecutionError, Executor

RNG = np.random.default_rng(7)
T = pl.Tensor[[8, 8], pl.FP32]


def rand(*shape: int) -> np.ndarray:
    return RNG.random(shape, dtype=np.float32)


@pl.program
class ScaleTwice:
    @pl.function(type=pl.FunctionType.InCore)
    def scale_add(x: T, s: pl.Scalar[pl.FP32], acc: pl.InOut[T]) -> T:
        t = pl.load(x, [0, 0], [8, 8])
        u = pl.load(acc, [0, 0], [8, 8])
        acc_2 = pl.store(pl.add(pl.mul(t, s), u), [0, 0], acc)
        return acc_2

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: T, acc: pl.InOut[T]) -> T:
        first = self.scale_add(x, 2.0, acc)
        second = self.scale_add(x, 3.0, first)
        return second


def test_inout_buffers_are_updated_in_place_across_calls():
    x, acc = rand(8, 8), rand(8, 8)
    original = acc.copy()
    result = pypto.run(ScaleTwice, x, acc)
    assert result is acc
    np.testing.assert_allclose(acc, original + 2 * x + 3 * x, rtol=1e-6)


def test_in_arguments_are_never_modified():
    @pl.program
    class WritesItsInput:
        @pl.function
        def main(self, x: T) -> pl.Scalar[pl.FP32]:
            y = pl.tensor.write(x, [0, 0], 42.0)
            return pl.tensor.read(y, [0, 0])

    x = np.zeros((8, 8), np.float32)
    assert pypto.run(WritesItsInput, x) == 42.0
    assert x[0, 0] == 0.0


@pl.program
class Pairs:
    @pl.function
    def split(self, x: T) -> tuple[T, T]:
        return pl.add(x, x), pl.mul(x, x)

    @pl.function
    def main(self, x: T) -> tuple[T, T, pl.Scalar[pl.INDEX]]:
        doubled, squared = self.split(x)
        return doubled, squared, pl.tensor.dim(x, 0)


def test_tuple_returns_between_functions_and_to_the_caller():
    x = rand(8, 8)
    doubled, squared, rows = pypto.run(Pairs, x)
    np.testing.assert_array_equal(doubled, x + x)
    np.testing.assert_array_equal(squared, x * x)
    assert rows == 8


@pl.program
class Tasks:
    @pl.function(type=pl.FunctionType.InCore)
    def fill(x: T, o: pl.Out[T]) -> T:
        t = pl.load(x, [0, 0], [8, 8])
        o_2 = pl.store(pl.add(t, 1.0), [0, 0], o)
        return o_2

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: T, o: pl.Out[T], run_second: pl.Scalar[pl.BOOL]
             ) -> tuple[T, pl.Scalar[pl.TASK_ID], pl.Scalar[pl.TASK_ID]]:
        r1, t1 = pl.submit(self.fill, x, o)
        r2, t2 = pl.submit(self.fill, r1, r1, deps=[t1], predicate=run_second)
        return r2, t1, t2


def test_submit_runs_synchronously_with_small_task_ids():
    x, o = rand(8, 8), np.zeros((8, 8), np.float32)
    result, first, second = pypto.run(Tasks, x, o, True)
    assert (first, second) == (0, 1) and result is o
    np.testing.assert_allclose(o, x + 2.0, rtol=1e-6)


def test_submit_with_a_false_predicate_does_not_run():
    x, o = rand(8, 8), np.zeros((8, 8), np.float32)
    result, first, second = pypto.run(Tasks, x, o, False)
    assert (first, second) == (0, -1)
    assert result is o  # the skipped task returns its Out param: the untouched buffer
    np.testing.assert_allclose(o, x + 1.0, rtol=1e-6)


@pl.program
class Blocks:
    @pl.function
    def main(self, x: pl.Tensor[[4, 8], pl.FP32], out: pl.Out[pl.Tensor[[4, 8], pl.FP32]],
             ids: pl.Out[pl.Tensor[[4], pl.INT64]]) -> pl.Tensor[[4, 8], pl.FP32]:
        for i in pl.spmd(4):
            t = pl.load(x, [i, 0], [1, 8])
            pl.store(pl.mul(t, pl.cast(i, pl.FP32)), [i, 0], out)
            n = pl.tile.get_block_num()
            pl.tensor.write(ids, [i], pl.cast(n * 10 + i, pl.INT64))
        return out


def test_spmd_runs_the_body_once_per_block():
    x = rand(4, 8)
    out, ids = np.zeros((4, 8), np.float32), np.zeros(4, np.int64)
    pypto.run(Blocks, x, out, ids)
    np.testing.assert_allclose(out, x * np.arange(4, dtype=np.float32)[:, None], rtol=1e-6)
    np.testing.assert_array_equal(ids, [40, 41, 42, 43])


@pl.program
class Regions:
    @pl.function(auto_scope=False)
    def main(self, x: T, out: pl.Out[T]) -> T:
        with pl.graph("layer"):
            with pl.scope():
                with pl.at(level=pl.Level.CORE_GROUP):
                    t = pl.load(x, [0, 0], [8, 8])
                    pl.store(pl.exp(t), [0, 0], out)
        with pl.at(level=pl.Level.HOST, role=pl.Role.Orchestrator):
            with pl.at(level=pl.Level.CORE_GROUP):
                u = pl.load(out, [0, 0], [8, 8])
                pl.store(pl.mul(u, 2.0), [0, 0], out)
        return out


def test_regions_run_in_place():
    x, out = rand(8, 8), np.zeros((8, 8), np.float32)
    assert pypto.run(Regions, x, out) is out
    np.testing.assert_allclose(out, 2 * np.exp(x), rtol=1e-6)


@pl.program
class ClusterLaunch:
    @pl.function
    def main(self, x: pl.Tensor[[4, 8], pl.FP32], out: pl.Out[pl.Tensor[[4, 8], pl.FP32]],
             counts: pl.InOut[pl.Tensor[[1], pl.INT64]]) -> pl.Tensor[[4, 8], pl.FP32]:
        with pl.cluster():
            seen = pl.tensor.read(counts, [0])
            pl.tensor.write(counts, [0], seen + 1)
            for i in pl.spmd(4):
                t = pl.load(x, [i, 0], [1, 8])
                pl.store(pl.neg(t), [i, 0], out)
        return out


def test_a_cluster_holding_an_spmd_is_launched_once_per_block():
    x, out, counts = rand(4, 8), np.zeros((4, 8), np.float32), np.zeros(1, np.int64)
    pypto.run(ClusterLaunch, x, out, counts)
    np.testing.assert_array_equal(out, -x)
    assert counts[0] == 4  # the whole cluster body runs per block, as after outlining


M = pl.dynamic("M")


@pl.program
class Dynamic:
    @pl.function
    def main(self, x: pl.Tensor[[M, 8], pl.FP32], y: pl.Tensor[[M, 8], pl.FP32]
             ) -> tuple[pl.Tensor[[M, 8], pl.FP32], pl.Scalar[pl.INDEX]]:
        return pl.add(x, y), pl.tensor.dim(x, 0)


def test_dynamic_dims_bind_from_the_arguments():
    x, y = rand(5, 8), rand(5, 8)
    total, rows = pypto.run(Dynamic, x, y)
    np.testing.assert_array_equal(total, x + y)
    assert rows == 5
    with pytest.raises(ExecutionError, match="dynamic dim 'M' is already bound to 5"):
        pypto.run(Dynamic, x, rand(6, 8))


@pl.program
class TwoRoots:
    @pl.function
    def a(self, x: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        return x + 1

    @pl.function
    def b(self, x: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        return x * 2


def test_entry_selection():
    assert Executor(ScaleTwice).entry_name() == "main"  # the single Orchestration function
    assert Executor(Pairs).entry_name() == "main"  # the single function nobody calls
    with pytest.raises(ValueError, match="cannot choose an entry.*pass entry= one of 'a', 'b'"):
        pypto.run(TwoRoots, 3)
    assert pypto.run(TwoRoots, 3, entry="b") == 6
    assert pypto.run(TwoRoots, 3, entry=TwoRoots["a"]) == 4
    with pytest.raises(ValueError, match="entry 'c' is not a function of program 'TwoRoots'"):
        pypto.run(TwoRoots, 3, entry="c")


def test_a_lone_function_runs_but_cannot_call_others():
    assert pypto.run(TwoRoots["a"], 1) == 2
    with pytest.raises(ExecutionError, match="function 'split' is not in the program "
                                             r"\(a lone Function was given"):
        pypto.run(Pairs["main"], rand(8, 8))


def test_functions_without_an_executable_body_are_reported():
    span = ir.Span("host.py", 2, 1)
    bodyless = ir.Function("remote", [], [], ir.SeqStmts([]), span,
                           requires_runtime_binding=True)
    with pytest.raises(ExecutionError, match="call of 'remote' at host.py:2:1: the function "
                                             "has no body"):
        pypto.run(bodyless)
    inline = ir.Function("host", [], [], [ir.InlineStmt("print(1)", span=span)], span)
    with pytest.raises(ExecutionError, match="InlineStmt at host.py:2:1: inline Python source"):
        pypto.run(inline)


def test_an_executor_can_be_reused():
    executor = Executor(TwoRoots)
    assert [executor.run(k, entry="a") for k in range(3)] == [1, 2, 3]


@pl.program
class SpmdSubmit:
    @pl.function(type=pl.FunctionType.InCore)
    def band(x: pl.Tensor[[4, 8], pl.FP32], o: pl.Out[pl.Tensor[[4, 8], pl.FP32]]
             ) -> pl.Tensor[[4, 8], pl.FP32]:
        i = pl.tile.get_block_idx()
        t = pl.load(x, [i, 0], [1, 8])
        o2 = pl.store(pl.add(t, t), [i, 0], o)
        return o2

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[4, 8], pl.FP32], o: pl.Out[pl.Tensor[[4, 8], pl.FP32]]
             ) -> pl.Scalar[pl.TASK_ID]:
        r, tid = pl.spmd_submit(self.band, x, o, core_num=4)
        return tid


def test_spmd_submit_launches_core_num_blocks_as_one_task():
    x, o = rand(4, 8), np.zeros((4, 8), np.float32)
    assert pypto.run(SpmdSubmit, x, o) == 0
    np.testing.assert_array_equal(o, x + x)


def test_unbounded_recursion_is_reported():
    span = ir.Span("rec.py", 3, 4)
    n = ir.Var("n", ir.ScalarType(ir.DataType.INDEX), span)
    call = ir.Call(ir.GlobalVar("f"), [n], ir.ScalarType(ir.DataType.INDEX), span)
    recursive = ir.Function("f", [n], [ir.ScalarType(ir.DataType.INDEX)],
                            [ir.ReturnStmt([call], span)], span)
    with pytest.raises(ExecutionError, match=r"call of 'f' at rec.py:3:4: more than 100 "
                                             r"nested calls \(unbounded recursion\?\)"):
        pypto.run(ir.Program([recursive], "R"), 1)


def test_a_condition_that_is_not_a_scalar_is_reported():
    span = ir.Span("cond.py", 8, 2)
    x = ir.Var("x", ir.TensorType([2], ir.DataType.BOOL), span)
    branch = ir.IfStmt(x, ir.SeqStmts([]), None, [], span)
    with pytest.raises(ExecutionError, match=r"IfStmt at cond.py:8:2: condition must be a Bool "
                                             r"scalar, got ndarray bool\[2\]"):
        pypto.run(ir.Function("f", [x], [], [branch], span), np.array([True, False]))
