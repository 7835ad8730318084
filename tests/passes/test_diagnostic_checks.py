"""The advisory checks (DiagnosticCheck), DiagnosticCheckRegistry and DiagnosticInstrument:
each check fires at the user's line and stays quiet on clean code; the instrument honours
the context's diagnostic phase and disabled checks."""

from __future__ import annotations

import inspect
import logging

import pytest

import pypto.language as pl
from pypto import ir, passes

C = passes.DiagnosticCheck
Phase = passes.DiagnosticPhase
Registry = passes.DiagnosticCheckRegistry


def run(check: passes.DiagnosticCheck, program: ir.Program) -> list[passes.Diagnostic]:
    return Registry.run_checks(passes.DiagnosticCheckSet([check]), Phase.PRE_PIPELINE, program)


@pl.program
class Unused:
    @pl.function
    def main(self, x: pl.Tensor[[16], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16], pl.FP32]:
        lost: pl.Scalar[pl.INDEX] = n + 1
        _ignored: pl.Scalar[pl.INDEX] = n + 2
        m: pl.Scalar[pl.INDEX] = n * 2
        y: pl.Tensor[[16], pl.FP32] = pl.add(x, x)
        for i in pl.range(m):
            y = pl.add(y, x)
        return y


def test_unused_variable_fires_at_the_assignment_and_not_on_read_or_underscore_names():
    found = run(C.UnusedVariable, Unused)
    assert [(d.rule_name, d.severity) for d in found] == [
        ("UnusedVariable", passes.DiagnosticSeverity.Warning)]
    assert found[0].message == "Variable 'lost' is assigned but never used in function 'main'"
    lost = Unused.functions["main"].body.stmts[0]
    assert found[0].span == lost.span and found[0].span.begin_line > 0


def test_a_name_read_only_in_a_type_is_used():
    n = ir.Var("n", ir.ScalarType(ir.DataType.INDEX))
    m = ir.Var("m", ir.ScalarType(ir.DataType.INDEX))
    t = ir.Var("t", ir.TensorType([m], ir.DataType.FP32))
    body = ir.SeqStmts([ir.AssignStmt(m, ir.Add(n, n, ir.DataType.INDEX)),
                        ir.AssignStmt(t, ir.create_op_call("tensor.create", [ir.MakeTuple([m])],
                                                           {"dtype": ir.DataType.FP32})),
                        ir.ReturnStmt([t])])
    program = ir.Program([ir.Function("main", [n], [t.type], body)], "P")
    assert run(C.UnusedVariable, program) == []


def test_unused_control_flow_result_fires_on_a_never_read_return_var():
    ssa = passes.convert_to_ssa()(Unused)
    found = run(C.UnusedControlFlowResult, ssa)
    assert found == []  # the loop's result is returned
    @pl.program
    class Dropped:
        @pl.function
        def main(self, x: pl.Tensor[[16], pl.FP32]) -> pl.Tensor[[16], pl.FP32]:
            for i, (acc,) in pl.range(4, init_values=(x,)):
                acc2: pl.Tensor[[16], pl.FP32] = pl.add(acc, x)
                out = pl.yield_(acc2)
            return x

    found = run(C.UnusedControlFlowResult, Dropped)
    assert [d.message for d in found] == [
        "Result 'out' of the for loop is never used in function 'main'"]
    assert found[0].span == Dropped.functions["main"].body.stmts[0].span


def test_tile_innermost_dim_granularity_is_a_perf_hint_on_partial_blocks():
    @pl.program
    class Tiles:
        @pl.function(type=pl.FunctionType.InCore)
        def k(self, x: pl.Tensor[[64, 64], pl.FP16]) -> pl.Tensor[[64, 64], pl.FP16]:
            narrow: pl.Tile[[16, 8], pl.FP16] = pl.load(x, [0, 0], [16, 8])
            wide: pl.Tile[[16, 16], pl.FP16] = pl.load(x, [0, 0], [16, 16])
            return x

    found = run(C.TileInnermostDimGranularity, Tiles)
    assert len(found) == 1
    hint = found[0]
    assert hint.severity is passes.DiagnosticSeverity.PerfHint and hint.hint_code == "PH001"
    assert hint.message.startswith("Tile 'narrow' has an innermost dimension of 8 x fp16 = "
                                   "16 bytes, not a multiple of 32 bytes")
    assert "a multiple of 16 elements avoids it" in hint.message
    assert hint.span == Tiles.functions["k"].body.stmts[0].span


@pl.program
class Writes:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[16], pl.FP32],
               c: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
        return c

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16], pl.FP32],
             y: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
        t: pl.Tensor[[16], pl.FP32] = pl.create_tensor([16], dtype=pl.FP32)
        self.kernel(x, t)
        kept: pl.Tensor[[16], pl.FP32] = pl.create_tensor([16], dtype=pl.FP32)
        r: pl.Tensor[[16], pl.FP32] = self.kernel(x, kept)
        self.kernel(r, y)
        return y


def test_out_param_write_dropped_fires_on_a_local_buffer_whose_call_result_is_discarded():
    found = run(C.OutParamWriteDropped, Writes)
    assert [d.message for d in found] == [
        "The write of 'kernel' into 't' (its Out parameter 'c') is dropped in function 'main': "
        "the call's result is never used and 't' may not be read after the call; use the "
        "call's result"]
    assert found[0].span.begin_line == Writes.functions["main"].body.stmts[1].span.begin_line


def test_registry_groups_and_the_none_phase():
    assert Registry.get_all_checks().to_list() == list(C)
    assert Registry.get_warning_checks().to_list() == [
        C.UnusedVariable, C.UnusedControlFlowResult, C.OutParamWriteDropped]
    assert Registry.get_perf_hint_checks().to_list() == [C.TileInnermostDimGranularity]
    assert Registry.run_checks(Registry.get_all_checks(), Phase.NONE, Unused) == []
    with pytest.raises(TypeError, match="'phase' expects a DiagnosticPhase"):
        Registry.run_checks(Registry.get_all_checks(), "pre", Unused)
    assert repr(inspect.signature(passes.DiagnosticInstrument).parameters["checks"].default) == \
        "{UnusedVariable, UnusedControlFlowResult, TileInnermostDimGranularity, OutParamWriteDropped}"


def _pipeline_with(phase: passes.DiagnosticPhase, disabled=None, checks=None):
    instrument = passes.DiagnosticInstrument() if checks is None else \
        passes.DiagnosticInstrument(checks)
    kwargs = {} if disabled is None else {"disabled_diagnostics": disabled}
    context = passes.PassContext([instrument], diagnostic_phase=phase, **kwargs)
    return instrument, context


def test_instrument_runs_once_before_the_pipeline_and_logs(caplog):
    instrument, context = _pipeline_with(Phase.PRE_PIPELINE)
    pipeline = passes.PassPipeline([passes.convert_to_ssa(), passes.normalize_stmt_structure()])
    with caplog.at_level(logging.WARNING, logger="pypto.passes"), context:
        pipeline.run(Unused)
    assert [d.rule_name for d in instrument.diagnostics] == ["UnusedVariable"]
    assert "warning[UnusedVariable]: Variable 'lost' is assigned but never used" in caplog.text


def test_instrument_honours_disabled_diagnostics_and_its_own_check_set():
    instrument, context = _pipeline_with(
        Phase.PRE_PIPELINE, disabled=passes.DiagnosticCheckSet([C.UnusedVariable]))
    with context:
        passes.PassPipeline([passes.convert_to_ssa()]).run(Unused)
    assert instrument.diagnostics == []
    instrument, context = _pipeline_with(Phase.PRE_PIPELINE,
                                         checks=passes.DiagnosticCheckSet([C.OutParamWriteDropped]))
    with context:
        passes.PassPipeline([passes.convert_to_ssa()]).run(Unused)
    assert instrument.diagnostics == []


def test_post_pass_and_post_pipeline_phases():
    # after ConvertToSSA the loop's result feeds the return: nothing new; the unused 'lost'
    # is reported once even though it is seen after both passes
    instrument, context = _pipeline_with(Phase.POST_PASS)
    with context:
        passes.PassPipeline([passes.convert_to_ssa(), passes.normalize_stmt_structure()]).run(Unused)
    assert [d.rule_name for d in instrument.diagnostics] == ["UnusedVariable"]
    instrument, context = _pipeline_with(Phase.POST_PIPELINE)
    with context:
        passes.convert_to_ssa()(Unused)  # a lone pass is a pipeline of one
    assert [d.rule_name for d in instrument.diagnostics] == ["UnusedVariable"]
    instrument, context = _pipeline_with(Phase.NONE)
    with context:
        passes.PassPipeline([passes.convert_to_ssa()]).run(Unused)
    assert instrument.diagnostics == []
