"""Impossible values are refused at the user's line, and constants fold only as far as
a dtype can hold them (``10 ** 5000`` folded into a literal the printer could not write;
``10 ** 10 ** 10`` would not finish)."""

from __future__ import annotations

import pytest

import pypto.language as pl
from pypto.language.parser.diagnostics import ParserSyntaxError, ParserTypeError

from _parser_helpers import expect_text_error

HEADER = """\
import pypto.language as pl
@pl.function
def f(n: pl.Scalar[pl.INDEX]):
"""


@pytest.mark.parametrize("line, cls, fragment, token", [
    ("for i in pl.range(0, 4, 0):", ParserSyntaxError, "pl.range() step must not be 0",
     "pl.range"),
    ("for i in pl.parallel(0, 4, 0):", ParserSyntaxError, "pl.parallel() step must not be 0",
     "pl.parallel"),
    ("for i in pl.unroll(0, 4, 0):", ParserSyntaxError, "pl.unroll() step must not be 0",
     "pl.unroll"),
    ("for b in pl.spmd(2 ** 70):", ParserTypeError,
     "The integer 1180591620717411303424 does not fit index", "2 **"),
])
def test_impossible_loop_and_launch_bounds(line, cls, fragment, token):
    expect_text_error(HEADER + f"""\
    {line}  # @bad
        k = pl.tile.get_block_idx()
""", cls, fragment, "bad", token)


@pytest.mark.parametrize("statement, fragment, token", [
    ("t: pl.Tensor[[-5], pl.FP32] = pl.create_tensor([4], pl.FP32)",
     "A shape dimension cannot be negative ('-5' is -5)", "-5"),
    ("t: pl.Tensor[[4, 2 - 9], pl.FP32] = pl.create_tensor([4], pl.FP32)",
     "A shape dimension cannot be negative ('2 - 9' is -7)", "2 - 9"),
    ("a: pl.Scalar[pl.INT8] = 300", "The integer 300 does not fit int8 (-128 .. 127)", "a:"),
    ("a: pl.Scalar[pl.UINT8] = -1", "The integer -1 does not fit uint8 (0 .. 255)", "a:"),
    ("a = pl.const(300, pl.INT8)", "pl.const value 300 does not fit int8", "pl.const"),
    ("a = 99999999999999999999999", "The integer 99999999999999999999999 does not fit index",
     "999"),
    ("a = n + 10 ** 5000", "Cannot fold '10 ** 5000': integer constant larger than 4096 bits",
     "10 **"),
    ("a = n + 10 ** 10 ** 10", "Cannot fold '10 ** 10 ** 10'", "10 **"),
    ("a = n + (1 << 10 ** 6)", "Cannot fold '1 << 10 ** 6'", "1 <<"),
    ("a = n + 2 ** 100", "The integer 1267650600228229401496703205376 does not fit index",
     "2 **"),
    ("a = n + 2 ** 4000", "The integer a 4001-bit number does not fit index", "2 **"),
    ("a = n + 1 // 0", "Cannot fold '1 // 0'", "1 //"),
])
def test_impossible_values(statement, fragment, token):
    expect_text_error(HEADER + f"""\
    {statement}  # @bad
""", ParserTypeError, fragment, "bad", token)


def test_the_values_at_the_edges_are_accepted():
    f = pl.parse(HEADER + """\
    a: pl.Scalar[pl.INT8] = -128
    b: pl.Scalar[pl.UINT8] = 255
    c = n + 2 ** 62 + (2 ** 70 // 2 ** 10)
    for i in pl.range(4, 0, -1):
        k = i
""")
    assert f.name == "f"
