"""``pypto compile``'s precondition check verifies what it does not already know:
everything on the pipeline's input that the pipeline's own input check did not cover,
afterwards only requirements that no earlier pass of the run produced (on a 20k-line program the repeated checks cost more than the
passes)."""

from __future__ import annotations

import pytest

import pypto.language as pl
from pypto import ir, passes
from pypto.cli import pipeline as cli_pipeline
from pypto.cli.errors import ProgramError

SOURCE = """
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.Inline)
    def double(self, x: pl.Tensor[[8], pl.FP32]) -> pl.Tensor[[8], pl.FP32]:
        y = pl.add(x, x)
        return y

    @pl.function
    def main(self, x: pl.Tensor[[8], pl.FP32]) -> pl.Tensor[[8], pl.FP32]:
        y = self.double(x)
        with pl.at(level=pl.Level.HOST):
            y = pl.add(y, x)
        return y
"""


@pytest.fixture
def checked(monkeypatch):
    """The property sets the check verifies, in order (the pipeline's own BASIC
    verification calls the registry by another path and is not recorded)."""
    calls: list[passes.IRPropertySet] = []
    registry = cli_pipeline.PropertyVerifierRegistry

    class Recorder:
        @staticmethod
        def verify(props, program):
            calls.append(props)
            return registry.verify(props, program)

    monkeypatch.setattr(cli_pipeline, "PropertyVerifierRegistry", Recorder)
    return calls


def _run(pass_list, program):
    check = cli_pipeline._PreconditionCheck()
    with passes.PassContext([check], verification_level=passes.VerificationLevel.BASIC):
        return ir.PassManager(pass_list).run_passes(program)


def test_default_pipeline_checks_its_input_once(checked):
    program = pl.parse(SOURCE)
    pipeline = ir.PassManager.get_strategy(ir.OptimizationStrategy.Default).passes
    wanted = pipeline[0].get_required_properties().union_with(
        passes.get_structural_properties())
    # What the pipeline verified on its input itself is not verified twice.
    by_pipeline = passes.get_structural_properties().intersection(
        passes.get_verified_properties())
    result = _run(pipeline, program)
    assert [c.to_list() for c in checked] == [wanted.difference(by_pipeline).to_list()]
    assert not by_pipeline.empty() and checked[0].intersection(by_pipeline).empty()
    ir.assert_structural_equal(
        result, ir.PassManager.get_strategy(ir.OptimizationStrategy.Default)
        .run_passes(program))


def test_a_new_input_is_checked_again(checked):
    program = pl.parse(SOURCE)
    pipeline = ir.PassManager.get_strategy(ir.OptimizationStrategy.Default).passes
    _run(pipeline, program)
    _run(pipeline, program)
    assert len(checked) == 2


def test_a_requirement_no_earlier_pass_produced_is_checked(checked):
    # convert-to-ssa does not inline: outline-graph-scopes must still refuse.
    program = pl.parse(SOURCE)
    with pytest.raises(ProgramError) as caught:
        _run([passes.convert_to_ssa(), passes.outline_graph_scopes()], program)
    headline = caught.value.findings[0].message
    assert headline == ("pass 'outline-graph-scopes' cannot run: its input lacks "
                        "InlineFunctionsEliminated")
    assert [c.to_list() for c in checked][1] == [passes.IRProperty.InlineFunctionsEliminated]


T = ir.TensorType([64], ir.DataType.FP32)


_X = ir.Var("x", T)


def _built(*stmts: ir.Stmt) -> ir.Program:
    """``main(x)`` with ``stmts`` as its body, built without the parser's checks."""
    return ir.Program([ir.Function("main", [_X], [T], ir.SeqStmts.flatten(stmts))], "P")


def _add(a: ir.Expr, b: ir.Expr) -> ir.Call:
    return ir.Call(ir.Op("tensor.add"), [a, b], {}, {}, T, ir.Span.unknown())


def test_the_input_is_checked_for_what_the_pipeline_does_not_verify(checked):
    # UseAfterDef is structural but not verified by the pipeline: the check finds it.
    y, z = ir.Var("y", T), ir.Var("z", T)
    program = _built(ir.AssignStmt(y, _add(z, z)), ir.AssignStmt(z, _add(_X, _X)),
                     ir.ReturnStmt([y]))
    pipeline = ir.PassManager.get_strategy(ir.OptimizationStrategy.Default).passes
    with pytest.raises(ProgramError) as caught:
        _run(pipeline, program)
    messages = [f.message for f in caught.value.findings]
    assert messages[0] == "pass 'inline-functions' cannot run: its input is not valid IR"
    assert messages[1:] == ["[UseAfterDefCheck] Variable 'z' used before definition in "
                            "function 'main'"]


def test_what_the_pipeline_verifies_on_its_input_still_stops_it(checked):
    # TypeChecked is verified by the pipeline itself before the check runs.
    y = ir.Var("y", ir.ScalarType(ir.DataType.INDEX))
    program = _built(ir.AssignStmt(y, _add(_X, _X)), ir.ReturnStmt([_X]))
    pipeline = ir.PassManager.get_strategy(ir.OptimizationStrategy.Default).passes
    with pytest.raises(passes.VerificationError) as caught:
        _run(pipeline, program)
    assert [d.rule_name for d in caught.value.diagnostics] == ["TypeCheck"]
    assert checked == []
