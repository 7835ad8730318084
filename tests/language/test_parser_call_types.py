"""Calls of program functions and returns are type-checked when parsing (ir/type_match.py).

A wrong-shaped, wrong-dtype or wrong-kind argument of ``self.f(...)`` or a return that
does not fit the declared type used to be accepted (through an inline callee it gave
``tensor.add(<scalar>, <scalar>)``); now each is refused at the argument or the return.
Dynamic dims bind per call, bare ``pl.Tensor`` (jit placeholders) fit anything.
"""

from __future__ import annotations

import pytest

import pypto.language as pl
from pypto import ir
from pypto.language.parser.diagnostics import ParserSyntaxError, ParserTypeError

from _parser_helpers import expect_text_error

PROGRAM = """\
import pypto.language as pl
M = pl.dynamic("M")
T = pl.Tensor[[64], pl.FP32]
@pl.program
class P:
    @pl.function{callee_decorator}
    def callee(self, {params}) -> {returns}:
        return {callee_return}
    @pl.function
    def main(self, x: T, h: pl.Tensor[[64], pl.FP16], w: pl.Tensor[[32], pl.FP32], s: pl.Scalar[pl.FP32], n: pl.Scalar[pl.INDEX]) -> T:
        {body}
"""


def program_text(params: str, body: str, returns: str = "T", callee_return: str = "a",
                 callee_decorator: str = "") -> str:
    return PROGRAM.format(params=params, body=body, returns=returns,
                          callee_return=callee_return, callee_decorator=callee_decorator)


@pytest.mark.parametrize("args, token, reason", [
    ("h", "h)", "dtype fp16 where fp32 is declared"),
    ("w", "w)", "shape [32] where [64] is declared"),
    ("s", "s)", "a Scalar where a Tensor is declared"),
    ("pl.load(x, [0], [64])", "pl.load", "a Tile where a Tensor is declared"),
])
def test_a_wrong_argument_is_refused_at_the_argument(args, token, reason):
    err = expect_text_error(program_text("a: T", f"""y = self.callee({args})  # @call
        return y"""), ParserTypeError, f"Argument 1 of 'callee' does not fit parameter 'a': "
                                       f"{reason}", "call", token)
    assert err.hint == "'callee' declares a: pl.Tensor[[64], pl.FP32]"


def test_an_inline_callee_no_longer_turns_scalars_into_a_tensor_add():
    expect_text_error(program_text("a: T, b: T", """y = self.callee(s, s)  # @call
        return y""", callee_return="pl.add(a, b)",
                                   callee_decorator="(type=pl.FunctionType.Inline)"),
                      ParserTypeError, "Argument 1 of 'callee' does not fit parameter 'a': a "
                                       "Scalar where a Tensor is declared", "call", "s, s")


def test_a_call_that_fitted_lets_no_later_misfit_through():
    # The parser remembers argument types that fitted a static signature and skips the
    # check when the very same types come again; other types are checked in full.
    expect_text_error(program_text("a: T", """y = self.callee(x)
        z = self.callee(x)
        q = self.callee(h)  # @call
        return y"""), ParserTypeError, "Argument 1 of 'callee' does not fit parameter 'a': "
                                       "dtype fp16 where fp32 is declared", "call", "h)")


def test_a_dynamic_signature_is_checked_and_typed_at_every_call():
    params = "a: pl.Tensor[[M], pl.FP32], b: pl.Tensor[[M], pl.FP32]"
    ok = pl.parse(program_text(params, """y = self.callee(x, x)
        z = self.callee(w, w)
        u = self.callee(x, x)
        return y""", returns="pl.Tensor[[M], pl.FP32]"))
    y, z, u = [stmt.var for stmt in ir.flatten_to_stmts(ok.get_function("main").body)[:3]]
    assert [d.value for d in y.type.shape] == [64]
    assert [d.value for d in z.type.shape] == [32]
    assert [d.value for d in u.type.shape] == [64]
    expect_text_error(program_text(params, """y = self.callee(x, x)
        z = self.callee(x, w)  # @call
        return y""", returns="pl.Tensor[[M], pl.FP32]"),
                      ParserTypeError, "Argument 2 of 'callee' does not fit parameter 'b': "
                                       "shape [32] where [64] is declared", "call", "w)")


def test_dynamic_dims_bind_per_call():
    ok = pl.parse(program_text("a: pl.Tensor[[M], pl.FP32], b: pl.Tensor[[M], pl.FP32]",
                               """y = self.callee(x, x)
        return y"""))
    assert ok.get_function("main") is not None
    expect_text_error(program_text("a: pl.Tensor[[M], pl.FP32], b: pl.Tensor[[M], pl.FP32]",
                                   """y = self.callee(x, w)  # @call
        return y""", returns="pl.Tensor[[M], pl.FP32]"),
                      ParserTypeError, "Argument 2 of 'callee' does not fit parameter 'b': "
                                       "shape [32] where [64] is declared", "call", "w)")


def test_a_scalar_param_used_as_a_dim_is_checked_at_every_call():
    # 64 and 32 have the same type: the check depends on the values, so nothing is
    # remembered for a signature with a dynamic dim.
    expect_text_error(program_text("k: pl.Scalar[pl.INDEX], a: pl.Tensor[[k], pl.FP32]",
                                   """y = self.callee(64, x)
        z = self.callee(32, x)  # @call
        return y""", returns="pl.Tensor[[k], pl.FP32]"),
                      ParserTypeError, "Argument 2 of 'callee' does not fit parameter 'a': "
                                       "shape [64] where [32] is declared", "call", "x)")


def test_a_scalar_param_used_as_a_dim_binds_to_the_argument():
    ok = pl.parse(program_text("k: pl.Scalar[pl.INDEX], a: pl.Tensor[[k], pl.FP32]",
                               """y = self.callee(64, x)
        return y""", returns="pl.Tensor[[k], pl.FP32]", callee_return="a"))
    assert ok.get_function("main") is not None
    expect_text_error(program_text("k: pl.Scalar[pl.INDEX], a: pl.Tensor[[k], pl.FP32]",
                                   """y = self.callee(32, x)  # @call
        return y""", returns="pl.Tensor[[k], pl.FP32]"),
                      ParserTypeError, "Argument 2 of 'callee' does not fit parameter 'a': "
                                       "shape [64] where [32] is declared", "call", "x)")


@pytest.mark.parametrize("args, fits", [
    ("0", True),        # an integer literal fits any integer parameter
    ("n", True),        # index into int32
    ("s", False),       # a float into an integer
])
def test_scalar_arguments_need_the_same_family(args, fits):
    text = program_text("k: pl.Scalar[pl.INT32]", f"""y = self.callee({args})  # @call
        return x""", returns="pl.Scalar[pl.INT32]", callee_return="k")
    if fits:
        assert pl.parse(text) is not None
    else:
        expect_text_error(text, ParserTypeError, "Argument 1 of 'callee' does not fit parameter "
                                                 "'k': dtype fp32 where int32 is declared",
                          "call", "s)")


def test_a_callee_parsed_after_its_caller_is_checked_at_the_end():
    # Mutual calls: one of the two is parsed before the other is known.
    expect_text_error("""\
import pypto.language as pl
@pl.program
class P:
    @pl.function
    def a(self, x: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:
        if n > 0:
            y: pl.Tensor[[64], pl.FP32] = self.b(x, n)
        else:
            y: pl.Tensor[[64], pl.FP32] = x
        return y
    @pl.function
    def b(self, x: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:
        t = pl.cast(x, pl.FP16)
        z: pl.Tensor[[64], pl.FP32] = self.a(t, n - 1)  # @call
        return z
""", ParserTypeError, "Argument 1 of 'a' does not fit parameter 'x': dtype fp16 where fp32 is "
                      "declared", "call", "t,")


def test_bare_tensor_params_of_jit_placeholders_fit_anything():
    from pypto.ir.type_match import call_mismatch
    a = ir.Var("a", ir.UnknownType())
    w = ir.Var("w", ir.TensorType([32], ir.DataType.FP16))
    assert call_mismatch([a], [w]) is None


# -- returns ------------------------------------------------------------------------------------

@pytest.mark.parametrize("value, returns, reason", [
    ("h", "T", "dtype fp16 where fp32 is declared"),
    ("w", "T", "shape [32] where [64] is declared"),
    ("s", "T", "a Scalar where a Tensor is declared"),
    ("x, x", "T", "returns 2 value(s) but the function declares 1"),
    ("x", "tuple[T, T]", "returns 1 value(s) but the function declares 2"),
    ("x, w", "tuple[T, T]", "value 2: shape [32] where [64] is declared"),
])
def test_a_return_that_does_not_fit_the_declared_type(value, returns, reason):
    text = PROGRAM.replace("-> T:\n        {body}", f"-> {returns}:\n        {{body}}")
    err = expect_text_error(text.format(params="a: T", returns="T", callee_return="a",
                                        callee_decorator="",
                                        body=f"return {value}  # @ret"),
                            ParserTypeError, "Return value does not match the declared return "
                                             f"type of 'main': {reason}", "ret", "return")
    assert err.hint.startswith("'main' is declared to return pl.")


def test_returns_that_fit():
    @pl.program
    class P:
        @pl.function
        def pair(self, x: pl.Tensor[[64], pl.FP32]) -> tuple[pl.Tensor[[64], pl.FP32],
                                                             pl.Tensor[[64], pl.FP32]]:
            return x, x

        @pl.function
        def main(self, x: pl.Tensor[[64], pl.FP32]) -> tuple[pl.Tensor[[64], pl.FP32],
                                                             pl.Tensor[[64], pl.FP32]]:
            return self.pair(x)  # one tuple value for two declared types

        @pl.function
        def count(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INT32]:
            return 0  # an integer literal fits an int32 result

        @pl.function
        def untyped(self, x: pl.Tensor[[64], pl.FP32]):
            return x  # nothing declared, nothing checked

    assert len(P.functions) == 4


# -- Inline callees: spliced at statements, never nested or launched -------------------------------

@pytest.mark.parametrize("body, token, fragment", [
    ("y = pl.add(self.one(x), x)  # @call", "self.one",
     "A call of the Inline function 'one' must be a statement of its own"),
    ("return self.one(x), x  # @call", "self.one",
     "A call of the Inline function 'one' must be a statement of its own"),
    ("y, tid = pl.submit(self.one, x)  # @call", "self.one",
     "pl.submit cannot launch the Inline function 'one'"),
])
def test_inline_calls_the_splice_cannot_place(body, token, fragment):
    expect_text_error(f"""\
import pypto.language as pl
@pl.program
class P:
    @pl.function(type=pl.FunctionType.Inline)
    def one(self, a: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        return a
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> tuple[pl.Tensor[[64], pl.FP32], pl.Tensor[[64], pl.FP32]]:
        {body}
        return x, x
""", ParserSyntaxError, fragment, "call", token)


def test_a_wrong_argument_of_a_method_parsed_later_is_refused_at_the_argument():
    # f and g call each other: f is parsed first, its call of g checked once g is known.
    text = """\
import pypto.language as pl
T = pl.Tensor[[64], pl.FP32]
@pl.program
class P:
    @pl.function
    def f(self, x: T, h: pl.Tensor[[64], pl.FP16], n: pl.Scalar[pl.INDEX]) -> T:
        if n > 0:
            y = self.g(x, h, h)  # @call
        else:
            y = x
        return y
    @pl.function
    def g(self, a: T, b: T, c: pl.Tensor[[64], pl.FP16]) -> T:
        z = self.f(a, c, 0)
        return z
"""
    expect_text_error(text, ParserTypeError, "Argument 2 of 'g' does not fit parameter 'b': "
                                             "dtype fp16 where fp32 is declared", "call", "h, h)")
