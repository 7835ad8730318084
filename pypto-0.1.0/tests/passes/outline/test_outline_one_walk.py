"""The one-walk region move (``outline/move.py``) against the two-walk path it replaces.

``extract_scope`` moves a region body in one walk (facts and rebuild together) and
falls back to two walks (``BodyFacts`` then the rewriter) when a type mentions a
Var.  Both must give the same program, name for name: every test here compiles
with the one-walk move allowed and with it switched off, and compares.
"""

from __future__ import annotations

import os
import sys

import pytest
from hypothesis import HealthCheck, given, settings

import pypto.language as pl
from pypto import ir
from pypto.passes.outline import extract

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "properties"))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "benchmarks"))

import _gen  # noqa: E402
from strategies import programs  # noqa: E402

T = pl.Tensor[[16, 32], pl.FP32]


_PASSES = ir.PassManager.get_strategy(ir.OptimizationStrategy.Default).passes
_FIRST_OUTLINER = next(i for i, p in enumerate(_PASSES) if p.get_name().startswith("Outline"))


def _run(program: ir.Program, passes: list) -> ir.Program:
    for p in passes:
        program = p(program)
    return program


def _both_ways(program: ir.Program) -> tuple[str, list]:
    """The compiled text with the one-walk move, after checking the two-walk text equals
    it; also what each region's move returned (``None``: it fell back)."""
    # The passes before the outliners run once: InlineFunctions names from a process-wide
    # counter, so two full compiles would differ in those names alone.
    program = _run(program, _PASSES[:_FIRST_OUTLINER])
    outliners = _PASSES[_FIRST_OUTLINER:]
    outcomes: list = []
    one_walk = extract._move_body

    def spying(*args, **kwargs):
        result = one_walk(*args, **kwargs)
        outcomes.append(result)
        return result

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(extract, "_move_body", spying)
        fast = _run(program, outliners)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(extract, "_move_body", lambda *args, **kwargs: None)
        slow = _run(program, outliners)
    ir.assert_structural_equal(fast, slow)
    fast_text = ir.python_print(fast)
    assert fast_text == ir.python_print(slow)
    return fast_text, outcomes


@settings(max_examples=25, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(generated=programs())
def test_random_programs_compile_the_same_either_way(generated):
    _both_ways(pl.parse(generated.text))


@pytest.mark.parametrize("source", [
    _gen.many_functions_source(8), _gen.long_function_source(3), _gen.nested_source(30),
], ids=["functions", "long", "nested"])
def test_benchmark_shapes_compile_the_same_either_way(source):
    _, outcomes = _both_ways(pl.parse(source))
    assert outcomes and all(result is not None for result in outcomes)  # all in one walk


def test_a_dynamic_dim_falls_back_and_takes_back_the_names_it_minted():
    M = pl.dynamic("M")
    Dyn = pl.Tensor[[M, 32], pl.FP32]

    @pl.program
    class Program:
        @pl.function
        def main(self, a: T, d: Dyn, out: pl.Out[T]) -> T:
            with pl.at(level=pl.Level.CORE_GROUP):
                t = pl.load(a, [0, 0], [16, 32])
                pl.store(t, [0, 0], out)  # the one walk mints out__store here ...
                u = pl.load(d, [0, 0], [16, 32])  # ... then meets a dynamic dim
                pl.store(pl.add(t, u), [0, 0], out)
            return out

    text, outcomes = _both_ways(Program)
    assert outcomes == [None]  # the region fell back to two walks
    # The two-walk path minted `out__store` as if the one walk had never tried: without
    # the rollback it would have found the name taken and minted `out__store__ssa_v0`.
    assert "out__store: " in text and "out__store__" not in text
