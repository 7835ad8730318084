"""``IRBuilder`` under PyPTO's method names."""

from __future__ import annotations

import pytest

from pypto import ir
from pypto.ir import builder

IDX = ir.DataType.INDEX
S = ir.ScalarType(IDX)


def c(value):
    return ir.ConstInt(value, IDX)


def test_pypto_names_build_the_same_function_as_the_frame_api():
    ib = ir.IRBuilder()
    with ib.function("f", None, ir.FunctionType.Opaque) as f:
        assert ib.in_function() and not ib.in_loop()
        n = f.param("n", S)
        f.return_type(S)
        ib.push_pending_leading_comments(["# start"])
        total = ib.var("total", S)
        ib.assign(total, c(0))
        with ib.for_loop("i", 0, n, 1) as loop:
            assert ib.in_loop() and not ib.in_if()
            acc = loop.iter_arg("acc", total)
            with ib.if_stmt(acc > 10) as branch:
                assert ib.in_if()
                ib.break_stmt()
            ib.eval_stmt(acc)
            ib.continue_stmt()
            rv = loop.return_var("rv")
        ib.inline_stmt("pass")
        ib.return_stmt(rv)
    func = f.result
    stmts = func.body.stmts
    assert [type(s).__name__ for s in stmts] == ["AssignStmt", "ForStmt", "InlineStmt",
                                                 "ReturnStmt"]
    assert stmts[0].leading_comments == ("# start",) and stmts[0].var is total
    assert isinstance(branch.result.then_body, ir.BreakStmt)
    assert stmts[3].value[0] is rv
    assert ib.pop_pending_leading_comments() == []


def test_types_views_tuples_and_function_attrs():
    ib = ir.IRBuilder()
    assert ib.tensor_type([4, 8], ir.FP32) == ir.TensorType([4, 8], ir.FP32)
    view = ib.tile_view([8, 8], [], None, pad=ir.PadValue.zero)
    tile = ib.tile_type([8, 8], ir.FP16, tile_view=view, memory_space=ir.Mem.Vec)
    assert tile.tile_view.pad is ir.PadValue.zero and tile.memory_space is ir.Mem.Vec
    assert ib.tensor_view([8, 1], ir.ND).layout is ir.ND
    assert ib.tile_view([8, 8], [], None, compact=ir.CompactMode.normal).compact is \
        ir.CompactMode.normal
    x = ib.var("x", S)
    assert ib.make_tuple([x, x]).elements == (x, x)
    with ib.program("P") as prog:
        with ib.function("g", attrs={"a": 1}):
            ib.add_function_attrs({"b": 2})
            ib.return_stmt()
    assert prog.result.get_function("g").attrs == {"a": 1, "b": 2}
    with pytest.raises(ValueError, match="no function is open"):
        ib.add_function_attrs({})


def test_scope_takes_pypto_fields_by_keyword():
    ib = ir.IRBuilder()
    with ib.function("f") as f:
        with ib.scope(ir.ScopeKind.Spmd, core_num=4, sync_start=True):
            ib.eval_stmt(c(1))
        with ib.while_loop(ir.ConstBool(False)):
            ib.break_stmt()
    spmd = f.result.body.stmts[0]
    assert isinstance(spmd, ir.SpmdScopeStmt) and spmd.core_num.value == 4 and spmd.sync_start


def test_builder_module_names():
    # IRBuilder's frames are PyPTO's handle classes, bound to themselves
    # (test_surface_builder_handles.py: the handles made from a builder alone)
    assert issubclass(builder.ForFrame, builder.ForLoopBuilder)
    assert issubclass(builder.ScopeFrame, builder.ScopeBuilder)
    assert issubclass(builder.FunctionFrame, builder.FunctionBuilder)
    assert issubclass(builder.ProgramFrame, builder.ProgramBuilder)
    assert issubclass(builder.IfFrame, builder.IfStmtBuilder)
    assert issubclass(builder.WhileFrame, builder.WhileLoopBuilder)
    assert builder.ForLoopBuilder.__module__ == "pypto.ir.builder"


def test_builder_results_outputs_and_pypto_parameter_orders():
    ib = ir.IRBuilder()
    with ib.program("p") as prog:
        later = prog.declare_function("helper")
        assert prog.get_global_var("helper") == later
        with pytest.raises(ValueError, match="has no function 'nothing'"):
            prog.get_global_var("nothing")
        with ib.function("main") as f:
            # PyPTO's order: (name, type, span, direction)
            n = f.param("n", S, ir.Span.unknown(), ir.ParamDirection.In)
            f.return_type(S)
            with pytest.raises(ValueError, match="the function is still open"):
                f.get_result()
            with ib.for_loop("i", 0, n, 1) as loop:
                acc = loop.iter_arg("acc", init_value=c(0))
                ib.emit(ir.YieldStmt([acc + 1]))
                loop.return_var("total")
            with pytest.raises(IndexError, match="no output 1"):
                loop.output(1)
            total = loop.output()
            assert loop.outputs() == [total] and isinstance(loop.get_result(), ir.ForStmt)
            with ib.while_loop(None) as w:
                k = w.iter_arg("k", total)
                w.set_condition(k < 100)
                ib.emit(ir.YieldStmt([k * 2]))
                w.return_var("big")
            assert w.get_result().condition is not None and w.output(0).name_hint == "big"
            ib.return_stmt(w.output())
        assert f.get_result().name == "main"
        with ib.function("helper") as h:
            ib.return_stmt(c(1))
        assert h.get_result().name == "helper"
    program = prog.get_result()
    assert {fn.name for fn in program.functions.values()} == {"main", "helper"}
    assert prog.get_global_var("helper").name == "helper"


def test_core_begin_end_methods_build_what_the_with_api_builds():
    def with_api():
        ib = ir.IRBuilder()
        with ib.program("p") as prog:
            with ib.function("main", None, ir.FunctionType.Opaque) as f:
                n = f.param("n", S)
                f.return_type(S)
                with ib.for_loop("i", 0, n, 1) as loop:
                    acc = loop.iter_arg("acc", c(0))
                    with ib.if_stmt(acc > 3) as branch:
                        ib.emit(ir.YieldStmt([acc]))
                        branch.else_()
                        ib.emit(ir.YieldStmt([acc + 1]))
                        picked = branch.return_var("picked", S)
                    ib.emit(ir.YieldStmt([picked]))
                    total = loop.return_var("total")
                with ib.while_loop(None) as w:
                    k = w.iter_arg("k", total)
                    w.set_condition(k < 100)
                    ib.emit(ir.YieldStmt([k * 2]))
                    big = w.return_var("big")
                ib.return_stmt(big)
        return prog.result

    def core_api():
        ib = ir.IRBuilder()
        ib.begin_program("p", ir.Span.unknown())
        assert ib.in_program()
        gvar = ib.declare_function("main")
        ib.begin_function("main", ir.Span.unknown())
        n = ib.func_arg("n", S, ir.Span.unknown())
        ib.return_type(S)
        assert ib.get_function_return_types(gvar) == [S]
        i = ir.Var("i", S)
        ib.begin_for_loop(i, c(0), n, c(1), ir.Span.unknown())
        acc = ir.IterArg("acc", S, c(0))
        ib.add_iter_arg(acc)
        ib.begin_if(acc > 3, ir.Span.unknown())
        ib.emit(ir.YieldStmt([acc]))
        ib.begin_else(ir.Span.unknown())
        ib.emit(ir.YieldStmt([acc + 1]))
        picked = ir.Var("picked", S)
        ib.add_if_return_var(picked)
        ib.end_if(ir.Span.unknown())
        ib.emit(ir.YieldStmt([picked]))
        total = ir.Var("total", S)
        ib.add_return_var(total)
        ib.end_for_loop(ir.Span.unknown())
        ib.begin_while_loop(None, ir.Span.unknown())
        k = ir.IterArg("k", S, total)
        ib.add_while_iter_arg(k)
        ib.set_while_loop_condition(k < 100)
        ib.emit(ir.YieldStmt([k * 2]))
        big = ir.Var("big", S)
        ib.add_while_return_var(big)
        ib.end_while_loop(ir.Span.unknown())
        ib.return_([big], ir.Span.unknown())
        func = ib.end_function(ir.Span.unknown())
        assert ib.get_function_return_types("main") == [S] and func.name == "main"
        return ib.end_program(ir.Span.unknown())

    ir.assert_structural_equal(core_api(), with_api(), enable_auto_mapping=True)


def test_core_methods_refuse_mismatched_ends():
    ib = ir.IRBuilder()
    ib.begin_function("f", ir.Span.unknown())
    ib.begin_if(ir.ConstBool(True), ir.Span.unknown())
    with pytest.raises(ValueError, match="end_for_loop: the innermost open construct is if"):
        ib.end_for_loop(ir.Span.unknown())
    with pytest.raises(ValueError, match="no open for loop"):
        ib.add_iter_arg(ir.IterArg("a", S, c(0)))
    with pytest.raises(TypeError, match="expected an IterArg, got Var"):
        ib.begin_for_loop("i", 0, 4, 1)
        ib.add_iter_arg(ir.Var("a", S))
    with pytest.raises(ValueError, match="no open program"):
        ib.declare_function("g")
