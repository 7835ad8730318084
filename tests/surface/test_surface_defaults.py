"""PyPTO's defaults, parameter names and small members: ``ScopeStmt.scope_kind``,
``deep_clone(body, var_map=[])``, ``PassContext(disabled_diagnostics=...)`` and the
visitor entry points' parameter names, each exercised through behaviour."""

from __future__ import annotations

import inspect

import pytest

import pypto.language as pl
from pypto import ir, passes
from pypto.ir.span import Span

IDX = ir.DataType.INDEX


def _body(name: str = "x") -> ir.Stmt:
    var = ir.Var(name, ir.ScalarType(IDX))
    return ir.AssignStmt(var, ir.ConstInt(1, IDX))


@pytest.mark.parametrize("make, kind", [
    (lambda b: ir.InCoreScopeStmt(body=b), ir.ScopeKind.InCore),
    (lambda b: ir.ClusterScopeStmt(body=b), ir.ScopeKind.Cluster),
    (lambda b: ir.HierarchyScopeStmt(ir.Level.HOST, body=b), ir.ScopeKind.Hierarchy),
    (lambda b: ir.SpmdScopeStmt(4, body=b), ir.ScopeKind.Spmd),
    (lambda b: ir.RuntimeScopeStmt(body=b), ir.ScopeKind.Runtime),
    (lambda b: ir.SplitAivScopeStmt(ir.SplitMode.UP_DOWN, body=b), ir.ScopeKind.SplitAiv),
    (lambda b: ir.CommDomainScopeStmt([ir.ConstInt(0, IDX)], [ir.ConstInt(1, IDX)], body=b),
     ir.ScopeKind.CommDomain),
])
def test_every_scope_stmt_reports_its_kind(make, kind):
    scope = make(_body())
    assert isinstance(scope, ir.ScopeStmt)
    assert scope.scope_kind is kind
    # a property of the base class, as PyPTO's
    assert isinstance(inspect.getattr_static(ir.ScopeStmt, "scope_kind"), property)


def test_parsed_scope_kind():
    @pl.function
    def f(x: pl.Tensor[[16], pl.FP32]) -> pl.Tensor[[16], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            y = pl.add(x, x)
        return y

    scope = f.body.stmts[0] if isinstance(f.body, ir.SeqStmts) else f.body
    assert scope.scope_kind is ir.ScopeKind.InCore


def test_deep_clone_default_var_map_is_pypto_spelling_and_clones():
    assert inspect.signature(ir.deep_clone).parameters["var_map"].default == []
    body = _body()
    clone, def_map = ir.deep_clone(body)
    assert clone is not body and ir.structural_equal(clone, body, enable_auto_mapping=True)
    assert def_map[body.var] is clone.var and clone.var is not body.var
    # the default is read only: a second call sees the same empty mapping
    clone2, _ = ir.deep_clone(body)
    assert clone2.var is not clone.var
    assert inspect.signature(ir.deep_clone).parameters["var_map"].default == []
    # None still means "no replacement"
    clone3, _ = ir.deep_clone(body, None)
    assert ir.structural_equal(clone3, body, enable_auto_mapping=True)


def test_pass_context_default_disables_unused_control_flow_result():
    default = inspect.signature(passes.PassContext).parameters["disabled_diagnostics"].default
    assert repr(default) == "{UnusedControlFlowResult}"
    ctx = passes.PassContext([])
    disabled = ctx.get_disabled_diagnostics()
    assert disabled.contains(passes.DiagnosticCheck.UnusedControlFlowResult)
    # a context's set is its own copy: changing it leaves the default and later contexts alone
    disabled.remove(passes.DiagnosticCheck.UnusedControlFlowResult)
    assert passes.PassContext([]).get_disabled_diagnostics().contains(
        passes.DiagnosticCheck.UnusedControlFlowResult)
    # None keeps meaning the default; an explicit empty set disables nothing
    assert passes.PassContext([], disabled_diagnostics=None).get_disabled_diagnostics().contains(
        passes.DiagnosticCheck.UnusedControlFlowResult)
    empty = passes.PassContext([], disabled_diagnostics=passes.DiagnosticCheckSet())
    assert not empty.get_disabled_diagnostics().contains(
        passes.DiagnosticCheck.UnusedControlFlowResult)


@pytest.mark.parametrize("cls", [ir.IRVisitor, ir.IRMutator])
def test_visitor_entry_points_take_pypto_parameter_names(cls):
    names = {"visit_expr": "expr", "visit_stmt": "stmt", "visit_function": "func",
             "visit_program": "program"}
    for method, param in names.items():
        params = list(inspect.signature(getattr(cls, method)).parameters)
        assert params == ["self", param], (method, params)


def test_visitor_entry_points_called_by_keyword():
    seen = []

    class Names(ir.IRVisitor):
        def visit_var(self, op):
            seen.append(op.name_hint)

    body = _body("k")
    Names().visit_stmt(stmt=body)
    Names().visit_expr(expr=body.var)
    assert seen == ["k", "k"]
    mutated = ir.IRMutator().visit_stmt(stmt=body)
    assert mutated is body
    program = ir.Program([ir.Function("f", [], [], body, Span.unknown())], "p", Span.unknown())
    assert ir.IRMutator().visit_program(program=program) is program
    func = program.get_function("f")
    assert ir.IRMutator().visit_function(func=func) is func


def test_group_forwarding_hooks_have_pyptos_one_operand_signature():
    """``visit_add(op)`` forwards to ``visit_binary_expr`` without a hidden parameter."""
    for cls in (ir.IRVisitor, ir.IRMutator):
        for hook in ("visit_add", "visit_neg", "visit_in_core_scope_stmt"):
            assert list(inspect.signature(getattr(cls, hook)).parameters) == ["self", "op"]
    x = ir.Var("x", ir.ScalarType(IDX))
    seen = []

    class Renamer(ir.IRMutator):
        def visit_binary_expr(self, op):
            seen.append(type(op).__name__)
            return super().visit_binary_expr(op)

    Renamer()(ir.Add(x, ir.Mul(x, x, IDX), IDX))
    assert seen == ["Add", "Mul"]


def test_custom_pass_properties_default_is_one_unchangeable_empty_declaration():
    default = inspect.signature(passes.create_function_pass).parameters["properties"].default
    assert isinstance(default, passes.PassProperties)
    assert default is inspect.signature(passes.create_program_pass).parameters["properties"].default
    assert repr(default).startswith("<pypto.pypto_core.passes.PassProperties object at 0x")
    default.required.insert(passes.IRProperty.SSAForm)  # a copy: the default stays empty
    assert default.required.empty()
    p = passes.create_program_pass(lambda prog: prog, "Noop")
    assert p.get_required_properties().empty() and p.get_produced_properties().empty()
    made = passes.PassProperties([passes.IRProperty.SSAForm], [], [])
    assert str(made) == "PassProperties(required={SSAForm}, produced={}, invalidated={})"
