"""ir.IRBuilder (02-ir.md §16)."""

from __future__ import annotations

import pytest

from pypto import ir

from .samples import BOOL, FP32, INDEX, SPAN, accumulate_function, const, scalar, var


def build_accumulate(ib, name="f"):
    with ib.function(name) as f:
        x = f.param("x", scalar())
        f.return_type(scalar())
        with ib.for_range("i", 0, 8) as loop:
            acc = loop.iter_arg("acc", x)
            nxt = ib.let("nxt", ir.Add(acc, loop.loop_var, INDEX, SPAN))
            ib.yield_(nxt)
            total = loop.return_var("acc_rv")
        ib.return_(total)
    return f.result


def test_builds_the_same_function_as_the_constructors():
    func = build_accumulate(ir.IRBuilder())
    assert isinstance(func, ir.Function) and func.name == "f"
    ir.assert_structural_equal(func, accumulate_function())


def test_program_collects_functions():
    ib = ir.IRBuilder()
    with ib.program("P", span=SPAN) as prog:
        build_accumulate(ib, "b")
        build_accumulate(ib, "a")
        prog.add_function(accumulate_function("c"))
    assert isinstance(prog.result, ir.Program)
    assert prog.result.name == "P" and list(prog.result.functions) == ["a", "b", "c"]


def test_function_options_and_param_directions():
    ib = ir.IRBuilder()
    out = var("out")
    with ib.function("k", type=ir.FunctionType.InCore, attrs={"split": ir.SplitMode.UP_DOWN},
                     return_types=[scalar()], span=SPAN) as f:
        a = f.param("a", scalar(FP32))
        assert f.param(out, direction=ir.ParamDirection.Out) is out
        ib.return_(a)
    func = f.result
    assert func.params == (a, out)
    assert func.param_directions == (ir.ParamDirection.In, ir.ParamDirection.Out)
    assert (func.func_type, func.level, func.role) == (ir.FunctionType.InCore,
                                                       ir.Level.CHIP_DIE, ir.Role.SubWorker)
    assert func.split is ir.SplitMode.UP_DOWN and func.return_types == (scalar(),)
    assert func.span is SPAN


def test_if_with_else_and_return_vars():
    ib = ir.IRBuilder()
    with ib.function("f") as f:
        c = f.param("c", scalar(BOOL))
        with ib.if_(c) as branch:
            ib.yield_(const(1))
            branch.else_()
            ib.yield_(const(2))
            r = branch.return_var("r", scalar())
        ib.return_(r)
    if_stmt = f.result.body[0]
    assert isinstance(if_stmt, ir.IfStmt) and if_stmt.condition is c
    assert if_stmt.then_body.value[0].value == 1 and if_stmt.else_body.value[0].value == 2
    assert if_stmt.return_vars == (r,)
    with ib.function("g") as g:
        with ib.if_(ir.ConstBool(True, SPAN)):
            ib.break_()
    assert g.result.body.else_body is None and isinstance(g.result.body.then_body, ir.BreakStmt)


def test_while_loop_condition_sees_iter_args():
    ib = ir.IRBuilder()
    with ib.function("f") as f:
        with ib.while_() as loop:
            n = loop.iter_arg("n", const(0))
            loop.condition(ir.Lt(n, const(10), BOOL, SPAN))
            ib.yield_(ir.Add(n, const(1), INDEX, SPAN))
            out = loop.return_var("n_out")
        ib.return_(out)
    stmt = f.result.body[0]
    assert isinstance(stmt, ir.WhileStmt) and stmt.condition.left is n
    assert stmt.iter_args == (n,) and stmt.return_vars == (out,) and out.type == n.type


def test_for_loop_options_and_existing_loop_var():
    ib = ir.IRBuilder()
    i = var("i")
    with ib.function("f") as f:
        with ib.for_range(i, 2, 10, 2, kind=ir.ForKind.Pipeline,
                          attrs={"pipeline_stages": 2}) as loop:
            assert loop.loop_var is i
            ib.continue_()
    stmt = f.result.body
    assert stmt.loop_var is i and [stmt.start.value, stmt.stop.value, stmt.step.value] == [2, 10, 2]
    assert stmt.kind is ir.ForKind.Pipeline and stmt.attrs == {"pipeline_stages": 2}
    with ib.function("g") as g:
        with ib.for_range("j", 0, 4):
            pass
    assert g.result.body.loop_var.type == scalar(INDEX)
    assert g.result.body.body.stmts == ()


@pytest.mark.parametrize("kind, fields, cls", [
    (ir.ScopeKind.InCore, {"split": ir.SplitMode.UP_DOWN}, ir.InCoreScopeStmt),
    (ir.ScopeKind.Cluster, {}, ir.ClusterScopeStmt),
    (ir.ScopeKind.Hierarchy, {"level": ir.Level.HOST, "role": ir.Role.Orchestrator},
     ir.HierarchyScopeStmt),
    (ir.ScopeKind.Spmd, {"core_num": 8}, ir.SpmdScopeStmt),
    (ir.ScopeKind.Runtime, {"manual": True}, ir.RuntimeScopeStmt),
    (ir.ScopeKind.Graph, {}, ir.GraphScopeStmt),
    (ir.ScopeKind.SplitAiv, {"split": ir.SplitMode.LEFT_RIGHT, "count": 4},
     ir.SplitAivScopeStmt),
])
def test_every_scope_kind(kind, fields, cls):
    ib = ir.IRBuilder()
    with ib.function("f") as f:
        with ib.scope(kind, name_hint="name", attrs={"slot_num": 2}, **fields) as frame:
            y = ib.let("y", const(1))
    scope = f.result.body
    assert type(scope) is cls and frame.result is scope
    assert scope.name_hint == "name" and scope.attrs == {"slot_num": 2}
    assert scope.body.var is y
    for key, value in fields.items():
        got = getattr(scope, key)
        assert (got.value if isinstance(got, ir.ConstInt) else got) == value


def test_begin_and_end_scope():
    ib = ir.IRBuilder()
    with ib.function("f") as f:
        ib.begin_scope(ir.ScopeKind.Graph, name_hint="layer")
        ib.eval_(const(1))
        scope = ib.end_scope()
    assert isinstance(scope, ir.GraphScopeStmt) and f.result.body is scope


def test_end_scope_rejects_an_unnamed_graph():
    ib = ir.IRBuilder()
    with ib.function("f"):
        ib.begin_scope(ir.ScopeKind.Graph)
        ib.eval_(const(1))
        with pytest.raises(ValueError, match="IRBuilder.end_scope: a Graph scope needs a "
                                             "non-empty name_hint"):
            ib.end_scope()
        ib.eval_(const(2))  # the failed scope is closed; the function body continues
    with pytest.raises(ValueError, match="a Graph scope needs a non-empty name_hint"):
        with ib.function("g"):
            with ib.scope(ir.ScopeKind.Graph, name_hint=""):
                ib.eval_(const(1))


def test_other_scope_kinds_accept_an_empty_name():
    ib = ir.IRBuilder()
    with ib.function("f") as f:
        with ib.scope(ir.ScopeKind.Cluster):
            ib.eval_(const(1))
    assert f.result.body.name_hint == ""


def test_misuse_is_reported():
    ib = ir.IRBuilder()
    with pytest.raises(ValueError, match="a statement must be inside a function"):
        ib.eval_(const(1))
    with pytest.raises(ValueError, match="a for loop must be inside a function"):
        with ib.for_range("i", 0, 1):
            pass
    with pytest.raises(ValueError, match="end_scope: the innermost open construct is nothing"):
        ib.end_scope()
    with ib.program("P"):
        with pytest.raises(ValueError, match="a statement must be inside a function, not "
                                             "directly in program 'P'"):
            ib.eval_(const(1))
        with pytest.raises(ValueError, match="programs cannot be nested"):
            with ib.program("Q"):
                pass
        with ib.function("f"):
            with pytest.raises(ValueError, match="function 'g' must be at top level or directly "
                                                 "in a program, not in a function"):
                with ib.function("g"):
                    pass
            with ib.for_range("i", 0, 2):
                with pytest.raises(ValueError, match="end_scope: the innermost open construct "
                                                     "is for loop, not a scope"):
                    ib.end_scope()
            with ib.if_(ir.ConstBool(True, SPAN)) as branch:
                branch.else_()
                with pytest.raises(ValueError, match="if already has an else branch"):
                    branch.else_()


def test_missing_pieces_are_reported():
    ib = ir.IRBuilder()
    with ib.function("f") as f:
        with pytest.raises(ValueError, match="function 'f' param 'p' needs a type"):
            f.param("p")
        with pytest.raises(TypeError, match="function 'f' param expects a Var or a name, got int"):
            f.param(3)
        with pytest.raises(ValueError, match="while loop has no condition"):
            with ib.while_():
                pass
        with pytest.raises(ValueError, match="for loop return_var 'r' has no matching iter_arg"):
            with ib.for_range("i", 0, 2) as loop:
                loop.return_var("r")
        with pytest.raises(ValueError, match="ForStmt: 1 iter_args but 0 return_vars"):
            with ib.for_range("i", 0, 2) as loop:
                loop.iter_arg("a", const(0))


def test_an_exception_in_a_block_drops_the_frame():
    ib = ir.IRBuilder()
    with ib.function("f") as f:
        with pytest.raises(RuntimeError, match="boom"):
            with ib.for_range("i", 0, 2):
                raise RuntimeError("boom")
        ib.eval_(const(1))
    assert isinstance(f.result.body, ir.EvalStmt)


def test_statement_helpers():
    ib = ir.IRBuilder()
    x = var("x")
    with ib.function("f") as f:
        y = ib.let("y", x, type=scalar(FP32))
        ib.let(x, const(2))
        ib.emit(ir.EvalStmt(y, SPAN))
        ib.break_()
        ib.continue_()
        ib.return_()
    stmts = f.result.body.stmts
    assert [type(s) for s in stmts] == [ir.AssignStmt, ir.AssignStmt, ir.EvalStmt, ir.BreakStmt,
                                        ir.ContinueStmt, ir.ReturnStmt]
    assert stmts[0].var.type == scalar(FP32) and stmts[1].var is x and stmts[5].value == ()
    with pytest.raises(TypeError, match="IRBuilder.emit expects a Stmt, got Var"):
        with ib.function("g"):
            ib.emit(x)
    with pytest.raises(TypeError, match="IRBuilder.let expects an Expr value, got int"):
        with ib.function("h"):
            ib.let("z", 3)
