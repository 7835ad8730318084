"""Deep and wide inputs: parse, pipeline and print finish, without RecursionError.
How their time grows is measured by ``benchmarks/bench_scale.py`` (doubling ratios
per stage), not here: a timed test on a shared machine fails on noise, not on code.

* regions and loops as deep as pypto's nesting limit (100 levels) exist only as IR
  built with ``ir`` constructors: CPython refuses source indented more than 100 levels
  and more than 20 nested ``for``/``with`` blocks, so the parser is tested on the
  deepest source CPython accepts (97 blocks in a method: a statement 99 levels in);
  deeper IR is refused with a diagnostic;
* a 10,000-statement function; a program of 2,000 functions.

Everything runs at CPython's default recursion limit (1000), which pypto never changes.  The generators are the
benchmark's (``benchmarks/_gen.py``).  Passes run without the per-test instruments
(the harness would reparse every intermediate program): this file measures scale.
"""

from __future__ import annotations

import os
import sys

import pytest

import pypto.language as pl
from pypto import ir, passes
from pypto.ir.depth import MAX_STMT_NESTING
from pypto.ir.walk import iter_stmts

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks"))
import _gen  # noqa: E402


@pytest.fixture(autouse=True)
def default_recursion_limit():
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    yield
    assert sys.getrecursionlimit() == 1000, "a walker changed the limit"
    sys.setrecursionlimit(old)


def _compile(program: ir.Program) -> ir.Program:
    with passes.PassContext([], verification_level=passes.VerificationLevel.BASIC):
        return ir.PassManager.get_strategy(ir.OptimizationStrategy.Default).run_passes(program)


def _regions_left(program: ir.Program) -> list[str]:
    return [type(s).__name__ for f in program.functions.values() for s in iter_stmts(f.body)
            if isinstance(s, ir.ScopeStmt) and not isinstance(s, ir.RuntimeScopeStmt)]


# -- depth ------------------------------------------------------------------------------------

def test_ir_as_deep_as_the_limit_compiles_and_prints():
    depth = MAX_STMT_NESTING - 2  # the graph region and its kernel are two levels more
    compiled = _compile(_gen.deep_regions_ir(depth))
    assert _regions_left(compiled) == []
    # every pl.at(HOST) level became a function; the graph and its kernel two more
    assert len(compiled.functions) == len(range(2, depth, 4)) + 3
    text = ir.python_print(compiled)
    assert text.count("\n") > 200
    assert "pl.graph" not in text


def test_16k_deep_ir_is_refused_by_the_pipeline_at_its_deepest_statement():
    program = _gen.deep_regions_ir(16_000)
    with pytest.raises(passes.PassError) as info:
        _compile(program)
    assert info.value.code is passes.PassErrorCode.NESTING_TOO_DEEP
    assert info.value.message.startswith(
        f"statements nested 16002 levels deep; pypto accepts at most {MAX_STMT_NESTING}")


def test_deepest_source_python_accepts():
    source = _gen.nested_source(_gen.DEEPEST_NEST)
    assert max(len(line) - len(line.lstrip()) for line in source.splitlines()) == 4 * 99
    program = pl.parse(source)
    text = ir.python_print(program, format=False)
    ir.assert_structural_equal(program, pl.parse(text))
    compiled = _compile(program)
    assert _regions_left(compiled) == []
    ir.python_print(compiled)


def _ifs_in_a_function(ifs: int) -> str:
    """A function whose innermost statement sits ``ifs + 1`` indentation levels in."""
    lines = ["@pl.function", "def f(n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:"]
    lines += ["    " * (level + 1) + "if n > 0:" for level in range(ifs)]
    lines += ["    " * (ifs + 1) + "n = n + 1", "    return n"]
    return "\n".join(lines) + "\n"


def test_python_itself_refuses_deeper_source():
    """Why the parser's depth test stops at 97 blocks in a method: CPython's tokenizer
    takes a statement 99 levels in and refuses one 100 levels in."""
    pl.parse(_ifs_in_a_function(_gen.PYTHON_MAX_DEPTH - 1))
    with pytest.raises(SyntaxError, match="too many levels of indentation"):
        pl.parse(_ifs_in_a_function(_gen.PYTHON_MAX_DEPTH))
    with pytest.raises(ValueError, match="exceeds what CPython can parse"):
        _gen.nested_source(_gen.DEEPEST_NEST + 1)


# -- width ------------------------------------------------------------------------------------

def test_10000_statement_function():
    source = _gen.flat_function_source(10_000)
    compiled = _compile(pl.parse(source))
    assert _regions_left(compiled) == []
    main = compiled.functions["main"]
    assert len(main.body.stmts) >= 10_000
    assert ir.python_print(compiled).count("\n") > 12_000


def test_2000_functions():
    source = _gen.many_functions_source(2_000)
    program = pl.parse(source)
    assert len(program.functions) == 2_000
    compiled = _compile(program)
    assert _regions_left(compiled) == []
    assert len(compiled.functions) > 2_000
    assert ir.python_print(compiled).count("@pl.function") == len(compiled.functions)

