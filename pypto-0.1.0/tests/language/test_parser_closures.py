"""Name resolution, closure values and constant folding (01-language.md §11)."""

from __future__ import annotations

import math

import pypto.language as pl
from pypto import ir
from pypto.language.parser.diagnostics import ParserTypeError, UndefinedVariableError

from _parser_helpers import (BOOL, FP32, INDEX, INT32, SPAN, expect_error, scalar, stmts,
                             tensor)

ROWS = 8
SCALE = 0.5
ENABLED = True
SIZES = [4, 16]
LABEL = "not a number"
SHADOWED = 1


def values(func: ir.Function) -> list:
    return [s.value for s in stmts(func) if isinstance(s, ir.AssignStmt)]


# -- closure values -------------------------------------------------------------------------

def test_closure_values_convert_to_ir():
    bound = ir.ConstInt(7, INT32, SPAN)
    M = pl.dynamic("M")

    @pl.function
    def f(x: pl.Tensor[[M], pl.FP32]):
        a = ROWS
        b = SCALE
        c = ENABLED
        d = SIZES
        e = bound
        g = M
        return

    a, b, c, d, e, g = values(f)
    assert (type(a), a.value, a.dtype) == (ir.ConstInt, 8, INDEX)
    assert (type(b), b.value, b.dtype) == (ir.ConstFloat, 0.5, FP32)
    assert (type(c), c.value) == (ir.ConstBool, True)
    ir.assert_structural_equal(d, ir.MakeTuple([ir.ConstInt(4, INDEX, SPAN),
                                                ir.ConstInt(16, INDEX, SPAN)], SPAN))
    assert e is bound
    assert g is f.params[0].type.shape[0]


def test_unsupported_closure_value_type():
    with expect_error(ParserTypeError, "Unsupported closure variable type: str", "str", "LABEL"):
        @pl.function
        def f(x: pl.Tensor[[4], pl.FP32]):
            a = LABEL  # @str


def test_locals_of_the_decorating_frame_win_over_globals():
    SHADOWED = 5  # noqa: F841  (read by the DSL body below)

    @pl.function
    def f(x: pl.Tensor[[4], pl.FP32]):
        a = SHADOWED
        return

    assert values(f)[0].value == 5


def test_dsl_names_win_over_the_closure():
    @pl.function
    def f(n: pl.Scalar[pl.INT32]):
        ROWS = n
        a = ROWS
        return

    assert values(f)[1] is stmts(f)[0].var


def test_undefined_name():
    with expect_error(UndefinedVariableError, "Undefined variable 'COLS'", "undef", "COLS"):
        @pl.function
        def f(x: pl.Tensor[[4], pl.FP32]):
            a = COLS  # noqa: F821  # @undef


def test_closure_attribute_values():
    class Config:
        rows = 16
        ratio = 0.25

    @pl.function
    def f(x: pl.Tensor[[4], pl.FP32]):
        a = Config.rows
        b = Config.ratio
        return

    a, b = values(f)
    assert (a.value, b.value) == (16, 0.25)


def test_missing_closure_attribute():
    class Config:
        rows = 16

    with expect_error(UndefinedVariableError, "'Config.cols' does not exist", "attr", "Config"):
        @pl.function
        def f(x: pl.Tensor[[4], pl.FP32]):
            a = Config.cols  # @attr


def test_shapes_evaluated_against_the_closure():
    @pl.function
    def f(a: pl.Tensor[[ROWS] * 2, pl.FP32], b: pl.Tensor[list(SIZES), pl.FP32],
          c: pl.Tensor[SIZES + [len(SIZES)], pl.FP32]):
        return

    assert [p.type for p in f.params] == [tensor([8, 8]), tensor([4, 16]), tensor([4, 16, 2])]


def test_shape_expression_that_fails_to_evaluate():
    with expect_error(ParserTypeError, "Cannot evaluate 'SIZES + 1'", "bad-shape", "SIZES"):
        @pl.function
        def f(a: pl.Tensor[SIZES + 1, pl.FP32]):  # @bad-shape
            return


def test_shape_must_be_a_list():
    with expect_error(ParserTypeError, "A shape must be a list, got int", "int-shape", "ROWS"):
        @pl.function
        def f(a: pl.Tensor[ROWS, pl.FP32]):  # @int-shape
            return


def test_restricted_builtins_in_closure_evaluation():
    with expect_error(UndefinedVariableError, "Undefined variable 'open'", "builtin", "open"):
        @pl.function
        def f(a: pl.Tensor[open("x"), pl.FP32]):  # @builtin
            return


# -- constant folding ---------------------------------------------------------------------------

def test_folding_of_closure_arithmetic():
    @pl.function
    def f(x: pl.Tensor[[4], pl.FP32]):
        a = ROWS // 2
        b = 7 / 2
        c = ROWS * SCALE
        d = 2 ** 3 + ROWS % 3
        e = -ROWS
        g = (ROWS << 1) | 1
        return

    a, b, c, d, e, g = values(f)
    assert (type(a), a.value, a.dtype) == (ir.ConstInt, 4, INDEX)
    assert (type(b), b.value, b.dtype) == (ir.ConstFloat, 3.5, FP32)
    assert (type(c), c.value) == (ir.ConstFloat, 4.0)
    assert (type(d), d.value) == (ir.ConstInt, 10)
    assert (type(e), e.value) == (ir.ConstInt, -8)
    assert (type(g), g.value) == (ir.ConstInt, 17)


def test_a_dsl_name_blocks_folding():
    @pl.function
    def f(n: pl.Scalar[pl.INDEX]):
        ROWS = n
        a = ROWS // 2
        b = n * 2 + 1
        return

    a, b = values(f)[1:]
    assert isinstance(a, ir.FloorDiv) and a.left is stmts(f)[0].var
    assert isinstance(b, ir.Add) and isinstance(b.left, ir.Mul)


def test_not_and_invert_are_never_folded():
    @pl.function
    def f(x: pl.Tensor[[4], pl.FP32]):
        a = ~ROWS
        b = not ENABLED
        return

    a, b = values(f)
    ir.assert_structural_equal(a, ir.bit_not(ir.ConstInt(8, INDEX, SPAN)))
    ir.assert_structural_equal(b, ir.not_(ir.ConstBool(True, SPAN)))


def test_comparisons_and_boolean_operators_are_never_folded():
    @pl.function
    def f(x: pl.Tensor[[4], pl.FP32]):
        a = ROWS > 2
        b = ENABLED and ENABLED
        return

    a, b = values(f)
    assert isinstance(a, ir.Gt) and a.left.value == 8
    assert isinstance(b, ir.And) and b.type == scalar(BOOL)


def test_negated_typed_constants_stay_constants():
    @pl.function
    def f(x: pl.Tensor[[4], pl.FP32]):
        a = -pl.const(3, pl.INT32)
        b = -pl.const(2.5, pl.FP16)
        return

    a, b = values(f)
    assert (type(a), a.value, a.dtype) == (ir.ConstInt, -3, INT32)
    assert (type(b), b.value, b.dtype) == (ir.ConstFloat, -2.5, ir.DataType.FP16)


def test_negating_a_scalar_variable_is_neg():
    @pl.function
    def f(n: pl.Scalar[pl.INT32]):
        a = -n
        return

    ir.assert_structural_equal(values(f)[0], ir.neg(f.params[0]))


def test_folding_with_a_non_numeric_closure_value_falls_back():
    with expect_error(ParserTypeError, "Unsupported closure variable type: str", "fold-str",
                      "LABEL"):
        @pl.function
        def f(x: pl.Tensor[[4], pl.FP32]):
            a = LABEL * 2  # @fold-str


def test_closure_float_constant_in_op_arguments():
    @pl.function
    def f(x: pl.Tensor[[4], pl.FP32]):
        y = pl.full([4], pl.FP32, math.pi)
        return

    value = values(f)[0]
    assert value.args[1].value == math.pi
