"""Printer: functions and programs (02-ir.md §12.2-§12.3, §12.9)."""

from __future__ import annotations

import pytest

from pypto import ir
import pypto.language as pl
from pypto.ir import DataType as DT

from ._printer_helpers import (INDEX, T32, assert_valid_python, dedent, idx, index_list,
                               op_call, scalar)

FT, Level, Role = ir.FunctionType, ir.Level, ir.Role


def show(node, **options) -> str:
    text = ir.python_print(node, **options)
    assert_valid_python(text)
    return text


def empty(name: str, **kwargs) -> ir.Function:
    return ir.Function(name, [], [], ir.SeqStmts([]), **kwargs)


def first_line(func: ir.Function) -> str:
    return show(func).splitlines()[0]


# -- decorator ---------------------------------------------------------------------

@pytest.mark.parametrize("kwargs, decorator", [
    ({}, "@pl.function"),
    ({"type": FT.Orchestration},
     "@pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, "
     "role=pl.Role.Orchestrator)"),
    ({"type": FT.Graph},
     "@pl.function(type=pl.FunctionType.Graph, level=pl.Level.CHIP, role=pl.Role.Orchestrator)"),
    ({"type": FT.InCore},
     "@pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, "
     "role=pl.Role.SubWorker)"),
    ({"type": FT.AIC},
     "@pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)"),
    ({"type": FT.AIV},
     "@pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)"),
    ({"type": FT.Group},
     "@pl.function(type=pl.FunctionType.Group, level=pl.Level.CORE_GROUP, "
     "role=pl.Role.SubWorker)"),
    ({"type": FT.Spmd}, "@pl.function(type=pl.FunctionType.Spmd)"),
    ({"type": FT.Inline}, "@pl.function(type=pl.FunctionType.Inline)"),
    ({"level": Level.NODE}, "@pl.function(level=pl.Level.HOST)"),
    ({"level": Level.HOST, "role": Role.SubWorker},
     "@pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)"),
    ({"type": FT.Orchestration, "attrs": {"auto_scope": False}},
     "@pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, "
     "role=pl.Role.Orchestrator, auto_scope=False)"),
])
def test_decorator_keywords(kwargs, decorator):
    assert first_line(empty("f", **kwargs)) == decorator


def test_function_attrs_go_to_func_attr():
    func = empty("f", type=FT.InCore, attrs={"auto_scope": False, "split": ir.SplitMode.UP_DOWN,
                                              "slot_num": 2, "tag": "x"})
    assert show(func) == dedent("""
        @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker, auto_scope=False)
        def f():
            pl.func_attr({"split": pl.SplitMode.UP_DOWN, "slot_num": 2, "tag": 'x'})
            pass
    """)


def test_split_none_is_omitted_and_int_split_is_spelled():
    assert show(empty("f", attrs={"split": ir.SplitMode.NONE})) == "@pl.function\ndef f():\n    pass"
    assert show(empty("f", attrs={"split": 2})).splitlines()[2] == \
        '    pl.func_attr({"split": pl.SplitMode.LEFT_RIGHT})'


def test_auto_scope_other_than_false_goes_to_func_attr():
    assert show(empty("f", attrs={"auto_scope": True})).splitlines()[2] == \
        '    pl.func_attr({"auto_scope": True})'


# -- signature and body ------------------------------------------------------------

def test_parameter_directions_and_return_annotations():
    a, b, c = ir.Var("a", T32), ir.Var("b", T32), ir.Var("c", T32)
    n = scalar("n", DT.INT64)
    func = ir.Function("f", [a, (b, ir.ParamDirection.Out), (c, ir.ParamDirection.InOut), n],
                       [T32, ir.ScalarType(INDEX)], ir.ReturnStmt([b, idx(0)]))
    assert show(func).splitlines()[1] == (
        "def f(a: pl.Tensor[[32], pl.FP32], b: pl.Out[pl.Tensor[[32], pl.FP32]], "
        "c: pl.InOut[pl.Tensor[[32], pl.FP32]], n: pl.Scalar[pl.INT64]) -> "
        "tuple[pl.Tensor[[32], pl.FP32], pl.Scalar[pl.INDEX]]:")
    one = ir.Function("g", [a], [ir.TupleType([T32, T32])], ir.ReturnStmt([a]))
    assert show(one).splitlines()[1] == \
        "def g(a: pl.Tensor[[32], pl.FP32]) -> pl.Tuple[pl.Tensor[[32], pl.FP32], " \
        "pl.Tensor[[32], pl.FP32]]:"


def test_signature_keeps_types_in_concise_mode():
    a, t = ir.Var("a", T32), ir.Var("t", T32)
    func = ir.Function("f", [a], [T32], [ir.AssignStmt(t, a), ir.ReturnStmt([t])])
    assert show(func, concise=True) == dedent("""
        @pl.function
        def f(a: pl.Tensor[[32], pl.FP32]) -> pl.Tensor[[32], pl.FP32]:
            t = a
            return t
    """)


def test_runtime_bound_function_prints_ellipsis():
    func = ir.Function("worker", [], [], ir.SeqStmts([]), level=Level.HOST, role=Role.SubWorker,
                       requires_runtime_binding=True)
    assert show(func) == dedent("""
        @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)
        def worker():
            ...
    """)


def test_host_subworker_inline_body():
    func = ir.Function("worker", [], [], ir.InlineStmt("import os\nprint(os.getpid())"),
                       level=Level.HOST, role=Role.SubWorker)
    assert show(func) == dedent("""
        @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)
        def worker():
            import os
            print(os.getpid())
    """)


def test_top_level_yield_prints_as_return():
    n = scalar("n")
    func = ir.Function("f", [n], [ir.ScalarType(INDEX)], ir.YieldStmt([n]))
    assert show(func).splitlines()[-1] == "    return n"
    loop = ir.ForStmt(scalar("i"), 0, 2, 1, [], ir.YieldStmt([]), [])
    func = ir.Function("g", [n], [], loop)
    assert show(func).splitlines()[-1] == "        pl.yield_()"


def test_lone_function_calls_without_self():
    a = ir.Var("a", T32)
    call = ir.Call(ir.GlobalVar("kernel"), [a], T32)
    func = ir.Function("f", [a], [], ir.EvalStmt(call), type=FT.Orchestration)
    assert show(func).splitlines()[1:] == [
        "def f(a: pl.Tensor[[32], pl.FP32]):", "    kernel(a)"]


# -- programs ----------------------------------------------------------------------

def axpy_program() -> ir.Program:
    """The program of the spec's printed example (02-ir.md §12.9)."""
    x, y = ir.Var("x", T32), ir.Var("y", T32)
    tile_type = ir.TileType([32], DT.FP32, memory_space=ir.Mem.Vec)
    t, u, stored = ir.Var("t", tile_type), ir.Var("u", tile_type), ir.Var("y__store", T32)
    kernel = ir.Function("axpy_incore_0", [x, (y, ir.ParamDirection.Out)], [T32], [
        ir.AssignStmt(t, op_call("tile.load", [x, index_list(0), index_list(32)], tile_type,
                                 kwargs={"target_memory": ir.Mem.Vec})),
        ir.AssignStmt(u, op_call("tile.muls", [t, ir.ConstFloat(3.0, DT.FP32)], tile_type)),
        ir.AssignStmt(stored, op_call("tile.store", [u, index_list(0), y], T32)),
        ir.ReturnStmt([y]),
    ], type=FT.InCore)
    x2, y2, y_out = ir.Var("x", T32), ir.Var("y", T32), ir.Var("y", T32)
    orch = ir.Function("axpy", [x2, (y2, ir.ParamDirection.Out)], [T32], [
        ir.AssignStmt(y_out, ir.Call(ir.GlobalVar("axpy_incore_0"), [x2, y2], T32)),
        ir.ReturnStmt([y_out]),
    ], type=FT.Orchestration)
    return ir.Program([orch, kernel], "Axpy")


AXPY_TEXT = dedent("""
    # pypto.program: Axpy
    import pypto.language as pl

    @pl.program
    class Axpy:
        @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
        def axpy_incore_0(x: pl.Tensor[[32], pl.FP32], y: pl.Out[pl.Tensor[[32], pl.FP32]]) -> pl.Tensor[[32], pl.FP32]:
            t: pl.Tile[[32], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0], [32], target_memory=pl.Mem.Vec)
            u: pl.Tile[[32], pl.FP32, pl.Mem.Vec] = pl.tile.muls(t, 3.0)
            y__store: pl.Tensor[[32], pl.FP32] = pl.tile.store(u, [0], y)
            return y
        @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
        def axpy(self, x: pl.Tensor[[32], pl.FP32], y: pl.Out[pl.Tensor[[32], pl.FP32]]) -> pl.Tensor[[32], pl.FP32]:
            y_1: pl.Tensor[[32], pl.FP32] = self.axpy_incore_0(x, y)
            return y_1
""")


def test_spec_example_program():
    program = axpy_program()
    assert show(program) == AXPY_TEXT
    assert str(program) == AXPY_TEXT
    assert not AXPY_TEXT.endswith("\n")


def test_program_prefix_changes_the_import():
    text = show(axpy_program(), prefix="L")
    assert text.splitlines()[:5] == ["# pypto.program: Axpy", "from pypto import language as L",
                                     "", "@L.program", "class Axpy:"]
    assert "pl." not in text


def test_unnamed_and_empty_programs():
    assert show(ir.Program([empty("main")])).splitlines()[0] == "# pypto.program: Program"
    assert show(ir.Program([], "Nothing")).splitlines()[-2:] == ["class Nothing:", "    pass"]


def test_self_only_for_non_subworker_roles():
    program = ir.Program([empty(name, **kwargs) for name, kwargs in [
        ("a_opaque", {}), ("b_orch", {"type": FT.Orchestration}), ("c_incore", {"type": FT.InCore}),
        ("d_group", {"type": FT.Group}), ("e_spmd", {"type": FT.Spmd}),
        ("f_host_worker", {"level": Level.HOST, "role": Role.SubWorker}),
        ("g_host", {"level": Level.HOST, "role": Role.Orchestrator}),
    ]], "P")
    defs = [line.strip() for line in show(program).splitlines() if line.strip().startswith("def")]
    assert defs == ["def a_opaque(self):", "def b_orch(self):", "def c_incore():",
                    "def d_group():", "def e_spmd(self):", "def f_host_worker():",
                    "def g_host(self):"]


def calling(name: str, *callees: str, submit: str | None = None) -> ir.Function:
    stmts: list[ir.Stmt] = [ir.EvalStmt(ir.Call(ir.GlobalVar(c), [], ir.UnknownType()))
                            for c in callees]
    if submit is not None:
        result = ir.TupleType([ir.ScalarType(DT.TASK_ID)])
        stmts.append(ir.AssignStmt(ir.Var("r", result),
                                   ir.Submit(ir.GlobalVar(submit), [], [], result)))
    return ir.Function(name, [], [], ir.SeqStmts.flatten(stmts))


def def_order(program: ir.Program) -> list[str]:
    return [line.split("(")[0].split()[1] for line in show(program).splitlines()
            if line.startswith("    def ")]


def test_functions_print_callees_first_roots_in_name_order():
    program = ir.Program([calling("main", "zeta", "alpha"), calling("zeta", "mid"),
                          calling("mid"), calling("alpha", "mid"), calling("beta"),
                          calling("aa_root", "beta", submit="omega"), calling("omega")], "P")
    assert def_order(program) == ["beta", "omega", "aa_root", "mid", "alpha", "zeta", "main"]


def test_call_cycle_falls_back_to_name_order():
    program = ir.Program([calling("main", "b"), calling("b", "a"), calling("a", "b")], "P")
    assert def_order(program) == ["a", "b", "main"]
    self_call = ir.Program([calling("z"), calling("main", "z", "main")], "P")
    assert def_order(self_call) == ["main", "z"]


def test_calls_to_functions_outside_the_program_do_not_affect_order():
    program = ir.Program([calling("b"), calling("a", "external")], "P")
    assert def_order(program) == ["a", "b"]
    assert "self.external()" in show(program)


def test_dynamic_dims_header():
    m, n = scalar("M"), scalar("N")
    t = ir.TensorType([m, ir.Mul(n, idx(2), INDEX)], DT.FP32)
    x = ir.Var("x", t)
    k = scalar("K")  # a parameter used as a dim is not a dynamic dim
    y = ir.Var("y", ir.TensorType([k], DT.FP32))
    func = ir.Function("main", [x, k, y], [t], ir.ReturnStmt([x]))
    assert show(ir.Program([func], "Dyn")) == dedent("""
        # pypto.program: Dyn
        import pypto.language as pl

        M = pl.dynamic("M")
        N = pl.dynamic("N")

        @pl.program
        class Dyn:
            @pl.function
            def main(self, x: pl.Tensor[[M, N * pl.const(2, pl.INDEX)], pl.FP32], K: pl.Scalar[pl.INDEX], y: pl.Tensor[[K], pl.FP32]) -> pl.Tensor[[M, N * pl.const(2, pl.INDEX)], pl.FP32]:
                return x
    """)


@pytest.mark.parametrize("value, text", [
    # dim arithmetic is inert in Python, so its constants print bare, as PyPTO prints them
    (lambda m: ir.Add(m, idx(1), INDEX), "M + 1"),
    (lambda m: ir.Sub(m, idx(8), INDEX), "M - 8"),
    (lambda m: ir.FloorDiv(ir.Mul(idx(2), m, INDEX), idx(4), INDEX), "2 * M // 4"),
    (lambda m: ir.FloorMod(m, idx(-3), INDEX), "M % -3"),
    # a constant-only part folds in Python: typed
    (lambda m: ir.Sub(m, ir.Add(idx(2), idx(3), INDEX), INDEX),
     "M - (pl.const(2, pl.INDEX) + pl.const(3, pl.INDEX))"),
    # Python answers these over a dim by itself (`M == 8` is False): typed
    (lambda m: ir.Eq(m, idx(8), DT.BOOL), "M == pl.const(8, pl.INDEX)"),
    (lambda m: ir.Lt(ir.Sub(m, idx(1), INDEX), idx(8), DT.BOOL),
     "M - pl.const(1, pl.INDEX) < pl.const(8, pl.INDEX)"),
    (lambda m: ir.Neg(ir.Sub(m, idx(1), INDEX), INDEX), "-(M - pl.const(1, pl.INDEX))"),
])
def test_dynamic_dims_in_expressions_print_as_pypto_does(value, text):
    m = scalar("M")
    x = ir.Var("x", ir.TensorType([m], DT.FP32))
    expr = value(m)
    s = ir.Var("s", expr.type)
    body = [ir.AssignStmt(s, expr), ir.ReturnStmt([x])]
    program = ir.Program([ir.Function("main", [x], [x.type], body)], "Dyn")
    printed = show(program)
    assert f" = {text}\n" in printed + "\n"
    back = pl.parse(printed)
    ir.assert_structural_equal(program, back)
    assert show(back) == printed
