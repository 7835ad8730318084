"""Hand-built IR that no parser would produce is refused at construction, or by the
verification the pipeline runs on its input -- never an InternalError from inside a
pass (issue 15)."""

from __future__ import annotations

import pytest

from pypto import ir, passes
from pypto.ir import DataType as D

AT = ir.Span("hand.py", 3, 5)
T = ir.TensorType([16], D.FP32)


def _program(*stmts, params=()):
    body = ir.SeqStmts([*stmts, ir.ReturnStmt([], AT)], AT)
    return ir.Program([ir.Function("main", list(params), [], body, AT)], "P", AT)


def _compile(program):
    with passes.PassContext([], verification_level=passes.VerificationLevel.BASIC):
        return ir.PassManager.get_strategy(ir.OptimizationStrategy.Default).run_passes(program)


def _tensor_assigned_an_int():
    return _program(ir.AssignStmt(ir.Var("t", T, AT), ir.ConstInt(1, D.INDEX, AT), AT))


def _one_operand_add():
    x = ir.Var("x", T, AT)
    call = ir.Call(ir.get_op("tensor.add"), [x], {}, T, AT)
    return _program(ir.AssignStmt(ir.Var("y", T, AT), call, AT), params=[x])


def _top_level_yield():
    x = ir.Var("x", T, AT)
    return _program(ir.YieldStmt([x], AT), params=[x])


@pytest.mark.parametrize("build, rule, message", [
    (_tensor_assigned_an_int, "TypeCheck", "Variable 't' of type Tensor is assigned a Scalar value"),
    (_one_operand_add, "TypeCheck", "Call to op 'tensor.add' passes 1 operand(s); it takes 2"),
    (_top_level_yield, "BreakContinueValid",
     "'yield' found outside any loop or branch in function 'main'"),
], ids=["tensor-int", "one-operand-add", "top-level-yield"])
def test_refused_by_the_pipelines_input_verification(build, rule, message):
    with pytest.raises(passes.VerificationError) as info:
        _compile(build())
    found = [(d.rule_name, d.message, d.span) for d in info.value.diagnostics]
    assert (rule, message, AT) in found
    assert "pipeline_input" in str(info.value)


@pytest.mark.parametrize("build, error, message", [
    (lambda: ir.Add(ir.Var("a", T), ir.Var("b", T), D.FP32), TypeError,
     "Add: field 'left' is a Tensor; a scalar operator takes scalar operands"),
    (lambda: ir.Neg(ir.Var("a", T), D.FP32), TypeError,
     "Neg: field 'operand' is a Tensor"),
    (lambda: ir.ConstInt(1, D.FP32), ValueError,
     "ConstInt: dtype fp32 is a floating-point type"),
    (lambda: ir.TensorType([-4], D.FP32), ValueError,
     "TensorType: field 'shape[0]' is -4; a dimension cannot be negative"),
    (lambda: ir.TileType([16, ir.ConstInt(-1, D.INDEX)], D.FP32), ValueError,
     "TileType: field 'shape[1]' is -1"),
    (lambda: ir.SpmdScopeStmt(0, body=ir.BreakStmt()), ValueError,
     "SpmdScopeStmt: field 'core_num' is 0; a pl.spmd region runs on at least one block"),
    (lambda: ir.GraphScopeStmt("not a name", body=ir.BreakStmt()), ValueError,
     "GraphScopeStmt: field 'name_hint' is 'not a name', not a Python identifier"),
    (lambda: ir.GraphScopeStmt("class", body=ir.BreakStmt()), ValueError,
     "GraphScopeStmt: field 'name_hint' is 'class', a Python keyword"),
], ids=["add-of-tensors", "neg-of-tensor", "const-int-fp32", "negative-dim",
        "negative-dim-expr", "spmd-0", "graph-name", "graph-keyword"])
def test_refused_at_construction(build, error, message):
    with pytest.raises(error) as info:
        build()
    assert str(info.value).startswith(message)


def test_what_the_constructors_still_accept():
    """The checks refuse only what is meaningless: scalar operators on scalars, integer
    constants of integer types, zero-sized dims, a dynamic spmd block count."""
    n = ir.Var("n", ir.ScalarType(D.INDEX))
    assert isinstance(ir.Add(n, ir.ConstInt(1, D.INDEX), D.INDEX), ir.Add)
    assert ir.ConstInt(7, D.INT8).value == 7
    assert ir.TensorType([0, n], D.FP32).shape[0].value == 0
    assert ir.SpmdScopeStmt(n, body=ir.BreakStmt()).core_num is n
    assert ir.GraphScopeStmt("g_1", body=ir.BreakStmt()).name_hint == "g_1"
