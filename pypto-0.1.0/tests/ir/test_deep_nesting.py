"""500-deep IR never raises RecursionError (equality, hash, visitor, mutator, utils)."""

from __future__ import annotations

import sys

import pytest

from pypto import ir

from .samples import INDEX, SPAN, const, nested_adds, nested_loops, seq, var

DEPTH = 500


@pytest.fixture(autouse=True)
def default_recursion_limit():
    """Run at CPython's default limit, and check the walkers restore it."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    yield
    assert sys.getrecursionlimit() == 1000
    sys.setrecursionlimit(old)


def nested_mixed(depth, leaf=None):
    """Loops, ifs, scopes and whiles nested in rotation, ``depth`` levels."""
    value = nested_adds(20) if leaf is None else ir.Add(leaf, const(1), INDEX, SPAN)
    body = ir.AssignStmt(var("y"), value, SPAN)
    for level in range(depth):
        kind = level % 4
        if kind == 0:
            body = ir.ForStmt(var("i"), 0, 2, 1, [], body, [], SPAN)
        elif kind == 1:
            body = ir.IfStmt(ir.ConstBool(True, SPAN), body, ir.BreakStmt(SPAN), [], SPAN)
        elif kind == 2:
            body = ir.GraphScopeStmt(f"g{level}", body=seq(body, ir.EvalStmt(const(level), SPAN)),
                                     span=SPAN)
        else:
            body = ir.WhileStmt(ir.ConstBool(False, SPAN), [], body, [], SPAN)
    return body


@pytest.mark.parametrize("build", [nested_loops, nested_mixed, nested_adds],
                         ids=["loops", "mixed", "exprs"])
def test_equality_and_hash(build):
    lhs, rhs = build(DEPTH), build(DEPTH)
    ir.assert_structural_equal(lhs, rhs, enable_auto_mapping=True)
    assert ir.structural_hash(lhs, True) == ir.structural_hash(rhs, True)
    assert ir.structural_hash(lhs) != 0


def test_difference_at_the_bottom_is_found():
    lhs = nested_loops(DEPTH, ir.AssignStmt(var("y"), const(1), SPAN))
    rhs = nested_loops(DEPTH, ir.AssignStmt(var("y"), const(2), SPAN))
    with pytest.raises(ValueError) as info:
        ir.assert_structural_equal(lhs, rhs, enable_auto_mapping=True)
    first = str(info.value).splitlines()[0]
    assert first.endswith(".body[0].value") and first.count("body[0]") == DEPTH


def test_function_equality_in_strict_mode():
    def func():
        param = var("p")  # fresh per function: bound through the params definition field
        return ir.Function("f", [param], [], nested_mixed(DEPTH, param), SPAN)
    ir.assert_structural_equal(func(), func())
    assert ir.structural_hash(func()) == ir.structural_hash(func())


@pytest.mark.parametrize("build", [nested_loops, nested_mixed, nested_adds],
                         ids=["loops", "mixed", "exprs"])
def test_visitor(build):
    counted = []

    class CountConsts(ir.IRVisitor):
        def visit_const_int(self, op):
            counted.append(op)

    CountConsts()(build(DEPTH))
    assert len(counted) >= DEPTH


def test_visitor_and_mutator_entry_points_guard_depth():
    func = ir.Function("f", [], [], nested_mixed(DEPTH), SPAN)
    ir.IRVisitor().visit_function(func)
    assert ir.IRMutator().visit_function(func) is func
    prog = ir.Program([func], "P", SPAN)
    ir.IRVisitor().visit_program(prog)
    assert ir.IRMutator().visit_program(prog) is prog


@pytest.mark.parametrize("build", [nested_loops, nested_mixed, nested_adds],
                         ids=["loops", "mixed", "exprs"])
def test_mutator(build):
    node = build(DEPTH)
    assert ir.IRMutator()(node) is node

    class Bump(ir.IRMutator):
        def visit_const_int(self, op):
            return const(op.value + 1)

    bumped = Bump()(node)
    assert bumped is not node
    assert not ir.structural_equal(bumped, node, enable_auto_mapping=True)


def test_utils():
    node = nested_mixed(DEPTH)
    clone, def_map = ir.deep_clone(node)
    ir.assert_structural_equal(clone, node)
    assert len(def_map) == len(ir.collect_def_vars(node)) > DEPTH // 4
    leaf = var("leaf")
    expr = nested_adds(DEPTH)
    inner = expr
    while isinstance(inner, ir.Add):
        inner = inner.left
    replaced = ir.substitute_expr(expr, {inner: leaf})
    bottom = replaced
    while isinstance(bottom, ir.Add):
        bottom = bottom.left
    assert bottom is leaf
    assert len(ir.flatten_to_stmts(seq(*[ir.BreakStmt(SPAN)] * DEPTH))) == DEPTH


def test_deeply_nested_seq_stmts_flatten_iteratively():
    stmt = ir.BreakStmt(SPAN)
    for _ in range(5 * DEPTH):
        stmt = ir.SeqStmts([stmt, ir.ContinueStmt(SPAN)], SPAN)
    flat = ir.flatten_to_stmts(stmt)
    assert len(flat) == 5 * DEPTH + 1
