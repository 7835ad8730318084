"""Directives (01-language.md §10): pl.func_attr, pl.static_print, pl.static_assert."""

from __future__ import annotations

import pytest

import pypto.language as pl
from pypto import ir
from pypto.language.parser.diagnostics import ParserSyntaxError, UndefinedVariableError

from _parser_helpers import body_text, expect_error, expect_text_error, printed, stmts

ROWS = 8


def test_func_attr_after_docstring_merges_into_attrs_and_emits_nothing():
    @pl.function
    def f(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
        """Doc."""
        pl.func_attr({"split": pl.SplitMode.LEFT_RIGHT, "slot_num": 4})
        pl.func_attr({"tags": [3, 1], "ratio": -0.5, "dtype": pl.FP16, "flag": True})
        return x

    assert f.attrs == {"split": ir.SplitMode.LEFT_RIGHT, "slot_num": 4, "tags": [3, 1],
                       "ratio": -0.5, "dtype": ir.DataType.FP16, "flag": True}
    assert f.split is ir.SplitMode.LEFT_RIGHT
    assert isinstance(f.body, ir.ReturnStmt)
    assert list(f.body.leading_comments) == ["Doc."]


def test_func_attr_split_none_is_not_printed():
    @pl.function
    def f(x: pl.Tensor[[4], pl.FP32]):
        pl.func_attr({"split": pl.SplitMode.NONE})
        return

    assert f.split is None
    assert "func_attr" not in printed(f)


def test_func_attr_printed_and_merged_with_decorator_options():
    @pl.function(auto_scope=False)
    def f(x: pl.Tensor[[4], pl.FP32]):
        pl.func_attr({"slot_num": 2})
        return

    assert f.attrs == {"auto_scope": False, "slot_num": 2}
    assert body_text(f).splitlines()[0] == 'pl.func_attr({"slot_num": 2})'


def test_func_attr_after_a_statement():
    with expect_error(ParserSyntaxError, "only allowed as a leading statement", "late",
                      "pl.func_attr"):
        @pl.function
        def f(x: pl.Tensor[[4], pl.FP32]):
            y = pl.add(x, x)
            pl.func_attr({"slot_num": 2})  # @late


def test_func_attr_inside_a_loop():
    with expect_error(ParserSyntaxError, "only allowed as a leading statement", "in-loop",
                      "pl.func_attr"):
        @pl.function
        def f(n: pl.Scalar[pl.INDEX]):
            for i in pl.range(n):
                pl.func_attr({"slot_num": 2})  # @in-loop


@pytest.mark.parametrize("call, fragment, token", [
    ("pl.func_attr(ATTRS)", "pl.func_attr takes one dict literal", "pl.func_attr"),
    ("pl.func_attr({1: 2})", "pl.func_attr keys must be string literals", "1:"),
    ("pl.func_attr({'k': x})", "pl.func_attr values must be literals or enum members, got 'x'",
     "x}"),
    ("pl.func_attr({'k': 1}, {'j': 2})", "pl.func_attr takes one dict literal", "pl.func_attr"),
    # a negated non-number was Python's own TypeError, reported on the whole function
    ("pl.func_attr({'k': -'s'})", "pl.func_attr values must be literals or enum members, "
     "got '-'s''", "-'s'"),
])
def test_func_attr_rejections(call, fragment, token):
    expect_text_error(f"""\
import pypto.language as pl
ATTRS = {{"k": 1}}
@pl.function
def f(x: pl.Tensor[[4], pl.FP32]):
    {call}  # @attr
    return
""", ParserSyntaxError, fragment, "attr", token)


def test_static_print_prints_at_parse_time_and_emits_nothing(capsys):
    @pl.function
    def f(x: pl.Tensor[[4], pl.FP32]):
        y = pl.add(x, x)
        pl.static_print(y, "note", ROWS)
        return

    out = capsys.readouterr().out.splitlines()
    assert len(out) == 3
    assert "pl.Tensor[[4], pl.FP32]" in out[0] and "y" in out[0]
    assert out[1].endswith("note") and "8" in out[2]
    assert len(stmts(f)) == 2


def test_static_assert_passes_silently():
    @pl.function
    def f(x: pl.Tensor[[4], pl.FP32]):
        pl.static_assert(ROWS % 4 == 0, "ROWS must be a multiple of 4")
        pl.static_assert(ROWS > 2)
        return

    assert len(stmts(f)) == 1


def test_static_assert_failure_carries_the_message():
    with expect_error(ParserSyntaxError, "static_assert failed: ROWS must be odd", "failed",
                      "pl.static_assert") as info:
        @pl.function
        def f(x: pl.Tensor[[4], pl.FP32]):
            pl.static_assert(ROWS % 2 == 1, "ROWS must be odd")  # @failed
    assert str(info.value).startswith("static_assert failed")


def test_static_assert_without_message_names_the_condition():
    with expect_error(ParserSyntaxError, "static_assert failed: ROWS < 0", "no-msg",
                      "pl.static_assert"):
        @pl.function
        def f(x: pl.Tensor[[4], pl.FP32]):
            pl.static_assert(ROWS < 0)  # @no-msg


@pytest.mark.parametrize("call, cls, fragment, token", [
    ("pl.static_assert(n > 0)", ParserSyntaxError, "uses the DSL variable 'n'", "n >"),
    ("pl.static_assert(True, MESSAGE)", ParserSyntaxError, "message must be a string literal",
     "MESSAGE"),
    ("pl.static_assert()", ParserSyntaxError, 'pl.static_assert takes (condition, "message")',
     "pl.static_assert"),
    ("pl.static_assert(MISSING > 0)", UndefinedVariableError, "Undefined variable 'MISSING'",
     "MISSING"),
])
def test_static_assert_rejections(call, cls, fragment, token):
    expect_text_error(f"""\
import pypto.language as pl
MESSAGE = "text"
@pl.function
def f(n: pl.Scalar[pl.INDEX]):
    {call}  # @sa
""", cls, fragment, "sa", token)
