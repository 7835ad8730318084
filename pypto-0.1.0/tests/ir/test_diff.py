"""``ir.diff``: a unified diff of two nodes' canonical text; and the function and
statement ``assert_structural_equal`` names when two programs differ."""

from __future__ import annotations

import re

import pytest

import pypto.language as pl
from pypto import ir

HEADER = "import pypto.language as pl\nT = pl.Tensor[[64], pl.FP32]\n"
BASE = HEADER + """
@pl.program
class P:
    @pl.function
    def main(self, x: T) -> T:
        y = pl.add(x, x)
        z = pl.mul(y, y)
        return z
"""


def program(text: str = BASE, **replacements: str) -> ir.Program:
    for old, new in replacements.items():
        text = text.replace(old.replace("_", "."), new)
    return pl.parse(text)


def test_diff_of_equal_programs_is_empty():
    assert ir.diff(program(), program()) == ""


def test_diff_is_a_unified_diff_of_the_canonical_text():
    text = ir.diff(program(), program(BASE.replace("pl.mul(y, y)", "pl.sub(y, x)")))
    assert text.splitlines() == [
        "--- a/P",
        "+++ b/P",
        "@@ -6,5 +6,5 @@",
        "     @pl.function",
        "     def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:",
        "         y: pl.Tensor[[64], pl.FP32] = pl.tensor.add(x, x)",
        "-        z: pl.Tensor[[64], pl.FP32] = pl.tensor.mul(y, y)",
        "+        z: pl.Tensor[[64], pl.FP32] = pl.tensor.sub(y, x)",
        "         return z",
    ]


def test_diff_names_context_and_node_kinds():
    a, b = program(), program(BASE.replace("pl.mul(y, y)", "pl.sub(y, x)"))
    text = ir.diff(a["main"], b["main"], a_name="before", b_name="after", context=0)
    assert text.splitlines()[:3] == ["--- before", "+++ after", "@@ -4 +4 @@"]
    assert ir.diff(a["main"].body, b["main"].body).startswith("--- a/SeqStmts\n+++ b/SeqStmts\n")
    with pytest.raises(ValueError, match="context must be a non-negative int"):
        ir.diff(a, b, context=-1)


def test_diff_shows_what_the_passes_did():
    source = program(HEADER + """
@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: T, acc: pl.InOut[T]) -> T:
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.add(pl.load(x, [0], [64]), pl.load(acc, [0], [64]))
            pl.store(t, [0], acc)
        return acc
""")
    compiled = ir.PassManager.get_strategy().run_passes(source)
    text = ir.diff(source, compiled)
    added = [line for line in text.splitlines() if line.startswith("+") and "def " in line]
    assert any("def main_incore_0(" in line for line in added)
    assert "-        with pl.at(level=pl.Level.CORE_GROUP):" in text.splitlines()


# -- assert_structural_equal on programs ----------------------------------------------

def failure(lhs, rhs) -> str:
    with pytest.raises(ValueError) as info:
        ir.assert_structural_equal(lhs, rhs)
    return str(info.value)


def test_the_message_names_the_function_and_the_differing_statement():
    text = failure(program(), program(BASE.replace("pl.mul(y, y)", "pl.add(y, y)")))
    lines = text.splitlines()
    assert lines[0] == "Structural equality assertion failed at: ['main'].body[1].value"
    assert lines[2] == "In function 'main', at body[1].value:"
    assert re.fullmatch(r"  left:  z: pl\.Tensor\[\[64\], pl\.FP32\] = pl\.tensor\.mul\(y, y\)"
                        r"  \(<string>:9:9\)", lines[3]), lines[3]
    assert lines[4].startswith("  right: z: pl.Tensor[[64], pl.FP32] = pl.tensor.add(y, y)  (")
    assert lines[-1] == "Reason: Op name mismatch (tensor.mul != tensor.add)"


def test_the_message_keeps_the_lines_the_conformance_runner_parses():
    text = failure(program(), program(BASE.replace("pl.mul(y, y)", "pl.add(y, y)")))
    assert re.search(r"failed at: (.*)", text).group(1) == "['main'].body[1].value"
    assert re.search(r"Reason: (.*)", text).group(1) == \
        "Op name mismatch (tensor.mul != tensor.add)"


def test_a_difference_inside_a_loop_names_the_innermost_statement():
    loop = HEADER + """
@pl.program
class P:
    @pl.function
    def main(self, x: T) -> T:
        for i in pl.range(4):
            x = pl.add(x, x)
        return x
"""
    text = failure(program(loop), program(loop.replace("pl.add(x, x)", "pl.mul(x, x)")))
    assert "In function 'main', at body[0].body.value:" in text
    assert "  left:  x: pl.Tensor[[64], pl.FP32] = pl.tensor.add(x, x)  (" in text


def test_a_missing_function_is_named():
    two = BASE + """
    @pl.function
    def helper(self, x: T) -> T:
        return x
"""
    text = failure(program(two), program())
    assert text.splitlines()[0] == "Structural equality assertion failed"
    assert "Functions only in the left program: helper; only in the right program: -" in text
    assert text.splitlines()[-1] == "Reason: Map size mismatch (2 != 1)"


def test_functions_and_statements_keep_the_plain_message():
    a, b = program(), program(BASE.replace("pl.mul(y, y)", "pl.add(y, y)"))
    text = failure(a["main"], b["main"])
    assert text.splitlines()[0] == "Structural equality assertion failed at: body[1].value"
    assert "In function" not in text
