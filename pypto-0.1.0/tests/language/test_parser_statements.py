"""Statements (01-language.md §5): assignments, subscript stores, return, comments."""

from __future__ import annotations

import pytest

import pypto.language as pl
from pypto import ir
from pypto.language.parser.diagnostics import (ParserSyntaxError, ParserTypeError,
                                               UnsupportedFeatureError)

from _parser_helpers import (INDEX, SPAN, body_text, expect_error, expect_text_error, stmts,
                             tensor)

S = ir.ScalarType(INDEX)


def seq(*items):
    return ir.SeqStmts.flatten(list(items))


# -- assignment -------------------------------------------------------------------------------

def test_new_name_defines_a_var_typed_from_the_value():
    @pl.function
    def f(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
        y = pl.add(x, x)
        return y

    x = ir.Var("x", tensor([4]), SPAN)
    y = ir.Var("y", tensor([4]), SPAN)
    expected = ir.Function("f", [x], [tensor([4])], seq(
        ir.AssignStmt(y, pl.tensor.add(x, x), SPAN), ir.ReturnStmt([y], SPAN)), SPAN)
    ir.assert_structural_equal(f, expected)


def test_rebinding_reuses_the_same_var():
    @pl.function
    def f(n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        k = n + 1
        k = k * 2
        return k

    first, second, ret = stmts(f)
    assert first.var is second.var is ret.value[0]
    assert isinstance(second.value, ir.Mul) and second.value.left is first.var


def test_rebinding_with_a_different_type():
    with expect_error(ParserTypeError, "Cannot reassign 'k' with a different type", "retype",
                      "k ="):
        @pl.function
        def f(n: pl.Scalar[pl.INDEX], x: pl.Tensor[[4], pl.FP32]):
            k = n + 1
            k = pl.add(x, x)  # @retype
            return


def test_tuple_unpacking_goes_through_a_temporary():
    @pl.program
    class P:
        @pl.function
        def pair(self, x: pl.Tensor[[4], pl.FP32]) -> tuple[pl.Tensor[[4], pl.FP32],
                                                            pl.Tensor[[4], pl.FP32]]:
            return x, x

        @pl.function
        def main(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
            a, b = self.pair(x)
            return b

    tmp_assign, a_assign, b_assign, ret = stmts(P.get_function("main"))
    assert tmp_assign.var.name_hint == "_tuple_tmp"
    assert tmp_assign.var.type == ir.TupleType([tensor([4]), tensor([4])])
    for index, assign in enumerate((a_assign, b_assign)):
        assert isinstance(assign.value, ir.TupleGetItemExpr)
        assert assign.value.tuple is tmp_assign.var and assign.value.index == index
    assert ret.value[0] is b_assign.var


def test_unpacking_a_non_tuple_or_wrong_arity():
    with expect_error(ParserTypeError, "Cannot unpack a value of type", "unpack-scalar", "a, b"):
        @pl.function
        def f(n: pl.Scalar[pl.INDEX]):
            a, b = n  # @unpack-scalar
            return
    with expect_error(ParserTypeError, "Cannot unpack a tuple of 2 values into 3 names",
                      "unpack-arity", "a, b"):
        @pl.function
        def g(n: pl.Scalar[pl.INDEX]):
            a, b, c = (n, n)  # @unpack-arity
            return


def test_slice_store_is_an_assemble_rebind():
    @pl.function
    def f(a: pl.Tensor[[8, 4], pl.FP32], b: pl.Tensor[[2, 4], pl.FP32],
          i: pl.Scalar[pl.INDEX]) -> pl.Tensor[[8, 4], pl.FP32]:
        a[i:i + 2, :] = b
        return a

    a, b, i = f.params
    assign = stmts(f)[0]
    assert assign.var is a
    expected = pl.assemble(a, b, [i, ir.ConstInt(0, INDEX, SPAN)])
    ir.assert_structural_equal(assign.value, expected)


def test_element_store_is_a_write_rebind():
    @pl.function
    def f(a: pl.Tensor[[8, 4], pl.FP32], v: pl.Scalar[pl.FP32]) -> pl.Tensor[[8, 4], pl.FP32]:
        a[1, 2] = v
        return a

    a, v = f.params
    assign = stmts(f)[0]
    assert assign.var is a
    ir.assert_structural_equal(assign.value, pl.write(a, [1, 2], v))


def test_subscript_store_on_a_scalar():
    with expect_error(ParserTypeError, "'n' is not a tensor or tile", "store-scalar", "n["):
        @pl.function
        def f(n: pl.Scalar[pl.INDEX]):
            n[0] = 1  # @store-scalar
            return


def test_augmented_assignment_rebinds():
    @pl.function
    def f(n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        k = n
        k += 3
        return k

    first, second, _ = stmts(f)
    assert second.var is first.var and isinstance(second.value, ir.Add)


def test_chained_assignment_is_unsupported():
    with expect_error(UnsupportedFeatureError, "Chained assignment", "chained", "a ="):
        @pl.function
        def f(n: pl.Scalar[pl.INDEX]):
            a = b = n  # @chained
            return


def test_annotation_without_value():
    with expect_error(ParserSyntaxError, "An annotated name needs a value", "no-value", "k:"):
        @pl.function
        def f(n: pl.Scalar[pl.INDEX]):
            k: pl.Scalar[pl.INDEX]  # @no-value
            return


# -- other statements -------------------------------------------------------------------------

def test_return_forms():
    @pl.function
    def one(n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        return n

    @pl.function
    def two(n: pl.Scalar[pl.INDEX]) -> tuple[pl.Scalar[pl.INDEX], pl.Scalar[pl.INDEX]]:
        return n, n

    @pl.function
    def none(n: pl.Scalar[pl.INDEX]):
        return

    (n1,), (n2,), (n3,) = one.params, two.params, none.params
    ir.assert_structural_equal(one.body, ir.ReturnStmt([n1], SPAN))
    assert len(two.body.value) == 2 and all(v is n2 for v in two.body.value)
    assert isinstance(none.body, ir.ReturnStmt) and list(none.body.value) == []


def test_pass_produces_nothing_and_expression_statements_are_eval():
    @pl.function
    def f(x: pl.Tensor[[4], pl.FP32]):
        pass
        pl.add(x, x)

    (x,) = f.params
    ir.assert_structural_equal(f.body, ir.EvalStmt(pl.add(x, x), SPAN))


def test_empty_body_after_pass_is_empty():
    @pl.function
    def f(x: pl.Tensor[[4], pl.FP32]):
        pass

    assert stmts(f) == []
    assert body_text(f) == "pass"


def test_comments_and_docstrings_become_leading_comments():
    @pl.function
    def f(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
        """Doubles x.

        Twice.
        """
        # first comment
        #second, no space
        y = pl.add(x, x)
        # before the return
        return y

    assign, ret = stmts(f)
    assert list(assign.leading_comments) == ["Doubles x.", "", "Twice.", "first comment",
                                            "second, no space"]
    assert list(ret.leading_comments) == ["before the return"]
    assert body_text(f).splitlines()[:5] == ["# Doubles x.", "#", "# Twice.", "# first comment",
                                            "# second, no space"]


def test_comments_inside_nested_bodies_attach_there():
    @pl.function
    def f(n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        k = n
        for i in pl.range(n):
            # in the loop
            k = k + i
        return k

    loop = stmts(f)[1]
    assert list(loop.leading_comments) == []
    assert list(loop.body.leading_comments) == ["in the loop"]


@pytest.mark.parametrize("statement, kind", [
    ("del x", "Delete"), ("import math", "Import"), ("assert x", "Assert"),
    ("global g", "Global"), ("raise ValueError()", "Raise"),
    ("try:  # @stmt\n        pass\n    except Exception:\n        pass", "Try"),
    ("def inner():  # @stmt\n        pass", "FunctionDef"),
])
def test_unsupported_statements(statement, kind):
    marker = "" if "@stmt" in statement else "  # @stmt"
    expect_text_error(f"""\
import pypto.language as pl
@pl.function
def f(x: pl.Tensor[[4], pl.FP32]):
    {statement}{marker}
""", UnsupportedFeatureError, f"Unsupported statement type: {kind}", "stmt",
                      statement.split()[0])
