"""ConvertToSSA marks the functions it built in SSA form by construction, and the
pipeline's SSAForm verification after it walks only the others.

The mark is a claim: the SSA verifier would find nothing in the function.  It is
checked here against the verifier itself on every program at hand (the conformance
inputs, the fuzz regressions, the benchmark shapes) and on hand-built IR whose
conversion the verifier does refuse -- those must not be marked, and the pipeline
must still report them as before.
"""

from __future__ import annotations

import json
import os
import sys

import pytest

import pypto.language as pl
from pypto import ir, passes
from pypto.ir import DataType as D
from pypto.passes.run_memo import note, noted, run_scope, trusting_marks
from pypto.passes.verifiers import ssa as ssa_verifier
from pypto.passes.verifiers.ssa import SSA_BY_CONSTRUCTION

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks"))

import _gen  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAMS = "/work/shared/reference/conformance/programs.jsonl"
REGRESSIONS = os.path.join(HERE, "..", "fuzz", "regressions")
AT = ir.Span("hand.py", 3, 5)
T = ir.TensorType([16], D.FP32)
SSA = passes.IRPropertySet([passes.IRProperty.SSAForm])


def _sources() -> list[tuple[str, str]]:
    out = [("functions", _gen.many_functions_source(8)), ("regions", _gen.long_function_source(4)),
           ("flat", _gen.flat_function_source(60)), ("nested", _gen.deep_nests_source(1))]
    for name in sorted(os.listdir(REGRESSIONS)):
        if name.endswith(".py"):
            with open(os.path.join(REGRESSIONS, name)) as handle:
                out.append((name, handle.read()))
    if os.path.exists(PROGRAMS):
        with open(PROGRAMS) as handle:
            for number, line in enumerate(handle):
                if number % 3:  # a third of them: the test's time
                    continue
                record = json.loads(line)
                out.append((record["id"], record.get("input_without_high_precision",
                                                     record["input"])))
    return out


def _converted(program: ir.Program) -> tuple[ir.Program, list[ir.Function]]:
    """ConvertToSSA's output and the functions it marked (asked inside its run)."""
    with run_scope(), passes.PassContext([], verification_level=passes.VerificationLevel.NONE):
        result = passes.convert_to_ssa()(program)
        marked = [f for f in result.functions.values() if noted(SSA_BY_CONSTRUCTION, f)]
    return result, marked


def _ssa_findings(func: ir.Function) -> list[str]:
    # outside any run: the verifier walks every function
    program = ir.Program([func], "P", func.span)
    return [d.message for d in passes.PropertyVerifierRegistry.verify(SSA, program)
            if d.is_error]


def test_every_marked_function_passes_the_ssa_verifier():
    marked_total = converted_total = 0
    for name, text in _sources():
        try:
            program = pl.parse(text)
            program = passes.inline_functions()(program)
            result, marked = _converted(program)
        except Exception:  # refused by the parser or the pass: nothing to mark
            continue
        converted_total += len(result.functions)
        marked_total += len(marked)
        for func in marked:
            assert _ssa_findings(func) == [], (name, func.name)
    # the mark is common (the rest: functions whose input has its own yields and
    # iter_args, printed SSA text kept as it is, HOST functions left alone)
    assert marked_total > converted_total // 3


# -- hand-built IR whose conversion the SSA verifier refuses ------------------------------

def _read_after_one_branch() -> ir.Program:
    """``t`` defined only in the then-branch of an if and read after it."""
    x, c, t, y = ir.Var("x", T, AT), ir.Var("c", ir.ScalarType(D.BOOL), AT), \
        ir.Var("t", T, AT), ir.Var("y", T, AT)
    add = lambda a, b: ir.create_op_call("tensor.add", [a, b], AT)  # noqa: E731
    body = ir.SeqStmts([
        ir.IfStmt(c, ir.AssignStmt(t, add(x, x), AT), None, [], AT),
        ir.AssignStmt(y, add(t, x), AT),
        ir.ReturnStmt([y], AT)], AT)
    return ir.Program([ir.Function("main", [x, c], [T], body, AT)], "P", AT)


def _yield_count_wrong() -> ir.Program:
    """A loop with one iter_arg whose body yields two values."""
    x = ir.Var("x", T, AT)
    i = ir.Var("i", ir.ScalarType(D.INDEX), AT)
    acc = ir.IterArg("acc", T, x, AT)
    out = ir.Var("out", T, AT)
    loop = ir.ForStmt(i, 0, 4, 1, [acc], ir.YieldStmt([acc, acc], AT), [out], AT)
    body = ir.SeqStmts([loop, ir.ReturnStmt([out], AT)], AT)
    return ir.Program([ir.Function("main", [x], [T], body, AT)], "P", AT)


@pytest.mark.parametrize("build, message", [
    (_read_after_one_branch, "Variable 't__ssa_v0' used outside its defining scope"),
    (_yield_count_wrong, "Yield has 2 value(s) but the ForStmt has 1 iter_args"),
], ids=["scope", "yield-count"])
def test_a_conversion_the_verifier_refuses_is_not_marked_and_still_reported(build, message):
    result, marked = _converted(build())
    assert marked == []
    assert any(message in found for found in _ssa_findings(result.functions["main"]))
    with pytest.raises(passes.VerificationError, match="ConvertToSSA") as info:
        with passes.PassContext([], verification_level=passes.VerificationLevel.BASIC):
            ir.PassManager([passes.convert_to_ssa()]).run_passes(build())
    assert any(message in d.message for d in info.value.diagnostics)


def test_the_pipeline_walks_only_unmarked_functions(monkeypatch):
    walked: list[str] = []
    real = ssa_verifier._SSAWalker.run

    def run(self):
        walked.append(self.func.name)
        return real(self)
    monkeypatch.setattr(ssa_verifier._SSAWalker, "run", run)
    program = pl.parse(_gen.many_functions_source(8))
    with passes.PassContext([], verification_level=passes.VerificationLevel.BASIC):
        ir.PassManager.get_strategy(ir.OptimizationStrategy.Default).run_passes(program)
    assert walked == []  # every function of the shape is SSA by construction
    # outside a run the verifier walks them all
    converted = passes.convert_to_ssa()(program)
    walked.clear()  # (the test harness's instrument walked them too: it trusts no mark)
    passes.PropertyVerifierRegistry.verify(SSA, converted)
    assert len(walked) == len(converted.functions)


def _non_ssa_program() -> ir.Program:
    """``y`` assigned twice: not in SSA form."""
    x, y = ir.Var("x", T, AT), ir.Var("y", T, AT)
    add = lambda a, b: ir.create_op_call("tensor.add", [a, b], AT)  # noqa: E731
    body = ir.SeqStmts([ir.AssignStmt(y, add(x, x), AT), ir.AssignStmt(y, add(y, x), AT),
                        ir.ReturnStmt([y], AT)], AT)
    return ir.Program([ir.Function("main", [x], [T], body, AT)], "P", AT)


def test_only_the_pipelines_own_verification_trusts_a_mark():
    """A wrong mark (a pass's bug) hides nothing from an instrument or a user's check:
    they exist to catch such bugs."""
    program = _non_ssa_program()
    func = program.functions["main"]
    with run_scope():
        note(SSA_BY_CONSTRUCTION, func, True)
        explicit = [d.message for d in passes.PropertyVerifierRegistry.verify(SSA, program)
                    if d.is_error]
        assert any("'y'" in message for message in explicit), explicit
        instrument = passes.VerificationInstrument(passes.VerificationMode.AFTER)
        with pytest.raises(passes.VerificationError, match="ConvertToSSA"):
            instrument.run_after_pass(passes.convert_to_ssa(), program)
        with trusting_marks():  # the pipeline's scheduled check takes the pass's word
            assert not [d for d in passes.PropertyVerifierRegistry.verify(SSA, program)
                        if d.is_error]
