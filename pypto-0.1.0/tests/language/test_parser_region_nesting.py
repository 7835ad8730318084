"""Regions inside device tasks: levels nest downwards, kernels launch no kernels.

A ``pl.at(level=CORE_GROUP)`` inside another left ``main`` returning a value that lived
in the kernel and an InCore calling an InCore; a HOST region inside a kernel is a host
inside a core.  The parser refuses them at the inner region (docs/guide/regions-and-levels.md).
"""

from __future__ import annotations

import pytest

import pypto.language as pl
from pypto import ir
from pypto.language.parser.diagnostics import ParserSyntaxError

from _parser_helpers import expect_text_error, stmts

HEADER = """\
import pypto.language as pl
@pl.function{decorator}
def f(x: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor[[64], pl.FP32]]) -> pl.Tensor[[64], pl.FP32]:
"""


def text(body: str, decorator: str = "") -> str:
    return HEADER.format(decorator=decorator) + body


@pytest.mark.parametrize("outer, inner, fragment", [
    ("with pl.at(level=pl.Level.CORE_GROUP):", "with pl.at(level=pl.Level.CORE_GROUP):",
     "pl.at(level=pl.Level.CORE_GROUP) cannot be nested inside pl.at(level=pl.Level.CORE_GROUP):"
     " its body is already one kernel"),
    ("with pl.at(level=pl.Level.CORE_GROUP):", "with pl.at(level=pl.Level.HOST):",
     "pl.at(level=pl.Level.HOST) cannot be nested inside pl.at(level=pl.Level.CORE_GROUP): a "
     "nested region runs at a lower level than the one around it"),
    ("with pl.at(level=pl.Level.CHIP_DIE):", "with pl.at(level=pl.Level.HOST):",
     "pl.at(level=pl.Level.HOST) cannot be nested inside pl.at(level=pl.Level.CHIP_DIE)"),
    ("with pl.at(level=pl.Level.CORE_GROUP):", "with pl.at(level=pl.Level.CHIP_DIE):",
     "pl.at(level=pl.Level.CHIP_DIE) cannot be nested inside pl.at(level=pl.Level.CORE_GROUP)"),
    ("with pl.cluster():", "with pl.at(level=pl.Level.CHIP):",
     "pl.at(level=pl.Level.CHIP) cannot be nested inside pl.cluster(): it runs on one core group"),
    ("for b in pl.spmd(4):", "with pl.at(level=pl.Level.CORE_GROUP):",
     "pl.at(level=pl.Level.CORE_GROUP) cannot be nested inside pl.spmd(): its body is already "
     "one kernel"),
])
def test_a_region_at_or_above_the_enclosing_device_task_is_refused(outer, inner, fragment):
    err = expect_text_error(text(f"""\
    {outer}
        t = pl.load(x, [0], [64])
        {inner}  # @inner
            out = pl.store(pl.exp(t), [0], out)
    return out
"""), ParserSyntaxError, fragment, "inner", "with")
    assert err.note == "the enclosing region starts at <string>:4"


def test_an_spmd_body_with_more_than_the_carrier_is_one_kernel():
    expect_text_error(text("""\
    with pl.spmd(4):
        b = pl.tile.get_block_idx()
        with pl.at(level=pl.Level.CORE_GROUP):  # @inner
            t = pl.load(x, [b * 16], [16])
    return out
"""), ParserSyntaxError, "cannot be nested inside pl.spmd(): its body is already one kernel",
        "inner", "with")


@pytest.mark.parametrize("launch, construct, token", [
    ("with pl.cluster():", "cluster", "with"),
    ("for b in pl.spmd(4):", "spmd", "pl.spmd"),
    ("with pl.spmd(4):", "spmd", "pl.spmd"),
])
@pytest.mark.parametrize("kernel, name", [
    ("with pl.at(level=pl.Level.CORE_GROUP):", "pl.at(level=pl.Level.CORE_GROUP)"),
    ("with pl.at(level=pl.Level.AIV):", "pl.at(level=pl.Level.AIV)"),
    ("for a in pl.spmd(2):", "pl.spmd()"),
])
def test_a_kernel_cannot_launch_kernels(launch, construct, token, kernel, name):
    err = expect_text_error(text(f"""\
    {kernel}
        {launch}  # @launch
            b = pl.tile.get_block_idx()
            t = pl.load(x, [b * 16], [16])
    return out
"""), ParserSyntaxError, f"pl.{construct}() cannot be nested inside {name}: a kernel cannot "
                        "launch kernels", "launch", token)
    assert err.hint == f"Put the pl.{construct}() region around the kernel code instead"


@pytest.mark.parametrize("func_type", ["InCore", "AIC", "AIV"])
def test_a_kernel_function_body_is_one_kernel(func_type):
    err = expect_text_error(text("""\
    with pl.at(level=pl.Level.CORE_GROUP):  # @inner
        t = pl.load(x, [0], [64])
        out = pl.store(t, [0], out)
    return out
""", decorator=f"(type=pl.FunctionType.{func_type})"), ParserSyntaxError,
        f"cannot be nested inside a @pl.function(type=pl.FunctionType.{func_type}): its body is "
        "already one kernel", "inner", "with")
    assert err.note is None


def test_the_nestings_a_program_uses_are_accepted():
    @pl.function
    def f(x: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor[[64], pl.FP32]]
          ) -> pl.Tensor[[64], pl.FP32]:
        with pl.at(level=pl.Level.GLOBAL):
            with pl.at(level=pl.Level.HOST):
                with pl.at(level=pl.Level.HOST):  # above CHIP any nesting is chained
                    with pl.at(level=pl.Level.CHIP_DIE):
                        with pl.cluster():
                            with pl.spmd(4):
                                with pl.at(level=pl.Level.CORE_GROUP):
                                    b = pl.tile.get_block_idx()
                                    with pl.at(level=pl.Level.AIV):
                                        t = pl.load(x, [b * 16], [16])
                                        out = pl.store(t, [b * 16], out)
        return out

    scope = stmts(f)[0]
    kinds = []
    while isinstance(scope, ir.ScopeStmt):
        kinds.append(type(scope).__name__)
        scope = scope.body if not isinstance(scope.body, ir.SeqStmts) else scope.body.stmts[-1]
    assert kinds == ["HierarchyScopeStmt"] * 4 + ["ClusterScopeStmt", "SpmdScopeStmt",
                                                   "InCoreScopeStmt", "HierarchyScopeStmt"]
