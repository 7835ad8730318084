"""PyPTO's builder classes made from the builder alone (``FunctionBuilder(ib)`` ...):
handles on the construct the builder has open, next to ``IRBuilder``'s own frames."""

from __future__ import annotations

import inspect

import pytest

import pypto.language as pl
from pypto import ir
from pypto.ir.builder import (ForLoopBuilder, FunctionBuilder, IfStmtBuilder, ProgramBuilder,
                              ScopeBuilder, WhileLoopBuilder)

INDEX = ir.ScalarType(ir.DataType.INDEX)
T16 = ir.TensorType([16], ir.DataType.FP32)


@pl.program
class Expected:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, n: pl.Scalar[pl.INDEX], a: pl.Tensor[[16], pl.FP32]) -> pl.Scalar[pl.INDEX]:
        for i, (acc,) in pl.range(8, init_values=(n,)):
            total = pl.yield_(acc + i)
        for (w,) in pl.while_(init_values=(total,)):
            pl.cond(w < 100)
            w2 = pl.yield_(w * 2)
        if w2 > 10:
            r = pl.yield_(w2)
        else:
            r = pl.yield_(n)
        with pl.at(level=pl.Level.CORE_GROUP):
            b = pl.add(a, a)
        return r


def _build_with_handles() -> tuple[ir.Program, dict]:
    """Expected, built through the core begin/end methods and PyPTO's handles."""
    ib = ir.IRBuilder()
    handles: dict = {}
    ib.begin_program("Expected")
    handles["program"] = program = ProgramBuilder(ib)
    program.declare_function("main")
    ib.begin_function("main", type=ir.FunctionType.Orchestration)
    handles["function"] = function = FunctionBuilder(ib)
    n = function.param("n", INDEX)
    a = function.param("a", T16)
    function.return_type(INDEX)

    i = ir.Var("i", INDEX, ir.Span.unknown())
    ib.begin_for_loop(i, 0, 8, 1)
    handles["for"] = loop = ForLoopBuilder(ib)
    acc = loop.iter_arg("acc", n)
    ib.emit(ir.YieldStmt([acc + i]))
    total = loop.return_var("total")
    ib.end_for_loop()

    ib.begin_while_loop(None)
    handles["while"] = wloop = WhileLoopBuilder(ib)
    w = wloop.iter_arg("w", total)
    wloop.set_condition(w < 100)
    ib.emit(ir.YieldStmt([w * 2]))
    w2 = wloop.return_var("w2")
    ib.end_while_loop()

    ib.begin_if(w2 > 10)
    handles["if"] = branch = IfStmtBuilder(ib)
    r = branch.return_var("r", INDEX)
    ib.emit(ir.YieldStmt([w2]))
    branch.else_()
    ib.emit(ir.YieldStmt([n]))
    ib.end_if()

    ib.begin_scope(ir.ScopeKind.InCore)
    handles["scope"] = ScopeBuilder(ib)
    ib.let("b", ir.op.tensor.add(a, a))
    ib.end_scope()
    ib.return_(r)
    ib.end_function()
    return ib.end_program(), handles


def test_handles_build_the_program_the_parser_builds():
    program, handles = _build_with_handles()
    ir.assert_structural_equal(program, Expected)
    assert handles["program"].get_result() is program
    main = program.get_function("main")
    assert handles["function"].get_result() is main
    for_stmt, while_stmt, if_stmt, scope = main.body.stmts[:4]
    assert handles["for"].get_result() is for_stmt
    assert handles["for"].outputs() == list(for_stmt.return_vars)
    assert handles["while"].get_result() is while_stmt
    assert handles["while"].output(0) is while_stmt.return_vars[0]
    assert handles["if"].get_result() is if_stmt
    assert handles["scope"].get_result() is scope
    assert handles["program"].get_global_var("main").name == "main"


def test_constructs_of_irbuilder_are_instances_of_the_handles():
    ib = ir.IRBuilder()
    with ib.program("P") as prog:
        with ib.function("f") as f:
            x = f.param("x", INDEX)
            with ib.for_loop("i", 0, 4, 1) as loop:
                assert isinstance(loop, ForLoopBuilder)
                assert ForLoopBuilder(ib).get_result.__self__ is not loop
            with ib.if_stmt(x > 0) as branch:
                assert isinstance(branch, IfStmtBuilder)
                branch.else_(span=ir.Span("f.py", 3, 1))
            ib.return_stmt([x])
        assert isinstance(f, FunctionBuilder)
    assert isinstance(prog, ProgramBuilder)
    assert prog.get_result().get_function("f") is f.get_result()


def test_a_handle_needs_an_open_construct_and_a_builder():
    ib = ir.IRBuilder()
    handle = FunctionBuilder(ib)  # nothing open yet: binds on first use
    with pytest.raises(ValueError, match="FunctionBuilder has no open function"):
        handle.param("x", INDEX)
    with ib.function("f"):
        handle.param("x", INDEX)
        with pytest.raises(ValueError, match="the function is still open"):
            handle.get_result()
    assert [p.name_hint for p in handle.get_result().params] == ["x"]
    with pytest.raises(ValueError, match="ScopeBuilder has no open scope"):
        ScopeBuilder(ib).get_result()
    with pytest.raises(TypeError, match="expects an ir.IRBuilder, got str"):
        ProgramBuilder("ib")


def test_cpp_ir_builder_is_the_core_builder():
    import pypto.pypto_core.ir as core
    from pypto.ir.builder import CppIRBuilder
    assert CppIRBuilder is core.IRBuilder
    ib = CppIRBuilder()
    ib.begin_function("f")
    FunctionBuilder(ib).param("x", INDEX)
    assert [p.name_hint for p in ib.end_function().params] == ["x"]


def test_handles_take_pyptos_constructor_and_methods():
    for cls in (ForLoopBuilder, FunctionBuilder, IfStmtBuilder, ProgramBuilder, ScopeBuilder,
                WhileLoopBuilder):
        assert list(inspect.signature(cls).parameters) == ["builder"]
    assert str(inspect.signature(FunctionBuilder.param)) == (
        "(self, name: 'str', type: 'Type', span: 'Span | None' = None, "
        "direction: 'ParamDirection' = ParamDirection.In) -> 'Var'")
