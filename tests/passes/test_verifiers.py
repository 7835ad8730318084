"""Every property verifier: a passing program, violating programs with their exact
diagnostics, the report format, and 100-deep nesting without RecursionError."""

from __future__ import annotations

import pytest

import pypto
from pypto import ir, passes
from pypto.ir import DataType as DT
from pypto.passes import IRProperty as P
from pypto.passes import SSAErrorType

T = ir.TensorType([64], DT.FP32)
IDX = ir.ScalarType(DT.INDEX)
BOOL = ir.ScalarType(DT.BOOL)
ERROR, WARNING = passes.DiagnosticSeverity.Error, passes.DiagnosticSeverity.Warning


def span(line: int) -> ir.Span:
    return ir.Span("t.py", line, 1)


def verify(prop: P, program: ir.Program) -> list[passes.Diagnostic]:
    return passes.PropertyVerifierRegistry.verify(passes.IRPropertySet([prop]), program)


def only(prop: P, program: ir.Program) -> passes.Diagnostic:
    diagnostics = verify(prop, program)
    assert len(diagnostics) == 1, [d.message for d in diagnostics]
    return diagnostics[0]


def program(*funcs: ir.Function) -> ir.Program:
    return ir.Program(list(funcs), "P")


def func(name, params, body, returns=(T,), **kwargs) -> ir.Function:
    return ir.Function(name, params, list(returns), body, **kwargs)


def seq(*stmts) -> ir.Stmt:
    return ir.SeqStmts.flatten(stmts)


def call(op_name: str, *args, type_=T, attrs=None) -> ir.Call:
    op = ir.GlobalVar(op_name) if "." not in op_name else ir.Op(op_name)
    return ir.Call(op, list(args), {}, attrs or {}, type_, ir.Span.unknown())


def assign(var, value, line=0):
    return ir.AssignStmt(var, value, span(line) if line else None)


def ret(*values, line=0):
    return ir.ReturnStmt(list(values), span(line) if line else None)


def for_loop(loop_var, stop, body, iter_args=(), return_vars=(), line=0, **kwargs):
    return ir.ForStmt(loop_var, 0, stop, 1, list(iter_args), body, list(return_vars),
                      span(line) if line else None, **kwargs)


def new_vars(*names, type_=T):
    return [ir.Var(name, type_) for name in names]


# -- SSAForm ---------------------------------------------------------------------------

def ssa_ok_program() -> ir.Program:
    x, y, a2, rv = new_vars("x", "y", "a2", "rv")
    i = ir.Var("i", IDX)
    acc = ir.IterArg("acc", T, y)
    loop = for_loop(i, 4, seq(assign(a2, call("tensor.add", acc, x)), ir.YieldStmt([a2])),
                    [acc], [rv])
    return program(func("main", [x], seq(assign(y, call("tensor.add", x, x)), loop, ret(rv))))


def test_ssa_passes_on_ssa_program():
    assert verify(P.SSAForm, ssa_ok_program()) == []


def test_ssa_multiple_assignment_message_ends_with_printed_function():
    x, y = new_vars("x", "y")
    f = func("main", [x], seq(assign(y, x, 2), assign(y, x, 3), ret(y)))
    d = only(P.SSAForm, program(f))
    assert (d.severity, d.rule_name, d.error_code) == (ERROR, "SSAVerify", 1)
    assert d.message == ("Variable 'y' is assigned more than once (2 times), violating SSA form"
                         f"\nIn function 'main':\n{ir.python_print(f)}")
    assert d.span == span(3)


def test_ssa_param_reassignment_counts_all_definitions():
    x = ir.Var("x", T)
    d = only(P.SSAForm, program(func("main", [x], seq(assign(x, x, 2), assign(x, x, 3),
                                                      ret(x)))))
    assert d.message.startswith("Variable 'x' is assigned more than once (3 times)")
    assert d.span == span(2)


def test_ssa_name_shadowing():
    x, y, inner = new_vars("x", "y", "y")
    i = ir.Var("i", IDX)
    body = seq(assign(y, x), for_loop(i, 4, assign(inner, x, 5)), ret(y))
    d = only(P.SSAForm, program(func("main", [x], body)))
    assert d.error_code == SSAErrorType.NAME_SHADOWING == 2
    assert d.message.startswith("Variable 'y' shadows a variable of the same name defined in "
                                "an enclosing scope\nIn function 'main'")
    assert d.span == span(5)


def test_ssa_scope_violation():
    x, t = new_vars("x", "t")
    i = ir.Var("i", IDX)
    body = seq(for_loop(i, 4, assign(t, x)), ret(t, line=7))
    d = only(P.SSAForm, program(func("main", [x], body)))
    assert d.error_code == SSAErrorType.SCOPE_VIOLATION == 6
    assert d.message.startswith("Variable 't' used outside its defining scope")
    assert d.span == span(7)


def test_ssa_scopes_do_not_open_a_scope_and_runtime_scopes_hide_no_yield():
    x, t, a2, rv = new_vars("x", "t", "a2", "rv")
    i = ir.Var("i", IDX)
    acc = ir.IterArg("acc", T, x)
    tail = ir.RuntimeScopeStmt(body=seq(assign(a2, acc), ir.YieldStmt([a2])))
    body = seq(ir.InCoreScopeStmt(body=assign(t, x)),
               for_loop(i, 4, tail, [acc], [rv]), ret(t))
    assert verify(P.SSAForm, program(func("main", [x], body))) == []


def test_ssa_missing_yield_in_loop_and_if():
    x, rv, r = new_vars("x", "rv", "r")
    i = ir.Var("i", IDX)
    loop = for_loop(i, 4, ir.EvalStmt(x), [ir.IterArg("acc", T, x)], [rv], line=3)
    cond = ir.IfStmt(ir.ConstBool(True), ir.YieldStmt([x]), None, [r], span(4))
    diagnostics = verify(P.SSAForm, program(func("main", [x], seq(loop, cond, ret(rv)))))
    assert [(d.error_code, d.message.split("\n")[0], d.span) for d in diagnostics] == [
        (3, "ForStmt with 1 iter_args must end with a yield", span(3)),
        (3, "IfStmt with 1 return vars must have an else branch", span(4)),
    ]


def test_ssa_iter_args_return_vars_mismatch_and_yield_count():
    x, rv, a, b = new_vars("x", "rv", "a", "b")
    i = ir.Var("i", IDX)
    acc = ir.IterArg("acc", T, x)
    loop = for_loop(i, 4, ir.YieldStmt([acc, acc], span(6)), [acc], [rv], line=5)
    broken = loop.replace(return_vars=(rv, a))
    diagnostics = verify(P.SSAForm, program(func("main", [x], seq(broken, ret(b)))))
    assert [(SSAErrorType(d.error_code).name, d.message.split("\n")[0], d.span)
            for d in diagnostics] == [
        ("ITER_ARGS_RETURN_VARS_MISMATCH", "ForStmt has 1 iter_args but 2 return vars", span(5)),
        ("YIELD_COUNT_MISMATCH", "Yield has 2 value(s) but the ForStmt has 1 iter_args",
         span(6)),
    ]


def test_ssa_dim_vars_of_param_types_are_predefined():
    n = ir.Var("n", IDX)
    x, m = ir.Var("x", ir.TensorType([n], DT.FP32)), ir.Var("m", IDX)
    f = func("main", [x], seq(assign(m, n), ret(x)), returns=[x.type])
    assert verify(P.SSAForm, program(f)) == []


# -- TypeChecked -----------------------------------------------------------------------

def test_type_check_passes():
    assert verify(P.TypeChecked, ssa_ok_program()) == []


def test_type_check_conditions_and_bounds():
    x = ir.Var("x", T)
    n = ir.Var("n", ir.ScalarType(DT.INT64))
    i = ir.Var("i", IDX)
    bad_if = ir.IfStmt(n, ir.EvalStmt(x), None, [], span(2))
    bad_while = ir.WhileStmt(x, [], ir.EvalStmt(x), [], span(3))
    bad_for = ir.ForStmt(i, 0, x, 1, [], ir.EvalStmt(x), [], span(4))
    f = func("main", [x, n], seq(bad_if, bad_while, bad_for, ret(x)))
    codes = passes.TypeCheckErrorType
    assert [(d.rule_name, d.error_code, d.message, d.span)
            for d in verify(P.TypeChecked, program(f))] == [
        ("TypeCheck", codes.CONDITION_MUST_BE_BOOL, "IfStmt condition must be a Bool scalar, "
         "got int64", span(2)),
        ("TypeCheck", codes.CONDITION_MUST_BE_BOOL, "WhileStmt condition must be a Bool scalar, "
         "got Tensor", span(3)),
        ("TypeCheck", codes.FOR_RANGE_MUST_BE_SCALAR, "ForStmt stop must be a scalar, got Tensor",
         span(4)),
    ]
    not_scalar = ir.IfStmt(x, ir.EvalStmt(x), None, [], span(5))
    d = only(P.TypeChecked, program(func("main", [x], seq(not_scalar, ret(x)))))
    assert d.error_code == codes.IF_CONDITION_MUST_BE_SCALAR == 106


@pytest.mark.parametrize("yielded_type, reason, code", [
    (ir.TensorType([64], DT.INT32), "dtype int32 != fp32", 102),
    (ir.TensorType([32], DT.FP32), "shape [32] != [64]", 104),
    (ir.TensorType([8, 8], DT.FP32), "shape [8, 8] != [64]", 103),
    (ir.ScalarType(DT.FP32), "kind Scalar != Tensor", 101),
])
def test_type_check_yield_against_iter_args(yielded_type, reason, code):
    x, rv = new_vars("x", "rv")
    other = ir.Var("other", yielded_type)
    i = ir.Var("i", IDX)
    loop = for_loop(i, 4, ir.YieldStmt([other], span(9)), [ir.IterArg("acc", T, x)], [rv])
    d = only(P.TypeChecked, program(func("main", [x, other], seq(loop, ret(rv)))))
    assert d.message == f"Yield value 0 does not match iter_arg 'acc' of ForStmt: {reason}"
    assert d.error_code == code
    assert d.span == span(9)


def test_type_check_if_yields_and_index_int64_compatibility():
    s = ir.Var("s", ir.ScalarType(DT.INT64))
    r = ir.Var("r", IDX)
    bad = ir.Var("bad", ir.ScalarType(DT.FP16))
    cond = ir.IfStmt(ir.ConstBool(True), ir.YieldStmt([s]), ir.YieldStmt([bad], span(4)), [r])
    d = only(P.TypeChecked, program(func("main", [s, bad], seq(cond, ret(r)), returns=[IDX])))
    assert d.message == "Yield value 0 does not match return var 'r' of IfStmt: dtype fp16 != index"


def test_type_check_call_arity():
    a, b, y = new_vars("a", "b", "y")
    callee = func("callee", [a, b], ret(a))
    caller = func("main", [a], seq(assign(y, call("callee", a), 3), ret(y)))
    d = only(P.TypeChecked, program(callee, caller))
    assert d.message == ("Call to 'callee' passes 1 argument(s) but the function takes "
                         "2 parameter(s)")
    assert d.error_code == passes.TypeCheckErrorType.SIZE_MISMATCH
    assert d.span == span(3)


@pytest.mark.parametrize("arg_type, reason", [
    (ir.TensorType([64], DT.FP16), "dtype fp16 where fp32 is declared"),
    (ir.TensorType([32], DT.FP32), "shape [32] where [64] is declared"),
    (ir.ScalarType(DT.FP32), "a Scalar where a Tensor is declared"),
])
def test_type_check_call_argument_types(arg_type, reason):
    a, y = new_vars("a", "y")
    bad = ir.Var("bad", arg_type)
    callee = func("callee", [a], ret(a))
    caller = func("main", [bad], seq(assign(y, call("callee", bad), 3), ret(y)))
    d = only(P.TypeChecked, program(callee, caller))
    assert d.message == ("Argument 1 of the call to 'callee' does not fit parameter 'a' "
                         f"(pl.Tensor[[64], pl.FP32]): {reason}")
    assert d.span == span(3)


def test_type_check_call_binds_dynamic_dims():
    m = ir.Var("M", IDX)
    dyn = ir.TensorType([m], DT.FP32)
    a, b = ir.Var("a", dyn), ir.Var("b", dyn)
    x, w, y, z = ir.Var("x", T), ir.Var("w", ir.TensorType([32], DT.FP32)), *new_vars("y", "z")
    callee = func("callee", [a, b], ret(a), returns=[dyn])
    good = func("good", [x], seq(assign(y, call("callee", x, x)), ret(y)))
    bad = func("bad", [x, w], seq(assign(z, call("callee", x, w), 5), ret(z)))
    d = only(P.TypeChecked, program(callee, good, bad))
    assert d.message == ("Argument 2 of the call to 'callee' does not fit parameter 'b' "
                         "(pl.Tensor[[64], pl.FP32]): shape [32] where [64] is declared")


def test_type_check_returns_against_the_declared_types():
    x = ir.Var("x", T)
    h = ir.Var("h", ir.TensorType([64], DT.FP16))
    wrong = func("wrong", [x, h], ret(h, line=4))
    count = func("count", [x], ret(x, x, line=6))
    untyped = func("untyped", [x], ret(x), returns=())
    assert [(d.message, d.span) for d in verify(P.TypeChecked, program(wrong, count, untyped))] \
        == [("Return in function 'count' does not match its declared return type: returns 2 "
             "value(s) but the function declares 1", span(6)),
            ("Return in function 'wrong' does not match its declared return type: dtype fp16 "
             "where fp32 is declared", span(4))]


# -- NoNestedCalls ---------------------------------------------------------------------

def test_no_nested_calls_passes_on_three_address_code():
    x, t, y = new_vars("x", "t", "y")
    f = func("main", [x], seq(assign(t, call("tensor.add", x, x)),
                              assign(y, call("tensor.mul", t, x)), ret(y)))
    assert verify(P.NoNestedCalls, program(f)) == []


def test_no_nested_calls_reports_each_context():
    x, y = new_vars("x", "y")
    s = ir.Var("s", IDX)
    dim = call("tensor.dim", x, ir.ConstInt(0, DT.INDEX), type_=IDX)
    flag = call("tensor.any", x, type_=BOOL)
    f = func("main", [x], seq(
        assign(y, call("tensor.mul", call("tensor.add", x, x), x), 2),
        assign(s, ir.Add(dim, ir.ConstInt(1, DT.INDEX), DT.INDEX), 3),
        ir.IfStmt(flag, ir.EvalStmt(x), None, [], span(4)),
        ret(call("tensor.exp", y), line=5)))
    assert [(d.rule_name, d.error_code, d.message, d.span)
            for d in verify(P.NoNestedCalls, program(f))] == [
        ("NoNestedCall", 201, "Call to 'tensor.add' is nested inside an argument of "
         "'tensor.mul'", span(2)),
        ("NoNestedCall", 204, "Call to 'tensor.dim' is nested inside an operand of Add", span(3)),
        ("NoNestedCall", 202, "Call to 'tensor.any' is nested inside an if condition", span(4)),
        ("NoNestedCall", 0, "Call to 'tensor.exp' is nested inside a return value", span(5)),
    ]
    assert [(m.name, m.value) for m in passes.NestedCallErrorType] == [
        ("CALL_IN_CALL_ARGS", 201), ("CALL_IN_IF_CONDITION", 202), ("CALL_IN_FOR_RANGE", 203),
        ("CALL_IN_BINARY_EXPR", 204), ("CALL_IN_UNARY_EXPR", 205)]


# -- NormalizedStmtStructure / NoRedundantBlocks ----------------------------------------

@pytest.mark.parametrize("prop, rule", [(P.NormalizedStmtStructure, "NormalizedStmtStructure"),
                                        (P.NoRedundantBlocks, "NoRedundantBlocks")])
def test_seq_stmts_shape(prop, rule):
    x = ir.Var("x", T)
    i = ir.Var("i", IDX)
    assert verify(prop, ssa_ok_program()) == []
    single = ir.SeqStmts([ir.EvalStmt(x)], span(2))
    nested = ir.SeqStmts([ir.EvalStmt(x), ir.EvalStmt(x)], span(3))
    body = ir.SeqStmts([for_loop(i, 4, single), nested, ret(x)])
    assert [(d.rule_name, d.error_code, d.message, d.span)
            for d in verify(prop, program(func("main", [x], body)))] == [
        (rule, 1, "SeqStmts nested directly in SeqStmts in function 'main' (should have been "
                  "flattened)", span(3)),
        (rule, 0, "SeqStmts with a single statement in function 'main' (should have been "
                  "unwrapped)", span(2)),
    ]


# -- BreakContinueValid ----------------------------------------------------------------

def test_break_continue_valid():
    x = ir.Var("x", T)
    i, j, k = ir.Var("i", IDX), ir.Var("j", IDX), ir.Var("k", IDX)
    good = seq(for_loop(i, 4, ir.IfStmt(ir.ConstBool(True), ir.BreakStmt(), None, [])),
               for_loop(j, 4, ir.ContinueStmt(), kind=ir.ForKind.Pipeline,
                        attrs={"pipeline_stages": 2}),
               ir.WhileStmt(ir.ConstBool(True), [], ir.BreakStmt(), []), ret(x))
    assert verify(P.BreakContinueValid, program(func("main", [x], good))) == []
    bad = seq(ir.BreakStmt(span(2)),
              for_loop(k, 4, ir.ContinueStmt(span(4)), kind=ir.ForKind.Parallel), ret(x))
    assert [(d.rule_name, d.message, d.span)
            for d in verify(P.BreakContinueValid, program(func("main", [x], bad)))] == [
        ("BreakContinueValid", "'break' found outside any loop in function 'main'; only "
         "Sequential/Pipeline for loops and while loops allow it", span(2)),
        ("BreakContinueValid", "'continue' found in a Parallel for loop in function 'main'; "
         "only Sequential/Pipeline for loops and while loops allow it", span(4)),
    ]


# -- UseAfterDef -----------------------------------------------------------------------

def test_use_after_def_passes_with_python_scoping():
    x, t, e, rv, r = new_vars("x", "t", "e", "rv", "r")
    i = ir.Var("i", IDX)
    acc = ir.IterArg("acc", T, x)
    loop = for_loop(i, 4, seq(assign(t, acc), ir.YieldStmt([t])), [acc], [rv])
    plain_if = ir.IfStmt(ir.ConstBool(True), assign(e, x), None, [])
    free = ir.Var("placeholder", T)  # never defined: free, not "used before definition"
    merge = ir.IfStmt(ir.ConstBool(True), ir.YieldStmt([x]), ir.YieldStmt([free]), [r])
    body = seq(loop, plain_if, merge, ret(t, e, rv, r))  # loop body and plain-if defs leak
    assert verify(P.UseAfterDef, program(func("main", [x], body, returns=[T] * 4))) == []


def test_use_after_def_reports_each_variable_once():
    x, y, z, rv, inner = new_vars("x", "y", "z", "rv", "inner")
    i = ir.Var("i", IDX)
    acc = ir.IterArg("acc", T, x)
    loop = for_loop(i, 4, ir.YieldStmt([acc]), [acc], [rv])
    branchy = ir.IfStmt(ir.ConstBool(True), seq(assign(inner, x), ir.YieldStmt([x])),
                        ir.YieldStmt([x]), [ir.Var("m", T)])
    body = seq(assign(y, z, 2), assign(z, x), assign(y, z), loop, branchy,
               ir.EvalStmt(acc, span(6)), ir.EvalStmt(i, span(7)), ir.EvalStmt(inner, span(8)),
               ret(rv))
    found = verify(P.UseAfterDef, program(func("main", [x], body)))
    assert {d.error_code for d in found} == {passes.UseAfterDefErrorType.USE_BEFORE_DEF} == {401}
    assert [(d.rule_name, d.message, d.span) for d in found] == [
        ("UseAfterDefCheck", "Variable 'z' used before definition in function 'main'", span(2)),
        ("UseAfterDefCheck", "Variable 'acc' used before definition in function 'main'", span(6)),
        ("UseAfterDefCheck", "Variable 'i' used before definition in function 'main'", span(7)),
        ("UseAfterDefCheck", "Variable 'inner' used before definition in function 'main'",
         span(8)),
    ]


def test_use_after_def_checks_vars_inside_types():
    n = ir.Var("n", IDX)
    x = ir.Var("x", T)
    y = ir.Var("y", ir.TensorType([n], DT.FP32))
    body = seq(assign(y, call("tensor.create", type_=y.type), 2),
               assign(n, ir.ConstInt(4, DT.INDEX)),
               ret(x))
    d = only(P.UseAfterDef, program(func("main", [x], body)))
    assert (d.message, d.span) == ("Variable 'n' used before definition in function 'main'",
                                   span(2))


# -- OutParamNotShadowed / InOutUseValid ------------------------------------------------

def test_out_param_not_shadowed():
    x, out, io = new_vars("x", "out", "io")
    renamed = ir.Var("io__ssa_v1", T)
    ok = func("ok", [x, (out, ir.ParamDirection.Out)],
              seq(assign(x, call("tensor.create")), assign(out, call("tensor.add", x, x)),
                  ret(out)))
    bad = func("bad", [(out, ir.ParamDirection.Out), (io, ir.ParamDirection.InOut)],
               seq(assign(out, call("tensor.create"), 2), assign(renamed, call("tensor.full"), 3),
                   ret(out)))
    assert verify(P.OutParamNotShadowed, program(ok)) == []
    assert [(d.rule_name, d.message, d.span)
            for d in verify(P.OutParamNotShadowed, program(bad))] == [
        ("OutParamNotShadowed", "Out parameter 'out' of function 'bad' is shadowed by a new "
         "tensor from 'tensor.create'; write into the parameter instead", span(2)),
        ("OutParamNotShadowed", "InOut parameter 'io' of function 'bad' is shadowed by a new "
         "tensor from 'tensor.full'; write into the parameter instead", span(3)),
    ]


def kernel() -> ir.Function:
    a, b = new_vars("a", "b")
    return func("kernel", [a, (b, ir.ParamDirection.Out)], ret(b), type=ir.FunctionType.InCore)


def test_inout_use_valid_passes_on_result_use_and_param_return():
    x, o, r, y = new_vars("x", "o", "r", "y")
    f = func("main", [x, (o, ir.ParamDirection.Out)],
             seq(assign(r, call("kernel", x, o)), assign(y, call("tensor.add", r, x)), ret(o)))
    assert verify(P.InOutUseValid, program(kernel(), f)) == []


def test_inout_use_valid_reports_read_after_write():
    x, o, r, y = new_vars("x", "o", "r", "y")
    f = func("main", [x, (o, ir.ParamDirection.Out)],
             seq(assign(r, call("kernel", x, o)), assign(y, call("tensor.add", o, x), 4),
                 ret(y)))
    d = only(P.InOutUseValid, program(kernel(), f))
    assert d.rule_name == "InOutUseValid"
    assert d.message == ("Variable 'o' is read after being passed to Out parameter 'b' of "
                         "'kernel' in function 'main'; use the call's result instead")
    assert d.span == span(4)


def test_inout_use_valid_skips_group_bodies_and_rebinding():
    x, o, y = new_vars("x", "o", "y")
    group = func("grp", [x, (o, ir.ParamDirection.Out)],
                 seq(ir.EvalStmt(call("kernel", x, o)), assign(y, call("tensor.add", o, x)),
                     ret(y)), type=ir.FunctionType.Group)
    rebinding = func("main", [x, o], seq(assign(o, call("kernel", x, o)),
                                         assign(y, call("tensor.add", o, x)), ret(y)))
    assert verify(P.InOutUseValid, program(kernel(), group, rebinding)) == []


# -- PipelineLoopValid -----------------------------------------------------------------

def test_pipeline_loop_valid():
    x = ir.Var("x", T)
    i, j, k = (ir.Var(n, IDX) for n in "ijk")
    good = for_loop(i, 4, ir.EvalStmt(x), kind=ir.ForKind.Pipeline, attrs={"pipeline_stages": 2})
    no_stages = for_loop(j, 4, ir.EvalStmt(x), kind=ir.ForKind.Pipeline, line=3)
    stray = for_loop(k, 4, ir.EvalStmt(x), attrs={"pipeline_stages": 2}, line=4)
    diagnostics = verify(P.PipelineLoopValid,
                         program(func("main", [x], seq(good, no_stages, stray, ret(x)))))
    assert [(d.rule_name, d.error_code, d.message, d.span) for d in diagnostics] == [
        ("PipelineLoopValid", 0,
         "Pipeline for loop in function 'main' has no attrs['pipeline_stages']", span(3)),
        ("PipelineLoopValid", 1,
         "Sequential for loop in function 'main' carries attrs['pipeline_stages'] (only "
         "Pipeline loops may)", span(4)),
    ]


# -- scope verifiers -------------------------------------------------------------------

def scoped(scope_cls, body, line, **kwargs):
    return scope_cls(**kwargs, body=body, span=span(line))


def test_no_nested_incore():
    x = ir.Var("x", T)
    inner = scoped(ir.InCoreScopeStmt, ir.EvalStmt(x), 3)
    outer = scoped(ir.InCoreScopeStmt, seq(ir.EvalStmt(x),
                                           scoped(ir.RuntimeScopeStmt, inner, 2)), 1)
    sibling = scoped(ir.InCoreScopeStmt, ir.EvalStmt(x), 4)
    d = only(P.NoNestedInCore, program(func("main", [x], seq(outer, sibling, ret(x)))))
    assert (d.rule_name, d.error_code, d.message, d.span) == (
        "NoNestedInCore", 501, "Nested InCore scope detected", span(3))


def test_hierarchy_outlined_checks_opaque_functions_only():
    x = ir.Var("x", T)
    scope = scoped(ir.HierarchyScopeStmt, ir.EvalStmt(x), 2, level=ir.Level.HOST)
    opaque = func("main", [x], seq(scope, ret(x)))
    orch = func("orch", [x], seq(scoped(ir.HierarchyScopeStmt, ir.EvalStmt(x), 5,
                                        level=ir.Level.HOST), ret(x)),
                type=ir.FunctionType.Orchestration)
    assert verify(P.HierarchyOutlined, ssa_ok_program()) == []
    d = only(P.HierarchyOutlined, program(opaque, orch))
    assert (d.rule_name, d.message, d.span) == (
        "HierarchyOutlined", "Hierarchy ScopeStmt found in function (should have been outlined)",
        span(2))


def test_graph_outlined_checks_every_function_and_nested_regions():
    x = ir.Var("x", T)
    inner = scoped(ir.GraphScopeStmt, ir.EvalStmt(x), 3, name_hint="inner")
    outer = scoped(ir.GraphScopeStmt, inner, 2, name_hint="outer")
    graph = func("g", [x], seq(outer, ret(x)), type=ir.FunctionType.Graph)
    assert [(d.rule_name, d.message, d.span) for d in verify(P.GraphOutlined, program(graph))] == [
        ("GraphOutlined", "Graph ScopeStmt found in function (should have been outlined)",
         span(2)),
        ("GraphOutlined", "Graph ScopeStmt found in function (should have been outlined)",
         span(3)),
    ]
    assert verify(P.GraphOutlined, ssa_ok_program()) == []


def test_split_incore_orch_error_and_compute_op_warning():
    x, y, z, w = new_vars("x", "y", "z", "w")
    compute = ir.Call(ir.get_op("tensor.add"), [x, x], T)
    bare_compute = ir.Call(ir.Op("tensor.mul"), [x, x], T)
    incore = scoped(ir.InCoreScopeStmt, assign(w, ir.Call(ir.get_op("tensor.add"), [x, x], T)), 3)
    orch = func("orch", [x], seq(assign(y, compute, 2), incore,
                                 assign(z, call("tensor.create"), 5), ret(y)),
                type=ir.FunctionType.Orchestration)
    graph = func("g", [x], seq(assign(z, bare_compute, 6), ret(z)), type=ir.FunctionType.Graph)
    kernel_fn = func("k", [x], seq(scoped(ir.InCoreScopeStmt, ir.EvalStmt(x), 7), ret(x)),
                     type=ir.FunctionType.InCore)
    assert verify(P.SplitIncoreOrch, ssa_ok_program()) == []
    diagnostics = verify(P.SplitIncoreOrch, program(orch, graph, kernel_fn))
    assert [(d.severity, d.rule_name, d.message, d.span) for d in diagnostics] == [
        (ERROR, "SplitIncoreOrch",
         "InCore ScopeStmt found in non-InCore function (should have been outlined)", span(3)),
        (WARNING, "SplitIncoreOrch",
         "Compute tensor op 'tensor.mul' found in Graph function (should be inside InCore)",
         span(6)),
        (WARNING, "SplitIncoreOrch", "Compute tensor op 'tensor.add' found in Orchestration "
                                     "function (should be inside InCore)", span(2)),
    ]


def test_split_incore_orch_warning_alone_passes_verify_or_throw():
    x, y = new_vars("x", "y")
    orch = func("orch", [x], seq(assign(y, ir.Call(ir.get_op("tensor.add"), [x, x], T)), ret(y)),
                type=ir.FunctionType.Orchestration)
    props = passes.IRPropertySet([P.SplitIncoreOrch])
    diagnostics = passes.PropertyVerifierRegistry.verify_or_throw(props, program(orch))
    assert [d.severity for d in diagnostics] == [WARNING]


def test_cluster_outlined():
    x = ir.Var("x", T)
    cluster = scoped(ir.ClusterScopeStmt, ir.EvalStmt(x), 2)
    spmd = scoped(ir.SpmdScopeStmt, ir.EvalStmt(x), 3, core_num=4)
    main = func("main", [x], seq(cluster, spmd, ret(x)), type=ir.FunctionType.Orchestration)
    group = func("grp", [x], seq(scoped(ir.SpmdScopeStmt, ir.EvalStmt(x), 9, core_num=2), ret(x)),
                 type=ir.FunctionType.Group)
    assert verify(P.ClusterOutlined, ssa_ok_program()) == []
    assert [(d.rule_name, d.message, d.span)
            for d in verify(P.ClusterOutlined, program(main, group))] == [
        ("ClusterOutlined", "Cluster ScopeStmt found in non-Group function", span(2)),
        ("ClusterOutlined", "Spmd ScopeStmt found in non-Group function", span(3)),
    ]


# -- call-target verifiers -------------------------------------------------------------

def test_manual_deps_only_on_submit():
    x, y, r = new_vars("x", "y", "r")
    tid = ir.Var("tid", ir.ScalarType(DT.TASK_ID))
    submit = ir.Submit(ir.GlobalVar("kernel"), [x, y], [], ir.TupleType([T, tid.type]),
                       attrs={"manual_dep_edges": [tid]})
    bad = call("kernel", x, y, attrs={"manual_dep_edges": [tid]})
    f = func("main", [x, y, tid], seq(ir.EvalStmt(submit), assign(r, bad, 3), ret(r)))
    d = only(P.ManualDepsOnSubmitOnly, program(kernel(), f))
    assert d.rule_name == "ManualDepsOnSubmitOnly"
    assert d.message == ("Call to 'kernel' in function 'main' carries attrs['manual_dep_edges']; "
                         "manual dependencies are only allowed on a Submit (pl.submit)")
    assert d.span == span(3)


def test_inline_functions_eliminated_codes():
    x, y, z = new_vars("x", "y", "z")
    inline = ir.Function("helper", [x], [T], ret(x), span(1), type=ir.FunctionType.Inline)
    main = func("main", [x], seq(assign(y, call("helper", x), 2), assign(z, call("gone", y), 3),
                                 ret(z)))
    assert [(d.rule_name, d.error_code, d.message, d.span)
            for d in verify(P.InlineFunctionsEliminated, program(inline, main))] == [
        ("InlineFunctionsEliminated", 0,
         "Inline function 'helper' survives (InlineFunctions should have removed it)", span(1)),
        ("InlineFunctionsEliminated", 1,
         "Function 'main' calls Inline function 'helper', which should have been inlined",
         span(2)),
        ("InlineFunctionsEliminated", 2,
         "Function 'main' calls 'gone', which does not exist in the program (likely a former "
         "Inline callee that wasn't spliced)", span(3)),
    ]
    assert verify(P.InlineFunctionsEliminated, ssa_ok_program()) == []


def test_orchestration_references_resolved():
    x, y = new_vars("x", "y")
    orch = func("orch", [x], seq(assign(y, call("missing", x), 4), ret(y)),
                type=ir.FunctionType.Orchestration)
    opaque = func("opaque", [x], seq(assign(y, call("missing", x)), ret(y)))
    d = only(P.OrchestrationReferencesResolved, program(orch, opaque))
    assert (d.rule_name, d.message, d.span) == (
        "OrchestrationReferencesResolved",
        "Orchestration function 'orch' references undefined function 'missing'", span(4))
    good = func("orch", [x], seq(assign(y, call("kernel", x, x)), ret(y)),
                type=ir.FunctionType.Orchestration)
    assert verify(P.OrchestrationReferencesResolved, program(kernel(), good)) == []


# -- GraphBoundaryLegalized ------------------------------------------------------------

def graph_program(extra=lambda w, acc, n: [], params=None, call_args=None,
                  returned=lambda w, acc: acc) -> ir.Program:
    """kernel + Graph ``layer(w, acc: InOut, n)`` launching it once + an entry calling it."""
    w, acc, r = new_vars("w", "acc", "r")
    n = ir.Var("n", IDX)
    task = ir.EvalStmt(call("kernel", w, acc), span(2))
    graph_params = params(w, acc, n) if params else [w, (acc, ir.ParamDirection.InOut), n]
    graph = func("layer", graph_params, seq(*extra(w, acc, n), task, ret(returned(w, acc))),
                 type=ir.FunctionType.Graph)
    args = call_args(w, acc, n) if call_args else [w, acc, n]
    entry = func("entry", [w, acc, n], seq(assign(r, call("layer", *args), 9), ret(r)),
                 type=ir.FunctionType.Orchestration)
    return program(kernel(), graph, entry)


def test_graph_boundary_legalized_passes():
    assert verify(P.GraphBoundaryLegalized, graph_program()) == []


def test_graph_boundary_rejects_derived_scalar_and_bad_call_site():
    base = ir.Var("base", IDX)
    prog = graph_program(
        extra=lambda w, acc, n: [assign(base, ir.Mul(n, ir.ConstInt(32, DT.INDEX), DT.INDEX), 1)],
        call_args=lambda w, acc, n: [w, acc])
    assert [(d.rule_name, d.error_code, d.message, d.span)
            for d in verify(P.GraphBoundaryLegalized, prog)] == [
        ("GraphBoundaryLegalized", 5, "Graph function 'layer' still computes boundary scalar "
         "'base' from its scalar parameters (should have been hoisted to the call site)", span(1)),
        ("GraphBoundaryLegalized", 10,
         "Call of Graph function 'layer' in 'entry' supplies 2 of 3 parameters", span(9)),
    ]


def test_graph_boundary_rejects_conditional_launch_and_bad_signature():
    flag = ir.Var("flag", BOOL)
    prog = graph_program(
        extra=lambda w, acc, n: [ir.IfStmt(flag, ir.EvalStmt(call("kernel", w, acc)), None, [])],
        params=lambda w, acc, n: [(w, ir.ParamDirection.Out), acc, flag],
        call_args=lambda w, acc, n: [w, acc, ir.ConstBool(True)],
        returned=lambda w, acc: call("tensor.add", w, acc))
    assert [d.message for d in verify(P.GraphBoundaryLegalized, prog)] == [
        "Graph function 'layer' has Out tensor parameter 'w' (use InOut)",
        "Graph function 'layer' launches task 'kernel' under an if",
        "Graph function 'layer' returns 'Call', which is not one of its parameters",
    ]


def test_graph_boundary_rejects_inline_scalar_task_argument_and_dynamic_core_num():
    s = ir.Var("s", IDX)
    k2_params = [ir.Var("a", T), ir.Var("k", IDX)]
    prog = graph_program(extra=lambda w, acc, n: [
        ir.EvalStmt(call("k2", w, ir.Add(n, ir.ConstInt(1, DT.INDEX), DT.INDEX)), span(3)),
        assign(s, call("tensor.read", w, type_=IDX)),
        ir.EvalStmt(call("k2", w, s), span(4))])
    k2 = func("k2", k2_params, ret(k2_params[0]), type=ir.FunctionType.InCore)
    layer, entry = prog["layer"], prog["entry"]
    w, acc, n = entry.params
    r = ir.Var("r", T)
    spmd_entry = func("entry", [w, acc, n], seq(
        assign(r, call("layer", w, acc, n, attrs={"core_num": n}), 9), ret(r)),
        type=ir.FunctionType.Orchestration)
    diagnostics = verify(P.GraphBoundaryLegalized, program(kernel(), k2, layer, spmd_entry))
    assert [(d.error_code, d.message) for d in diagnostics] == [
        (9, "Graph function 'layer' computes a scalar inline in a task argument of 'k2'"),
        (9, "Graph function 'layer' passes scalar 's' to task 'k2', but it is neither a "
            "parameter nor replay-invariant"),
        (12, "Call of Graph function 'layer' in 'entry': core_num is not a compile-time "
             "constant"),
    ]


# -- trivially passing members, report, registry ---------------------------------------

def test_out_of_scope_properties_always_pass():
    x = ir.Var("x", T)
    broken = program(func("main", [x], seq(ir.BreakStmt(), assign(x, x), assign(x, x), ret(x))))
    for prop in (P.HasMemRefs, P.TileTypeCoherence, P.ArrayNotEscaped, P.AivSplitValid,
                 P.AtomicAddDtypeValid, P.AccToGmStoreValid):
        assert verify(prop, broken) == []


def test_every_property_has_a_verifier():
    for prop in P:
        assert passes.PropertyVerifierRegistry.get_verifier(prop) is not None


def diag(severity, rule, code, message, line):
    return passes.Diagnostic(severity, rule, code, message, ir.Span("f.py", line, 7))


def test_report_format_byte_for_byte():
    report = passes.format_report([
        diag(ERROR, "SSAVerify", 6, "Variable 'x' used outside its defining scope", 3),
        diag(WARNING, "SplitIncoreOrch", 1, "careful", 9),
    ])
    assert report == (
        "IR Verification Report\n"
        "======================\n"
        "Total diagnostics: 2 (1 errors, 1 warnings)\n"
        "\n"
        "[1] ERROR - SSAVerify\n"
        "  Message: Variable 'x' used outside its defining scope\n"
        "  Location: f.py:3:7\n"
        "  Error Code: 6\n"
        "\n"
        "[2] WARNING - SplitIncoreOrch\n"
        "  Message: careful\n"
        "  Location: f.py:9:7\n"
        "  Error Code: 1\n"
        "\n"
        "Status: FAILED (1 error(s) found)")


def test_report_status_lines():
    warn = diag(WARNING, "R", 0, "w", 1)
    hint = diag(passes.DiagnosticSeverity.PerfHint, "R", 0, "h", 1)
    assert passes.format_report([warn, warn]).endswith(
        "Total diagnostics: 2 (0 errors, 2 warnings)\n\n[1] WARNING - R\n  Message: w\n"
        "  Location: f.py:1:7\n  Error Code: 0\n\n[2] WARNING - R\n  Message: w\n"
        "  Location: f.py:1:7\n  Error Code: 0\n\nStatus: PASSED with 2 warning(s)")
    assert "[1] PERF_HINT - R" in passes.format_report([hint])
    assert passes.format_report([hint]).endswith("Status: PASSED")
    assert passes.format_report([]) == ("IR Verification Report\n======================\n"
                                        "Total diagnostics: 0 (0 errors, 0 warnings)\n\n"
                                        "Status: PASSED")


def test_verify_or_throw_raises_error_with_report():
    x = ir.Var("x", T)
    broken = program(func("main", [x], seq(ir.BreakStmt(span(2)), ret(x))))
    props = passes.IRPropertySet([P.BreakContinueValid, P.SSAForm])
    with pytest.raises(pypto.Error) as info:
        passes.PropertyVerifierRegistry.verify_or_throw(props, broken)
    assert str(info.value) == passes.format_report(
        passes.PropertyVerifierRegistry.verify(props, broken))
    assert "Status: FAILED (1 error(s) found)" in str(info.value)


def test_verify_properties_names_the_pass():
    x = ir.Var("x", T)
    broken = program(func("main", [x], seq(ir.BreakStmt(span(2)), ret(x))))
    with pytest.raises(pypto.Error, match=r"^Verification failed after 'MyPass' for properties "
                                          r"\{BreakContinueValid\}:\nIR Verification Report"):
        passes.verify_properties(passes.IRPropertySet([P.BreakContinueValid]), broken, "MyPass")
    assert passes.verify_properties(passes.IRPropertySet([P.SSAForm]), broken, "MyPass") == []


def test_registry_rejects_bad_input():
    with pytest.raises(TypeError, match="PropertyVerifierRegistry.verify expects an ir.Program, "
                                        "got Function"):
        passes.PropertyVerifierRegistry.verify(passes.IRPropertySet(), ssa_ok_program()["main"])
    with pytest.raises(TypeError, match="PropertyVerifierRegistry.register expects a "
                                        "PropertyVerifier"):
        passes.PropertyVerifierRegistry.register(P.SSAForm, lambda p, d: None)


# -- 100-deep nesting ------------------------------------------------------------------

def deep_program(depth: int = 100) -> ir.Program:
    """Loops, ifs, whiles and scopes nested ``depth`` deep around a deep expression."""
    x = ir.Var("x", T)
    s = ir.Var("s", IDX)
    leaf_value: ir.Expr = s
    for _ in range(depth):
        leaf_value = ir.Add(leaf_value, ir.ConstInt(1, DT.INDEX), DT.INDEX)
    body: ir.Stmt = seq(assign(ir.Var("leaf", IDX), leaf_value), ir.BreakStmt())
    for level in range(depth):
        kind = level % 4
        if kind == 0:
            body = for_loop(ir.Var(f"i{level}", IDX), 2, seq(ir.EvalStmt(s), body))
        elif kind == 1:
            body = ir.IfStmt(ir.ConstBool(True), seq(ir.EvalStmt(x), body), None, [])
        elif kind == 2:
            body = ir.WhileStmt(ir.ConstBool(True), [], seq(ir.EvalStmt(s), body), [])
        else:
            body = ir.RuntimeScopeStmt(body=seq(ir.EvalStmt(x), body))
    graph_scope = ir.GraphScopeStmt("g", body=body)
    return program(func("main", [x, s], seq(graph_scope, ret(x))))


def test_100_deep_nesting_through_every_verifier():
    prog = deep_program()
    everything = passes.IRPropertySet(list(P))
    diagnostics = passes.PropertyVerifierRegistry.verify(everything, prog)
    assert sorted({d.rule_name for d in diagnostics}) == ["GraphOutlined"]
