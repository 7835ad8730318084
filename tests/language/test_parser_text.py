"""The text parser ``pl.parse`` / ``pl.loads`` (01-language.md §16, §2.4)."""

from __future__ import annotations

import linecache
import sys
import textwrap

import pytest

import pypto.language as pl
from pypto import ir
from pypto.language.parser import text_parser
from pypto.language.parser.diagnostics import (DSLSyntaxError, ParserError, ParserSyntaxError,
                                               ParserTypeError, UndefinedVariableError)

from _parser_helpers import expect_text_error, printed, stmts

FUNCTION_TEXT = """\
import pypto.language as pl

@pl.function
def double(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
    y = pl.add(x, x)
    return y
"""

PROGRAM_TEXT = """\
import pypto.language as pl

@pl.program
class Model:
    @pl.function
    def main(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
        return x
"""


def test_same_functions_as_the_module():
    assert text_parser.parse is pl.parse and text_parser.parse_program is pl.parse_program
    assert text_parser.loads is pl.loads


def test_parse_a_function():
    func = pl.parse(FUNCTION_TEXT, filename="double.py")
    assert isinstance(func, ir.Function) and func.name == "double"
    assert func.span.filename == "double.py" and func.span.begin_line == 4
    assign = stmts(func)[0]
    assert (assign.span.begin_line, assign.span.begin_column) == (5, 5)


def test_parse_a_program():
    program = pl.parse(PROGRAM_TEXT)
    assert isinstance(program, ir.Program) and program.name == "Model"
    assert (program.span.filename, program.span.begin_line, program.span.begin_column) == \
        ("<string>", 3, 1)


def test_import_line_is_optional():
    func = pl.parse(FUNCTION_TEXT.replace("import pypto.language as pl\n", ""))
    assert isinstance(func, ir.Function)


def test_undeclared_dynamic_dims_are_created():
    program = pl.parse("""\
@pl.program
class P:
    @pl.function
    def a(self, x: pl.Tensor[[M, N], pl.FP32]) -> pl.Tensor[[M, N], pl.FP32]:
        y: pl.Tensor[[M, N], pl.FP32] = pl.add(x, x)
        return y
    @pl.function
    def b(self, x: pl.Tensor[[M], pl.FP32]):
        return
""")
    a, b = program.get_function("a"), program.get_function("b")
    m = a.params[0].type.shape[0]
    assert isinstance(m, ir.Var) and m.name_hint == "M"
    assert b.params[0].type.shape[0] is m
    assert stmts(a)[0].var.type.shape[1] is a.params[0].type.shape[1]


def test_declared_dynamic_dims_are_printed_and_reparsed():
    program = pl.parse("""\
import pypto.language as pl
K = pl.dynamic("K")
@pl.function
def f(x: pl.Tensor[[K, 8], pl.FP32]) -> pl.Tensor[[K, 8], pl.FP32]:
    return x
""")
    text = printed(program)
    again = pl.parse(text)
    ir.assert_structural_equal(program, again)


def test_undeclared_dims_of_annotations_are_dims_in_bodies_too():
    # A Function printed alone uses its dims without a header: `n = K` must reparse,
    # also when the annotation naming the dim comes after the read.
    func = pl.parse("""\
@pl.function
def f(x: pl.Tensor[[K, 4], pl.FP32]):
    n = K
    m = Q
    t: pl.Tensor[[Q], pl.FP32] = pl.create_tensor([Q], dtype=pl.FP32)
""")
    k = func.params[0].type.shape[0]
    n, m, t = stmts(func)
    assert n.value is k
    assert isinstance(m.value, ir.Var) and m.value.name_hint == "Q"
    assert m.value.type == ir.ScalarType(ir.DataType.INDEX)
    assert t.var.type.shape[0] is m.value


@pytest.mark.parametrize("line, token", [
    ("y = pl.add(x, q)  # @undef", "q"),
    ("return zzz  # @undef", "zzz"),
    ("while n < 4:  # @undef", "n"),
])
def test_undefined_names_in_bodies_are_errors_like_in_the_decorators(line, token):
    # Issue 15: text parsing once made any unknown name a dynamic dim.
    name = token
    body = f"    {line}\n" + ("        n = n + 1\n" if line.startswith("while") else "")
    expect_text_error(f"""\
@pl.function
def f(x: pl.Tensor[[4], pl.FP32]):
{body}""", UndefinedVariableError, f"Undefined variable '{name}'", "undef", token)


def test_undeclared_function_names_stay_undefined():
    expect_text_error("""\
@pl.function
def f(x: pl.Tensor[[4], pl.FP32]):
    y = helper(x)  # @undef
""", UndefinedVariableError, "Undefined function 'helper'", "undef", "helper")


def test_python_syntax_error():
    with pytest.raises(SyntaxError, match="Failed to compile code from model.py") as info:
        pl.parse("def f(:\n    pass\n", filename="model.py")
    # A SyntaxError (with its fields) that renders like every other parser error.
    assert isinstance(info.value, DSLSyntaxError) and isinstance(info.value, ParserSyntaxError)
    assert (info.value.filename, info.value.lineno, info.value.offset) == ("model.py", 1, 7)
    assert info.value.text == "def f(:"
    assert info.value.render(use_color=False) == (
        "Error: Failed to compile code from model.py: invalid syntax\n"
        "  --> model.py:1:7\n"
        "  |\n"
        "1 | def f(:\n"
        "  |       ^\n"
        "2 |     pass\n"
        "  |")


@pytest.mark.parametrize("decorator, fragment, token", [
    ("@pl.function(level=pl.Level.MOON)", "Unknown Level value: MOON", "pl.Level.MOON"),
    ("@pl.function(level=HOST)", "Expected pl.Level.<name>, got 'HOST'", "HOST"),
    ("@pl.function(type=pl.FunctionType.Kernel)", "Unknown FunctionType value: Kernel",
     "pl.FunctionType"),
    ("@pl.function(type=pl.FunctionType.InCore, role=pl.Role.Boss)", "Unknown Role value: Boss",
     "pl.Role"),
    ("@pl.function(level=pl.Level.POD, type=KIND)", "Expected pl.FunctionType.<name>", "KIND"),
])
def test_decorator_keywords_are_prevalidated_with_columns(decorator, fragment, token):
    err = expect_text_error(f"""\
import pypto.language as pl
HOST = pl.Level.HOST
KIND = pl.FunctionType.InCore
{decorator}  # @deco
def f(x: pl.Tensor[[4], pl.FP32]):
    return
""", ParserSyntaxError, fragment, "deco", token)
    assert err.source_lines is not None and err.source_lines[3].startswith(decorator)


def test_prevalidation_reaches_methods_of_a_program():
    expect_text_error("""\
@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def a(x: pl.Tensor[[4], pl.FP32]):
        return
    @pl.function(level=pl.Level.SKY)  # @method
    def b(self, x: pl.Tensor[[4], pl.FP32]):
        return
""", ParserSyntaxError, "Unknown Level value: SKY", "method", "pl.Level.SKY")


def test_module_level_constants_are_computed_from_the_tree():
    func = pl.parse("""\
import pypto.language as pl
ROWS = 4
COLS = ROWS * 2 + 1 - 1
@pl.function
def f(x: pl.Tensor[[ROWS, COLS], pl.FP32]) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
    return x
""")
    assert [d.value for d in func.params[0].type.shape] == [4, 8]


def test_errors_computing_a_constant_map_to_the_expression():
    err = expect_text_error("""\
import pypto.language as pl
SIZE = 4
SCALE = SIZE / 0  # @boom
@pl.function
def f(x: pl.Tensor[[4], pl.FP32]):
    return
""", ParserSyntaxError, "ZeroDivisionError: division by zero", "boom", "SIZE /")
    assert err.source_lines[2] == "SCALE = SIZE / 0  # @boom"


def test_parser_errors_point_at_lines_of_the_text():
    err = expect_text_error("""\
import pypto.language as pl


@pl.function
def f(x: pl.Tensor[[4], pl.FP32]):
    y: pl.Tensor[[8], pl.FP32] = pl.add(x, x)  # @mismatch
    return
""", ParserTypeError, "Type annotation of 'y'", "mismatch", "y:")
    assert err.span["filename"] == "<string>"
    assert len(err.source_lines) == 7


@pytest.mark.parametrize("text, fragment", [
    ("x = 1\n", "No @pl.function or @pl.program found in <string>"),
    ("", "No @pl.function or @pl.program found in <string>"),
    (FUNCTION_TEXT + textwrap.dedent("""\
        @pl.function
        def other(x: pl.Tensor[[4], pl.FP32]):
            return
        """), "Multiple functions/programs found in <string>: double, other"),
])
def test_result_rules(text, fragment):
    with pytest.raises(ValueError, match="^" + fragment.replace("(", r"\(")):
        pl.parse(text)


def test_names_bound_to_definitions_are_not_constants():
    expect_text_error(FUNCTION_TEXT + "alias = double  # @alias\n", ParserSyntaxError,
                      "Binding a Function at module level is not allowed in DSL text",
                      "alias", "double  #")


def test_parsing_leaves_no_trace_in_linecache_or_sys_modules():
    before = set(sys.modules)
    pl.parse(FUNCTION_TEXT, filename="<cleanup-check>")
    assert "<cleanup-check>" not in linecache.cache
    assert set(sys.modules) == before
    with pytest.raises(ParserTypeError):
        pl.parse(FUNCTION_TEXT.replace("[[4], pl.FP32])", "[[4]])", 1), filename="<cleanup-err>")
    assert "<cleanup-err>" not in linecache.cache


def test_non_string_input():
    with pytest.raises(TypeError, match="expects the program text as str"):
        pl.parse(b"x = 1")


def test_loads_reads_a_file(tmp_path):
    path = tmp_path / "model.py"
    path.write_text(PROGRAM_TEXT)
    program = pl.loads(str(path))
    assert isinstance(program, ir.Program)
    assert program.span.filename == str(path)


def test_loads_errors_point_into_the_file(tmp_path):
    path = tmp_path / "broken.py"
    path.write_text(PROGRAM_TEXT.replace("return x", "return nope(x)"))
    with pytest.raises(UndefinedVariableError) as info:
        pl.loads(str(path))
    assert (info.value.span["filename"], info.value.span["line"], info.value.span["column"]) == \
        (str(path), 7, 16)


def test_deprecated_program_aliases(tmp_path):
    with pytest.warns(DeprecationWarning, match="parse_program is deprecated"):
        assert isinstance(pl.parse_program(PROGRAM_TEXT), ir.Program)
    with pytest.warns(DeprecationWarning), pytest.raises(ValueError, match="Expected a @pl.program"):
        pl.parse_program(FUNCTION_TEXT)
    path = tmp_path / "f.py"
    path.write_text(FUNCTION_TEXT)
    with pytest.warns(DeprecationWarning, match="loads_program is deprecated"), \
            pytest.raises(ValueError, match="Expected a @pl.program"):
        pl.loads_program(str(path))
    path.write_text(PROGRAM_TEXT)
    with pytest.warns(DeprecationWarning):
        assert pl.loads_program(str(path)).name == "Model"


def test_printed_function_alone_reparses():
    func = pl.parse(FUNCTION_TEXT)
    text = printed(func)
    again = pl.parse(text)
    ir.assert_structural_equal(func, again)
    assert printed(again) == text


def test_nan_constants_round_trip():
    # NaN has no literal: the printer writes float("nan"), in a body and in pl.const.
    func = pl.parse("""\
@pl.function
def f(x: pl.Scalar[pl.FP32], h: pl.Scalar[pl.FP16]):
    y = x + (1e999 - 1e999)
    z = h + pl.const(float("nan"), pl.FP16)
""")
    y, z = stmts(func)
    assert y.value.right.value != y.value.right.value
    assert z.value.right.dtype is ir.DataType.FP16
    text = printed(func)
    assert 'float("nan")' in text
    again = pl.parse(text)
    ir.assert_structural_equal(func, again)
    assert printed(again) == text


def test_texts_parsed_in_parallel_under_one_filename_stay_apart():
    # Text parsing keys nothing by filename (no linecache entry, no module cache).
    from concurrent.futures import ThreadPoolExecutor

    def parse_own(k: int) -> list[str]:
        text = FUNCTION_TEXT.replace("double", f"double_{k}").replace("[[4]", f"[[{k + 1}]")
        return [pl.parse(text).name for _ in range(20)]

    with ThreadPoolExecutor(8) as pool:
        names = list(pool.map(parse_own, range(8)))
    assert names == [[f"double_{k}"] * 20 for k in range(8)]


def test_every_independent_error_of_a_text_is_reported_once():
    # Module-level refusals and failed definitions are recorded and reading goes on;
    # what uses a failed name (SIZE, helper) is not reported again.
    with pytest.raises(ParserError) as info:
        pl.parse("""\
import pypto.language as pl
import os
SIZE = 1 / 0
@pl.function
def uses_size(x: pl.Tensor[[SIZE], pl.FP32]):
    return
@pl.function
def helper(x: pl.Tensor[[4], pl.FP32]):
    y = pl.add(x, q)
@pl.program
class P:
    @pl.function
    def a(self, x: pl.Tensor[[4], pl.FP32]):
        z = helper(x)
        w = pl.mul(x, r)
""")
    err = info.value
    assert [(e.message, e.span["line"]) for e in (err, *err.also)] == [
        ("'import os' is not allowed in DSL text", 2),
        ("ZeroDivisionError: division by zero", 3),
        ("Undefined variable 'q'", 9),
        ("Undefined variable 'r'", 15)]
    assert all(e.source_lines for e in (err, *err.also))


def test_a_type_alias_holding_a_memref_is_refused_in_user_terms():
    text = FUNCTION_TEXT + 'T = pl.Tensor[[64], pl.FP32, pl.MemRef("mem_ddr_0", 0, 256)]  # @alias\n'
    expect_text_error(text, ParserSyntaxError,
                      "Binding a type alias that holds a pl.MemRef or a view at module level",
                      "alias", "pl.Tensor")
