"""``break`` / ``continue`` / ``return`` that would leave an outlined region.

A ``pl.at`` / ``pl.graph`` / ``pl.cluster`` / ``pl.spmd`` region becomes a function of
its own; a jump out of it would land in that function (the loop's exit lost, the
caller's early return moved into the kernel).  The parser refuses it at the jump
(docs/guide/regions-and-levels.md, "Control flow and regions").
"""

from __future__ import annotations

import pytest

import pypto.language as pl
from pypto import ir
from pypto.language.parser.diagnostics import InvalidOperationError

from _parser_helpers import expect_text_error, stmts

HEADER = """\
import pypto.language as pl
@pl.function
def f(x: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[64], pl.FP32]]) -> pl.Tensor[[64], pl.FP32]:
"""

REGIONS = [
    ("with pl.at(level=pl.Level.CORE_GROUP):", "pl.at(level=pl.Level.CORE_GROUP)"),
    ("with pl.at(level=pl.Level.HOST):", "pl.at(level=pl.Level.HOST)"),
    ('with pl.graph("layer"):', 'pl.graph("layer")'),
    ("with pl.cluster():", "pl.cluster()"),
    ("for b in pl.spmd(4):", "pl.spmd()"),
]


@pytest.mark.parametrize("word", ["break", "continue"])
@pytest.mark.parametrize("header, name", REGIONS)
def test_break_continue_out_of_a_region_is_refused_at_the_jump(header, name, word):
    err = expect_text_error(HEADER + f"""\
    for i in pl.range(n):
        {header}
            y = pl.add(x, x)
            if i > 2:
                {word}  # @jump
    return out
""", InvalidOperationError, f"'{word}' inside {name} cannot leave the region", "jump", word)
    assert "the loop at line 4 is not in it" in str(err)
    assert err.hint and "before or after the `with` block" in err.hint


@pytest.mark.parametrize("header, name", REGIONS)
def test_return_inside_a_region_is_refused_at_the_return(header, name):
    err = expect_text_error(HEADER + f"""\
    for i in pl.range(n):
        {header}
            y = pl.add(x, x)
            return y  # @ret
    return out
""", InvalidOperationError, f"'return' inside {name} cannot leave the region", "ret", "return")
    assert "would return from that function, not from 'f'" in str(err)


def test_return_as_the_last_statement_of_a_region_is_refused_too():
    expect_text_error(HEADER + """\
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0], [64])
        out = pl.store(pl.exp(t), [0], out)
        return out  # @ret
""", InvalidOperationError, "'return' inside pl.at(level=pl.Level.CORE_GROUP) cannot leave "
                            "the region", "ret", "return")


def test_the_innermost_outlined_region_is_named():
    expect_text_error(HEADER + """\
    for i in pl.range(n):
        with pl.at(level=pl.Level.HOST):
            with pl.at(level=pl.Level.CORE_GROUP):
                break  # @jump
    return out
""", InvalidOperationError, "'break' inside pl.at(level=pl.Level.CORE_GROUP) cannot",
        "jump", "break")


def test_a_loop_inside_the_region_may_break_and_continue():
    @pl.function
    def f(x: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:
        y = x
        for i in pl.range(n):
            with pl.at(level=pl.Level.HOST):
                for j in pl.range(n):
                    if j > 2:
                        break
                    y = pl.add(y, x)
                    continue
        return y

    loop = stmts(f)[1]
    assert isinstance(loop.body, ir.HierarchyScopeStmt)


def test_jumps_through_a_runtime_scope_stay_allowed():
    # pl.scope is not outlined: its body stays in the loop.
    @pl.function(auto_scope=False)
    def f(n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        k = 0
        for i in pl.range(n):
            with pl.scope():
                if i > 2:
                    break
                k = k + i
        return k

    assert isinstance(stmts(f)[1].body, ir.RuntimeScopeStmt)


def test_the_loop_after_the_region_is_the_supported_spelling():
    """What the hint says to write: the region computes, the loop tests and breaks."""
    @pl.function
    def f(x: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX],
          out: pl.Out[pl.Tensor[[64], pl.FP32]]) -> pl.Tensor[[64], pl.FP32]:
        for i in pl.range(n):
            with pl.at(level=pl.Level.CORE_GROUP):
                t = pl.load(x, [0], [64])
                out = pl.store(pl.exp(t), [0], out)
            if i > 2:
                break
        return out

    program = ir.Program([f], "P")
    compiled = ir.PassManager.get_strategy().run_passes(program)
    main = compiled.get_function("f")
    assert "break" in ir.python_print(main)
