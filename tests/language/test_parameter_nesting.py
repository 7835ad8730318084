"""The nesting limit on a signature: a parameter list is judged as one expression
(an annotation two levels under it, a default one), without walking a long list of
short annotations; the deepest part is reported, the last of equally deep ones."""

from __future__ import annotations

import ast

import pytest

from pypto.language.parser.diagnostics import ParserSyntaxError
from pypto.language.parser.nesting import check_source_nesting
from pypto.language.parser.source import SourceInfo


def deep(levels: int) -> str:
    return "pl.Tensor[" + "[" * levels + "1" + "]" * levels + ", pl.FP32]"


CASES = [  # (signature, reported depth, column of the deepest node)
    (f"a: {deep(99)}, b: {deep(99)}", 104, 343),
    (f"a: {deep(98)}, b: {deep(97)}", 103, 118),
    (f"a, b={deep(100)}, *c: {deep(99)}, d: {deep(99)}, e={deep(99)}, **k: {deep(99)}",
     104, 122),
    (f"a: {deep(96)}", 101, 116),
]


@pytest.mark.parametrize("signature,depth,column", CASES)
def test_a_too_deep_parameter_is_reported_at_its_deepest_node(signature, depth, column):
    text = f"def f({signature}) -> None:\n    pass\n"
    info = SourceInfo.from_text(text, "x")
    with pytest.raises(ParserSyntaxError) as caught:
        check_source_nesting(ast.parse(text).body[0], info.span)
    assert f"an expression nested {depth} levels deep" in str(caught.value)
    assert (caught.value.span["line"], caught.value.span["column"]) == (1, column)


def test_a_long_signature_of_short_annotations_passes():
    params = ", ".join(f"p{i}: {deep(3)}" for i in range(60))
    text = f"def f({params}) -> None:\n    pass\n"
    check_source_nesting(ast.parse(text).body[0], SourceInfo.from_text(text, "x").span)
    text = f"def f(a: {deep(95)}) -> None:\n    pass\n"  # 100 levels: at the limit
    check_source_nesting(ast.parse(text).body[0], SourceInfo.from_text(text, "x").span)
