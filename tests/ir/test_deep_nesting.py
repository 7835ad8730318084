"""IR as deep as pypto's nesting limits never raises RecursionError (equality, hash,
visitor, mutator, utils), at CPython's default recursion limit, which no walker
changes; deeper IR is refused with a NestingError at its deepest place."""

from __future__ import annotations

import sys

import pytest

from pypto import ir

from pypto.ir.depth import MAX_EXPR_NESTING, MAX_STMT_NESTING, NestingError

from .samples import INDEX, SPAN, const, nested_adds, nested_loops, seq, var

DEPTH = MAX_STMT_NESTING


@pytest.fixture(autouse=True)
def default_recursion_limit():
    """Run at CPython's default limit (the walkers never change it)."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    yield
    assert sys.getrecursionlimit() == 1000
    sys.setrecursionlimit(old)


def deep_exprs(depth):
    return nested_adds(min(depth, MAX_EXPR_NESTING - 1))  # a leaf and depth Adds


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


@pytest.mark.parametrize("build", [nested_loops, nested_mixed, deep_exprs],
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


@pytest.mark.parametrize("build", [nested_loops, nested_mixed, deep_exprs],
                         ids=["loops", "mixed", "exprs"])
def test_visitor(build):
    counted = []

    class CountConsts(ir.IRVisitor):
        def visit_const_int(self, op):
            counted.append(op)

    CountConsts()(build(DEPTH))
    assert len(counted) >= DEPTH - 1


def test_visitor_and_mutator_entry_points_guard_depth():
    func = ir.Function("f", [], [], nested_mixed(DEPTH), SPAN)
    ir.IRVisitor().visit_function(func)
    assert ir.IRMutator().visit_function(func) is func
    prog = ir.Program([func], "P", SPAN)
    ir.IRVisitor().visit_program(prog)
    assert ir.IRMutator().visit_program(prog) is prog


@pytest.mark.parametrize("build", [nested_loops, nested_mixed, deep_exprs],
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
    expr = deep_exprs(DEPTH)
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


# -- past the limits: a NestingError at the deepest place, never a RecursionError -----------

DEEP = 16_000
AT = ir.Span("deep.py", 7, 5)


def too_deep_loops():
    body = ir.AssignStmt(var("y"), const(1), AT)
    for _ in range(DEEP):
        body = ir.ForStmt(var("i"), 0, 2, 1, [], body, [], SPAN)
    return ir.Function("f", [], [], body, SPAN)


def too_deep_expr():
    expr = ir.Var("leaf", ir.ScalarType(INDEX), AT)  # the deepest place
    for level in range(DEEP):
        expr = ir.Add(expr, const(level), INDEX, SPAN)
    return expr


@pytest.mark.parametrize("walk", [
    ir.python_print,
    lambda node: ir.structural_hash(node),
    lambda node: ir.structural_equal(node, node.replace() if isinstance(node, ir.Function)
                                     else ir.Add(node, const(0), INDEX, SPAN)),
    lambda node: ir.IRVisitor()(node),
    lambda node: ir.IRMutator()(node),
], ids=["print", "hash", "equal", "visitor", "mutator"])
@pytest.mark.parametrize("build, message", [
    (too_deep_loops, f"statements nested {DEEP} levels deep; pypto accepts at most "
                     f"{MAX_STMT_NESTING}"),
    (too_deep_expr, f"an expression nested {DEEP + 1} levels deep; pypto accepts at most "
                    f"{MAX_EXPR_NESTING}"),
], ids=["statements", "expression"])
def test_walks_past_the_limit_refuse_at_the_deepest_place(walk, build, message):
    with pytest.raises(NestingError) as info:
        walk(build())
    assert info.value.message.startswith(message)
    assert info.value.span == AT
    assert str(info.value).endswith("[deep.py:7:5]")


def test_just_past_the_limits_is_measured_without_recursing():
    loops = ir.Function("f", [], [], nested_loops(MAX_STMT_NESTING + 1), SPAN)
    with pytest.raises(NestingError, match=f"nested {MAX_STMT_NESTING + 1} levels"):
        ir.depth.check_nesting(loops)
    ir.depth.check_nesting(ir.Function("f", [], [], nested_loops(MAX_STMT_NESTING), SPAN))
    with pytest.raises(NestingError, match=f"nested {MAX_EXPR_NESTING + 1} levels"):
        ir.depth.check_nesting(nested_adds(MAX_EXPR_NESTING))
    ir.depth.check_nesting(nested_adds(MAX_EXPR_NESTING - 1))


def test_no_walker_changes_the_recursion_limit():
    seen = []

    class Spy(ir.IRVisitor):
        def visit_const_int(self, op):
            seen.append(sys.getrecursionlimit())

    Spy()(nested_mixed(DEPTH))
    assert seen and set(seen) == {1000}
