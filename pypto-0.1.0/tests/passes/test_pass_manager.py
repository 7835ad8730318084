"""ir.PassManager (default strategy, IR dumps) and the round-trip instrument."""

from __future__ import annotations

import warnings

import pytest

import pypto.language.roundtrip
from pypto import ir, passes
from pypto.ir import DataType as DT
from pypto.ir.instruments import make_roundtrip_instrument
from pypto.passes import IRProperty as P

T = ir.TensorType([64], DT.FP32)

DEFAULT_PIPELINE = ["InlineFunctions", "ConvertToSSA", "NormalizeStmtStructure",
                    "FlattenCallExpr", "OutlineHierarchyScopes", "OutlineGraphScopes",
                    "OutlineIncoreScopes", "OutlineClusterScopes", "LegalizeGraphBoundary"]


def identity_program(param_name: str = "x") -> ir.Program:
    x = ir.Var(param_name, T)
    return ir.Program([ir.Function("main", [x], [T], ir.ReturnStmt([x]))], "P")


def orchestration_with_compute_op() -> ir.Program:
    x, y = ir.Var("x", T), ir.Var("y", T)
    body = ir.SeqStmts([ir.AssignStmt(y, ir.Call(ir.get_op("tensor.add"), [x, x], T)),
                        ir.ReturnStmt([y])])
    func = ir.Function("main", [x], [T], body, type=ir.FunctionType.Orchestration)
    return ir.Program([func], "P")


def toy(name: str, result: ir.Program | None = None, **props) -> passes.Pass:
    return passes.Pass(name, lambda p: p if result is None else result, **props)


# -- strategy ------------------------------------------------------------------------------

def test_default_strategy_pass_names():
    pm = ir.PassManager.get_strategy(ir.OptimizationStrategy.Default)
    assert pm.pass_names == DEFAULT_PIPELINE
    assert pm.get_pass_names() == DEFAULT_PIPELINE
    assert [p.get_name() for p in pm.passes] == DEFAULT_PIPELINE
    assert all(isinstance(p, passes.Pass) for p in pm.passes)
    assert ir.PassManager.get_strategy().pass_names == DEFAULT_PIPELINE


def test_default_strategy_properties_follow_the_table():
    produced = {p.get_name(): str(p.get_produced_properties())
                for p in ir.PassManager.get_strategy().passes}
    assert produced["OutlineIncoreScopes"] == "{SSAForm, SplitIncoreOrch, AivSplitValid}"
    assert produced["LegalizeGraphBoundary"] == "{GraphBoundaryLegalized}"


def test_get_strategy_rejects_unknown_strategy():
    with pytest.raises(ValueError, match="unknown strategy 'Fast'"):
        ir.PassManager.get_strategy("Fast")


def test_run_passes_without_dump_runs_the_pipeline():
    out = identity_program("y")
    pm = ir.PassManager([toy("A"), toy("B", result=out)])
    assert pm.run_passes(identity_program()) is out


def test_run_passes_rejects_non_program():
    with pytest.raises(TypeError, match="PassManager.run_passes expects an ir.Program, "
                                        "got Function"):
        ir.PassManager([]).run_passes(identity_program()["main"])


# -- dumps ---------------------------------------------------------------------------------

def test_dump_requires_output_dir():
    with pytest.raises(ValueError, match="output_dir is required when dumping IR"):
        ir.PassManager([toy("A")]).run_passes(identity_program(), dump_ir=True)


def test_dump_files_names_and_contents(tmp_path):
    program, second = identity_program(), identity_program("z")
    pm = ir.PassManager([toy("First"), toy("Second", result=second)])
    pm.run_passes(program, dump_ir=True, output_dir=tmp_path, prefix="pt")
    assert sorted(f.name for f in tmp_path.iterdir()) == [
        "00_frontend.py", "01_after_First.py", "02_after_Second.py"]
    assert (tmp_path / "00_frontend.py").read_text() == ir.python_print(program, prefix="pt") + "\n"
    assert (tmp_path / "01_after_First.py").read_text() == (
        ir.python_print(program, prefix="pt") + "\n")
    assert (tmp_path / "02_after_Second.py").read_text() == (
        ir.python_print(second, prefix="pt") + "\n")


@pytest.mark.parametrize("level", [ir.PassDumpLevel.CONCISE, ir.PassDumpLevel.EXPLICIT])
def test_dump_levels_print_the_same(tmp_path, level):
    ir.PassManager([toy("A")]).run_passes(identity_program(), dump_ir=level, output_dir=tmp_path)
    assert (tmp_path / "01_after_A.py").read_text().endswith("return x\n")


def test_dump_level_none_writes_nothing(tmp_path):
    ir.PassManager([toy("A")]).run_passes(identity_program(), dump_ir=ir.PassDumpLevel.NONE,
                                          output_dir=tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_dump_writes_warnings_of_a_pass_to_a_log(tmp_path):
    split = toy("Split", result=orchestration_with_compute_op(), produced=[P.SplitIncoreOrch])
    with passes.PassContext([]):
        ir.PassManager([toy("A"), split]).run_passes(identity_program(), dump_ir=True,
                                                     output_dir=tmp_path)
    assert not (tmp_path / "01_after_A.log").exists()
    log = (tmp_path / "02_after_Split.log").read_text()
    assert log.startswith("IR Verification Report\n")
    assert "[1] WARNING - SplitIncoreOrch\n  Message: Compute tensor op 'tensor.add' found in " \
           "Orchestration function (should be inside InCore)\n" in log
    assert log.endswith("Status: PASSED with 1 warning(s)\n")


def test_dump_instrument_is_appended_to_outer_instruments(tmp_path):
    seen = []
    outer = passes.CallbackInstrument(
        after_pass=lambda p, _: seen.append((tmp_path / "01_after_A.py").exists()))
    with passes.PassContext([outer], verification_level=passes.VerificationLevel.NONE):
        ir.PassManager([toy("A")]).run_passes(identity_program(), dump_ir=True,
                                              output_dir=tmp_path)
    assert seen == [False]  # the outer instrument ran, before the appended IRDump
    assert (tmp_path / "01_after_A.py").exists()


# -- round-trip instrument -------------------------------------------------------------

def run_with_roundtrip(program: ir.Program, result: ir.Program | None = None) -> ir.Program:
    with passes.PassContext([make_roundtrip_instrument()]):
        return toy("Toy", result=result)(program)


def test_roundtrip_accepts_a_printable_program():
    program = identity_program()
    assert run_with_roundtrip(program) is program


def test_roundtrip_mismatch_raises_runtime_error_with_printed_ir(monkeypatch):
    monkeypatch.setattr(pypto.language.roundtrip, "parse", lambda text: identity_program("other"))
    x, y = ir.Var("x", T), ir.Var("y", T)
    body = ir.SeqStmts([ir.AssignStmt(y, x), ir.ReturnStmt([y])])
    program = ir.Program([ir.Function("main", [x], [T], body)], "P")
    with pytest.raises(RuntimeError) as info:
        run_with_roundtrip(program)
    text = str(info.value)
    assert text.startswith("Round-trip check failed after pass 'Toy': ValueError: Structural "
                           "equality assertion failed")
    assert text.endswith("--- printed IR ---\n" + ir.python_print(program, format=False))


def refuse(*args, **kwargs):
    raise AssertionError("must not be called")


def test_roundtrip_skips_unknown_type_silently(monkeypatch):
    monkeypatch.setattr(pypto.language.roundtrip, "parse", refuse)
    x, y = ir.Var("x", T), ir.Var("y", ir.UnknownType())
    body = ir.SeqStmts([ir.AssignStmt(y, ir.Call(ir.Op("tensor.add"), [x, x])),
                        ir.ReturnStmt([x])])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        run_with_roundtrip(ir.Program([ir.Function("main", [x], [T], body)], "P"))


def test_roundtrip_skips_printer_refusal_of_unroll_iter_args_with_warning(monkeypatch):
    def printer_refuses(*args, **kwargs):
        raise ValueError("cannot print an Unroll loop with iter_args")
    monkeypatch.setattr(ir.printer, "python_print", printer_refuses)
    x, rv = ir.Var("x", T), ir.Var("rv", T)
    acc = ir.IterArg("acc", T, x)
    loop = ir.ForStmt(ir.Var("i", ir.ScalarType(DT.INDEX)), 0, 2, 1, [acc], ir.YieldStmt([acc]),
                      [rv], kind=ir.ForKind.Unroll)
    program = ir.Program([ir.Function("main", [x], [T], ir.SeqStmts([loop, ir.ReturnStmt([rv])]))])
    with pytest.warns(UserWarning, match="Round-trip check skipped after pass 'Toy': cannot "
                                         "print an Unroll loop with iter_args"):
        run_with_roundtrip(program)


def test_roundtrip_printer_failure_elsewhere_is_an_error(monkeypatch):
    def printer_refuses(*args, **kwargs):
        raise ValueError("boom")
    monkeypatch.setattr(ir.printer, "python_print", printer_refuses)
    with pytest.raises(RuntimeError, match="Round-trip check failed after pass 'Toy': printing "
                                           "raised ValueError: boom"):
        run_with_roundtrip(identity_program())


def test_roundtrip_skips_scalar_rhs_tensor_add(monkeypatch):
    monkeypatch.setattr(pypto.language.roundtrip, "parse", lambda text: identity_program("other"))
    x, y = ir.Var("x", T), ir.Var("y", T)
    s = ir.Var("s", ir.ScalarType(DT.FP32))
    body = ir.SeqStmts([ir.AssignStmt(y, ir.Call(ir.Op("tensor.add"), [x, s], T)),
                        ir.ReturnStmt([y])])
    run_with_roundtrip(ir.Program([ir.Function("main", [x, s], [T], body)], "P"))


def test_roundtrip_skips_unmappable_return_dims(monkeypatch):
    monkeypatch.setattr(pypto.language.roundtrip, "parse", lambda text: identity_program("other"))
    n = ir.Var("n", ir.ScalarType(DT.INDEX))
    x = ir.Var("x", T)
    ret_type = ir.TensorType([n], DT.FP32)
    y = ir.Var("y", ret_type)
    body = ir.SeqStmts([ir.AssignStmt(y, ir.Call(ir.Op("tensor.create"), [], ret_type)),
                        ir.ReturnStmt([y])])
    run_with_roundtrip(ir.Program([ir.Function("main", [x], [ret_type], body)], "P"))
