"""Printer API: entry points, options, format callback, errors, determinism (02-ir.md §12.1)."""

from __future__ import annotations

import time

import pytest

from pypto import ir
from pypto.ir import DataType as DT

from ._printer_helpers import INDEX, T64, dedent, idx, op_call, scalar


@pytest.fixture(autouse=True)
def no_format_callback():
    ir.register_format_callback(None)
    yield
    ir.register_format_callback(None)


def small_function() -> ir.Function:
    x, y = ir.Var("x", T64), ir.Var("y", T64)
    return ir.Function("f", [x], [T64], [
        ir.AssignStmt(y, op_call("tensor.exp", [x], T64)), ir.ReturnStmt([y])])


SMALL_TEXT = dedent("""
    @pl.function
    def f(x: pl.Tensor[[64, 128], pl.FP32]) -> pl.Tensor[[64, 128], pl.FP32]:
        y: pl.Tensor[[64, 128], pl.FP32] = pl.tensor.exp(x)
        return y
""")


def test_accepts_every_node_category():
    func = small_function()
    assert ir.python_print(func) == SMALL_TEXT
    assert ir.python_print(func.body) == dedent("""
        y: pl.Tensor[[64, 128], pl.FP32] = pl.tensor.exp(x)
        return y
    """)
    assert ir.python_print(func.body[0].value) == "pl.tensor.exp(x)"
    assert ir.python_print(T64) == "pl.Tensor[[64, 128], pl.FP32]"
    assert ir.python_print(ir.Program([func], "P")).startswith("# pypto.program: P\n")


def test_str_as_python_and_repr_use_the_printer():
    func = small_function()
    assert str(func) == SMALL_TEXT
    assert func.as_python() == SMALL_TEXT
    assert func.as_python(prefix="L", concise=True) == dedent("""
        @L.function
        def f(x: L.Tensor[[64, 128], L.FP32]) -> L.Tensor[[64, 128], L.FP32]:
            y = L.tensor.exp(x)
            return y
    """)
    expr = ir.Add(scalar("a"), idx(1), INDEX)
    assert repr(expr) == "a + 1"
    assert str(expr) == "a + 1"


def test_rejects_non_ir_values_and_bad_prefixes():
    with pytest.raises(TypeError, match="python_print expects a Program, Function, Stmt, "
                                        "Expr, Type or MemRef, got int"):
        ir.python_print(42)
    with pytest.raises(ValueError, match="prefix must be a Python identifier, got 'a.b'"):
        ir.python_print(T64, prefix="a.b")


def test_format_callback_runs_only_with_format_true():
    seen = []

    def upper(text: str) -> str:
        seen.append(text)
        return text.upper()

    ir.register_format_callback(upper)
    assert ir.python_print(T64) == "PL.TENSOR[[64, 128], PL.FP32]"
    assert ir.python_print(T64, format=False) == "pl.Tensor[[64, 128], pl.FP32]"
    assert seen == ["pl.Tensor[[64, 128], pl.FP32]"]
    ir.register_format_callback(None)
    assert ir.python_print(T64) == "pl.Tensor[[64, 128], pl.FP32]"


def test_format_callback_validation():
    with pytest.raises(TypeError, match="expects a callable or None, got str"):
        ir.register_format_callback("ruff")
    ir.register_format_callback(lambda text: None)
    with pytest.raises(TypeError, match="format callback returned NoneType, expected str"):
        ir.python_print(T64)


def test_raw_text_has_no_trailing_newline_and_no_blank_line_between_functions():
    program = ir.Program([small_function(), small_function().replace(name="g")], "P")
    text = ir.python_print(program, format=False)
    assert not text.endswith("\n")
    body = text.split("class P:\n", 1)[1]
    assert "\n\n" not in body
    assert all(line == line.rstrip() for line in text.splitlines())


def test_printing_is_deterministic():
    program = ir.Program([small_function()], "P")
    assert ir.python_print(program) == ir.python_print(program)
    # Fresh but identical IR prints identically (names never depend on object ids).
    assert ir.python_print(ir.Program([small_function()], "P")) == ir.python_print(program)


def test_print_time_is_linear_in_ir_size():
    def chain(length: int) -> ir.Function:
        x = ir.Var("x", T64)
        prev, stmts = x, []
        for _ in range(length):
            var = ir.Var("t", ir.TensorType([64, 128], DT.FP32))
            stmts.append(ir.AssignStmt(var, op_call("tensor.add", [prev, x], T64)))
            prev = var
        return ir.Function("big", [x], [T64], stmts + [ir.ReturnStmt([prev])])

    def best_time(func: ir.Function) -> float:
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            ir.python_print(func)
            best = min(best, time.perf_counter() - start)
        return best

    small, large = chain(1000), chain(8000)
    text = ir.python_print(large)
    assert text.splitlines()[-2].endswith("t_7999: pl.Tensor[[64, 128], pl.FP32] = "
                                          "pl.tensor.add(t_7998, x)")
    # 8x the statements (all sharing one name, the worst case for naming) must not cost
    # anywhere near 64x: allow 8x plus generous noise.
    assert best_time(large) < 20 * best_time(small)


def test_ops_print_by_name():
    assert ir.python_print(ir.Op("tile.and")) == "pl.tile.and_"
    assert ir.python_print(ir.GlobalVar("kernel")) == "kernel"
