"""Printer: constants, operators and precedence, calls (02-ir.md §12.5-§12.6)."""

from __future__ import annotations

import pytest

from pypto import ir
from pypto.ir import DataType as DT

from ._printer_helpers import BOOL, INDEX, T32, idx, index_list, op_call, scalar

a, b, c = scalar("a"), scalar("b"), scalar("c")
p, q = scalar("p", BOOL), scalar("q", BOOL)


def show(node: ir.Expr) -> str:
    text = ir.python_print(node)
    compile(text, "<expr>", "eval")  # every printed expression is a Python expression
    return text


# -- constants ---------------------------------------------------------------------

@pytest.mark.parametrize("node, text", [
    (idx(42), "42"),
    (idx(-7), "-7"),
    (idx(42, DT.INT64), "pl.const(42, pl.INT64)"),
    (idx(-1, DT.INT32), "pl.const(-1, pl.INT32)"),
    (idx(3, DT.UINT8), "pl.const(3, pl.UINT8)"),
    (ir.ConstFloat(1.5, DT.FP32), "1.5"),
    (ir.ConstFloat(0.1, DT.FP32), "0.10000000000000001"),
    (ir.ConstFloat(2.0, DT.FP32), "2.0"),
    (ir.ConstFloat(-3.0, DT.FP32), "-3.0"),
    (ir.ConstFloat(-0.0, DT.FP32), "-0.0"),
    (ir.ConstFloat(1e20, DT.FP32), "1e+20"),
    (ir.ConstFloat(1e-7, DT.FP32), "9.9999999999999995e-08"),
    (ir.ConstFloat(1.0, DT.FP16), "pl.const(1.0, pl.FP16)"),
    (ir.ConstFloat(-0.5, DT.BF16), "pl.const(-0.5, pl.BF16)"),
    (ir.ConstFloat(float("inf"), DT.FP32), "1e999"),
    (ir.ConstFloat(float("-inf"), DT.FP32), "-1e999"),
    (ir.ConstBool(True), "True"),
    (ir.ConstBool(False), "False"),
])
def test_constants(node, text):
    assert show(node) == text


def test_float_text_reparses_exactly():
    for value in (0.1, 1 / 3, 123456789.125, 5e-324, 1.7976931348623157e308):
        assert float(show(ir.ConstFloat(value, DT.FP32))) == value


def test_nan_prints_as_a_call():
    assert show(ir.ConstFloat(float("nan"), DT.FP32)) == 'float("nan")'


def test_all_constant_tree_prints_typed_leaves():
    # Bare `1 + 2` would be folded by the parser; typed leaves keep the Add node.
    assert show(ir.Add(idx(1), idx(2), INDEX)) == "pl.const(1, pl.INDEX) + pl.const(2, pl.INDEX)"
    nested = ir.Mul(ir.Sub(idx(8), idx(2, DT.INT64), DT.INT64), idx(3), DT.INT64)
    assert show(nested) == ("(pl.const(8, pl.INDEX) - pl.const(2, pl.INT64)) "
                            "* pl.const(3, pl.INDEX)")
    floats = ir.FloatDiv(ir.ConstFloat(1.0, DT.FP32), ir.ConstFloat(4.0, DT.FP32), DT.FP32)
    assert show(floats) == "pl.const(1.0, pl.FP32) / pl.const(4.0, pl.FP32)"
    assert show(ir.Neg(idx(3), INDEX)) == "-pl.const(3, pl.INDEX)"
    assert show(ir.Neg(idx(-3), INDEX)) == "-pl.const(-3, pl.INDEX)"


def test_constants_beside_a_variable_stay_bare():
    assert show(ir.Add(a, idx(1), INDEX)) == "a + 1"
    assert show(ir.Add(ir.Mul(a, idx(2), INDEX), idx(1), INDEX)) == "a * 2 + 1"
    assert show(ir.Add(a, idx(-3), INDEX)) == "a + -3"
    assert show(ir.Sub(a, idx(-3), INDEX)) == "a - -3"
    assert show(ir.Add(a, idx(1, DT.INT64), DT.INT64)) == "a + pl.const(1, pl.INT64)"
    # The constant operand of a call is its own tree: bare.
    assert show(ir.Add(ir.Cast(idx(3), INDEX), idx(1), INDEX)) == \
        "pl.cast(3, pl.INDEX) + 1"


# -- operators and precedence ------------------------------------------------------

@pytest.mark.parametrize("cls, symbol", [
    (ir.Add, "+"), (ir.Sub, "-"), (ir.Mul, "*"), (ir.FloorDiv, "//"), (ir.FloorMod, "%"),
    (ir.FloatDiv, "/"), (ir.Pow, "**"), (ir.BitAnd, "&"), (ir.BitOr, "|"), (ir.BitXor, "^"),
    (ir.BitShiftLeft, "<<"), (ir.BitShiftRight, ">>"), (ir.Eq, "=="), (ir.Ne, "!="),
    (ir.Lt, "<"), (ir.Le, "<="), (ir.Gt, ">"), (ir.Ge, ">="),
])
def test_infix_operators(cls, symbol):
    assert show(cls(a, b, INDEX)) == f"a {symbol} b"


def test_logical_and_unary_operators():
    assert show(ir.And(p, q, BOOL)) == "p and q"
    assert show(ir.Or(p, q, BOOL)) == "p or q"
    assert show(ir.Not(p, BOOL)) == "not p"
    assert show(ir.Neg(a, INDEX)) == "-a"
    assert show(ir.BitNot(a, INDEX)) == "~a"


def test_call_spelled_scalar_operators():
    assert show(ir.Min(a, b, INDEX)) == "pl.min(a, b)"
    assert show(ir.Max(a, idx(1, DT.INT64), DT.INT64)) == "pl.max(a, pl.const(1, pl.INT64))"
    assert show(ir.Cast(a, DT.INT32)) == "pl.cast(a, pl.INT32)"
    assert show(ir.Abs(ir.Neg(a, INDEX), INDEX)) == "abs(-a)"
    assert show(ir.Add(ir.Min(a, b, INDEX), c, INDEX)) == "pl.min(a, b) + c"
    assert show(ir.Min(ir.Add(a, b, INDEX), c, INDEX)) == "pl.min(a + b, c)"


def test_logical_xor_prints_as_a_call():
    # Logical Xor has no DSL spelling; a call keeps the text valid Python.
    assert show(ir.Xor(p, q, BOOL)) == "pl.xor(p, q)"


@pytest.mark.parametrize("node, text", [
    # lower-precedence children are wrapped, higher ones are not
    (ir.Add(a, ir.Mul(b, c, INDEX), INDEX), "a + b * c"),
    (ir.Mul(ir.Add(a, b, INDEX), c, INDEX), "(a + b) * c"),
    (ir.Mul(a, ir.Add(b, c, INDEX), INDEX), "a * (b + c)"),
    # equal precedence: the right child is wrapped
    (ir.Sub(ir.Sub(a, b, INDEX), c, INDEX), "a - b - c"),
    (ir.Sub(a, ir.Sub(b, c, INDEX), INDEX), "a - (b - c)"),
    (ir.Add(a, ir.Sub(b, c, INDEX), INDEX), "a + (b - c)"),
    (ir.FloorDiv(ir.Mul(a, b, INDEX), c, INDEX), "a * b // c"),
    (ir.FloorDiv(a, ir.Mul(b, c, INDEX), INDEX), "a // (b * c)"),
    # `**` is right-associative: its left child is wrapped instead
    (ir.Pow(ir.Pow(a, b, INDEX), c, INDEX), "(a ** b) ** c"),
    (ir.Pow(a, ir.Pow(b, c, INDEX), INDEX), "a ** b ** c"),
    # unary minus binds looser than `**`
    (ir.Neg(ir.Pow(a, b, INDEX), INDEX), "-a ** b"),
    (ir.Pow(ir.Neg(a, INDEX), b, INDEX), "(-a) ** b"),
    (ir.Pow(a, ir.Neg(b, INDEX), INDEX), "a ** (-b)"),
    (ir.Pow(idx(-2), a, INDEX), "(-2) ** a"),
    (ir.Neg(ir.Add(a, b, INDEX), INDEX), "-(a + b)"),
    (ir.Neg(ir.Neg(a, INDEX), INDEX), "--a"),
    (ir.BitNot(ir.BitAnd(a, b, INDEX), INDEX), "~(a & b)"),
    (ir.Mul(ir.Neg(a, INDEX), b, INDEX), "-a * b"),
    # bitwise levels: | < ^ < & < shifts < +
    (ir.BitOr(a, ir.BitXor(b, c, INDEX), INDEX), "a | b ^ c"),
    (ir.BitXor(ir.BitOr(a, b, INDEX), c, INDEX), "(a | b) ^ c"),
    (ir.BitAnd(ir.BitXor(a, b, INDEX), c, INDEX), "(a ^ b) & c"),
    (ir.BitAnd(a, ir.BitShiftLeft(b, c, INDEX), INDEX), "a & b << c"),
    (ir.BitShiftRight(ir.BitAnd(a, b, INDEX), c, INDEX), "(a & b) >> c"),
    (ir.BitShiftLeft(ir.Add(a, b, INDEX), c, INDEX), "a + b << c"),
    (ir.Add(ir.BitShiftLeft(a, b, INDEX), c, INDEX), "(a << b) + c"),
    # comparisons sit below `|`; both sides of a nested comparison are wrapped
    (ir.Lt(ir.BitOr(a, b, INDEX), c, BOOL), "a | b < c"),
    (ir.BitOr(ir.Lt(a, b, BOOL), p, BOOL), "(a < b) | p"),
    (ir.Eq(ir.Lt(a, b, BOOL), p, BOOL), "(a < b) == p"),
    (ir.Eq(p, ir.Lt(a, b, BOOL), BOOL), "p == (a < b)"),
    # not < comparisons; and < not; or < and
    (ir.Not(ir.Lt(a, b, BOOL), BOOL), "not a < b"),
    (ir.Not(ir.And(p, q, BOOL), BOOL), "not (p and q)"),
    (ir.And(ir.Not(p, BOOL), q, BOOL), "not p and q"),
    (ir.Eq(ir.Not(p, BOOL), q, BOOL), "(not p) == q"),
    (ir.Not(ir.Not(p, BOOL), BOOL), "not not p"),
    (ir.Or(p, ir.And(q, p, BOOL), BOOL), "p or q and p"),
    (ir.And(ir.Or(p, q, BOOL), p, BOOL), "(p or q) and p"),
    (ir.And(ir.And(p, q, BOOL), p, BOOL), "p and q and p"),
    (ir.And(p, ir.And(q, p, BOOL), BOOL), "p and (q and p)"),
    (ir.Or(ir.Xor(p, q, BOOL), p, BOOL), "pl.xor(p, q) or p"),
])
def test_precedence(node, text):
    assert show(node) == text


def test_printed_precedence_matches_python_evaluation():
    """Evaluate the printed text in Python and the IR tree by hand: same value."""
    values = {"a": 7, "b": 3, "c": 2}
    ops = {ir.Add: lambda x, y: x + y, ir.Sub: lambda x, y: x - y,
           ir.Mul: lambda x, y: x * y, ir.FloorDiv: lambda x, y: x // y,
           ir.Pow: lambda x, y: x ** y, ir.BitShiftLeft: lambda x, y: x << y,
           ir.BitAnd: lambda x, y: x & y, ir.BitOr: lambda x, y: x | y}

    def evaluate(node):
        if isinstance(node, ir.Var):
            return values[node.name_hint]
        if isinstance(node, ir.Neg):
            return -evaluate(node.operand)
        return ops[type(node)](evaluate(node.left), evaluate(node.right))

    shapes = []
    for outer in ops:
        for inner in ops:
            shapes.append(outer(inner(a, b, INDEX), c, INDEX))
            shapes.append(outer(a, inner(b, c, INDEX), INDEX))
            shapes.append(outer(ir.Neg(inner(a, b, INDEX), INDEX), c, INDEX))
    for node in shapes:
        assert eval(show(node), {}, dict(values)) == evaluate(node), show(node)


# -- calls, tuples -----------------------------------------------------------------

def test_op_call_with_kwargs_and_attrs():
    x = ir.Var("x", T32)
    load = op_call("tile.load", [x, index_list(0), index_list(32)],
                   kwargs={"target_memory": ir.Mem.Vec, "mode": "round", "scale": 0.5,
                           "flag": True, "dtype": DT.BF16, "n": 3},
                   attrs={"arg_directions": [ir.ArgDirection.Input, ir.ArgDirection.Output,
                                             ir.ArgDirection.InOut],
                          "dump_vars": [x], "note": {"k": 1}})
    assert show(load) == (
        "pl.tile.load(x, [0], [32], target_memory=pl.Mem.Vec, mode='round', scale=0.5, "
        "flag=True, dtype=pl.BF16, n=3, attrs={\"arg_directions\": [pl.adir.input, "
        "pl.adir.output, pl.adir.inout], \"dump_vars\": [x], \"note\": {\"k\": 1}})")


def test_every_enum_and_arg_direction_spelling():
    values = [ir.Level.POD, ir.Role.Orchestrator, ir.FunctionType.InCore, ir.Mem.Acc,
              ir.TensorLayout.ND, ir.TileLayout.row_major, ir.PadValue.zero, ir.PipeType.V,
              ir.AtomicType.Add, ir.CompactMode.normal, ir.SplitMode.UP_DOWN, ir.ScopeMode.MANUAL,
              ir.ArgDirection.OutputExisting, ir.ArgDirection.NoDep, ir.ArgDirection.Scalar]
    call = op_call("tensor.x", [], kwargs={f"k{i}": v for i, v in enumerate(values)})
    assert show(call) == (
        "pl.tensor.x(k0=pl.Level.CLUSTER_0, k1=pl.Role.Orchestrator, "
        "k2=pl.FunctionType.InCore, k3=pl.Mem.Acc, k4=pl.TensorLayout.ND, "
        "k5=pl.TileLayout.row_major, k6=pl.PadValue.zero, k7=pl.PipeType.V, "
        "k8=pl.AtomicType.Add, k9=pl.CompactMode.normal, k10=pl.SplitMode.UP_DOWN, "
        "k11=pl.ScopeMode.MANUAL, k12=pl.adir.output_existing, k13=pl.adir.no_dep, "
        "k14=pl.adir.scalar)")


def test_kwarg_strings_and_floats():
    call = op_call("tile.cast", [a], kwargs={"mode": "it's", "f": 0.1, "g": 1e-300,
                                             "h": float("inf"), "e": None, "t": (1, 2)})
    assert show(call) == ("pl.tile.cast(a, mode='it\\'s', f=0.1, g=1e-300, h=1e999, e=None, "
                          "t=[1, 2])")


def test_keyword_op_names_get_an_underscore():
    assert show(op_call("tile.and", [a, b])) == "pl.tile.and_(a, b)"
    assert show(op_call("tile.not", [a])) == "pl.tile.not_(a)"
    assert show(op_call("tensor.add", [a, b])) == "pl.tensor.add(a, b)"


def test_unprintable_kwarg_value_is_a_type_error_naming_the_key():
    with pytest.raises(TypeError, match="kwarg 'weird'.*object"):
        ir.python_print(op_call("tensor.x", [], kwargs={"weird": object()}))


def test_function_call_alone_and_with_attrs():
    call = ir.Call(ir.GlobalVar("kernel"), [a, b], {}, {"core_num": c, "sync_start": True},
                   ir.UnknownType())
    assert show(call) == 'kernel(a, b, attrs={"core_num": c, "sync_start": True})'


def test_tuples():
    pair = ir.MakeTuple([a, idx(1)])
    assert show(pair) == "[a, 1]"
    assert show(ir.MakeTuple([])) == "[]"
    assert show(ir.MakeTuple([pair, b])) == "[[a, 1], b]"
    assert show(ir.TupleGetItemExpr(pair, 1)) == "[a, 1][1]"
    t = ir.Var("t", ir.TupleType([T32, T32]))
    assert show(ir.TupleGetItemExpr(t, 0)) == "t[0]"
    call = ir.Call(ir.GlobalVar("f"), [], ir.TupleType([T32]))
    assert show(ir.TupleGetItemExpr(call, 0)) == "f()[0]"


def test_submit_forms():
    tid, t2 = scalar("tid", DT.TASK_ID), scalar("t2", DT.TASK_ID)
    result = ir.TupleType([T32, ir.ScalarType(DT.TASK_ID)])
    kernel = ir.GlobalVar("k")
    assert show(ir.Submit(kernel, [a, b], [tid], result)) == "pl.submit(k, a, b, deps=[tid])"
    assert show(ir.Submit(kernel, [a], [], result)) == "pl.submit(k, a)"
    full = ir.Submit(kernel, [a], [tid, t2], result, allow_early_resolve=True, predicate=p,
                     attrs={"dump_vars": [a]}, kwargs={"mode": 1})
    assert show(full) == ('pl.submit(k, a, mode=1, deps=[tid, t2], allow_early_resolve=True, '
                          'predicate=p, attrs={"dump_vars": [a]})')
    spmd = ir.Submit(kernel, [a], [tid], result, core_num=4, sync_start=True)
    assert show(spmd) == "pl.spmd_submit(k, a, core_num=4, sync_start=True, deps=[tid])"
    assert show(ir.Submit(kernel, [a], [], result, core_num=c)) == \
        "pl.spmd_submit(k, a, core_num=c)"


def test_prefix_replaces_pl_everywhere():
    node = ir.Add(ir.Cast(a, DT.INT64), idx(2, DT.INT64), DT.INT64)
    assert ir.python_print(node, prefix="lang") == \
        "lang.cast(a, lang.INT64) + lang.const(2, lang.INT64)"
