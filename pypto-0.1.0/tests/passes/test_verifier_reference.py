"""The fast verifiers give the diagnostics of their reference implementations
(``verifier_reference.py``): same findings, messages, order and spans.

Programs: the benchmark shapes and random valid programs at every stage of the
default pipeline (so pre-SSA bodies feed the SSA verifier and SSA bodies the
InOutUseValid one, which gives many findings), plus hand-made bad programs.
"""

from __future__ import annotations

import os
import sys

import pytest
from hypothesis import HealthCheck, given, settings

import pypto.language as pl
from pypto import ir, passes
from pypto.ir import DataType as DT
from pypto.passes import IRProperty as P
from pypto.ir.walk import iter_stmts, stmt_exprs, var_uses
from pypto.passes.verifiers.checks import CheckVerifier
from pypto.passes.verifiers.def_use import DefUseWalker

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks"))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "properties"))

import _gen  # noqa: E402
import verifier_reference as ref  # noqa: E402
from strategies import programs  # noqa: E402
from test_verifier_fusion import broken_program  # noqa: E402

REGISTRY = passes.PropertyVerifierRegistry
CHECK_PROPS = [prop for prop in P
               if isinstance(REGISTRY.get_verifier(prop), CheckVerifier)]
PIPELINE_START = [P.TypeChecked, P.NoRedundantBlocks, P.BreakContinueValid, P.InOutUseValid,
                  P.ManualDepsOnSubmitOnly, P.AtomicAddDtypeValid]


def key(d: passes.Diagnostic) -> tuple:
    return (d.severity, d.rule_name, d.error_code, d.message, d.span)


def stages(program: ir.Program) -> list[ir.Program]:
    """``program`` before each pass of the default pipeline, and the result."""
    out = [program]
    with passes.PassContext([], verification_level=passes.VerificationLevel.NONE):
        for p in ir.PassManager.get_strategy(ir.OptimizationStrategy.Default).passes:
            out.append(p(out[-1]))
    return out


class _ReadRecorder(DefUseWalker):
    """Binds nothing, so every Var read reaches ``on_use``."""

    def on_use(self, var, stmt) -> None:
        self.reads.append(var)


def assert_reads_in_var_uses_order(program: ir.Program) -> None:
    """``DefUseWalker.use`` (its own traversal, shared by both walkers and the
    reference SSA walker) reports the reads of ``var_uses``, in that order."""
    for func in program._functions.values():
        recorder = _ReadRecorder(func)
        for stmt in iter_stmts(func.body):
            for root in stmt_exprs(stmt):
                recorder.reads = []
                recorder.use(root, stmt)
                assert [id(v) for v in recorder.reads] == [id(v) for v in var_uses(root)]


def assert_same_as_reference(program: ir.Program) -> None:
    assert_reads_in_var_uses_order(program)
    fast: list[passes.Diagnostic] = []
    REGISTRY.get_verifier(P.SSAForm).verify(program, fast)
    assert [key(d) for d in fast] == [key(d) for d in ref.reference_ssa(program)]
    fast = []
    REGISTRY.get_verifier(P.InOutUseValid).verify(program, fast)
    assert [key(d) for d in fast] == [key(d) for d in ref.reference_inout(program)]
    expected = []
    for prop in CHECK_PROPS:
        out: list[passes.Diagnostic] = []
        ref.reference_checks(program, REGISTRY.get_verifier(prop).make_check(program, out))
        expected.append([key(d) for d in out])
        alone: list[passes.Diagnostic] = []
        REGISTRY.get_verifier(prop).verify(program, alone)
        assert [key(d) for d in alone] == expected[-1], prop
    fused = REGISTRY.verify(passes.IRPropertySet(CHECK_PROPS), program)
    assert [key(d) for d in fused] == [k for found in expected for k in found]
    start = REGISTRY.verify(passes.IRPropertySet(PIPELINE_START), program)
    one_by_one = []
    for prop in PIPELINE_START:
        out = []
        REGISTRY.get_verifier(prop).verify(program, out)
        one_by_one += [key(d) for d in out]
    assert [key(d) for d in start] == one_by_one


@pytest.mark.parametrize("source", [
    _gen.long_function_source(3), _gen.nested_source(7), _gen.many_functions_source(3)])
def test_benchmark_shapes_at_every_stage(source):
    for program in stages(pl.parse(source)):
        assert_same_as_reference(program)


def test_deep_regions_at_every_stage():
    for program in stages(_gen.deep_regions_ir(6)):
        assert_same_as_reference(program)


def test_broken_program():
    assert_same_as_reference(broken_program())


@settings(max_examples=20, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(programs())
def test_random_programs_at_every_stage(generated):
    for program in stages(pl.parse(generated.text)):
        assert_same_as_reference(program)


T = ir.TensorType([64], DT.FP32)
IDX = ir.ScalarType(DT.INDEX)


def span(line: int) -> ir.Span:
    return ir.Span("t.py", line, 1)


def test_inout_reads_after_writes_in_nested_calls_branches_and_loops():
    """Consumed buffers read through nested calls, tuples, branches, loop bounds,
    yields and dims; a Submit writes too.  Not SSA either: the SSA walk reports."""
    k_in, k_acc = ir.Var("a", T), ir.Var("acc", T)
    kern = ir.Function("kern", [k_in, (k_acc, ir.ParamDirection.InOut)], [T],
                       ir.ReturnStmt([k_acc], span(1)), type=ir.FunctionType.InCore)
    x, acc, n = ir.Var("x", T), ir.Var("acc", T), ir.Var("n", IDX)
    r, s, t = ir.Var("r", T), ir.Var("s", T), ir.Var("t", T)
    i = ir.Var("i", IDX)
    dyn = ir.Var("d", ir.TensorType([n], DT.FP32))

    def kcall(*args, line=90):
        return ir.Call(ir.GlobalVar("kern"), list(args), {}, {}, T, span(line))

    def op(name, *args):
        return ir.Call(ir.Op(name), list(args), {}, {}, T, span(91))

    cond = ir.Var("c", ir.ScalarType(DT.BOOL))
    body = ir.SeqStmts([
        ir.AssignStmt(r, op("tensor.add", kcall(x, acc), op("tensor.exp", acc)), span(2)),
        ir.AssignStmt(s, ir.MakeTuple([acc, x], span(3)), span(3)),
        ir.EvalStmt(kcall(x, r), span(4)),
        ir.IfStmt(cond, ir.SeqStmts([ir.EvalStmt(r, span(6)), ir.EvalStmt(kcall(x, s), span(7))]),
                  ir.SeqStmts([ir.EvalStmt(r, span(8)), ir.EvalStmt(s, span(9))]), [], span(5)),
        ir.EvalStmt(s, span(10)),
        ir.ForStmt(i, 0, n, 1, [], ir.SeqStmts([ir.EvalStmt(kcall(x, t), span(12)),
                                                ir.AssignStmt(dyn, op("tensor.exp", x), span(13)),
                                                ir.AssignStmt(x, op("tensor.exp", t), span(14))]),
                   [], span(11)),
        ir.EvalStmt(ir.Submit(ir.GlobalVar("kern"), [x, t], [r], T, span(15)), span(15)),
        ir.AssignStmt(r, op("tensor.add", t, t), span(16)),
        ir.ReturnStmt([acc, r], span(17)),
    ])
    main = ir.Function("main", [x, (acc, ir.ParamDirection.InOut), n], [T, T], body)
    program = ir.Program([kern, main], "P")
    assert_same_as_reference(program)
    assert len(REGISTRY.verify(passes.IRPropertySet([P.InOutUseValid]), program)) >= 4
