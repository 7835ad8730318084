"""UnrollLoops: pl.unroll loops with constant bounds become one body copy per iteration."""

from __future__ import annotations

import pytest

import pypto.language as pl
from pypto import ir, passes
from pypto.ir import DataType as DT

IDX = ir.ScalarType(DT.INDEX)


def unrolled(program: ir.Program) -> ir.Program:
    return passes.unroll_loops()(program)


def test_copies_substitute_and_fold_the_loop_variable():
    @pl.program
    class Before:
        @pl.function
        def main(self, x: pl.Tensor[[48, 64], pl.FP32]) -> pl.Scalar[pl.INDEX]:
            s: pl.Scalar[pl.INDEX] = 0
            for u in pl.unroll(0, 6, 2):
                t: pl.Tensor[[16, 64], pl.FP32] = pl.slice(x, [16, 64], [u * 8, 0])
                s = s + u
            return s

    @pl.program
    class Expected:
        @pl.function
        def main(self, x: pl.Tensor[[48, 64], pl.FP32]) -> pl.Scalar[pl.INDEX]:
            s: pl.Scalar[pl.INDEX] = 0
            t: pl.Tensor[[16, 64], pl.FP32] = pl.slice(x, [16, 64], [0, 0])
            s = s + 0
            t = pl.slice(x, [16, 64], [16, 0])
            s = s + 2
            t = pl.slice(x, [16, 64], [32, 0])
            s = s + 4
            return s

    out = unrolled(Before)
    ir.assert_structural_equal(out, Expected)
    # the usual pipeline runs on the result (UnrollLoops goes before ConvertToSSA)
    passes.convert_to_ssa()(out)


def test_nested_unroll_loops_expand_inner_first_and_other_loops_stay():
    @pl.program
    class Before:
        @pl.function
        def main(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
            s: pl.Scalar[pl.INDEX] = 0
            for i in pl.range(n):
                for a in pl.unroll(2):
                    for b in pl.unroll(2):
                        s = s + a * 10 + b
            return s

    @pl.program
    class Expected:
        @pl.function
        def main(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
            s: pl.Scalar[pl.INDEX] = 0
            for i in pl.range(n):
                s = s + 0 + 0
                s = s + 0 + 1
                s = s + 10 + 0
                s = s + 10 + 1
            return s

    ir.assert_structural_equal(unrolled(Before), Expected)


def _carried_loop(stop: int) -> tuple[ir.Function, ir.Var]:
    """SSA ``for u in unroll(stop) carrying acc: acc2 = acc + u; yield acc2`` (hand-built:
    the parser refuses init_values on pl.unroll)."""
    n = ir.Var("n", IDX)
    u = ir.Var("u", IDX)
    acc = ir.IterArg("acc", IDX, n)
    acc2 = ir.Var("acc2", IDX)
    out = ir.Var("out", IDX)
    body = ir.SeqStmts([ir.AssignStmt(acc2, ir.Add(acc, u, DT.INDEX)),
                        ir.YieldStmt([acc2])])
    loop = ir.ForStmt(u, 0, stop, 1, [acc], body, [out], kind=ir.ForKind.Unroll)
    func = ir.Function("main", [n], [IDX], ir.SeqStmts([loop, ir.ReturnStmt([out])]))
    return func, out


def test_carried_values_thread_through_fresh_copies_in_ssa_form():
    func, out = _carried_loop(3)
    result = unrolled(ir.Program([func], "P"))
    stmts = result.functions["main"].body.stmts
    # acc2 = n + 0; acc2' = acc2 + 1; acc2'' = acc2' + 2; out = acc2''; return out
    assert [type(s).__name__ for s in stmts] == ["AssignStmt"] * 4 + ["ReturnStmt"]
    first, second, third, final = stmts[:4]
    assert first.value.left is func.params[0] and first.value.right.value == 0
    assert second.value.left is first.var and second.value.right.value == 1
    assert third.value.left is second.var and third.value.right.value == 2
    assert len({first.var, second.var, third.var}) == 3  # one fresh Var per copy
    assert final.var is out and final.value is third.var
    passes.run_verifier(passes.IRPropertySet([passes.IRProperty.SSAForm,
                                              passes.IRProperty.UnrollResolved]))(result)


def test_zero_iterations_bind_the_initial_values():
    func, out = _carried_loop(0)
    stmts = unrolled(ir.Program([func], "P")).functions["main"].body.stmts
    assert stmts[0].var is out and stmts[0].value is func.params[0]


def test_non_constant_bounds_are_refused_at_the_loop():
    n = ir.Var("n", IDX)
    u = ir.Var("u", IDX)
    span = ir.Span("prog.py", 7, 5, 7, 30)
    loop = ir.ForStmt(u, 0, n, 1, [], ir.EvalStmt(u), [], span, kind=ir.ForKind.Unroll)
    func = ir.Function("main", [n], [], ir.SeqStmts([loop, ir.ReturnStmt()]))
    with pytest.raises(passes.PassError) as info:
        unrolled(ir.Program([func], "P"))
    err = info.value
    assert err.pass_name == "UnrollLoops" and err.code is passes.PassErrorCode.UNROLL_REFUSED
    assert "needs constant bounds" in err.message
    assert (err.span.filename, err.span.begin_line) == ("prog.py", 7)


def test_break_in_the_body_is_refused_by_name():
    u = ir.Var("u", IDX)
    loop = ir.ForStmt(u, 0, 2, 1, [], ir.BreakStmt(), [], kind=ir.ForKind.Unroll)
    func = ir.Function("main", [], [], ir.SeqStmts([loop, ir.ReturnStmt()]))
    with passes.PassContext([]):  # the input violates BreakContinueValid on purpose
        with pytest.raises(passes.PassError, match="holds a 'break'"):
            unrolled(ir.Program([func], "P"))


def test_unroll_resolved_verifier_reports_a_left_unroll_loop():
    u = ir.Var("u", IDX)
    loop = ir.ForStmt(u, 0, 2, 1, [], ir.EvalStmt(u), [], kind=ir.ForKind.Unroll)
    program = ir.Program([ir.Function("main", [], [], ir.SeqStmts([loop, ir.ReturnStmt()]))], "P")
    diagnostics = passes.PropertyVerifierRegistry.verify(
        passes.IRPropertySet([passes.IRProperty.UnrollResolved]), program)
    assert [d.rule_name for d in diagnostics] == ["UnrollResolved"]
    assert "pl.unroll loop over 'u' left in function 'main'" in diagnostics[0].message
    assert passes.PropertyVerifierRegistry.verify(
        passes.IRPropertySet([passes.IRProperty.UnrollResolved]), unrolled(program)) == []


def test_an_inner_loop_over_the_same_name_is_refused():
    u = ir.Var("u", IDX)
    inner = ir.ForStmt(u, 0, 3, 1, [], ir.EvalStmt(u), [])
    loop = ir.ForStmt(u, 0, 2, 1, [], inner, [], kind=ir.ForKind.Unroll)
    func = ir.Function("main", [], [], ir.SeqStmts([loop, ir.ReturnStmt()]))
    with passes.PassContext([]):  # (non-SSA on purpose)
        with pytest.raises(passes.PassError, match="reassigns its loop variable 'u'"):
            unrolled(ir.Program([func], "P"))
