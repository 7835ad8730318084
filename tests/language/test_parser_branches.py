"""``if``/``else`` with return vars, ``break``/``continue`` placement and ``pl.const``
(01-language.md §6.3, §6.4)."""

from __future__ import annotations

import pytest

import pypto.language as pl
from pypto import ir
from pypto.language.parser.diagnostics import (InvalidOperationError, ParserSyntaxError,
                                               ParserTypeError)

from _parser_helpers import (FP32, INDEX, INT32, INT64, SPAN, expect_error, expect_text_error,
                             scalar, stmts)

S = scalar(INDEX)


def seq(*items):
    return ir.SeqStmts.flatten(list(items))


def c(value, dtype=INDEX):
    return ir.ConstInt(value, dtype, SPAN)


# -- if ---------------------------------------------------------------------------------------

def test_if_else_without_yields_leaks_names():
    @pl.function
    def f(n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        if n > 0:
            k = n
        else:
            k = 1
        return k

    (n,) = f.params
    k = ir.Var("k", S, SPAN)
    branch = ir.IfStmt(ir.gt(n, 0), ir.AssignStmt(k, n, SPAN), ir.AssignStmt(k, c(1), SPAN), [],
                       SPAN)
    expected = ir.Function("f", [n], [S], seq(branch, ir.ReturnStmt([k], SPAN)), SPAN)
    ir.assert_structural_equal(f, expected)


def test_if_without_else():
    @pl.function
    def f(n: pl.Scalar[pl.INDEX]):
        if n > 0:
            k = n

    branch = stmts(f)[0]
    assert isinstance(branch, ir.IfStmt) and branch.else_body is None


def test_if_return_vars_from_yields():
    @pl.function
    def f(n: pl.Scalar[pl.INDEX], m: pl.Scalar[pl.INT32]) -> pl.Scalar[pl.INDEX]:
        if n > 0:
            y, z = pl.yield_(n, m)
        else:
            y, z = pl.yield_(n + 1, m)
        return y

    n, m = f.params
    y, z = ir.Var("y", S, SPAN), ir.Var("z", scalar(INT32), SPAN)
    branch = ir.IfStmt(ir.gt(n, 0), ir.YieldStmt([n, m], SPAN),
                       ir.YieldStmt([ir.add(n, 1), m], SPAN), [y, z], SPAN)
    expected = ir.Function("f", [n, m], [S], seq(branch, ir.ReturnStmt([y], SPAN)), SPAN)
    ir.assert_structural_equal(f, expected)


def test_if_return_var_typed_from_annotation():
    @pl.function
    def f(x: pl.Tensor[[16, 16], pl.FP32], n: pl.Scalar[pl.INDEX]):
        if n > 0:
            t: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.yield_(pl.load(x, [0, 0], [16, 16]))
        else:
            t: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.yield_(pl.load(x, [0, 0], [16, 16]))
        return

    assert stmts(f)[0].return_vars[0].type == ir.TileType([16, 16], FP32, None, None,
                                                          ir.MemorySpace.Vec)


def test_yields_inside_a_scope_body_count_for_the_if():
    @pl.function(auto_scope=False)
    def f(n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        if n > 0:
            with pl.scope():
                y = pl.yield_(n)
        else:
            y = pl.yield_(n)
        return y

    branch = stmts(f)[0]
    assert [v.name_hint for v in branch.return_vars] == ["y"]


def test_yields_of_a_nested_if_belong_to_it():
    @pl.function
    def f(n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        if n > 0:
            if n > 1:
                y = pl.yield_(n)
            else:
                y = pl.yield_(n)
            k = y
        else:
            k = n
        return k

    outer = stmts(f)[0]
    assert list(outer.return_vars) == []
    assert [v.name_hint for v in ir.flatten_to_stmts(outer.then_body)[0].return_vars] == ["y"]


def test_yielding_if_needs_both_branches():
    with expect_error(ParserSyntaxError, "needs an else branch", "no-else", "if"):
        @pl.function
        def f(n: pl.Scalar[pl.INDEX]):
            if n > 0:  # @no-else
                y = pl.yield_(n)
    with expect_error(ParserSyntaxError, "both branches must end with pl.yield_", "one-branch",
                      "if"):
        @pl.function
        def g(n: pl.Scalar[pl.INDEX]):
            if n > 0:  # @one-branch
                y = pl.yield_(n)
            else:
                k = n


def test_branches_must_yield_into_the_same_names():
    with expect_error(ParserSyntaxError, "Both branches must yield into the same names (y)",
                      "names", "z ="):
        @pl.function
        def f(n: pl.Scalar[pl.INDEX]):
            if n > 0:
                y = pl.yield_(n)
            else:
                z = pl.yield_(n)  # @names


def test_both_branches_yield_values_of_the_result_type():
    with expect_error(ParserTypeError, "pl.yield_ gives 'r' a value of type "
                      "pl.Scalar[pl.INDEX], but the if's result is pl.Tensor[[64], pl.FP32] "
                      "(kind Scalar != Tensor)", "else-scalar", "pl.yield_"):
        @pl.function
        def f(x: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:
            if n > 0:
                r = pl.yield_(x)
            else:
                r = pl.yield_(n)  # @else-scalar
            return r
    with expect_error(ParserTypeError, "pl.yield_ gives 'r' a value of type "
                      "pl.Tensor[[64], pl.FP32], but the if's result is pl.Scalar[pl.INDEX] "
                      "(kind Tensor != Scalar)", "then-tensor", "pl.yield_"):
        @pl.function
        def g(x: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
            if n > 0:
                r: pl.Scalar[pl.INDEX] = pl.yield_(x)  # @then-tensor
            else:
                r: pl.Scalar[pl.INDEX] = pl.yield_(n)
            return r


# -- break / continue ---------------------------------------------------------------------------

def test_break_and_continue_in_sequential_loops():
    @pl.function
    def f(n: pl.Scalar[pl.INDEX]):
        for i in pl.range(n):
            if i > 2:
                break
            continue
        while n > 0:
            break
        for j in pl.pipeline(n, stage=2):
            continue

    loop, wloop, ploop = stmts(f)
    then = ir.flatten_to_stmts(loop.body)[0].then_body
    assert isinstance(then, ir.BreakStmt)
    assert isinstance(ir.flatten_to_stmts(loop.body)[1], ir.ContinueStmt)
    assert isinstance(wloop.body, ir.BreakStmt) and isinstance(ploop.body, ir.ContinueStmt)


@pytest.mark.parametrize("iterator, word", [("parallel", "break"), ("parallel", "continue"),
                                            ("unroll", "break"), ("unroll", "continue")])
def test_break_continue_rejected_in_parallel_and_unroll(iterator, word):
    expect_text_error(f"""\
import pypto.language as pl
@pl.function
def f(n: pl.Scalar[pl.INDEX]):
    for i in pl.{iterator}(4):
        if i > 1:
            {word}  # @word
""", InvalidOperationError, f"'{word}' is not allowed inside a pl.{iterator} loop", "word",
        word)


def test_break_in_a_range_nested_in_parallel_is_fine():
    @pl.function
    def f(n: pl.Scalar[pl.INDEX]):
        for i in pl.parallel(n):
            for j in pl.range(n):
                break

    assert isinstance(stmts(f)[0].body.body, ir.BreakStmt)


@pytest.mark.parametrize("word", ["break", "continue"])
def test_break_continue_outside_a_dsl_loop(word):
    # Python accepts the statement (it sits in a Python for), but pl.spmd is no loop.
    expect_text_error(f"""\
import pypto.language as pl
@pl.function
def f(n: pl.Scalar[pl.INDEX]):
    for b in pl.spmd(4):
        {word}  # @outside
""", InvalidOperationError, f"'{word}' outside loop", "outside", word)


# -- pl.const ---------------------------------------------------------------------------------

def test_const_literals():
    @pl.function
    def f(n: pl.Scalar[pl.INDEX]):
        a = pl.const(5, pl.INT32)
        b = pl.const(-3, pl.INT64)
        d = pl.const(1.5, pl.FP16)
        e = pl.const(2, pl.FP32)
        g = pl.const(1, pl.BOOL)
        return

    a, b, d, e, g = [s.value for s in stmts(f)[:5]]
    assert (type(a), a.value, a.dtype) == (ir.ConstInt, 5, INT32)
    assert (type(b), b.value, b.dtype) == (ir.ConstInt, -3, INT64)
    assert (type(d), d.value, d.dtype) == (ir.ConstFloat, 1.5, ir.DataType.FP16)
    assert (type(e), e.value, e.dtype) == (ir.ConstFloat, 2.0, FP32)
    assert (type(g), g.value) == (ir.ConstBool, True)


@pytest.mark.parametrize("call, fragment, cls", [
    ("pl.const(n, pl.INT32)", "pl.const needs a numeric literal value", ParserSyntaxError),
    ("pl.const(1)", "pl.const takes exactly (value, dtype)", ParserSyntaxError),
    ("pl.const(1.5, pl.INT32)", "is not an integer but INT32", ParserTypeError),
])
def test_const_rejections(call, fragment, cls):
    expect_text_error(f"""\
import pypto.language as pl
@pl.function
def f(n: pl.Scalar[pl.INDEX]):
    a = {call}  # @const
""", cls, fragment, "const", call if "numeric" not in fragment else "n,")
