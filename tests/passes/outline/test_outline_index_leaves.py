"""The outline index's leaf fast paths against its generic statement walk.

``FunctionIndex`` records assignments and yields without the generic per-kind
lookups (``_leaf``; inside target scopes its expression walk also records stores).  Every record must be what the generic
``_walk`` gives: here each function of each outliner's input is indexed both ways,
for every outliner's target kind, and every table is compared.
"""

from __future__ import annotations

import os
import sys

import pytest
from hypothesis import HealthCheck, given, settings

import pypto.language as pl
from pypto import ir
from pypto import passes as P
from pypto.ir import scope as S
from pypto.passes.outline.index import FunctionIndex

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "properties"))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "benchmarks"))

import _gen  # noqa: E402
from strategies import programs  # noqa: E402

_PASSES = ir.PassManager.get_strategy(ir.OptimizationStrategy.Default).passes
_TARGETS = [(S.GraphScopeStmt, True), (S.InCoreScopeStmt, True), (S.ClusterScopeStmt, True),
            (S.SpmdScopeStmt, True), (S.HierarchyScopeStmt, False)]


class _GenericIndex(FunctionIndex):
    """Every statement through ``_walk`` (the reference the fast paths must match)."""

    def _leaf(self, stmt, kind, in_target=False):
        self._walk(stmt)


def _records(index: FunctionIndex) -> dict:
    return {name: getattr(index, name) for name in (
        "pos", "end", "ref_positions", "def_pos", "_refs_upto", "_defs_at", "contains",
        "_store_positions", "_store_vars", "_store_scope_starts", "escaping")} | {
        "refs_at": [sorted(map(id, refs)) for refs in index._refs_at],
        "def_order": list(index.def_pos)}


def _compare_at_every_outliner(program: ir.Program) -> int:
    compared = 0
    with P.PassContext([], verification_level=P.VerificationLevel.NONE):
        for p in _PASSES:
            if p.get_name().startswith("Outline"):
                for func in program._functions.values():
                    for target, stores in _TARGETS:
                        fast = FunctionIndex(func.body, target, stores)
                        generic = _GenericIndex(func.body, target, stores)
                        assert _records(fast) == _records(generic), (func.name, target)
                        compared += 1
            program = p(program)
    return compared


@settings(max_examples=25, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(generated=programs())
def test_random_programs_index_the_same_either_way(generated):
    _compare_at_every_outliner(pl.parse(generated.text))


@pytest.mark.parametrize("source", [
    _gen.many_functions_source(8), _gen.long_function_source(3), _gen.nested_source(30),
    _gen.flat_function_source(40),
], ids=["functions", "long", "nested", "flat"])
def test_benchmark_shapes_index_the_same_either_way(source):
    assert _compare_at_every_outliner(pl.parse(source)) > 0
