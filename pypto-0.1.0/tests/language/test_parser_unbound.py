"""A name read where it may be unbound is refused at the read (parser/binding.py).

Bound only inside a loop (which need not run) or in one branch of an ``if``, a name
read afterwards became a loop carry or phi with no value on the other path: ConvertToSSA
seeded it with an unrelated value of its type (``return t`` gave back ``out`` or ``x``
when the loop did not run) or left it undefined (``t__FREE_VAR``).  Python would raise
UnboundLocalError there; pypto refuses it when parsing.
"""

from __future__ import annotations

import pytest

import pypto.language as pl
from pypto import ir
from pypto.language.parser.diagnostics import UndefinedVariableError

from _parser_helpers import expect_text_error, stmts

HEADER = """\
import pypto.language as pl
@pl.function
def f(x: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:
"""


def refused(body: str, fragment: str, token: str = "t  #", hint: str | None = None):
    err = expect_text_error(HEADER + body, UndefinedVariableError,
                            "Variable 't' may be unbound here: " + fragment, "read", token)
    if hint is not None:
        assert err.hint == hint
    return err


LOOP_HINT = "Assign 't' before the loop, so it has a value even when the body does not run"
IF_HINT = "Assign 't' before the if, or in both branches"


@pytest.mark.parametrize("header, loop", [
    ("for i in pl.range(n):", "pl.range loop"),
    ("for i in pl.range(0):", "pl.range loop"),
    ("for i in pl.range(4, 4):", "pl.range loop"),
    ("for i in pl.parallel(n):", "pl.parallel loop"),
    ("for i in pl.pipeline(n, stage=2):", "pl.pipeline loop"),
    ("while n > 0:", "while loop"),
])
def test_a_name_first_bound_in_a_loop_that_need_not_run(header, loop):
    refused(f"""\
    {header}
        t = pl.add(x, x)
    return t  # @read
""", f"it is first assigned in the body of the {loop} at line 4, which need not run",
        hint=LOOP_HINT)


def test_a_name_first_bound_in_a_pl_while_loop():
    refused("""\
    for (k,) in pl.while_(init_values=(n,)):
        pl.cond(k > 0)
        t = pl.add(x, x)
        k2 = pl.yield_(k - 1)
    return t  # @read
""", "it is first assigned in the body of the pl.while_ loop at line 4")


@pytest.mark.parametrize("jump", ["break", "continue"])
def test_a_constant_loop_that_may_leave_early(jump):
    refused(f"""\
    for i in pl.range(4):
        if i > 1:
            {jump}
        t = pl.add(x, x)
    return t  # @read
""", "it is first assigned in the body of the pl.range loop at line 4, which need not run")


def test_only_the_then_branch():
    refused("""\
    if n > 0:
        t = pl.add(x, x)
    return t  # @read
""", "it is assigned only when the if at line 4 is taken", hint=IF_HINT)


def test_only_the_then_branch_with_an_else():
    refused("""\
    if n > 0:
        t = pl.add(x, x)
    else:
        u = pl.add(x, x)
    return t  # @read
""", "it is assigned only in the then branch of the if at line 4")


def test_only_the_else_branch():
    refused("""\
    if n > 0:
        u = pl.add(x, x)
    else:
        t = pl.add(x, x)
    return t  # @read
""", "it is assigned only in the else branch of the if at line 4")


def test_read_in_the_other_branch():
    refused("""\
    if n > 0:
        t = pl.add(x, x)
    else:
        u = pl.add(t, x)  # @read
    return x
""", "it is assigned only in the other branch of the if at line 4", token="t,")


def test_a_maybe_bound_name_inside_a_loop_that_surely_runs():
    refused("""\
    for i in pl.range(4):
        if i > 1:
            t = pl.add(x, x)
    return t  # @read
""", "it is assigned only when the if at line 5 is taken")


def test_subscript_store_and_augmented_assignment_read_it_too():
    refused("""\
    for i in pl.range(n):
        t = pl.add(x, x)
    t[0:4] = x  # @read
    return t
""", "it is first assigned in the body of the pl.range loop", token="t[")
    expect_text_error("""\
import pypto.language as pl
@pl.function
def f(n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
    for i in pl.range(n):
        k = i
    k += 1  # @read
    return k
""", UndefinedVariableError, "Variable 'k' may be unbound here", "read", "k +=")


def test_the_refusal_shows_in_a_decorated_function():
    with pytest.raises(UndefinedVariableError, match="Variable 't' may be unbound here"):
        @pl.function
        def f(x: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:
            for i in pl.range(n):
                t = pl.add(x, x)
            return t


# -- what stays accepted ------------------------------------------------------------------------

def test_bound_before_the_loop():
    @pl.function
    def f(x: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:
        t = x
        for i in pl.range(n):
            t = pl.add(t, x)
        return t

    assert isinstance(stmts(f)[1], ir.ForStmt)


def test_bound_in_both_branches_or_the_other_one_leaves():
    @pl.function
    def f(x: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:
        if n > 0:
            t = pl.add(x, x)
        else:
            t = pl.mul(x, x)
        for i in pl.range(n):
            if i > 2:
                u = pl.add(t, x)
            else:
                break
            t = pl.add(u, x)  # u is bound: the else branch left the loop
        return t

    assert isinstance(stmts(f)[0], ir.IfStmt)


def test_a_loop_with_constant_bounds_surely_runs():
    @pl.function
    def f(x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        for i in pl.range(4):
            for j in pl.unroll(2):
                t = pl.add(x, x)
            u = pl.add(t, x)
        return u

    assert isinstance(stmts(f)[0], ir.ForStmt)


def test_used_only_inside_the_loop_and_rebound_later():
    @pl.function
    def f(x: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:
        for i in pl.range(n):
            band = pl.exp(x)
            y = pl.add(band, x)
        band = pl.mul(x, x)  # bound again before any read
        return band

    assert len(stmts(f)) == 3


def test_explicit_carries_bind_their_return_vars():
    @pl.function
    def f(x: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:
        for i, (acc,) in pl.range(n, init_values=(x,)):
            nxt = pl.add(acc, x)
            out = pl.yield_(nxt)
        if n > 0:
            r = pl.yield_(out)
        else:
            r = pl.yield_(x)
        return r

    assert [v.name_hint for v in stmts(f)[0].return_vars] == ["out"]


def test_the_compiled_result_keeps_python_semantics():
    """The loop surely runs: ``t`` after it is the last iteration's value."""
    pytest.importorskip("numpy")
    import numpy as np
    import pypto

    @pl.program
    class P:
        @pl.function
        def main(self, x: pl.Tensor[[4], pl.FP32], out: pl.Out[pl.Tensor[[4], pl.FP32]]
                 ) -> pl.Tensor[[4], pl.FP32]:
            for i in pl.range(3):
                t = pl.mul(x, pl.cast(i, pl.FP32))
            out = pl.add(t, x)
            return out

    x = np.arange(4, dtype=np.float32)
    compiled = ir.PassManager.get_strategy().run_passes(P)
    for program in (P, compiled):
        result = pypto.run(program, x, np.zeros(4, np.float32))
        np.testing.assert_array_equal(result, x * 2 + x)
