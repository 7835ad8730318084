"""Scalar builder functions and Python operators on Expr (02-ir.md §5.3, §5.4)."""

from __future__ import annotations

import inspect

import pytest

from pypto import ir

from .samples import BOOL, FP16, FP32, INDEX, INT32, INT64, SPAN, tensor_var, var

DT = ir.DataType


def _line() -> int:
    return inspect.currentframe().f_back.f_lineno


# -- promotion -----------------------------------------------------------------------------

def test_same_dtype_needs_no_cast():
    a, b = var("a", INT32), var("b", INT32)
    node = ir.add(a, b, span=SPAN)
    assert isinstance(node, ir.Add) and node.left is a and node.right is b
    assert node.dtype is INT32 and node.span is SPAN


def test_narrower_left_operand_is_cast_to_the_wider_dtype():
    a, b = var("a", INT32), var("b", INT64)
    node = ir.mul(a, b)
    assert node.dtype is INT64 and node.right is b
    assert isinstance(node.left, ir.Cast) and node.left.operand is a and node.left.dtype is INT64


def test_narrower_right_operand_is_cast():
    a, b = var("a", FP32), var("b", FP16)
    node = ir.sub(a, b)
    assert node.dtype is FP32 and node.left is a
    assert isinstance(node.right, ir.Cast) and node.right.dtype is FP32


def test_ties_go_to_the_left_operand():
    a, b = var("a", INT32), var("b", DT.UINT32)
    node = ir.add(a, b)
    assert node.dtype is INT32 and node.left is a
    assert isinstance(node.right, ir.Cast) and node.right.dtype is INT32
    flipped = ir.add(b, a)
    assert flipped.dtype is DT.UINT32 and isinstance(flipped.right, ir.Cast)


@pytest.mark.parametrize("left, right", [(INDEX, INT64), (INT64, INDEX)])
def test_index_and_int64_are_never_cast(left, right):
    a, b = var("a", left), var("b", right)
    node = ir.add(a, b)
    assert node.left is a and node.right is b and node.dtype is left
    cmp = ir.lt(a, b)
    assert cmp.left is a and cmp.right is b and cmp.dtype is BOOL


def test_index_with_narrower_int_casts_the_narrow_side():
    i, n = var("i", INDEX), var("n", INT32)
    node = ir.add(i, n)
    assert node.dtype is INDEX and isinstance(node.right, ir.Cast)
    assert node.right.dtype is INDEX


@pytest.mark.parametrize("builder, cls", [
    (ir.eq, ir.Eq), (ir.ne, ir.Ne), (ir.lt, ir.Lt), (ir.le, ir.Le), (ir.gt, ir.Gt),
    (ir.ge, ir.Ge),
])
def test_comparisons_return_bool(builder, cls):
    node = builder(var("a", FP16), var("b", FP32))
    assert isinstance(node, cls) and node.dtype is BOOL
    assert isinstance(node.left, ir.Cast) and node.left.dtype is FP32


@pytest.mark.parametrize("builder, cls", [
    (ir.add, ir.Add), (ir.sub, ir.Sub), (ir.mul, ir.Mul), (ir.floordiv, ir.FloorDiv),
    (ir.mod, ir.FloorMod), (ir.pow, ir.Pow), (ir.min_, ir.Min), (ir.max_, ir.Max),
    (ir.bit_and, ir.BitAnd), (ir.bit_or, ir.BitOr), (ir.bit_xor, ir.BitXor),
    (ir.bit_shift_left, ir.BitShiftLeft), (ir.bit_shift_right, ir.BitShiftRight),
])
def test_integer_builders(builder, cls):
    node = builder(var("a", INT32), var("b", INT32))
    assert isinstance(node, cls) and node.dtype is INT32


def test_truediv_produces_a_float_division():
    node = ir.truediv(var("a", FP16), var("b", FP16))
    assert isinstance(node, ir.FloatDiv) and node.dtype is FP16
    ints = ir.truediv(var("a", INT32), var("b", INT32))
    assert isinstance(ints, ir.FloatDiv) and ints.dtype is FP32
    assert isinstance(ints.left, ir.Cast) and isinstance(ints.right, ir.Cast)


def test_logical_builders_take_bools():
    p, q = var("p", BOOL), var("q", BOOL)
    assert isinstance(ir.and_(p, q), ir.And) and ir.and_(p, q).dtype is BOOL
    assert isinstance(ir.or_(p, q), ir.Or)
    assert isinstance(ir.not_(p), ir.Not) and ir.not_(p).dtype is BOOL
    assert isinstance(ir.eq(p, q), ir.Eq)


def test_unary_builders():
    x = var("x", FP16)
    assert isinstance(ir.neg(x), ir.Neg) and ir.neg(x).dtype is FP16
    assert isinstance(ir.abs_(x), ir.Abs)
    assert isinstance(ir.bit_not(var("i", INT32)), ir.BitNot)
    cast = ir.cast(x, INT32)
    assert isinstance(cast, ir.Cast) and cast.dtype is INT32 and cast.operand is x
    assert ir.cast(var("b", BOOL), INT32).dtype is INT32


# -- errors ----------------------------------------------------------------------------------

def test_category_mismatch_is_rejected():
    with pytest.raises(ValueError) as info:
        ir.add(var("a", INT32), var("b", FP32))
    assert str(info.value) == ("Operator '+': operands have different categories "
                               "(int32 vs fp32); cast one explicitly")
    with pytest.raises(ValueError, match="Operator '<': operands have different categories"):
        ir.lt(var("a", BOOL), var("b", INT32))


@pytest.mark.parametrize("builder, symbol", [
    (ir.add, "+"), (ir.sub, "-"), (ir.mul, "*"), (ir.floordiv, "//"), (ir.mod, "%"),
    (ir.pow, "**"), (ir.truediv, "/"), (ir.min_, "min"), (ir.bit_and, "&"),
])
def test_bool_is_rejected_for_arithmetic(builder, symbol):
    with pytest.raises(ValueError) as info:
        builder(var("p", BOOL), var("q", BOOL))
    assert str(info.value) == f"Operator '{symbol}' does not accept bool (left operand)"


def test_unary_category_errors():
    with pytest.raises(ValueError, match="Operator '-' does not accept bool"):
        ir.neg(var("p", BOOL))
    with pytest.raises(ValueError, match="Operator '~' does not accept fp32"):
        ir.bit_not(var("x", FP32))
    with pytest.raises(ValueError, match="Operator 'not' does not accept int32"):
        ir.not_(var("x", INT32))
    with pytest.raises(ValueError, match=r"Operator '&' does not accept fp32 \(right operand\)"):
        ir.bit_and(var("x", INT32), var("y", FP32))
    with pytest.raises(ValueError, match="Operator 'and' does not accept int32"):
        ir.and_(var("x", INT32), var("y", INT32))
    with pytest.raises(TypeError, match="cast: target dtype must be a DataType, got str"):
        ir.cast(var("x", FP32), "int32")


def test_operands_must_be_scalars():
    with pytest.raises(ValueError, match="Operator '\\+': left operand must be a scalar"):
        ir.add(tensor_var("t"), var("b"))
    with pytest.raises(ValueError, match="Operator '<': right operand must be a scalar"):
        ir.lt(var("b"), tensor_var("t"))


def test_task_id_is_rejected_for_arithmetic():
    with pytest.raises(ValueError, match="Operator '\\+' does not accept task_id"):
        ir.add(var("t", DT.TASK_ID), var("u", DT.TASK_ID))


def test_non_ir_operands_raise_type_error():
    with pytest.raises(TypeError, match="Cannot convert str value 'a' to an IR expression"):
        ir.add(var("x"), "a")


# -- Python operators ----------------------------------------------------------------------

@pytest.mark.parametrize("apply, cls", [
    (lambda a, b: a + b, ir.Add), (lambda a, b: a - b, ir.Sub), (lambda a, b: a * b, ir.Mul),
    (lambda a, b: a // b, ir.FloorDiv), (lambda a, b: a % b, ir.FloorMod),
    (lambda a, b: a ** b, ir.Pow), (lambda a, b: a == b, ir.Eq), (lambda a, b: a != b, ir.Ne),
    (lambda a, b: a < b, ir.Lt), (lambda a, b: a <= b, ir.Le), (lambda a, b: a > b, ir.Gt),
    (lambda a, b: a >= b, ir.Ge), (lambda a, b: a & b, ir.BitAnd),
    (lambda a, b: a | b, ir.BitOr), (lambda a, b: a ^ b, ir.BitXor),
    (lambda a, b: a << b, ir.BitShiftLeft), (lambda a, b: a >> b, ir.BitShiftRight),
])
def test_python_binary_operators(apply, cls):
    a, b = var("a", INT32), var("b", INT32)
    node = apply(a, b)
    assert type(node) is cls and node.left is a and node.right is b


def test_python_true_division():
    a, b = var("a", FP32), var("b", FP32)
    node = a / b
    assert type(node) is ir.FloatDiv and node.left is a and node.right is b


@pytest.mark.parametrize("apply, cls", [
    (lambda a: 2 + a, ir.Add), (lambda a: 2 - a, ir.Sub), (lambda a: 2 * a, ir.Mul),
    (lambda a: 2 // a, ir.FloorDiv), (lambda a: 2 % a, ir.FloorMod), (lambda a: 2 ** a, ir.Pow),
    (lambda a: 2 & a, ir.BitAnd), (lambda a: 2 | a, ir.BitOr), (lambda a: 2 ^ a, ir.BitXor),
    (lambda a: 2 << a, ir.BitShiftLeft), (lambda a: 2 >> a, ir.BitShiftRight),
])
def test_reflected_operators_put_the_constant_on_the_left(apply, cls):
    a = var("a", INDEX)
    node = apply(a)
    assert type(node) is cls and node.right is a
    assert isinstance(node.left, ir.ConstInt) and node.left.value == 2
    assert node.left.dtype is INDEX


def test_python_scalars_become_index_and_fp32_constants():
    i = var("i", INDEX)
    node = i + 1
    assert isinstance(node.right, ir.ConstInt) and node.right.dtype is INDEX and node.dtype is INDEX
    f = var("f", FP32)
    fnode = f * 0.5
    assert isinstance(fnode.right, ir.ConstFloat) and fnode.right.dtype is FP32
    assert fnode.right.value == 0.5
    with pytest.raises(ValueError, match="different categories"):
        i + 0.5


def test_python_unary_operators():
    x = var("x", INT32)
    assert type(-x) is ir.Neg and (-x).operand is x
    assert type(~x) is ir.BitNot and (~x).operand is x


def test_operator_span_comes_from_the_caller_line():
    a, b = var("a"), var("b")
    node, line = a + b, _line()
    assert node.span.filename == __file__ and node.span.begin_line == line
    neg, line = -a, _line()
    assert neg.span.filename == __file__ and neg.span.begin_line == line
    reflected, line = 3 * a, _line()
    assert reflected.span.begin_line == line
    assert reflected.left.span.begin_line == line  # the literal gets the same span
