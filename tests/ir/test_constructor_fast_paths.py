"""The constructors' fast paths (perf5) refuse what the general checks refused, with the
same messages, and build the same nodes."""

from __future__ import annotations

import pytest

from pypto import ir

from .samples import SPAN, var


def _assign(name: str) -> ir.AssignStmt:
    x = var(name)
    return ir.AssignStmt(x, x, SPAN)


def test_list_field_names_the_first_bad_element():
    a = _assign("a")
    with pytest.raises(TypeError, match=r"SeqStmts: field 'stmts\[2\]' expects Stmt, got int"):
        ir.SeqStmts([a, a, 3, "x"], SPAN)
    with pytest.raises(TypeError, match=r"Call: field 'args\[0\]' expects Expr, got str"):
        ir.Call(ir.GlobalVar("f"), ["x", 1], SPAN)


def test_flatten_checks_statements_and_span():
    a, b = _assign("a"), _assign("b")
    with pytest.raises(TypeError, match=r"SeqStmts.flatten: field 'stmts' expects Stmt, "
                                        r"got int"):
        ir.SeqStmts.flatten([a, 1], SPAN)
    with pytest.raises(TypeError, match=r"SeqStmts.flatten: field 'stmts' expects Stmt, "
                                        r"got int"):
        ir.SeqStmts.flatten(iter([a, 1]), SPAN)
    with pytest.raises(TypeError, match=r"SeqStmts: field 'span' expects Span, got str"):
        ir.SeqStmts.flatten([a, b], "here")


def test_flatten_builds_what_the_constructor_builds():
    a, b, c = _assign("a"), _assign("b"), _assign("c")
    flat = ir.SeqStmts.flatten([a, ir.SeqStmts([b, ir.SeqStmts([c], SPAN)], SPAN)], SPAN)
    assert type(flat) is ir.SeqStmts and flat.stmts == (a, b, c)
    assert flat.span is SPAN and flat.leading_comments == ()
    ir.assert_structural_equal(flat, ir.SeqStmts([a, b, c], SPAN))
    assert ir.SeqStmts.flatten((a, b)).span is a.span  # no span: the first statement's
    assert ir.SeqStmts.flatten([a]) is a


def test_function_checks_every_field_on_the_fast_path():
    x = var("x")
    body = ir.BreakStmt(SPAN)
    with pytest.raises(TypeError, match=r"Function: field 'name' expects str, got int"):
        ir.Function(3, [], [], body, SPAN)
    with pytest.raises(TypeError, match=r"Function: field 'type' expects FunctionType, got str"):
        ir.Function("f", [], [], body, SPAN, type="InCore")
    with pytest.raises(TypeError, match=r"Function: field 'params\[0\]' expects Var, got int"):
        ir.Function("f", [(3, ir.ParamDirection.In)], [], body, SPAN)
    with pytest.raises(TypeError, match=r"Function: field 'requires_runtime_binding' expects "
                                        r"bool, got int"):
        ir.Function("f", [], [], body, SPAN, requires_runtime_binding=1)
    with pytest.raises(ValueError, match=r"implies level=CHIP_DIE, but explicit level=AIC"):
        ir.Function("f", [], [], body, SPAN, type=ir.FunctionType.InCore, level=ir.Level.AIC)
    f = ir.Function("f", [(x, ir.ParamDirection.InOut)], [], body, SPAN,
                    type=ir.FunctionType.InCore)
    assert f.params == (x,) and f.param_directions == (ir.ParamDirection.InOut,)
    assert (f.level, f.role) == (ir.Level.CHIP_DIE, ir.Role.SubWorker)
    plain = ir.Function("g", [x], [], body, SPAN)
    assert plain.param_directions == (ir.ParamDirection.In,) and plain.level is None
