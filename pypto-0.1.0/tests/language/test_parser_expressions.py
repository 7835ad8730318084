"""Expressions (01-language.md §7): literals, operators, tuples, subscripts, attributes."""

from __future__ import annotations

import pytest

import pypto.language as pl
from pypto import ir
from pypto.language.parser.diagnostics import (InvalidOperationError, ParserSyntaxError,
                                               ParserTypeError, UndefinedVariableError,
                                               UnsupportedFeatureError)

from _parser_helpers import (BOOL, FP32, INDEX, INT32, SPAN, expect_error, expect_text_error,
                             scalar, stmts, tensor)

S = ir.ScalarType(INDEX)


# -- expressions ------------------------------------------------------------------------------

def test_literals():
    @pl.function
    def f(x: pl.Tensor[[4], pl.FP32]):
        a = 3
        b = 2.5
        c = True
        d = -7
        e = -1.5
        return

    a, b, c, d, e = [s.value for s in stmts(f)[:5]]
    assert (type(a), a.dtype, a.value) == (ir.ConstInt, INDEX, 3)
    assert (type(b), b.dtype, b.value) == (ir.ConstFloat, FP32, 2.5)
    assert (type(c), c.value) == (ir.ConstBool, True)
    assert (type(d), d.dtype, d.value) == (ir.ConstInt, INDEX, -7)
    assert (type(e), e.dtype, e.value) == (ir.ConstFloat, FP32, -1.5)


def test_none_is_the_task_id_sentinel():
    @pl.function
    def f(x: pl.Tensor[[4], pl.FP32]):
        t = None
        return

    value = stmts(f)[0].value
    assert isinstance(value, ir.Call) and value.op.name == "system.task_invalid"
    assert value.type == scalar(ir.DataType.TASK_ID)


@pytest.mark.parametrize("op, node_class", [
    ("+", ir.Add), ("-", ir.Sub), ("*", ir.Mul), ("/", ir.FloatDiv), ("//", ir.FloorDiv),
    ("%", ir.FloorMod), ("<<", ir.BitShiftLeft), (">>", ir.BitShiftRight), ("**", ir.Pow),
    ("&", ir.BitAnd), ("|", ir.BitOr), ("^", ir.BitXor),
    ("==", ir.Eq), ("!=", ir.Ne), ("<", ir.Lt), ("<=", ir.Le), (">", ir.Gt), (">=", ir.Ge),
])
def test_scalar_binary_operators(op, node_class):
    f = pl.parse(f"""\
import pypto.language as pl
@pl.function
def f(a: pl.Scalar[pl.INT32], b: pl.Scalar[pl.INT32]):
    c = a {op} b
    return
""")
    value = stmts(f)[0].value
    assert type(value) is node_class
    if op == "/":  # true division of integers computes in floating point
        ir.assert_structural_equal(value, ir.truediv(*f.params))
    else:
        assert value.left is f.params[0] and value.right is f.params[1]
    if node_class in (ir.Eq, ir.Ne, ir.Lt, ir.Le, ir.Gt, ir.Ge):
        assert value.type == scalar(BOOL)


def test_scalar_promotion_uses_builders():
    @pl.function
    def f(a: pl.Scalar[pl.INT32], b: pl.Scalar[pl.INT64]):
        c = a + b
        return

    a, b = f.params
    ir.assert_structural_equal(stmts(f)[0].value, ir.add(a, b))
    assert stmts(f)[0].var.type == scalar(ir.DataType.INT64)


def test_mixing_int_and_float_scalars_is_a_type_error():
    with expect_error(ParserTypeError, "Operator Add", "mix", "a +"):
        @pl.function
        def f(a: pl.Scalar[pl.INT32], b: pl.Scalar[pl.FP32]):
            c = a + b  # @mix
            return


@pytest.mark.parametrize("op, name", [("+", "add"), ("-", "sub"), ("*", "mul"), ("/", "div")])
def test_tensor_operators_dispatch_to_unified_ops(op, name):
    f = pl.parse(f"""\
import pypto.language as pl
@pl.function
def f(x: pl.Tensor[[4], pl.FP32], y: pl.Tensor[[4], pl.FP32]):
    z = x {op} y
    w = x {op} 2.0
    return
""")
    x, y = f.params
    ir.assert_structural_equal(stmts(f)[0].value, getattr(pl, name)(x, y))
    ir.assert_structural_equal(stmts(f)[1].value, getattr(pl, name)(x, 2.0))


def test_tile_negation_is_the_neg_op():
    @pl.function
    def f(t: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec]):
        u = -t
        return

    (t,) = f.params
    ir.assert_structural_equal(stmts(f)[0].value, pl.neg(t))


def test_unsupported_binary_operator():
    with expect_error(UnsupportedFeatureError, "Unsupported binary operator MatMult", "matmul",
                      "a @"):
        @pl.function
        def f(a: pl.Scalar[pl.INT32], b: pl.Scalar[pl.INT32]):
            c = a @ b  # @matmul
            return
    with expect_error(UnsupportedFeatureError, "Unsupported binary operator FloorDiv on tensors",
                      "tensor-floordiv", "x //"):
        @pl.function
        def g(x: pl.Tensor[[4], pl.FP32]):
            y = x // x  # @tensor-floordiv
            return


def test_chained_comparison():
    with expect_error(UnsupportedFeatureError, "Only simple comparisons supported", "chain",
                      "0 <"):
        @pl.function
        def f(a: pl.Scalar[pl.INT32]):
            c = 0 < a < 4  # @chain
            return


def test_unsupported_comparison_operator():
    with expect_error(UnsupportedFeatureError, "Unsupported comparison operator Is", "is-op",
                      "a is"):
        @pl.function
        def f(a: pl.Scalar[pl.INT32]):
            c = a is a  # @is-op
            return


def test_unary_operators():
    @pl.function
    def f(a: pl.Scalar[pl.INT32], b: pl.Scalar[pl.BOOL]):
        c = -a
        d = not b
        e = ~a
        g = +a
        return

    a, b = f.params
    c, d, e, g = [s.value for s in stmts(f)[:4]]
    ir.assert_structural_equal(c, ir.neg(a))
    ir.assert_structural_equal(d, ir.not_(b))
    ir.assert_structural_equal(e, ir.bit_not(a))
    assert g is a


def test_boolean_operators_nest_left():
    @pl.function
    def f(a: pl.Scalar[pl.BOOL], b: pl.Scalar[pl.BOOL], c: pl.Scalar[pl.BOOL]):
        x = a and b and c
        y = a or b or c
        return

    a, b, c = f.params
    ir.assert_structural_equal(stmts(f)[0].value, ir.and_(ir.and_(a, b), c))
    ir.assert_structural_equal(stmts(f)[1].value, ir.or_(ir.or_(a, b), c))


def test_list_and_tuple_literals_and_tuple_indexing():
    @pl.function
    def f(a: pl.Scalar[pl.INDEX], b: pl.Scalar[pl.INT32]) -> pl.Scalar[pl.INT32]:
        t = [a, b]
        u = (a, b)
        v = u[1]
        return v

    a, b = f.params
    t, u, v = [s.value for s in stmts(f)[:3]]
    ir.assert_structural_equal(t, ir.MakeTuple([a, b], SPAN))
    ir.assert_structural_equal(u, ir.MakeTuple([a, b], SPAN))
    assert isinstance(v, ir.TupleGetItemExpr) and v.index == 1 and v.type == scalar(INT32)


def test_tuple_index_rules():
    with expect_error(ParserSyntaxError, "Tuple index 2 out of range", "range-idx", "u[2]"):
        @pl.function
        def f(a: pl.Scalar[pl.INDEX]):
            u = (a, a)
            v = u[2]  # @range-idx
            return
    with expect_error(ParserSyntaxError, "A tuple index must be an integer constant", "var-idx",
                      "u[a]"):
        @pl.function
        def g(a: pl.Scalar[pl.INDEX]):
            u = (a, a)
            v = u[a]  # @var-idx
            return


def test_element_read_and_slices():
    @pl.function
    def f(x: pl.Tensor[[8, 4], pl.FP32], i: pl.Scalar[pl.INDEX]):
        e = x[i, 2]
        s = x[2:6, :]
        d = x[i, 1:3]
        return

    x, i = f.params
    e, s, d = [st.value for st in stmts(f)[:3]]
    zero, one, two, four = (ir.ConstInt(v, INDEX, SPAN) for v in (0, 1, 2, 4))
    ir.assert_structural_equal(e, pl.read(x, [i, 2]))
    assert e.type == scalar(FP32)
    ir.assert_structural_equal(s, pl.slice(x, [four, 4], [2, zero]))
    assert s.type == tensor([4, 4])
    ir.assert_structural_equal(d, pl.slice(x, [one, two], [i, one], drop_dims=[0]))
    assert d.type == tensor([2])


def test_tile_element_read():
    @pl.function
    def f(t: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec]):
        e = t[0, 1]
        return

    (t,) = f.params
    assert stmts(f)[0].value.op.name == "tile.read"


def test_subscript_rank_errors():
    with expect_error(ParserSyntaxError, "Reading one element needs 2 indices, got 1", "short",
                      "x[0]"):
        @pl.function
        def f(x: pl.Tensor[[8, 4], pl.FP32]):
            e = x[0]  # @short
            return
    with expect_error(ParserSyntaxError, "Too many indices (3) for a rank-2 value", "long",
                      "x[0"):
        @pl.function
        def g(x: pl.Tensor[[8, 4], pl.FP32]):
            e = x[0, 1, 2]  # @long
            return
    with expect_error(UnsupportedFeatureError, "Slices with a step", "step", "x[0"):
        @pl.function
        def h(x: pl.Tensor[[8, 4], pl.FP32]):
            e = x[0:8:2, :]  # @step
            return


def test_memory_space_standalone_is_its_value():
    @pl.function
    def f(x: pl.Tensor[[4], pl.FP32]):
        m = pl.Mem.Acc
        return

    value = stmts(f)[0].value
    assert type(value) is ir.ConstInt and value.value == int(ir.MemorySpace.Acc)


def test_other_standalone_attribute():
    with expect_error(UnsupportedFeatureError, "Standalone attribute access not supported",
                      "attr", "x.shape"):
        @pl.function
        def f(x: pl.Tensor[[4], pl.FP32]):
            m = x.shape  # @attr
            return


@pytest.mark.parametrize("expression, kind", [
    ("lambda: 1", "Lambda"), ("[i for i in x]", "ListComp"), ('f"{x}"', "JoinedStr"),
    ("{1: 2}", "Dict"), ("x if x else x", "IfExp"), ("{x}", "Set"),
])
def test_unsupported_expressions(expression, kind):
    expect_text_error(f"""\
import pypto.language as pl
@pl.function
def f(x: pl.Scalar[pl.BOOL]):
    y = {expression}  # @expr
    return
""", UnsupportedFeatureError, f"Unsupported expression type: {kind}", "expr", expression[:2])


def test_undefined_variable():
    with expect_error(UndefinedVariableError, "Undefined variable 'acc'", "undef", "acc"):
        @pl.function
        def f(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
            return acc  # noqa: F821  # @undef


def test_star_arguments_are_rejected():
    with expect_error(InvalidOperationError, "Star-unpacking is not supported", "star", "*x"):
        @pl.function
        def f(x: pl.Tensor[[4], pl.FP32]):
            y = pl.add(*x)  # @star
            return
