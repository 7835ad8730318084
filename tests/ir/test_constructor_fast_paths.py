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


# -- sixth round (perf6d): types, calls, loops, scopes -------------------------------

_T = ir.TensorType([16], ir.DataType.FP32)
_BODY = ir.BreakStmt(SPAN)


@pytest.mark.parametrize("build, error, message", [
    (lambda: ir.TensorType([16], "fp32"), TypeError,
     r"TensorType: field 'dtype' expects DataType, got str"),
    (lambda: ir.TensorType([16], ir.DataType.FP32, memref=3), TypeError,
     r"TensorType: field 'memref' expects MemRef or None, got int"),
    (lambda: ir.TensorType([16], ir.DataType.FP32, tensor_view=ir.TileView()), TypeError,
     r"TensorType: field 'tensor_view' expects TensorView or None, got TileView"),
    (lambda: ir.TensorType([-1], ir.DataType.FP32), ValueError,
     r"TensorType: field 'shape\[0\]' is -1; a dimension cannot be negative"),
    (lambda: ir.TensorType([True], ir.DataType.FP32), TypeError,
     r"TensorType: field 'shape\[0\]' expects int or Expr, got bool"),
    (lambda: ir.TileType([16], None), TypeError,
     r"TileType: field 'dtype' expects DataType, got NoneType"),
    (lambda: ir.TileType([16], ir.DataType.FP32, None, None, 2), TypeError,
     r"TileType: field 'memory_space' expects MemorySpace or None, got int"),
    (lambda: ir.TileType([16], ir.DataType.FP32, tile_view=ir.TensorView()), TypeError,
     r"TileType: field 'tile_view' expects TileView or None, got TensorView"),
    (lambda: ir.Call("f", [], _T, SPAN), TypeError,
     r"Call: field 'op' expects Op or GlobalVar, got str"),
    (lambda: ir.Call(ir.GlobalVar("f"), [], {}, {}, "t", SPAN), TypeError,
     r"Call: unexpected argument of type str"),
    (lambda: ir.Call(ir.GlobalVar("f"), [], _T, span="here"), TypeError,
     r"Call: field 'span' expects Span, got str"),
    (lambda: ir.Call(ir.GlobalVar("f"), [var("a")], {},
                     {"arg_directions": [ir.ArgDirection.Input] * 2}, _T, SPAN),
     ValueError, r"Call: attrs\['arg_directions'\] has 2 entries but the call has 1 args"),
    (lambda: ir.EvalStmt(3, SPAN), TypeError, r"EvalStmt: field 'expr' expects Expr, got int"),
    (lambda: ir.EvalStmt(var("a"), "here"), TypeError,
     r"EvalStmt: field 'span' expects Span, got str"),
    (lambda: ir.ForStmt("i", 0, 4, 1, [], _BODY, [], SPAN), TypeError,
     r"ForStmt: field 'loop_var' expects Var, got str"),
    (lambda: ir.ForStmt(var("i"), 0, 4, True, [], _BODY, [], SPAN), TypeError,
     r"ForStmt: field 'step' expects Expr or int, got bool"),
    (lambda: ir.ForStmt(var("i"), 0, 4, 1, [], _BODY, [], SPAN, kind=1), TypeError,
     r"ForStmt: field 'kind' expects ForKind, got int"),
    (lambda: ir.ForStmt(var("i"), 0, 4, 1, [], "body", [], SPAN), TypeError,
     r"ForStmt: field 'body' expects Stmt, got str"),
    (lambda: ir.ForStmt(var("i"), 0, 4, 1, [], _BODY, [], "here"), TypeError,
     r"ForStmt: field 'span' expects Span, got str"),
    (lambda: ir.InCoreScopeStmt(split=1, body=_BODY), TypeError,
     r"InCoreScopeStmt: field 'split' expects SplitMode, got int"),
    (lambda: ir.ClusterScopeStmt(name_hint=3, body=_BODY), TypeError,
     r"ClusterScopeStmt: field 'name_hint' expects str, got int"),
    (lambda: ir.ClusterScopeStmt(body="body"), TypeError,
     r"ClusterScopeStmt: field 'body' expects Stmt, got str"),
    (lambda: ir.ClusterScopeStmt(body=_BODY, span=3), TypeError,
     r"ClusterScopeStmt: field 'span' expects Span, got int"),
])
def test_inline_checks_refuse_with_the_general_messages(build, error, message):
    with pytest.raises(error, match=message):
        build()


def test_inline_checks_build_the_nodes_the_general_path_builds():
    from pypto.ir.expr import index_const
    const = index_const(16)
    assert type(const) is ir.ConstInt and const.value == 16 and const.dtype is ir.DataType.INDEX
    assert const.span is ir.Span.unknown() and index_const(2, SPAN).span is SPAN
    ir.assert_structural_equal(const, ir.ConstInt(16, ir.DataType.INDEX))
    tensor = ir.TensorType([16, ir.ConstInt(4, ir.DataType.INDEX)], ir.DataType.FP32)
    assert all(type(d) is ir.ConstInt and d.dtype is ir.DataType.INDEX for d in tensor.shape)
    assert tensor == ir.TensorType([16, 4], ir.DataType.FP32)
    tile = ir.TileType([8], ir.DataType.FP16, None, None, ir.MemorySpace.Vec)
    assert tile.memory_space is ir.MemorySpace.Vec
    call = ir.Call(ir.GlobalVar("f"), [var("a")], _T, SPAN)  # the (type, span) form
    assert call.type is _T and call.span is SPAN and call.kwargs == {} and call.attrs == {}
    unknown = ir.Call(ir.GlobalVar("f"), [], SPAN)
    assert isinstance(unknown.type, ir.UnknownType)
    loop = ir.ForStmt(var("i"), 0, 4, 1, [], [_BODY, _BODY], [], SPAN)
    assert type(loop.body) is ir.SeqStmts and loop.kind is ir.ForKind.Sequential
    assert type(loop.start) is ir.ConstInt and loop.leading_comments == ()
    scope = ir.InCoreScopeStmt(body=[_BODY, _BODY])
    assert type(scope.body) is ir.SeqStmts and scope.span is ir.Span.unknown()
    assert scope.split is ir.SplitMode.NONE
