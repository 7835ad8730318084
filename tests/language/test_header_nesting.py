"""The nesting limit on statement headers and one-line statements: a ``with`` item is
judged through its parts (the ``as`` target first, one level under the item), so a
short ``with pl.at(...):`` header needs no walk; a simple statement written on one
line in at most ``MAX_EXPR_NESTING`` characters is not walked at all."""

from __future__ import annotations

import ast

import pytest

from pypto.ir.depth import MAX_EXPR_NESTING
from pypto.language.parser.diagnostics import ParserSyntaxError
from pypto.language.parser.nesting import check_source_nesting
from pypto.language.parser.source import SourceInfo


def nested_list(levels: int) -> str:
    return "[" * levels + "1" + "]" * levels


def check(text: str) -> None:
    check_source_nesting(ast.parse(text).body[0], SourceInfo.from_text(text, "x").span)


def refusal(text: str) -> tuple[str, int, int]:
    with pytest.raises(ParserSyntaxError) as caught:
        check(text)
    return caught.value.message, caught.value.span["line"], caught.value.span["column"]


WITH_CASES = [  # (with header, reported depth, column of the deepest node)
    (f"with f({nested_list(99)}):", 102, 111),
    (f"with f({nested_list(99)}) as a:", 102, 111),
    (f"with f({nested_list(98)}) as a[{nested_list(99)}]:", 102, 315),
    (f"with f({nested_list(99)}) as a[{nested_list(99)}]:", 102, 317),  # as deep: the target
    (f"with a, f({nested_list(99)}), b:", 102, 114),
]


@pytest.mark.parametrize("header,depth,column", WITH_CASES)
def test_a_too_deep_with_item_is_reported_at_its_deepest_node(header, depth, column):
    message, line, col = refusal(f"def f():\n    {header}\n        pass\n")
    assert message.startswith(f"an expression nested {depth} levels deep")
    assert (line, col) == (2, column)


def test_with_items_at_the_limit_pass():
    check(f"def f():\n    with f({nested_list(97)}) as (a, b):\n        pass\n")


def test_one_line_statements_at_and_over_the_limit():
    at_limit = nested_list(MAX_EXPR_NESTING - 1)  # the list levels and the constant
    check(f"def f():\n    x = {at_limit}\n    f({nested_list(98)})\n    return {at_limit}\n")
    for statement in (f"x = {nested_list(MAX_EXPR_NESTING)}",
                      f"x: int = {nested_list(MAX_EXPR_NESTING)}",
                      f"return {nested_list(MAX_EXPR_NESTING)}",
                      f"f({nested_list(MAX_EXPR_NESTING - 1)})"):
        message, line, _ = refusal(f"def f():\n    y = 1\n    {statement}\n")
        assert message.startswith(f"an expression nested {MAX_EXPR_NESTING + 1} levels deep")
        assert line == 3


HEADER_CASES = [  # (if / while / for header, reported depth): judged part by part
    (f"if {nested_list(MAX_EXPR_NESTING)}:", MAX_EXPR_NESTING + 1),
    (f"while {nested_list(MAX_EXPR_NESTING)}:", MAX_EXPR_NESTING + 1),
    (f"for i in {nested_list(MAX_EXPR_NESTING)}:", MAX_EXPR_NESTING + 1),
    (f"if x:\n        pass\n    elif {nested_list(MAX_EXPR_NESTING)}:", MAX_EXPR_NESTING + 1),
    # the subscript target is one level more
    (f"for i in range(3):\n        pass\n    for a[{nested_list(MAX_EXPR_NESTING)}] in b:",
     MAX_EXPR_NESTING + 2),
]


@pytest.mark.parametrize("header,depth", HEADER_CASES)
def test_a_too_deep_compound_header_is_refused_at_its_deepest_node(header, depth):
    text = f"def f():\n    {header}\n        pass\n"
    message, line, col = refusal(text)
    assert message.startswith(f"an expression nested {depth} levels deep")
    deepest = text.splitlines()[line - 1]
    assert deepest[col - 1:col + 1] == "1]"  # the innermost constant


def test_compound_headers_at_the_limit_pass():
    at_limit = nested_list(MAX_EXPR_NESTING - 1)
    check(f"def f():\n    if {at_limit}:\n        pass\n    while {at_limit}:\n        pass\n"
          f"    for i in {at_limit}:\n        pass\n")
