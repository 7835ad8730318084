"""``@pl.inline`` splicing (01-language.md §2.3)."""

from __future__ import annotations

import pytest

import pypto.language as pl
from pypto import ir
from pypto.language.parser.diagnostics import (ParserSyntaxError, ParserTypeError,
                                               UndefinedVariableError)

from _parser_helpers import SPAN, expect_error, expect_text_error, stmts, tensor

FACTOR = 2.0
T4 = tensor([4])


@pl.inline
def double(x):
    y = pl.mul(x, FACTOR)
    return y


@pl.inline
def twice_then_add(a, b):
    d = double(a)
    s = pl.add(d, b)
    return s


@pl.inline
def no_value(x):
    side = pl.add(x, x)


@pl.inline
def bare_return(x):
    side = pl.add(x, x)
    return


@pl.inline
def loops_forever(x):
    y = loops_forever(x)
    return y


@pl.inline
def broken(x):
    y = pl.add(x, undefined_name)  # noqa: F821  # @inline-body
    return y


def test_inline_record():
    assert isinstance(double, pl.InlineFunction)
    assert double.name == "double" and double.param_names == ["x"]
    assert double.source_file == __file__
    assert double.closure_vars["FACTOR"] == 2.0
    # PyPTO's fields: the def's AST indexes the dedented source lines; offsets map it
    # back to the file.
    assert double.func_def.name == "double"
    assert double.source_lines[double.func_def.lineno - 1].lstrip().startswith("def double(")
    with open(__file__, encoding="utf-8") as handle:
        file_lines = handle.read().split("\n")
    assert file_lines[double.func_def.lineno - 1 + double.line_offset].lstrip() \
        .startswith("def double(")
    with pytest.raises(RuntimeError, match="can only be called from a DSL body"):
        double(1)


def test_splice_emits_the_body_and_returns_the_value():
    @pl.function
    def f(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
        z = double(x)
        return z

    (x,) = f.params
    y, z = ir.Var("y", T4, SPAN), ir.Var("z", T4, SPAN)
    expected = ir.Function("f", [x], [T4], ir.SeqStmts.flatten([
        ir.AssignStmt(y, pl.mul(x, 2.0), SPAN), ir.AssignStmt(z, y, SPAN),
        ir.ReturnStmt([z], SPAN)]), SPAN)
    ir.assert_structural_equal(f, expected)


def test_nested_splices_and_leaking_names():
    @pl.function
    def f(x: pl.Tensor[[4], pl.FP32], w: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
        r = twice_then_add(x, w)
        out = pl.add(r, d)  # 'd' was defined inside the spliced body
        return out

    names = [s.var.name_hint for s in stmts(f) if isinstance(s, ir.AssignStmt)]
    assert names == ["y", "d", "s", "r", "out"]
    out_value = stmts(f)[-2].value
    assert out_value.args[1] is stmts(f)[1].var


def test_parameters_bind_to_argument_expressions():
    @pl.function
    def f(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
        z = double(pl.add(x, x))
        return z

    (x,) = f.params
    ir.assert_structural_equal(stmts(f)[0].value, pl.mul(pl.add(x, x), 2.0))


def test_caller_closure_wins_on_a_clash():
    FACTOR = 3.0  # noqa: F841  (read through the caller's closure)

    @pl.function
    def f(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
        z = double(x)
        return z

    assert stmts(f)[0].value.args[1].value == 3.0


def test_statement_call_without_a_value():
    @pl.function
    def f(x: pl.Tensor[[4], pl.FP32]):
        no_value(x)
        bare_return(x)

    assert [s.var.name_hint for s in stmts(f)] == ["side", "side"]


@pytest.mark.parametrize("callee", ["no_value", "bare_return"])
def test_using_the_value_of_an_inline_without_return(callee):
    helper = no_value if callee == "no_value" else bare_return
    with expect_error(ParserSyntaxError, f"'{helper.name}' has no return value", "use-value",
                      "helper"):
        @pl.function
        def f(x: pl.Tensor[[4], pl.FP32]):
            z = helper(x)  # @use-value


def test_recursive_inline():
    with expect_error(ParserSyntaxError, "Recursive @pl.inline call: loops_forever -> loops_forever",
                      path=__file__):
        @pl.function
        def f(x: pl.Tensor[[4], pl.FP32]):
            z = loops_forever(x)


def test_argument_count_and_keywords():
    with expect_error(ParserTypeError, "Function 'double' expects 1 argument(s), got 2",
                      "inline-arity", "double"):
        @pl.function
        def f(x: pl.Tensor[[4], pl.FP32]):
            z = double(x, x)  # @inline-arity
    with expect_error(ParserSyntaxError, "takes positional arguments only", "inline-kw",
                      "double"):
        @pl.function
        def g(x: pl.Tensor[[4], pl.FP32]):
            z = double(x=x)  # @inline-kw


def test_errors_inside_the_body_point_at_the_inline_source():
    with expect_error(UndefinedVariableError, "Undefined variable 'undefined_name'", "inline-body",
                      "undefined_name") as info:
        @pl.function
        def f(x: pl.Tensor[[4], pl.FP32]):
            z = broken(x)
    assert info.value.span["filename"] == __file__


def test_code_after_return_in_an_inline_body():
    text = """\
import pypto.language as pl
@pl.inline
def early(x):
    return x
    y = pl.add(x, x)  # @after
@pl.function
def f(x: pl.Tensor[[4], pl.FP32]):
    z = early(x)
"""
    expect_text_error(text, ParserSyntaxError, "Code after 'return' in @pl.inline function",
                      "after", "y =")


@pytest.mark.parametrize("body", [
    "for i in pl.range(n):\n        y = pl.add(x, x)\n        return y  # @ret",
    "if n > 0:\n        return pl.add(x, x)  # @ret\n    return x",
    "with pl.at(level=pl.Level.HOST):\n        return pl.add(x, x)  # @ret",
])
def test_a_nested_return_in_an_inline_body_is_refused(body):
    # The splice cannot leave the loop early: the loop ran every iteration instead.
    text = f"""\
import pypto.language as pl
@pl.inline
def early(x, n):
    {body}
@pl.function
def f(x: pl.Tensor[[4], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[4], pl.FP32]:
    z = early(x, n)
    return z
"""
    expect_text_error(text, ParserSyntaxError, "@pl.inline function 'early' may only return as "
                                               "the last statement of its body", "ret", "return")


def test_inline_inside_a_program_method():
    @pl.program
    class P:
        @pl.function
        def main(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
            for i in pl.range(2):
                x = double(x)
            return x

    loop = stmts(P.get_function("main"))[0]
    assert [s.var.name_hint for s in ir.flatten_to_stmts(loop.body)] == ["y", "x"]
