"""Printer: variable naming (02-ir.md §12.4)."""

from __future__ import annotations

import pytest

from pypto import ir
from pypto.ir import DataType as DT

from ._printer_helpers import INDEX, T32, assert_valid_python, dedent, idx, scalar


def show(node, **options) -> str:
    text = ir.python_print(node, **options)
    assert_valid_python(text)
    return text


def body_lines(func: ir.Function) -> list[str]:
    return [line.strip() for line in show(func, concise=True).splitlines()[2:]]


def test_unique_names_print_unchanged():
    x, t = scalar("x"), scalar("acc__iter_v0")
    func = ir.Function("f", [x], [], [ir.AssignStmt(t, x), ir.EvalStmt(t)])
    assert body_lines(func) == ["acc__iter_v0 = x", "acc__iter_v0"]


def test_colliding_names_get_suffixes_skipping_reserved_names():
    param = scalar("x")
    second, third = scalar("x"), scalar("x")
    unique = scalar("x_1")  # held once: kept and reserved, so the collisions skip it
    func = ir.Function("f", [param], [], [
        ir.AssignStmt(second, param), ir.AssignStmt(unique, second),
        ir.AssignStmt(third, unique), ir.EvalStmt(third)])
    assert body_lines(func) == ["x_2 = x", "x_1 = x_2", "x_3 = x_1", "x_3"]


def test_one_var_assigned_twice_keeps_one_name():
    x, acc = scalar("x"), scalar("acc")
    func = ir.Function("f", [x], [], [ir.AssignStmt(acc, x), ir.AssignStmt(acc, acc)])
    assert body_lines(func) == ["acc = x", "acc = acc"]


def test_collection_order_for_loops_puts_return_vars_before_iter_args():
    # Spec order: loop var, return vars, iter_args and their inits, then the body.
    i = scalar("v")
    it = ir.IterArg("v", ir.ScalarType(INDEX), idx(0))
    rv = scalar("v")
    inner = scalar("v")
    body = ir.SeqStmts([ir.AssignStmt(inner, ir.Add(it, i, INDEX)), ir.YieldStmt([inner])])
    loop = ir.ForStmt(i, 0, 4, 1, [it], body, [rv])
    func = ir.Function("f", [], [], [loop, ir.EvalStmt(rv)])
    assert body_lines(func) == ["for v, (v_2,) in pl.range(4, init_values=(0,)):",
                                "v_3 = v_2 + v", "v_1 = pl.yield_(v_3)", "v_1"]


def test_collection_order_for_while_and_if():
    c = scalar("c", DT.BOOL)
    it = ir.IterArg("w", ir.ScalarType(INDEX), idx(0))
    rv = scalar("w")
    loop = ir.WhileStmt(ir.Lt(it, idx(3), DT.BOOL), [it], ir.YieldStmt([it]), [rv])
    r_if = scalar("w")
    branch = ir.IfStmt(c, ir.YieldStmt([rv]), ir.YieldStmt([idx(0)]), [r_if])
    func = ir.Function("f", [c], [], [loop, branch, ir.EvalStmt(r_if)])
    assert body_lines(func) == [
        "for (w_1,) in pl.while_(init_values=(0,)):", "pl.cond(w_1 < 3)", "w = pl.yield_(w_1)",
        "if c:", "w_2 = pl.yield_(w)", "else:", "w_2 = pl.yield_(0)", "w_2"]


def test_free_vars_get_a_suffix_dynamic_dims_do_not():
    m = scalar("M")
    x = ir.Var("x", ir.TensorType([m], DT.FP32))
    free, free_twin = scalar("z"), scalar("z")
    func = ir.Function("f", [x], [], [
        ir.EvalStmt(ir.Add(free, free_twin, INDEX)), ir.EvalStmt(m)])
    assert body_lines(func) == ["z__FREE_VAR + z_1__FREE_VAR", "M"]


def test_lone_statements_use_plain_deduplicated_names():
    free, twin = scalar("z"), scalar("z")
    stmt = ir.EvalStmt(ir.Add(free, twin, INDEX))
    assert show(stmt) == "z + z_1"
    assert show(ir.Add(free, twin, INDEX)) == "z + z_1"
    assert show(ir.Add(free, free, INDEX)) == "z + z"


@pytest.mark.parametrize("hint, printed", [
    ("lambda", "_lambda"), ("pl", "_pl"), ("self", "_self"), ("abs", "_abs"),
    ("a-b", "a_b"), ("1st", "_1st"), ("", "_v"), ("x.y", "x_y"), ("True", "_True"),
    ("ok_name", "ok_name"), ("ﬁle", "file"),
])
def test_names_are_sanitised_to_identifiers(hint, printed):
    var = scalar(hint)
    func = ir.Function("f", [var], [], ir.EvalStmt(var))
    assert body_lines(func) == [printed]


def test_sanitised_names_follow_the_prefix():
    var = scalar("pl")
    func = ir.Function("f", [var], [], ir.EvalStmt(var))
    assert show(func, prefix="L").splitlines()[-1] == "    pl"
    lang = scalar("L")
    assert show(ir.Function("g", [lang], [], ir.EvalStmt(lang)), prefix="L").splitlines()[-1] \
        == "    _L"


def test_sanitised_name_collides_like_any_other():
    a, b = scalar("a-b"), scalar("a_b")
    func = ir.Function("f", [a, b], [], ir.EvalStmt(ir.Add(a, b, INDEX)))
    assert body_lines(func) == ["a_b + a_b_1"]


def test_dynamic_dims_are_named_once_per_program_and_reserved():
    m1, m2 = scalar("M"), scalar("M")
    local_m = scalar("M")
    f = ir.Function("f", [ir.Var("x", ir.TensorType([m1], DT.FP32))], [],
                    [ir.AssignStmt(local_m, m1), ir.EvalStmt(local_m)])
    g = ir.Function("g", [ir.Var("y", ir.TensorType([m2, m1], DT.FP32))], [],
                    ir.EvalStmt(m2))
    assert show(ir.Program([f, g], "P")) == dedent("""
        # pypto.program: P
        import pypto.language as pl

        M = pl.dynamic("M")
        M_1 = pl.dynamic("M_1")

        @pl.program
        class P:
            @pl.function
            def f(self, x: pl.Tensor[[M], pl.FP32]):
                M_2: pl.Scalar[pl.INDEX] = M
                M_2
            @pl.function
            def g(self, y: pl.Tensor[[M_1, M], pl.FP32]):
                M_1
    """)


def test_function_and_program_names_are_sanitised():
    f = ir.Function("my-kernel", [], [], ir.SeqStmts([]))
    caller = ir.Function("main", [], [], ir.EvalStmt(ir.Call(ir.GlobalVar("my-kernel"), [],
                                                             ir.UnknownType())))
    text = show(ir.Program([f, caller], "class"))
    assert "class _class:" in text
    assert "def my_kernel(self):" in text
    assert "self.my_kernel()" in text


def test_tensor_param_named_like_a_var_in_another_function_is_independent():
    a1, a2 = ir.Var("a", T32), ir.Var("a", T32)
    f = ir.Function("f", [a1], [], ir.EvalStmt(a1))
    g = ir.Function("g", [a2], [], ir.EvalStmt(a2))
    text = show(ir.Program([f, g], "P"))
    assert text.count("(self, a: pl.Tensor[[32], pl.FP32]):") == 2
