"""Verifying a set of properties in one fused walk (``verifiers/checks.py``) gives the
same diagnostics, in the same order, as running each property's verifier alone."""

from __future__ import annotations

from pypto import ir, passes
from pypto.ir import DataType as DT
from pypto.passes import IRProperty as P

T = ir.TensorType([64], DT.FP32)
IDX = ir.ScalarType(DT.INDEX)
REGISTRY = passes.PropertyVerifierRegistry


def span(line: int) -> ir.Span:
    return ir.Span("t.py", line, 1)


def call(op_name: str, *args, attrs=None) -> ir.Call:
    op = ir.GlobalVar(op_name) if "." not in op_name else ir.Op(op_name)
    return ir.Call(op, list(args), {}, attrs or {}, T, span(90))


def broken_program() -> ir.Program:
    """Violates many statement-check properties (and SSA) in two functions."""
    x, y, r, s = (ir.Var(n, T) for n in ("x", "y", "r", "s"))
    i, j = ir.Var("i", IDX), ir.Var("j", IDX)
    out = ir.Var("out", T)
    body = ir.SeqStmts([
        ir.BreakStmt(span(2)),
        ir.SeqStmts([ir.EvalStmt(x)], span(3)),                       # single child
        ir.AssignStmt(r, call("missing", x, attrs={"manual_dep_edges": [i]}), span(4)),
        ir.AssignStmt(out, call("tensor.create", x), span(5)),          # shadows Out param
        ir.AssignStmt(s, call("tensor.add", call("tensor.exp", x), y), span(6)),  # nested call
        ir.IfStmt(x, ir.ContinueStmt(span(8)), None, [], span(7)),      # non-Bool condition
        ir.ForStmt(j, 0, 4, 1, [], ir.BreakStmt(span(10)), [], span(9),
                   kind=ir.ForKind.Parallel, attrs={"pipeline_stages": 2}),
        ir.AssignStmt(r, call("kernel", x), span(11)),                  # SSA: r twice
        ir.ReturnStmt([r], span(12)),
    ])
    main = ir.Function("main", [x, y, i, (out, ir.ParamDirection.Out)], [T], body,
                       type=ir.FunctionType.Orchestration)
    k = ir.Var("k", T)
    kernel = ir.Function("kernel", [k], [T], ir.SeqStmts([ir.BreakStmt(span(20)),
                                                          ir.ReturnStmt([k], span(21))]),
                         type=ir.FunctionType.Inline)
    return ir.Program([main, kernel], "P")


def key(d: passes.Diagnostic) -> tuple:
    return (d.severity, d.rule_name, d.error_code, d.message, d.span)


def one_by_one(props: list[P], program: ir.Program) -> list[tuple]:
    found = []
    for prop in props:
        out: list[passes.Diagnostic] = []
        REGISTRY.get_verifier(prop).verify(program, out)
        found += [key(d) for d in out]
    return found


def test_fused_set_equals_verifiers_one_by_one():
    program = broken_program()
    every = list(P)
    fused = [key(d) for d in REGISTRY.verify(passes.IRPropertySet(every), program)]
    assert fused == one_by_one(every, program)
    rules = {d[1] for d in fused}
    assert {"TypeCheck", "NoRedundantBlocks", "BreakContinueValid", "PipelineLoopValid",
            "ManualDepsOnSubmitOnly", "OutParamNotShadowed", "NoNestedCall",
            "InlineFunctionsEliminated", "OrchestrationReferencesResolved",
            "SSAVerify"} <= rules
    for subset in (every[::2], every[1::3], [P.BreakContinueValid, P.TypeChecked]):
        got = [key(d) for d in REGISTRY.verify(passes.IRPropertySet(subset), program)]
        assert got == one_by_one(sorted(subset, key=every.index), program)


def test_plain_verifier_keeps_its_place_between_fused_ones():
    program = broken_program()
    props = passes.IRPropertySet([P.TypeChecked, P.NoNestedCalls, P.BreakContinueValid])
    plain = passes.FunctionVerifier("Plain", lambda prog, out: out.append(passes.Diagnostic(
        passes.DiagnosticSeverity.Warning, "Plain", 0, "plain", span(1))))
    previous = REGISTRY.register(P.NoNestedCalls, plain)
    try:
        rules = [d.rule_name for d in REGISTRY.verify(props, program)]
    finally:
        REGISTRY.register(P.NoNestedCalls, previous)
    first_plain = rules.index("Plain")
    assert set(rules[:first_plain]) == {"TypeCheck"}
    assert rules[first_plain + 1:] and set(rules[first_plain + 1:]) == {"BreakContinueValid"}
