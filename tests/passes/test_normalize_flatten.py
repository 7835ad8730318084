"""NormalizeStmtStructure and FlattenCallExpr (03-passes.md §9)."""

from __future__ import annotations

import pytest

import pypto.language as pl
from pypto import ir, passes
from pypto.ir import DataType as DT

T = pl.Tensor[[64], pl.FP32]
IDX = pl.Scalar[pl.INDEX]
TENSOR = ir.TensorType([64], DT.FP32)


def prepare(program: ir.Program) -> ir.Program:
    """What FlattenCallExpr requires: SSA form with a normalized structure."""
    return passes.normalize_stmt_structure()(passes.convert_to_ssa()(program))


def flatten(program: ir.Program) -> ir.Program:
    return passes.flatten_call_expr()(program)


def assert_roundtrip(program: ir.Program) -> None:
    ir.assert_structural_equal(program, pl.parse(ir.python_print(program, format=False)))


def three_address(program: ir.Program) -> None:
    passes.run_verifier(passes.get_structural_properties().union_with(passes.IRPropertySet(
        [passes.IRProperty.SSAForm, passes.IRProperty.NoNestedCalls,
         passes.IRProperty.NormalizedStmtStructure])))(program)


def seq(*stmts: ir.Stmt) -> ir.SeqStmts:
    """A raw SeqStmts (no flattening), to build badly structured bodies."""
    return ir.SeqStmts(list(stmts))


def exp(value: ir.Expr) -> ir.Call:
    return ir.create_op_call("tensor.exp", [value])


# -- NormalizeStmtStructure ------------------------------------------------------------------

def _messy_function() -> tuple[ir.Function, list[ir.Stmt]]:
    x = ir.Var("x", TENSOR)
    a, b, c = (ir.Var(n, TENSOR) for n in "abc")
    i = ir.Var("i", ir.ScalarType(DT.INDEX))
    sa, sb, sc = ir.AssignStmt(a, exp(x)), ir.AssignStmt(b, exp(a)), ir.AssignStmt(c, exp(b))
    loop = ir.ForStmt(i, 0, 4, 1, [], seq(seq(sc)), [])
    scope = ir.InCoreScopeStmt(body=seq(seq(sb), seq()))
    ret = ir.ReturnStmt([c])
    body = seq(seq(sa, seq(scope)), loop, seq(ret))
    return ir.Function("f", [x], [TENSOR], body), [sa, sb, sc, ret]


def test_normalize_flattens_nested_and_unwraps_single_child_blocks():
    func, (sa, sb, sc, ret) = _messy_function()
    with passes.PassContext([]):  # the input violates the structural NoRedundantBlocks
        after = passes.normalize_stmt_structure()(ir.Program([func], "P"))["f"]
    body = after.body
    assert type(body) is ir.SeqStmts and len(body.stmts) == 4
    first, scope, loop, last = body.stmts
    assert first is sa and last is ret
    assert scope.body is sb  # [[sb], []] -> sb
    assert loop.body is sc   # [[sc]] -> sc
    passes.run_verifier([passes.IRProperty.NormalizedStmtStructure,
                         passes.IRProperty.NoRedundantBlocks])(ir.Program([after], "P"))


def test_normalize_returns_a_normalized_function_unchanged():
    @pl.program
    class Before:
        @pl.function
        def main(self, x: T, n: IDX) -> T:
            for i in pl.range(n):
                x = pl.add(x, x)
            if n > 2:
                x = pl.exp(x)
            return x

    after = passes.normalize_stmt_structure()(Before)
    assert after is Before


def test_normalize_keeps_control_flow_and_attrs():
    x = ir.Var("x", TENSOR)
    i = ir.Var("i", ir.ScalarType(DT.INDEX))
    loop = ir.ForStmt(i, 0, 8, 1, [], seq(ir.EvalStmt(x)), [], kind=ir.ForKind.Pipeline,
                      attrs={"pipeline_stages": 2})
    branch = ir.IfStmt(ir.ConstBool(True), seq(ir.EvalStmt(x)), seq(), [])
    func = ir.Function("f", [x], [TENSOR], seq(loop, branch, ir.ReturnStmt([x])),
                       type=ir.FunctionType.Orchestration, attrs={"k": 1})
    with passes.PassContext([]):
        after = passes.normalize_stmt_structure()(ir.Program([func], "P"))["f"]
    new_loop, new_branch, _ = after.body.stmts
    assert new_loop.kind is ir.ForKind.Pipeline and new_loop._attrs == {"pipeline_stages": 2}
    assert isinstance(new_loop.body, ir.EvalStmt)
    assert isinstance(new_branch.else_body, ir.SeqStmts) and not new_branch.else_body.stmts
    assert after.func_type is ir.FunctionType.Orchestration and after._attrs == {"k": 1}


def test_normalize_restores_the_property_convert_to_ssa_invalidates():
    @pl.program
    class Before:
        @pl.function
        def main(self, x: T, n: IDX) -> T:
            for i in pl.range(n):
                x = pl.add(x, x)
            return x

    after = prepare(Before)
    passes.run_verifier([passes.IRProperty.NormalizedStmtStructure])(after)


def test_normalize_handles_100_deep_nesting():
    x = ir.Var("x", TENSOR)
    body: ir.Stmt = seq(ir.EvalStmt(x))
    for level in range(100):
        body = seq(ir.ForStmt(ir.Var(f"i{level}", ir.ScalarType(DT.INDEX)), 0, 2, 1, [],
                              seq(body), []))
    func = ir.Function("f", [x], [TENSOR], seq(body, ir.ReturnStmt([x])))
    with passes.PassContext([]):
        after = passes.normalize_stmt_structure()(ir.Program([func], "Deep"))
        passes.run_verifier([passes.IRProperty.NormalizedStmtStructure])(after)
    node = after["f"].body.stmts[0]
    for _ in range(100):
        assert isinstance(node, ir.ForStmt)
        node = node.body
    assert isinstance(node, ir.EvalStmt)


# -- FlattenCallExpr -----------------------------------------------------------------------------

def test_nested_calls_are_hoisted_left_to_right_innermost_first():
    @pl.program
    class Before:
        @pl.function
        def main(self, x: T) -> T:
            y = pl.add(pl.mul(x, x), pl.exp(pl.neg(x)))
            return y

    @pl.program
    class Expected:
        @pl.function
        def main(self, x: T) -> T:
            t0 = pl.mul(x, x)
            t1 = pl.neg(x)
            t2 = pl.exp(t1)
            y = pl.add(t0, t2)
            return y

    after = flatten(prepare(Before))
    ir.assert_structural_equal(after, prepare(Expected))
    names = [v.name_hint for v in ir.collect_def_vars(after["main"].body)]
    assert names == ["t__tmp_v0", "t__tmp_v1", "t__tmp_v2", "y__ssa_v0"]
    three_address(after)
    assert_roundtrip(after)


def test_return_value_and_scalar_operands_are_hoisted():
    @pl.program
    class Before:
        @pl.function
        def main(self, x: T) -> T:
            s = pl.tensor.read(x, [0]) * 2.0
            return pl.add(x, x)

    @pl.program
    class Expected:
        @pl.function
        def main(self, x: T) -> T:
            t0 = pl.tensor.read(x, [0])
            s = t0 * 2.0
            t1 = pl.add(x, x)
            return t1

    after = flatten(prepare(Before))
    ir.assert_structural_equal(after, prepare(Expected))
    three_address(after)
    assert ir.python_print(after["main"]) == (
        "@pl.function\n"
        "def main(x__ssa_v0: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:\n"
        "    t__tmp_v0: pl.Scalar[pl.FP32] = pl.tensor.read(x__ssa_v0, [0])\n"
        "    s__ssa_v0: pl.Scalar[pl.FP32] = t__tmp_v0 * 2.0\n"
        "    t__tmp_v1: pl.Tensor[[64], pl.FP32] = pl.tensor.add(x__ssa_v0, x__ssa_v0)\n"
        "    return t__tmp_v1")


def test_if_condition_and_for_bound_are_hoisted_before_the_statement():
    @pl.program
    class Before:
        @pl.function
        def main(self, x: T) -> T:
            if pl.tensor.read(x, [0]) > 0.0:
                y = pl.exp(x)
            else:
                y = pl.neg(x)
            for i in pl.range(pl.tensor.dim(x, 0)):
                y = pl.add(y, x)
            return y

    @pl.program
    class Expected:
        @pl.function
        def main(self, x: T) -> T:
            t0 = pl.tensor.read(x, [0])
            if t0 > 0.0:
                y0 = pl.exp(x)
                y2 = pl.yield_(y0)
            else:
                y1 = pl.neg(x)
                y2 = pl.yield_(y1)
            t1 = pl.tensor.dim(x, 0)
            for i, (y3,) in pl.range(t1, init_values=(y2,)):
                y4 = pl.add(y3, x)
                y5 = pl.yield_(y4)
            return y5

    after = flatten(prepare(Before))
    ir.assert_structural_equal(after, prepare(Expected))
    three_address(after)
    assert_roundtrip(after)


def test_yield_values_are_hoisted_inside_the_body_before_the_yield():
    @pl.program
    class Before:
        @pl.function
        def main(self, x: T) -> T:
            for i, (a,) in pl.range(4, init_values=(x,)):
                r = pl.yield_(pl.add(a, a))
            return r

    @pl.program
    class Expected:
        @pl.function
        def main(self, x: T) -> T:
            for i, (a,) in pl.range(4, init_values=(x,)):
                t0 = pl.add(a, a)
                r = pl.yield_(t0)
            return r

    after = flatten(prepare(Before))
    ir.assert_structural_equal(after, prepare(Expected))
    loop = after["main"].body.stmts[0]
    assert [type(s).__name__ for s in loop.body.stmts] == ["AssignStmt", "YieldStmt"]
    three_address(after)
    assert_roundtrip(after)


def test_calls_inside_a_scope_are_hoisted_inside_the_scope_body():
    @pl.program
    class Before:
        @pl.function
        def main(self, x: T) -> T:
            with pl.at(level=pl.Level.CORE_GROUP):
                y = pl.add(pl.exp(x), x)
            return y

    @pl.program
    class Expected:
        @pl.function
        def main(self, x: T) -> T:
            with pl.at(level=pl.Level.CORE_GROUP):
                t0 = pl.exp(x)
                y = pl.add(t0, x)
            return y

    after = flatten(prepare(Before))
    ir.assert_structural_equal(after, prepare(Expected))
    three_address(after)


def test_while_condition_call_is_hoisted_before_the_loop():
    @pl.program
    class Before:
        @pl.function
        def main(self, x: T, n: IDX) -> T:
            k = 0
            while k < pl.tensor.dim(x, 0):
                k = k + 1
            return x

    after = flatten(prepare(Before))
    stmts = after["main"].body.stmts
    assert [type(s).__name__ for s in stmts] == ["AssignStmt", "AssignStmt", "WhileStmt",
                                                 "ReturnStmt"]
    temp = stmts[1].var
    assert temp.name_hint == "t__tmp_v0" and stmts[2].condition.right is temp
    three_address(after)


def test_while_condition_call_reading_a_carried_value_is_rejected():
    @pl.program
    class Before:
        @pl.function
        def main(self, x: T) -> T:
            k = 0
            while pl.tensor.read(x, [k]) > 0.0:
                k = k + 1
            return x

    ready = prepare(Before)
    loop = ready["main"].body.stmts[1]
    with pytest.raises(ValueError) as info:
        flatten(ready)
    assert str(info.value) == (
        "FlattenCallExpr: in function 'main': the while condition calls 'tensor.read' on the "
        "loop-carried value 'k'; a call hoisted before the loop cannot see it. "
        f"Compute the condition value in the loop body and yield it [{loop.span}]")


def test_nested_call_in_an_iter_arg_init_is_hoisted_and_the_iter_arg_rebound():
    x = ir.Var("x", TENSOR)
    init = ir.create_op_call("tensor.add", [exp(x), x])
    i = ir.Var("i", ir.ScalarType(DT.INDEX))
    a = ir.IterArg("a", TENSOR, init)
    r = ir.Var("r", TENSOR)
    loop = ir.ForStmt(i, 0, 4, 1, [a], ir.YieldStmt([a]), [r])
    func = ir.Function("f", [x], [TENSOR], ir.SeqStmts([loop, ir.ReturnStmt([r])]))
    after = flatten(ir.Program([func], "P"))["f"]
    hoisted, new_loop, _ = after.body.stmts
    (new_arg,) = new_loop.iter_args
    assert new_arg is not a and new_arg.initValue.args[0] is hoisted.var
    assert new_loop.body.value[0] is new_arg
    three_address(ir.Program([after], "P"))


def test_flatten_returns_an_already_flat_function_unchanged():
    @pl.program
    class Before:
        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: T) -> T:
            y = pl.exp(x)
            z = pl.add(y, x)
            return z

    ready = prepare(Before)
    assert flatten(ready) is ready


def test_flatten_keeps_function_types_and_attrs():
    @pl.program
    class Before:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(self, x: T) -> T:
            pl.func_attr({"slot_num": 2})
            y = pl.add(pl.exp(x), x)
            return y

    after = flatten(prepare(Before))["kernel"]
    assert after.func_type is ir.FunctionType.InCore and after._attrs == {"slot_num": 2}
    assert after.level is ir.Level.CHIP_DIE


def test_temp_counter_is_per_function():
    @pl.program
    class Before:
        @pl.function
        def f(self, x: T) -> T:
            return pl.exp(x)

        @pl.function
        def g(self, x: T) -> T:
            return pl.exp(x)

    after = flatten(prepare(Before))
    for name in ("f", "g"):
        assert after[name].body.stmts[0].var.name_hint == "t__tmp_v0"


def test_flatten_handles_100_deep_nesting():
    x = ir.Var("x", TENSOR)
    y = ir.Var("y", TENSOR)
    body: ir.Stmt = ir.AssignStmt(y, ir.create_op_call("tensor.add", [exp(x), x]))
    for level in range(100):
        body = ir.ForStmt(ir.Var(f"i{level}", ir.ScalarType(DT.INDEX)), 0, 2, 1, [], body, [])
    func = ir.Function("f", [x], [TENSOR], ir.SeqStmts([body, ir.ReturnStmt([x])]))
    with passes.PassContext([passes.VerificationInstrument(passes.VerificationMode.AFTER)]):
        after = flatten(ir.Program([func], "Deep"))
    node = after["f"].body.stmts[0]
    for _ in range(100):
        node = node.body
    assert [s.var.name_hint for s in node.stmts] == ["t__tmp_v0", "y"]
