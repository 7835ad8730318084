"""Printer: statements, loops, while, if (02-ir.md §12.7)."""

from __future__ import annotations

import pytest

from pypto import ir
from pypto.ir import DataType as DT

from ._printer_helpers import (BOOL, INDEX, T64, assert_valid_python, dedent, idx, op_call,
                               scalar)

n, m = scalar("n"), scalar("n_max")
cond = scalar("c", BOOL)
x = ir.Var("x", T64)


def show(stmt: ir.Stmt, **options) -> str:
    text = ir.python_print(stmt, **options)
    assert_valid_python(text)
    return text


def add(lhs, rhs):
    return op_call("tensor.add", [lhs, rhs], T64)


# -- simple statements -------------------------------------------------------------

def test_assign_eval_return_break_continue():
    y = ir.Var("y", T64)
    assert show(ir.AssignStmt(y, add(x, x))) == \
        "y: pl.Tensor[[64, 128], pl.FP32] = pl.tensor.add(x, x)"
    assert show(ir.AssignStmt(y, add(x, x)), concise=True) == "y = pl.tensor.add(x, x)"
    assert show(ir.AssignStmt(n, idx(3, DT.INT64))) == \
        "n: pl.Scalar[pl.INDEX] = pl.const(3, pl.INT64)"
    assert show(ir.EvalStmt(op_call("system.barrier", []))) == "pl.system.barrier()"
    assert show(ir.ReturnStmt()) == "return"
    assert show(ir.ReturnStmt([x])) == "return x"
    assert show(ir.ReturnStmt([x, n])) == "return x, n"
    assert show(ir.BreakStmt()) == "break"
    assert show(ir.ContinueStmt()) == "continue"


def test_lone_yield():
    assert show(ir.YieldStmt([n, m])) == "pl.yield_(n, n_max)"
    assert show(ir.YieldStmt()) == "pl.yield_()"


def test_seq_stmts_and_leading_comments():
    first = ir.attach_leading_comments(ir.AssignStmt(n, idx(1)), ["first", "two\nlines", ""])
    second = ir.attach_leading_comments(ir.EvalStmt(n), ["after"])
    assert show(ir.SeqStmts([first, second])) == dedent("""
        # first
        # two
        # lines
        #
        n: pl.Scalar[pl.INDEX] = 1
        # after
        n
    """)
    assert show(ir.SeqStmts([])) == "pass"


def test_inline_stmt_is_reindented():
    inline = ir.InlineStmt("    import os\n\n    if os.sep:\n        print('x')\n")
    assert show(inline) == "import os\n\nif os.sep:\n    print('x')"
    loop = ir.ForStmt(scalar("i"), 0, 2, 1, [], inline, [])
    assert show(loop) == dedent("""
        for i in pl.range(2):
            import os

            if os.sep:
                print('x')
    """)


# -- if ----------------------------------------------------------------------------

def test_if_without_and_with_else():
    assert show(ir.IfStmt(cond, ir.EvalStmt(n), None, [])) == dedent("""
        if c:
            n
    """)
    assert show(ir.IfStmt(ir.Lt(n, m, BOOL), ir.BreakStmt(), ir.ContinueStmt(), [])) == dedent("""
        if n < n_max:
            break
        else:
            continue
    """)
    assert show(ir.IfStmt(cond, ir.SeqStmts([]), ir.SeqStmts([]), [])) == dedent("""
        if c:
            pass
        else:
            pass
    """)


def test_if_with_one_return_var():
    r = scalar("r")
    stmt = ir.IfStmt(cond, ir.YieldStmt([n]), ir.YieldStmt([idx(1)]), [r])
    assert show(stmt) == dedent("""
        if c:
            r: pl.Scalar[pl.INDEX] = pl.yield_(n)
        else:
            r: pl.Scalar[pl.INDEX] = pl.yield_(1)
    """)
    assert show(stmt, concise=True) == dedent("""
        if c:
            r = pl.yield_(n)
        else:
            r = pl.yield_(1)
    """)


def test_if_with_several_return_vars_and_a_yield_not_last():
    r1, r2 = scalar("r1"), scalar("r2")
    then = ir.SeqStmts([ir.AssignStmt(m, idx(2)), ir.YieldStmt([m, n])])
    other = ir.SeqStmts([ir.YieldStmt([n]), ir.YieldStmt([n, n])])
    stmt = ir.IfStmt(cond, then, other, [r1, r2])
    assert show(stmt) == dedent("""
        if c:
            n_max: pl.Scalar[pl.INDEX] = 2
            r1, r2 = pl.yield_(n_max, n)
        else:
            pl.yield_(n)
            r1, r2 = pl.yield_(n, n)
    """)


def test_yield_inside_a_trailing_runtime_scope_binds_the_return_vars():
    r = scalar("r")
    then = ir.RuntimeScopeStmt(body=ir.SeqStmts([ir.EvalStmt(n), ir.YieldStmt([n])]))
    other = ir.InCoreScopeStmt(body=ir.YieldStmt([m]))  # not transparent
    assert show(ir.IfStmt(cond, then, other, [r])) == dedent("""
        if c:
            with pl.scope():
                n
                r: pl.Scalar[pl.INDEX] = pl.yield_(n)
        else:
            with pl.at(level=pl.Level.CORE_GROUP):
                pl.yield_(n_max)
    """)


# -- for ---------------------------------------------------------------------------

def loop(start, stop, step, body=None, **kwargs):
    return ir.ForStmt(scalar("i"), start, stop, step, [],
                      body if body is not None else ir.ContinueStmt(), [],
                      **kwargs)


@pytest.mark.parametrize("start, stop, step, header", [
    (0, 8, 1, "pl.range(8)"),
    (2, 8, 1, "pl.range(2, 8)"),
    (0, 8, 2, "pl.range(0, 8, 2)"),
    (idx(0, DT.INT64), 8, 1, "pl.range(pl.const(0, pl.INT64), 8)"),
    (0, 8, idx(1, DT.INT64), "pl.range(0, 8, pl.const(1, pl.INT64))"),
    (0, idx(8, DT.INT64), 1, "pl.range(pl.const(8, pl.INT64))"),
    (n, ir.Add(n, idx(4), INDEX), 1, "pl.range(n, n + 4)"),
    (0, n, ir.Neg(m, INDEX), "pl.range(0, n, -n_max)"),
])
def test_for_bounds_elide_only_index_constants(start, stop, step, header):
    assert show(loop(start, stop, step)) == f"for i in {header}:\n    continue"


@pytest.mark.parametrize("kind, iterator", [
    (ir.ForKind.Sequential, "range"), (ir.ForKind.Parallel, "parallel"),
    (ir.ForKind.Unroll, "unroll"), (ir.ForKind.Pipeline, "pipeline"),
])
def test_for_kinds(kind, iterator):
    assert show(loop(0, 4, 1, kind=kind)) == f"for i in pl.{iterator}(4):\n    continue"


def test_pipeline_stage_and_loop_attrs():
    piped = loop(0, 16, 1, kind=ir.ForKind.Pipeline,
                 attrs={"pipeline_stages": 2, "hint": "fast", "dims": [n, 2]})
    assert show(piped) == ('for i in pl.pipeline(16, stage=2, attrs={"hint": \'fast\', '
                           '"dims": [n, 2]}):\n    continue')
    # `stage=` belongs to pl.pipeline only; elsewhere the attr stays in attrs={...}
    plain = loop(0, 16, 1, attrs={"pipeline_stages": 2})
    assert show(plain) == 'for i in pl.range(16, attrs={"pipeline_stages": 2}):\n    continue'


def test_for_with_one_iter_arg_keeps_the_trailing_comma():
    i = scalar("i")
    acc = ir.IterArg("acc", T64, x)
    nxt, rv = ir.Var("nxt", T64), ir.Var("acc_rv", T64)
    body = ir.SeqStmts([ir.AssignStmt(nxt, add(acc, x)), ir.YieldStmt([nxt])])
    stmt = ir.ForStmt(i, 0, 8, 1, [acc], body, [rv])
    assert show(stmt) == dedent("""
        for i, (acc,) in pl.range(8, init_values=(x,)):
            nxt: pl.Tensor[[64, 128], pl.FP32] = pl.tensor.add(acc, x)
            acc_rv: pl.Tensor[[64, 128], pl.FP32] = pl.yield_(nxt)
    """)
    assert show(stmt, concise=True) == dedent("""
        for i, (acc,) in pl.range(8, init_values=(x,)):
            nxt = pl.tensor.add(acc, x)
            acc_rv = pl.yield_(nxt)
    """)


def test_for_with_several_iter_args_every_keyword():
    i = scalar("i")
    a, b = ir.IterArg("a", ir.ScalarType(INDEX), idx(0)), ir.IterArg("b", T64, x)
    ra, rb = scalar("ra"), ir.Var("rb", T64)
    stmt = ir.ForStmt(i, 1, n, 2, [a, b], ir.YieldStmt([ir.Add(a, i, INDEX), b]), [ra, rb],
                      kind=ir.ForKind.Pipeline, attrs={"pipeline_stages": 3, "k": True})
    assert show(stmt) == dedent("""
        for i, (a, b) in pl.pipeline(1, n, 2, stage=3, init_values=(0, x), attrs={"k": True}):
            ra, rb = pl.yield_(a + i, b)
    """)


def test_unroll_with_iter_args_is_refused():
    acc = ir.IterArg("acc", T64, x)
    stmt = ir.ForStmt(scalar("i"), 0, 4, 1, [acc], ir.YieldStmt([acc]), [ir.Var("r", T64)],
                      kind=ir.ForKind.Unroll)
    with pytest.raises(ValueError, match="Unroll loop with iter_args has no DSL spelling"):
        ir.python_print(stmt)


def test_empty_loop_body_prints_pass():
    assert show(loop(0, 4, 1, body=ir.SeqStmts([]))) == "for i in pl.range(4):\n    pass"


# -- while -------------------------------------------------------------------------

def test_plain_while():
    stmt = ir.WhileStmt(ir.Lt(n, m, BOOL), [], ir.AssignStmt(n, ir.Add(n, idx(1), INDEX)), [])
    assert show(stmt) == dedent("""
        while n < n_max:
            n: pl.Scalar[pl.INDEX] = n + 1
    """)
    assert show(ir.WhileStmt(cond, [], ir.SeqStmts([]), [])) == "while c:\n    pass"


def test_while_with_iter_args():
    xa = ir.IterArg("xa", ir.ScalarType(INDEX), n)
    ya = ir.IterArg("ya", ir.ScalarType(INDEX), idx(0))
    xr, yr = scalar("xr"), scalar("yr")
    body = ir.YieldStmt([ir.Add(xa, idx(1), INDEX), ya])
    stmt = ir.WhileStmt(ir.Lt(xa, idx(10), BOOL), [xa, ya], body, [xr, yr])
    assert show(stmt) == dedent("""
        for (xa, ya) in pl.while_(init_values=(n, 0)):
            pl.cond(xa < 10)
            xr, yr = pl.yield_(xa + 1, ya)
    """)
    one = ir.IterArg("k", ir.ScalarType(INDEX), n)
    single = ir.WhileStmt(ir.Gt(one, idx(0), BOOL), [one],
                          ir.YieldStmt([ir.Sub(one, idx(1), INDEX)]), [scalar("k_out")])
    assert show(single) == dedent("""
        for (k,) in pl.while_(init_values=(n,)):
            pl.cond(k > 0)
            k_out: pl.Scalar[pl.INDEX] = pl.yield_(k - 1)
    """)


# -- nesting -----------------------------------------------------------------------

def test_nested_bodies_indent_by_four_spaces():
    inner = ir.IfStmt(cond, ir.BreakStmt(), None, [])
    stmt = loop(0, 4, 1, body=ir.WhileStmt(cond, [], inner, []))
    assert show(stmt) == dedent("""
        for i in pl.range(4):
            while c:
                if c:
                    break
    """)


def test_a_hundred_nested_regions_print_without_recursion_error():
    body: ir.Stmt = ir.EvalStmt(n)
    for level in range(100):
        kind = level % 5
        if kind == 0:
            body = ir.ForStmt(scalar("i"), 0, n, 1, [], body, [])
        elif kind == 1:
            body = ir.IfStmt(ir.Lt(n, idx(level), BOOL), body, None, [])
        elif kind == 2:
            body = ir.RuntimeScopeStmt(body=body)
        elif kind == 3:
            body = ir.WhileStmt(cond, [], body, [])
        else:
            body = ir.GraphScopeStmt(f"g{level}", body=body)
    text = ir.python_print(ir.Function("deep", [n], [], body))
    lines = text.splitlines()
    assert len(lines) == 103
    assert lines[-1] == " " * 4 * 101 + "n"
    deep_expr: ir.Expr = n
    for level in range(99):  # with its leaf, 100 levels: pypto's limit
        deep_expr = ir.Sub(idx(level), deep_expr, INDEX)
    assert ir.python_print(deep_expr).count("(") == 98


def test_body_holding_only_comments_still_gets_pass():
    commented = ir.attach_leading_comments(ir.InlineStmt(""), ["nothing to run"])
    assert show(ir.IfStmt(cond, commented, None, [])) == dedent("""
        if c:
            # nothing to run
            pass
    """)


def test_loop_kind_that_is_not_a_for_kind_is_a_value_error():
    broken = loop(0, 4, 1).replace(kind=7)
    with pytest.raises(ValueError, match="ForStmt field 'kind' holds 7, not a ForKind"):
        ir.python_print(broken)
