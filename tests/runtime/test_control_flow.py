"""Control flow: for loops of every kind with and without iter_args, while loops,
if with return vars, break/continue, loop-carried tensors, deep nesting; each
checked against plain Python and, where the IR is not yet SSA, after ConvertToSSA."""

from __future__ import annotations

import numpy as np
import pytest

import pypto
import pypto.language as pl
from pypto import ir, passes
from pypto.ir.depth import MAX_STMT_NESTING
from pypto.runtime import ExecutionError

SPAN = ir.Span("flow.py", 4, 5)
DT = ir.DataType


def run_before_and_after_ssa(function: ir.Function, *args):
    """``function``'s result, checked equal after ConvertToSSA."""
    before = pypto.run(function, *args)
    program = passes.convert_to_ssa()(ir.Program([function], "P"))
    after = pypto.run(program, *args)
    assert after == before
    return before


@pl.function
def explicit_carries(n: pl.Scalar[pl.INDEX]) -> tuple[pl.Scalar[pl.INDEX], pl.Scalar[pl.INDEX],
                                                     pl.Scalar[pl.INDEX]]:
    for i, (acc, prod) in pl.range(1, n, init_values=(0, 1)):
        total, product = pl.yield_(acc + i, prod * i)
    for (x,) in pl.while_(init_values=(n,)):
        pl.cond(x > 1)
        halved = pl.yield_(x // 2)
    return total, product, halved


@pytest.mark.parametrize("n", [0, 1, 2, 7])
def test_for_and_while_with_iter_args(n):
    total, product, halved = run_before_and_after_ssa(explicit_carries, n)
    assert total == sum(range(1, n))
    assert product == np.prod(range(1, n), dtype=np.int64) if n > 1 else product == 1
    x = n
    while x > 1:
        x //= 2
    assert halved == x


@pl.function
def implicit_carries(n: pl.Scalar[pl.INDEX]) -> tuple[pl.Scalar[pl.INDEX], pl.Scalar[pl.INDEX]]:
    total = 0
    for i in pl.range(100):
        if i % 2 == 1:
            continue
        if i > n:
            break
        total = total + i
    k = n
    steps = 0
    while k > 1:
        k = k // 3
        steps = steps + 1
    return total, steps


@pytest.mark.parametrize("n", [0, 5, 9, 40])
def test_implicit_carries_with_break_and_continue(n):
    expected_total = sum(i for i in range(100) if i % 2 == 0 and i <= n)
    k, steps = n, 0
    while k > 1:
        k, steps = k // 3, steps + 1
    assert run_before_and_after_ssa(implicit_carries, n) == (expected_total, steps)


@pl.function
def branches(a: pl.Scalar[pl.INDEX], b: pl.Scalar[pl.INDEX]) -> tuple[pl.Scalar[pl.INDEX],
                                                                     pl.Scalar[pl.INDEX]]:
    if a > b:
        bigger = pl.yield_(a)
    else:
        bigger = pl.yield_(b)
    smaller = a
    if b < a:
        smaller = b
    return bigger, smaller


@pytest.mark.parametrize("a, b", [(3, 9), (9, 3), (4, 4)])
def test_if_with_return_vars_and_leaking_assignments(a, b):
    assert run_before_and_after_ssa(branches, a, b) == (max(a, b), min(a, b))


@pl.function
def loop_kinds(n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
    acc = 0
    for i in pl.parallel(4):
        acc = acc + i
    for k in pl.pipeline(2, stage=2):
        acc = acc + k * 1000
    for m in pl.range(10, 0, -3):
        acc = acc + m * 100000
    for j in pl.unroll(3):  # an unroll body that carries nothing
        t = j * 2
    return acc + n


def test_every_loop_kind_runs_sequentially_with_python_range_semantics():
    acc = sum(range(4))
    acc += sum(k * 1000 for k in range(2)) + sum(m * 100000 for m in range(10, 0, -3))
    assert run_before_and_after_ssa(loop_kinds, 1) == acc + 1


@pl.function
def unroll_carry(n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
    acc = n
    for j in pl.unroll(3):
        acc = acc * 10 + j
    return acc


def test_an_unroll_loop_that_carries_runs_before_ssa_and_is_refused_by_it():
    # pl.unroll has no init_values and an Unroll loop with iter_args no spelling: the
    # carry is refused at the loop (PyPTO's ConvertToSSA refuses it too).
    assert pypto.run(unroll_carry, 1) == 1012
    with pytest.raises(ValueError, match=r"ConvertToSSA: in function 'unroll_carry': the "
                                         r"pl.unroll loop carries 'acc' from one iteration to "
                                         r"the next, and an Unroll loop cannot carry values; "
                                         r"use pl.range for a loop that updates a value "
                                         r"\[.*test_control_flow.py:\d+:5\]"):
        passes.convert_to_ssa()(ir.Program([unroll_carry], "P"))


@pl.program
class Accumulate:
    @pl.function
    def main(self, x: pl.Tensor[[16, 8], pl.FP32], out: pl.Out[pl.Tensor[[4, 8], pl.FP32]]
             ) -> pl.Tensor[[4, 8], pl.FP32]:
        acc = pl.create_tile([4, 8], pl.FP32)
        for r in pl.range(4):
            t = pl.load(x, [r * 4, 0], [4, 8])
            acc = pl.add(acc, t)
        pl.store(acc, [0, 0], out)
        return out


def test_loop_carried_tiles_and_store_into_out():
    x = np.random.default_rng(5).random((16, 8), dtype=np.float32)
    out = np.zeros((4, 8), np.float32)
    result = pypto.run(Accumulate, x, out)
    assert result is out
    expected = x[0:4] + x[4:8] + x[8:12] + x[12:16]
    np.testing.assert_allclose(out, expected, rtol=1e-6)


def test_zero_step_and_non_integer_bounds_are_errors():
    i = ir.Var("i", ir.ScalarType(DT.INDEX), SPAN)
    zero_step = ir.Function("f", [], [], [ir.ForStmt(i, 0, 4, 0, [], ir.SeqStmts([]), [], SPAN)],
                            SPAN)
    with pytest.raises(ExecutionError, match="ForStmt at flow.py:4:5: loop step is 0"):
        pypto.run(zero_step)
    j = ir.Var("j", ir.ScalarType(DT.INDEX), SPAN)
    float_stop = ir.ForStmt(j, 0, ir.ConstFloat(2.5, DT.FP32, SPAN), 1, [], ir.SeqStmts([]), [],
                            SPAN)
    with pytest.raises(ExecutionError, match="loop bounds must be integers, got float 2.5"):
        pypto.run(ir.Function("g", [], [], [float_stop], SPAN))


def test_reading_a_variable_before_it_has_a_value():
    x = ir.Var("x", ir.ScalarType(DT.INDEX), ir.Span("flow.py", 9, 1))
    function = ir.Function("f", [], [ir.ScalarType(DT.INDEX)], [ir.ReturnStmt([x], SPAN)], SPAN)
    with pytest.raises(ExecutionError, match="variable 'x' at flow.py:9:1: read before it has a "
                                             "value"):
        pypto.run(function)


def test_loops_and_ifs_nested_to_the_limit_run_without_recursion_errors():
    depth = MAX_STMT_NESTING
    counter = ir.Var("c", ir.ScalarType(DT.INDEX), SPAN)
    body: ir.Stmt = ir.AssignStmt(counter, ir.Add(counter, ir.ConstInt(1, DT.INDEX, SPAN),
                                                  DT.INDEX, SPAN), SPAN)
    for level in range(depth):
        if level % 2:
            body = ir.IfStmt(ir.ConstBool(True, SPAN), body, None, [], SPAN)
        else:
            loop_var = ir.Var(f"i{level}", ir.ScalarType(DT.INDEX), SPAN)
            body = ir.ForStmt(loop_var, 0, 1, 1, [], body, [], SPAN)
    function = ir.Function("deep", [], [ir.ScalarType(DT.INDEX)],
                           [ir.AssignStmt(counter, ir.ConstInt(0, DT.INDEX, SPAN), SPAN), body,
                            ir.ReturnStmt([counter], SPAN)], SPAN)
    assert pypto.run(function) == 1
