"""Error classes, spans and wrapping (01-language.md §13, §14.1-§14.3), robustness of the
parser against malformed input, and deep nesting."""

from __future__ import annotations

import ast
import os
import re
import sys
import traceback

import pytest

import pypto
import pypto.language as pl
from pypto import ir
from pypto.errors import InternalError
from pypto.ir.depth import MAX_EXPR_NESTING
from pypto.language.parser.diagnostics import (ParserError, ParserSyntaxError,
                                               UndefinedVariableError)
from pypto.language.parser.function_parser import FunctionParser

from _parser_helpers import expect_error, find_marker, stmts, _file_lines

PYPTO_DIR = os.path.dirname(pypto.__file__)


# -- spans ----------------------------------------------------------------------------------

def test_nodes_carry_file_spans_with_character_columns():
    path = __file__

    @pl.function
    def f(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
        y = pl.add(x, x)  # @span-assign
        é = pl.add(y, x); z = pl.add(é, y)  # @span-unicode
        return z

    assign = stmts(f)[0]
    line, text = find_marker(_file_lines(path), "span-assign")
    assert (assign.span.filename, assign.span.begin_line, assign.span.begin_column) == \
        (path, line, text.index("y =") + 1)
    assert assign.value.span.begin_column == text.index("pl.add") + 1
    line, text = find_marker(_file_lines(path), "span-unicode")
    third = stmts(f)[2]
    assert (third.span.begin_line, third.span.begin_column) == (line, text.index("z =") + 1)
    assert f.params[0].span.begin_column == _file_lines(path)[f.span.begin_line - 1].index("x:") + 1


def test_error_fields():
    with pytest.raises(UndefinedVariableError) as info:
        @pl.function
        def f(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
            return acc  # noqa: F821
    err = info.value
    assert isinstance(err, ParserError) and str(err) == "Undefined variable 'acc'"
    assert err.message == "Undefined variable 'acc'"
    assert isinstance(err.span, dict) and err.span["filename"] == __file__
    assert err.span["file"] == err.span["filename"] and err.span["begin_line"] == err.span["line"]
    assert err.span["begin_column"] == err.span["column"]
    assert err.source_lines == list(_file_lines(__file__))


# -- wrapping -------------------------------------------------------------------------------

@pytest.fixture
def failing_pass_statement(monkeypatch):
    """Make the handler of ``pass`` raise whatever the test puts in the list."""
    raised: list[BaseException] = []

    def handler(p, node):
        raise raised[0]

    monkeypatch.setitem(FunctionParser.STMT_HANDLERS, ast.Pass, handler)
    return raised


def test_foreign_exceptions_are_wrapped_with_a_span(failing_pass_statement):
    failing_pass_statement.append(KeyError("slot"))
    with expect_error(ParserSyntaxError, "Failed to parse function 'f': 'slot'", "wrapped",
                      "pass") as info:
        @pl.function
        def f(x: pl.Tensor[[4], pl.FP32]):
            pass  # @wrapped
    assert isinstance(info.value.__cause__, KeyError)


@pytest.mark.parametrize("error", [InternalError("broken invariant"), AssertionError("bug")])
def test_bugs_are_never_wrapped(failing_pass_statement, error):
    failing_pass_statement.append(error)
    with pytest.raises(type(error)):
        @pl.function
        def f(x: pl.Tensor[[4], pl.FP32]):
            pass


def test_bugs_stay_loud_through_pl_parse(failing_pass_statement):
    failing_pass_statement.append(InternalError("broken invariant"))
    with pytest.raises(InternalError):
        pl.parse("@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    pass\n")


def test_wrapped_errors_in_programs_name_the_method(failing_pass_statement):
    failing_pass_statement.append(ValueError("odd"))
    with expect_error(ParserSyntaxError, "Failed to parse function 'second': odd", "in-method",
                      "pass"):
        @pl.program
        class P:
            @pl.function
            def first(self, x: pl.Tensor[[4], pl.FP32]):
                return

            @pl.function
            def second(self, x: pl.Tensor[[4], pl.FP32]):
                pass  # @in-method


# -- deep nesting ------------------------------------------------------------------------------

def test_operator_chains_up_to_the_nesting_limit_read_back():
    terms = " + ".join(["n"] * MAX_EXPR_NESTING)         # a leaf and 99 Adds
    negations = "-" * (MAX_EXPR_NESTING - 1)
    func = pl.parse(f"""\
@pl.function
def f(n: pl.Scalar[pl.INDEX], b: pl.Scalar[pl.BOOL]):
    y = {terms}
    z = {negations}n
    w = {" and ".join(["b"] * MAX_EXPR_NESTING)}
    return
""")
    assert isinstance(stmts(func)[0].value, ir.Add)
    again = pl.parse(ir.python_print(func, format=False))
    ir.assert_structural_equal(func, again)


@pytest.mark.parametrize("expr, depth", [
    (" + ".join(["n"] * 101), 101),
    ("-" * 100 + "n", 101),
    (" and ".join(["b"] * 101), 101),
    ("f(" * 101 + "n" + ")" * 101, 102),  # calls and their argument lists
])
def test_deeper_expressions_are_refused_at_their_line(expr, depth):
    text = f"""\
@pl.function
def f(n: pl.Scalar[pl.INDEX], b: pl.Scalar[pl.BOOL]):
    k = n

    y = {expr}
    return
"""
    with pytest.raises(ParserSyntaxError) as info:
        pl.parse(text)
    assert info.value.message == (f"an expression nested {depth} levels deep; pypto "
                                  f"accepts at most {MAX_EXPR_NESTING}")
    assert info.value.span["line"] == 5


def test_fifty_thousand_terms_are_refused_not_a_crash():
    """Python's own parser runs out of recursion on the line (pypto never raises the
    limit, which let it overflow the C stack): a diagnostic at the line."""
    text = ("@pl.function\ndef f(n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:\n"
            "    k = n\n    m = " + " + ".join(["n"] * 50_000) + "\n    return m\n")
    limit = sys.getrecursionlimit()
    with pytest.raises(ParserSyntaxError) as info:
        pl.parse(text)
    assert sys.getrecursionlimit() == limit
    assert info.value.span["line"] == 4
    assert f"pypto accepts at most {MAX_EXPR_NESTING} levels" in info.value.message


def test_deeply_nested_blocks():
    depth = 90  # Python allows at most 100 indentation levels
    lines = ["@pl.function(auto_scope=False)",
             "def f(n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:", "    k = n"]
    for level in range(depth):
        indent = "    " * (level + 1)
        # Python caps loops/with blocks at 20 static levels; ifs are not counted.
        if level % 10 == 1:
            lines.append(f"{indent}with pl.scope():")
        elif level % 10 == 6:
            lines.append(f"{indent}while k < {level}:")
        else:
            lines.append(f"{indent}if k > {level}:")
    lines.append("    " * (depth + 1) + "k = k + 1")
    lines.append("    return k")
    func = pl.parse("\n".join(lines) + "\n")
    text = ir.python_print(func, format=False)
    again = pl.parse(text)
    ir.assert_structural_equal(func, again)
    assert ir.python_print(again, format=False) == text


# -- malformed input -------------------------------------------------------------------------

BASE_PROGRAM = '''\
import pypto.language as pl

M = pl.dynamic("M")


@pl.program
class Model:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 16])
        u = pl.add(t, t)
        out = pl.store(u, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 16], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        """Doc."""
        out = pl.create_tensor([16, 16], pl.FP32)
        acc = 0
        for i in pl.range(n):
            acc = acc + i
            out = self.kernel(x, out)
        for j, (a,) in pl.range(4, init_values=(acc,)):
            b = a + 1
            a2 = pl.yield_(b)
        if acc > a2:
            c = pl.yield_(a2)
        else:
            c = pl.yield_(acc)
        with pl.graph("g"):
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="inner"):
                s = out[0:8, :]
                e = out[1, 2]
        for (p, q) in pl.while_(init_values=(c, 0)):
            pl.cond(p > 0)
            p2, q2 = pl.yield_(p - 1, q + 1)
        with pl.spmd(4):
            r = self.kernel(x, out)
        t0, tid = pl.submit(self.kernel, x, out)
        return out
'''

_IDENT = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")


def _mutations(text: str):
    """Single-line damage: drop, truncate, duplicate, rename identifiers, break brackets."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        yield "\n".join(lines[:i] + lines[i + 1:])
        yield "\n".join(lines[:i] + [line[: len(line) // 2]] + lines[i + 1:])
        yield "\n".join(lines[:i] + [line, line] + lines[i + 1:])
        yield "\n".join(lines[:i] + [line.replace("(", "[", 1)] + lines[i + 1:])
        yield "\n".join(lines[:i] + [line.replace(", ", ", 1, ", 1)] + lines[i + 1:])
        yield "\n".join(lines[:i] + [line.replace("pl.", "pl.zz_", 1)] + lines[i + 1:])
        yield "\n".join(lines[:i] + [line.replace("16", "-3", 1)] + lines[i + 1:])
        yield "\n".join(lines[:i] + [line.replace("]", "], None", 1)] + lines[i + 1:])
        for match in list(_IDENT.finditer(line))[:6]:
            damaged = line[:match.start()] + "qq" + line[match.end():]
            yield "\n".join(lines[:i] + [damaged] + lines[i + 1:])


HANDWRITTEN = [
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    y = x[",
    "@pl.function\ndef f(x: pl.Tensor[]):\n    return\n",
    "@pl.function\ndef f(x: pl.Tensor[[4]]):\n    return\n",
    "@pl.function\ndef f(x: pl.Tensor[4, pl.FP32]):\n    return\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32, 3]):\n    return\n",
    "@pl.function\ndef f(x: pl.Tile[[4], pl.FP32, None]):\n    return\n",
    "@pl.function\ndef f(x: pl.Scalar[1]):\n    return\n",
    "@pl.function\ndef f(x: pl.Scalar[pl.FP32, pl.FP32]):\n    return\n",
    "@pl.function\ndef f(x: pl.Tuple):\n    return\n",
    "@pl.function\ndef f(x: pl.InOut):\n    return\n",
    "@pl.function\ndef f(x: pl.InOut[pl.InOut[pl.Tensor[[4], pl.FP32]]]):\n    return\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]) -> tuple[]:\n    return\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]) -> 3:\n    return\n",
    "@pl.function\ndef f(*args):\n    return\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32], x: pl.Tensor[[4], pl.FP32]):\n    return\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    return x.y.z\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    y = x[None]\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    y = x['a']\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    y = (x, x)[x]\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    y = pl.add()\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    y = pl.tensor.add()\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    y = pl.tile.load(x, 1, 2, 3, 4, 5)\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    y = pl.load(x, [0], [4], target_memory=3)\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    y = pl.create_tensor([4], 3)\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    y = pl.cast(x, 'fp16')\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    y = pl.reshape(x, [3])\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    y = pl.FP32.get_byte(1)\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    y = pl.FP99.get_byte()\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    y = pl.Mem.Nowhere\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    y = pl.tensor\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    y = pl\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    y = self\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    y = self.g(x)\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    x.attr = 1\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    x[0:1] += x\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    [a, b] = x\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    a, *b = (x, x)\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    for i in pl.range(4, init_values=x):\n        pass\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    for i, a in pl.range(4, init_values=(x,)):\n        b = pl.yield_(a)\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    for i, (a.b,) in pl.range(4, init_values=(x,)):\n        b = pl.yield_(x)\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    for i in pl.range(x):\n        pass\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    for i in pl.range(4, attrs=3):\n        pass\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    for (a,) in pl.while_(init_values=(x,)):\n        pass\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    for (a,) in pl.while_(init_values=(x,)):\n        pl.cond()\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    if x:\n        pass\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    a = pl.yield_(x)\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    a = pl.yield_(x, k=1)\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    with pl.at(level=pl.Level.HOST) as (a, b):\n        pass\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    with pl.at(level=pl.Level.HOST, deps=[x.y]):\n        pass\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    with pl.at(level=pl.Level):\n        pass\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    with pl.at(level=pl.Level.HOST.x):\n        pass\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    with pl.at(level=pl.Level.CORE_GROUP, optimizations=[3]):\n        pass\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.split()]):\n        pass\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.cross_core_slot(3)]):\n        pass\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    with pl.spmd(4, name_hint=''):\n        i = pl.tile.get_block_idx()\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    with pl.spmd(4):\n        pass\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    with pl.graph(b'g'):\n        pass\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    with pl.graph('g', dumps=x):\n        pass\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    pl.func_attr()\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    pl.func_attr({**{}})\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    pl.func_attr({'split': 7})\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    pl.static_assert(1, 2, 3)\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    pl.static_print(pl.range(3))\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    y = pl.const(1, 2)\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    y = pl.const(True, pl.INT32)\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    t, k = pl.submit(self.f, x)\n",
    "@pl.program\nclass P:\n    @pl.function\n    def f(self, x: pl.Tensor[[4], pl.FP32]):\n        t, k = pl.submit(self.f, x, core_num=x)\n",
    "@pl.program\nclass P:\n    @pl.function\n    def f(self, x: pl.Tensor[[4], pl.FP32]):\n        t = self.f(x, attrs=3)\n",
    "@pl.program\nclass P:\n    @pl.function(3)\n    def f(self, x: pl.Tensor[[4], pl.FP32]):\n        return\n",
    "@pl.program\nclass P:\n    @pl.function(attrs=[1])\n    def f(self, x: pl.Tensor[[4], pl.FP32]):\n        return\n",
    "@pl.program\nclass P:\n    @pl.function(attrs=x)\n    def f(self, x: pl.Tensor[[4], pl.FP32]):\n        return\n",
    "@pl.program\nclass P:\n    @pl.function(colour=1)\n    def f(self, x: pl.Tensor[[4], pl.FP32]):\n        return\n",
    "@pl.program\nclass P:\n    @pl.function\n    def f():\n        return\n",
    "@pl.program\nclass P:\n    @pl.function\n    async def f(self):\n        return\n",
    "@pl.program\nclass P:\n    x = 1\n",
    "@pl.function\nclass P:\n    pass\n",
    "@pl.program\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    return\n",
    "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    pass\n@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    pass\n",
    "@pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)\ndef f(self):\n    ...\n",
    "@pl.inline\ndef g(x):\n    return\n@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]):\n    y = g(x)\n",
    "@pl.inline\nclass G:\n    pass\n",
]

_BUG_TYPES = (KeyError, AttributeError, IndexError, RecursionError, AssertionError,
              InternalError, UnboundLocalError, NameError)


def _raised_inside_pypto(exc: BaseException) -> bool:
    frames = traceback.extract_tb(exc.__traceback__)
    return bool(frames) and frames[-1].filename.startswith(PYPTO_DIR)


def _is_pypto_bug(exc: BaseException) -> bool:
    """An exception that only a bug in pypto raises (deliberate TypeErrors name pl.*)."""
    if not _raised_inside_pypto(exc):
        return False
    if isinstance(exc, TypeError):
        return not str(exc).startswith("pl.")
    return isinstance(exc, _BUG_TYPES)


def _check_failure(text: str) -> None:
    try:
        pl.parse(text)
    except ParserError as err:
        cause = err.__cause__
        while cause is not None:
            assert not _is_pypto_bug(cause), \
                f"pypto bug surfaced as {type(cause).__name__}: {cause}\n--- input ---\n{text}"
            cause = cause.__cause__
        assert err.span is None or err.span["line"] >= 1
    except SyntaxError:
        pass
    except ValueError as err:
        assert re.match(r"(No @pl.function or @pl.program found|Multiple functions/programs "
                        r"found)", str(err)), f"{err}\n--- input ---\n{text}"
    except BaseException as err:  # noqa: BLE001 - the whole point is to catch the rest
        pytest.fail(f"{type(err).__name__}: {err}\n--- input ---\n{text}")


# Some snippets use the deprecated attrs= on purpose (their errors come first).
@pytest.mark.filterwarnings(r"ignore:@pl.function\(attrs=\.\.\.\) is deprecated:DeprecationWarning")
@pytest.mark.parametrize("index", range(len(HANDWRITTEN)))
def test_handwritten_malformed_snippets(index):
    _check_failure(HANDWRITTEN[index])


def test_base_program_parses():
    assert isinstance(pl.parse(BASE_PROGRAM), ir.Program)


def test_damaged_programs_fail_cleanly():
    count = 0
    for text in _mutations(BASE_PROGRAM):
        _check_failure(text)
        count += 1
    assert count > 300
