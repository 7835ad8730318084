"""The call an outliner puts in place of a region has the type the callee's signature
gives it: ``ScopeExtraction.make_call`` takes the return types as they are when no dim
can need substituting, and deduces otherwise (``deduce_call_return_type``)."""

from __future__ import annotations

import os
import sys

import pytest
from hypothesis import HealthCheck, given, settings

import pypto.language as pl
from pypto import ir
from pypto.ir.ops import deduce_call_return_type
from pypto.ir.walk import iter_calls

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "properties"))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "benchmarks"))

import _gen  # noqa: E402
from strategies import programs  # noqa: E402

_PIPELINE = ir.PassManager.get_strategy(ir.OptimizationStrategy.Default)


def _check_call_types(program: ir.Program) -> int:
    """Assert every call of a program function has its deduced type; the calls seen."""
    compiled = _PIPELINE.run_passes(program)
    seen = 0
    for func in compiled.functions.values():
        for call, _ in iter_calls(func.body):
            if type(call) is not ir.Call or not isinstance(call.op, ir.GlobalVar):
                continue
            callee = compiled.get_function(call.op.name)
            expected = deduce_call_return_type(callee.params, call.args, callee.return_types)
            ir.assert_structural_equal(call.type, expected)
            seen += 1
    return seen


@pytest.mark.parametrize("source", [
    _gen.many_functions_source(4), _gen.long_function_source(3), _gen.nested_source(12),
], ids=["functions", "long", "nested"])
def test_benchmark_shapes_calls_have_their_deduced_types(source):
    assert _check_call_types(pl.parse(source)) > 1


@settings(max_examples=20, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(generated=programs())
def test_random_programs_calls_have_their_deduced_types(generated):
    _check_call_types(pl.parse(generated.text))


def test_a_dynamic_dim_is_substituted_at_the_call():
    M = pl.dynamic("M")
    Dyn = pl.Tensor[[M, 32], pl.FP32]

    @pl.program
    class Program:
        @pl.function
        def main(self, d: Dyn, out: pl.Out[Dyn]) -> Dyn:
            with pl.at(level=pl.Level.CORE_GROUP):
                t = pl.load(d, [0, 0], [16, 32])
                out = pl.store(t, [0, 0], out)
            return out

    assert _check_call_types(Program) >= 1
