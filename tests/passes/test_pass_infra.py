"""Pass objects, PassContext and instruments, pass declarations, PassPipeline."""

from __future__ import annotations

import threading

import pytest

import pypto
from pypto import ir, passes
from pypto.ir import DataType as DT
from pypto.passes import IRProperty as P
from pypto.passes.registry import PassSpec

T = ir.TensorType([64], DT.FP32)


def identity_program(*names: str) -> ir.Program:
    funcs = []
    for name in names or ("main",):
        x = ir.Var("x", T)
        funcs.append(ir.Function(name, [x], [T], ir.ReturnStmt([x])))
    return ir.Program(funcs, "P", ir.Span("p.py", 1, 1))


def non_ssa_program() -> ir.Program:
    x, y = ir.Var("x", T), ir.Var("y", T)
    body = ir.SeqStmts([ir.AssignStmt(y, x), ir.AssignStmt(y, x), ir.ReturnStmt([y])])
    return ir.Program([ir.Function("main", [x], [T], body)], "P")


def break_outside_loop_program() -> ir.Program:
    x = ir.Var("x", T)
    body = ir.SeqStmts([ir.BreakStmt(ir.Span("b.py", 3, 5)), ir.ReturnStmt([x])])
    return ir.Program([ir.Function("main", [x], [T], body)], "P")


def toy(name="Toy", transform=lambda p: p, **kwargs) -> passes.Pass:
    return passes.Pass(name, transform, **kwargs)


# -- Pass objects ------------------------------------------------------------------------

def test_pass_accessors_return_copies():
    p = toy(required=[P.SSAForm], produced=passes.IRPropertySet([P.GraphOutlined]),
            invalidated=[P.NormalizedStmtStructure])
    assert p.get_name() == "Toy" and p.name == "Toy"
    assert str(p.get_required_properties()) == "{SSAForm}"
    assert str(p.get_produced_properties()) == "{GraphOutlined}"
    assert str(p.get_invalidated_properties()) == "{NormalizedStmtStructure}"
    p.get_required_properties().insert(P.TypeChecked)
    assert str(p.get_required_properties()) == "{SSAForm}"


def test_pass_rejects_bad_arguments():
    with pytest.raises(ValueError, match="Pass 'Toy': kind must be 'program' or 'function'"):
        toy(kind="module")
    with pytest.raises(TypeError, match="Pass 'Toy': 'required' expects IRProperty items"):
        toy(required=["SSAForm"])
    with pytest.raises(TypeError, match="Pass 'Toy' expects an ir.Program, got Function"):
        toy()(identity_program()["main"])


def test_program_pass_returning_none_is_internal_error():
    with pytest.raises(pypto.InternalError, match="Pass 'Toy' returned null program"):
        toy(transform=lambda p: None)(identity_program())


def test_function_pass_returns_same_program_when_nothing_changes():
    program = identity_program("a", "b")
    seen = []
    result = toy(transform=lambda f: seen.append(f.name) or f, kind="function")(program)
    assert result is program
    assert seen == ["a", "b"]


def test_function_pass_rebuilds_program_with_same_name_and_span():
    program = identity_program("a", "b")

    def rename_b_param(func: ir.Function) -> ir.Function:
        if func.name != "b":
            return func
        y = ir.Var("y", T)
        return ir.Function("b", [y], [T], ir.ReturnStmt([y]))

    result = toy(transform=rename_b_param, kind=passes.PassKind.FUNCTION)(program)
    assert result is not program
    assert result.name == "P" and result.span is program.span
    assert result["a"] is program["a"]
    assert result["b"].params[0].name_hint == "y"


def test_function_pass_returning_none_is_internal_error():
    with pytest.raises(pypto.InternalError,
                       match="Pass 'Toy' returned null function for 'main'"):
        toy(transform=lambda f: None, kind="function")(identity_program())


# -- PassContext and instruments --------------------------------------------------------

def recorder(log: list, tag: str) -> passes.CallbackInstrument:
    return passes.CallbackInstrument(
        before_pass=lambda p, prog: log.append((f"{tag}.before", p.get_name(), prog)),
        after_pass=lambda p, prog: log.append((f"{tag}.after", p.get_name(), prog)),
        name=tag)


def test_instruments_run_in_order_around_the_transform():
    log: list = []
    program, output = identity_program(), identity_program()

    def transform(prog):
        log.append(("transform", "Toy", prog))
        return output

    with passes.PassContext([recorder(log, "one"), recorder(log, "two")]):
        assert toy(transform=transform)(program) is output
    assert [(tag, name) for tag, name, _ in log] == [
        ("one.before", "Toy"), ("two.before", "Toy"), ("transform", "Toy"),
        ("one.after", "Toy"), ("two.after", "Toy")]
    # before-hooks see the input, after-hooks the output
    assert log[0][2] is program and log[1][2] is program
    assert log[3][2] is output and log[4][2] is output


def test_innermost_context_wins_completely():
    log: list = []
    outer = passes.PassContext([recorder(log, "outer")])
    with outer:
        with passes.PassContext([]) as inner:
            assert passes.PassContext.current() is inner
            toy()(identity_program())
        assert log == []
        assert passes.PassContext.current() is outer
        toy()(identity_program())
    assert [tag for tag, _, _ in log] == ["outer.before", "outer.after"]


def test_context_accessors_and_backend_options():
    instrument = passes.CallbackInstrument(name="cb")
    disabled = passes.DiagnosticCheckSet([passes.DiagnosticCheck.UnusedVariable])
    ctx = passes.PassContext([instrument], verification_level=passes.VerificationLevel.NONE,
                             runtime=passes.RuntimeKind.HOST_BUILD_GRAPH,
                             memory_planner=passes.MemoryPlanner.PTOAS,
                             diagnostic_phase=passes.DiagnosticPhase.POST_PASS,
                             disabled_diagnostics=disabled, enable_pypto_l0c_double_buffer=True)
    assert ctx.get_instruments() == [instrument]
    assert ctx.get_verification_level() is passes.VerificationLevel.NONE
    assert ctx.get_runtime() is passes.RuntimeKind.HOST_BUILD_GRAPH
    assert ctx.get_memory_planner() is passes.MemoryPlanner.PTOAS
    assert ctx.get_diagnostic_phase() is passes.DiagnosticPhase.POST_PASS
    assert ctx.get_disabled_diagnostics() == disabled
    assert ctx.get_enable_pypto_l0c_double_buffer() is True
    default = passes.PassContext([])
    assert default.get_verification_level() is passes.VerificationLevel.BASIC
    assert default.get_runtime() is passes.RuntimeKind.TENSORMAP_AND_RINGBUFFER
    assert default.get_disabled_diagnostics().to_list() == [
        passes.DiagnosticCheck.UnusedControlFlowResult]
    assert default.get_memory_planner() is passes.MemoryPlanner.PYPTO
    with pytest.raises(TypeError, match="'memory_planner' expects a MemoryPlanner, got str"):
        passes.PassContext([], memory_planner="greedy")
    with pytest.raises(TypeError, match="unexpected keyword argument 'diagnostics_phase'"):
        passes.PassContext([], diagnostics_phase=2)
    assert instrument.get_name() == "cb"


def test_context_rejects_non_instruments():
    with pytest.raises(TypeError, match=r"PassContext: 'instruments\[0\]' expects a "
                                        "PassInstrument, got str"):
        passes.PassContext(["verify"])


def test_context_stack_is_thread_local():
    seen = []
    with passes.PassContext([]):
        worker = threading.Thread(target=lambda: seen.append(passes.PassContext.current()))
        worker.start()
        worker.join()
    assert seen == [None]


def test_calling_a_pass_never_verifies_without_instruments():
    broken = non_ssa_program()
    with passes.PassContext([]):
        assert toy(transform=lambda p: broken, produced=[P.SSAForm])(identity_program()) is broken


def test_verification_instrument_before_checks_required():
    with passes.PassContext([passes.VerificationInstrument(passes.VerificationMode.BEFORE)]):
        with pytest.raises(pypto.Error) as info:
            toy(required=[P.SSAForm])(non_ssa_program())
    text = str(info.value)
    assert text.startswith("Pre-verification failed before pass 'Toy':\nIR Verification Report")
    assert "[1] ERROR - SSAVerify" in text


def test_verification_instrument_checks_structural_properties_after():
    mode = passes.VerificationMode.AFTER
    with passes.PassContext([passes.VerificationInstrument(mode)]):
        fixed = identity_program()
        # AFTER mode: the broken input is not checked, the fixed output is
        assert toy(transform=lambda p: fixed)(break_outside_loop_program()) is fixed
        with pytest.raises(pypto.Error) as info:
            toy(transform=lambda p: break_outside_loop_program())(identity_program())
    text = str(info.value)
    assert text.startswith("Post-verification failed after pass 'Toy':\n")
    assert "ERROR - BreakContinueValid" in text and "Location: b.py:3:5" in text


def test_verification_instrument_checks_produced_not_required_after():
    with passes.PassContext([passes.VerificationInstrument(passes.VerificationMode.AFTER)]):
        toy(required=[P.SSAForm])(non_ssa_program())  # required is only checked BEFORE
        with pytest.raises(pypto.Error, match="Post-verification failed after pass 'Toy'"):
            toy(produced=[P.SSAForm])(non_ssa_program())


def test_verification_mode_none_checks_nothing():
    with passes.PassContext([passes.VerificationInstrument(passes.VerificationMode.NONE)]):
        toy(required=[P.SSAForm], produced=[P.SSAForm])(non_ssa_program())


def test_report_instrument_writes_one_report_per_pass(tmp_path):
    with passes.PassContext([passes.ReportInstrument(tmp_path)]):
        toy(name="First")(identity_program())
        toy(name="Second", transform=lambda p: break_outside_loop_program())(identity_program())
    first = (tmp_path / "01_after_First_verification.txt").read_text()
    second = (tmp_path / "02_after_Second_verification.txt").read_text()
    assert first.endswith("Status: PASSED\n")
    assert "ERROR - BreakContinueValid" in second and second.endswith("found)\n")


# -- pass declarations ------------------------------------------------------------------

def test_get_pass_spec_accepts_all_three_spellings():
    spec = passes.get_pass_spec("ConvertToSSA")
    assert passes.get_pass_spec("convert-to-ssa") is spec
    assert passes.get_pass_spec("convert_to_ssa") is spec
    assert spec.kind is passes.PassKind.FUNCTION
    assert spec.impl == "pypto.passes.transforms.convert_to_ssa:transform"


def test_unknown_pass_lists_valid_spellings():
    with pytest.raises(ValueError) as info:
        passes.get_pass_spec("convert-to-sss")
    assert "Unknown pass 'convert-to-sss'" in str(info.value)
    assert "convert-to-ssa (ConvertToSSA, convert_to_ssa)" in str(info.value)
    assert "run-verifier (IRVerifier, run_verifier)" in str(info.value)


def test_list_passes_in_pipeline_order():
    assert [s.name for s in passes.list_passes()] == [
        "InlineFunctions", "ConvertToSSA", "NormalizeStmtStructure", "FlattenCallExpr",
        "OutlineHierarchyScopes", "OutlineGraphScopes", "OutlineIncoreScopes",
        "OutlineClusterScopes", "LegalizeGraphBoundary", "Simplify", "UnrollLoops",
        "DeriveCallDirections", "NormalizeReturnOrder", "CanonicalizeIOOrder",
        "ClassifyIterArgCarry", "IRVerifier"]


@pytest.mark.parametrize("factory, name, required, produced, invalidated", [
    ("inline_functions", "InlineFunctions", "{}", "{InlineFunctionsEliminated}", "{}"),
    ("convert_to_ssa", "ConvertToSSA", "{}", "{SSAForm}", "{NormalizedStmtStructure}"),
    ("normalize_stmt_structure", "NormalizeStmtStructure", "{}", "{NormalizedStmtStructure}",
     "{}"),
    ("flatten_call_expr", "FlattenCallExpr", "{SSAForm, NormalizedStmtStructure}",
     "{SSAForm, NoNestedCalls, NormalizedStmtStructure}", "{}"),
    ("outline_hierarchy_scopes", "OutlineHierarchyScopes", "{SSAForm}",
     "{SSAForm, HierarchyOutlined, OrchestrationReferencesResolved}", "{}"),
    ("outline_graph_scopes", "OutlineGraphScopes", "{SSAForm, InlineFunctionsEliminated}",
     "{SSAForm, GraphOutlined}", "{}"),
    ("outline_incore_scopes", "OutlineIncoreScopes", "{SSAForm}",
     "{SSAForm, SplitIncoreOrch, AivSplitValid}", "{}"),
    ("outline_cluster_scopes", "OutlineClusterScopes", "{SSAForm}",
     "{SSAForm, ClusterOutlined}", "{}"),
    ("legalize_graph_boundary", "LegalizeGraphBoundary", "{SplitIncoreOrch, GraphOutlined}",
     "{GraphBoundaryLegalized}", "{}"),
    ("simplify", "Simplify", "{}", "{}", "{}"),
    ("unroll_loops", "UnrollLoops", "{}", "{UnrollResolved}", "{NormalizedStmtStructure}"),
    ("derive_call_directions", "DeriveCallDirections", "{}", "{CallDirectionsResolved}", "{}"),
    ("normalize_return_order", "NormalizeReturnOrder", "{}", "{ReturnParamsExplicit}", "{}"),
    ("canonicalize_io_order", "CanonicalizeIOOrder", "{}", "{}", "{}"),
    ("classify_iter_arg_carry", "ClassifyIterArgCarry", "{SSAForm}", "{IterArgCarryClassified}",
     "{}"),
    ("run_verifier", "IRVerifier", "{}", "{}", "{}"),
])
def test_factories_build_declared_passes(factory, name, required, produced, invalidated):
    p = getattr(passes, factory)()
    assert isinstance(p, passes.Pass)
    assert p.get_name() == name
    assert str(p.get_required_properties()) == required
    assert str(p.get_produced_properties()) == produced
    assert str(p.get_invalidated_properties()) == invalidated


def test_build_pipeline_from_cli_spelling():
    pipeline = passes.build_pipeline("convert-to-ssa, outline-graph-scopes,,")
    assert pipeline.get_pass_names() == ["ConvertToSSA", "OutlineGraphScopes"]
    with pytest.raises(ValueError, match="Unknown pass 'nope'"):
        passes.build_pipeline("convert-to-ssa,nope")


def test_missing_implementation_fails_only_when_run():
    ghost = PassSpec("Ghost", "ghost", "ghost", passes.PassKind.PROGRAM, (), (), (),
                     "pypto.passes.ghost_pass_that_does_not_exist:transform", "A missing pass.")
    p = ghost.create()
    with pytest.raises(NotImplementedError,
                       match="Pass 'Ghost' is not available: its implementation module "
                             "'pypto.passes.ghost_pass_that_does_not_exist' does not exist"):
        p(identity_program())


def test_factory_rejects_unknown_options():
    with pytest.raises(TypeError, match="run_verifier\\(\\) got an unexpected keyword "
                                        "argument 'level'"):
        passes.run_verifier(level=1)
    with pytest.raises(TypeError, match="convert_to_ssa\\(\\) takes 0 argument"):
        passes.convert_to_ssa(1)


def test_run_verifier_checks_default_properties():
    program = identity_program()
    assert passes.run_verifier()(program) is program
    with pytest.raises(pypto.Error) as info:
        passes.run_verifier()(non_ssa_program())
    assert str(info.value).startswith("IR Verification Report\n")
    assert "ERROR - SSAVerify" in str(info.value)


def test_run_verifier_with_explicit_properties():
    only_breaks = passes.IRPropertySet([P.BreakContinueValid])
    passes.run_verifier(only_breaks)(non_ssa_program())  # SSA is not checked
    with pytest.raises(pypto.Error, match="BreakContinueValid"):
        passes.run_verifier(properties=[P.BreakContinueValid])(break_outside_loop_program())


# -- PassPipeline -----------------------------------------------------------------------

@pytest.fixture
def recording_registry():
    """Every property's verifier replaced by one that records (stage, property)."""
    registry = passes.PropertyVerifierRegistry
    log: list[tuple[str, str]] = []
    stage = ["input"]
    failing: set = set()

    def make(prop):
        def verify(program, diagnostics):
            log.append((stage[0], prop.name))
            if prop in failing:
                diagnostics.append(passes.Diagnostic(passes.DiagnosticSeverity.Error, "Rec", 7,
                                                     f"{prop.name} broken", ir.Span.unknown()))
        return passes.FunctionVerifier(prop.name, verify)

    saved = {prop: registry.register(prop, make(prop)) for prop in P}
    stage_instrument = passes.CallbackInstrument(after_pass=lambda p, _: stage.__setitem__(
        0, p.get_name()))
    try:
        yield log, stage_instrument, failing
    finally:
        for prop, verifier in saved.items():
            registry.register(prop, verifier)


def test_pipeline_verification_schedule(recording_registry):
    log, stage_instrument, _ = recording_registry
    pipeline = passes.PassPipeline([
        toy("A", produced=[P.SSAForm, P.HierarchyOutlined]),
        toy("B", produced=[P.SSAForm, P.OrchestrationReferencesResolved]),
        toy("C", invalidated=[P.SSAForm, P.NormalizedStmtStructure]),
        toy("D", produced=[P.SSAForm, P.NoNestedCalls]),
    ])
    with passes.PassContext([stage_instrument]):
        pipeline.run(identity_program())
    assert log == [
        # Structural ∩ Verified on the input
        ("input", "TypeChecked"), ("input", "NoRedundantBlocks"),
        ("input", "BreakContinueValid"), ("input", "InOutUseValid"),
        ("input", "ManualDepsOnSubmitOnly"), ("input", "AtomicAddDtypeValid"),
        ("A", "SSAForm"),                          # HierarchyOutlined is not Verified
        ("B", "OrchestrationReferencesResolved"),  # SSAForm already verified
        ("D", "SSAForm"),                          # again: C invalidated it
    ]


def test_pipeline_level_none_verifies_nothing(recording_registry):
    log, stage_instrument, _ = recording_registry
    with passes.PassContext([stage_instrument],
                            verification_level=passes.VerificationLevel.NONE):
        passes.PassPipeline([toy("A", produced=[P.SSAForm])]).run(identity_program())
    assert log == []


def test_pipeline_failure_message(recording_registry):
    _, stage_instrument, failing = recording_registry
    failing.add(P.SSAForm)
    pipeline = passes.PassPipeline([toy("A", produced=[P.SSAForm, P.GraphOutlined])])
    with passes.PassContext([stage_instrument]), pytest.raises(pypto.Error) as info:
        pipeline.run(identity_program())
    assert str(info.value).startswith(
        "Verification failed after 'A' for properties {SSAForm}:\nIR Verification Report\n")
    assert "[1] ERROR - Rec\n  Message: SSAForm broken\n" in str(info.value)


def test_pipeline_input_failure_is_labelled(recording_registry):
    _, stage_instrument, failing = recording_registry
    failing.add(P.TypeChecked)
    with passes.PassContext([stage_instrument]), pytest.raises(
            pypto.Error, match="Verification failed after 'pipeline_input' for properties "
                               r"\{TypeChecked, NoRedundantBlocks,"):
        passes.PassPipeline([]).run(identity_program())


def test_pipeline_without_context_uses_environment_level(recording_registry, monkeypatch):
    log, _, _ = recording_registry
    monkeypatch.setenv("PYPTO_VERIFY_LEVEL", "none")
    results = []
    worker = threading.Thread(target=lambda: results.append(
        passes.PassPipeline([toy("A", produced=[P.SSAForm])]).run(identity_program())))
    worker.start()
    worker.join()
    assert len(results) == 1 and log == []


def test_pipeline_accessors():
    a, b = toy("A"), toy("B")
    pipeline = passes.PassPipeline()
    pipeline.add_pass(a)
    pipeline.add_pass(b)
    assert pipeline.get_passes() == [a, b]
    assert pipeline.get_pass_names() == ["A", "B"]
    with pytest.raises(TypeError, match="PassPipeline.add_pass expects a Pass, got str"):
        pipeline.add_pass("A")


@pytest.mark.parametrize("text, level", [
    ("none", passes.VerificationLevel.NONE), ("basic", passes.VerificationLevel.BASIC),
    ("roundtrip", passes.VerificationLevel.ROUNDTRIP), ("BASIC", passes.VerificationLevel.BASIC),
])
def test_default_verification_level_from_environment(monkeypatch, text, level):
    monkeypatch.setenv("PYPTO_VERIFY_LEVEL", text)
    assert passes.get_default_verification_level() is level


def test_default_verification_level_unset_and_invalid(monkeypatch):
    monkeypatch.delenv("PYPTO_VERIFY_LEVEL", raising=False)
    assert passes.get_default_verification_level() is passes.VerificationLevel.BASIC
    monkeypatch.setenv("PYPTO_VERIFY_LEVEL", "paranoid")
    with pytest.raises(ValueError, match="PYPTO_VERIFY_LEVEL must be one of none, basic, "
                                         "roundtrip; got 'paranoid'"):
        passes.get_default_verification_level()
