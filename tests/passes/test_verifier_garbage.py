"""Verification, and each pass of the Default pipeline, leave no reference cycles behind.

A verifier object that points at itself (a table of its own bound methods) is freed
only by the cycle collector, and keeps the program it verified alive until then --
under ``pypto compile``, which pauses the collector, until the process exits.  So every
verifier, alone and fused, is run with the collector paused and must leave no garbage
of its own.
"""

from __future__ import annotations

import gc
import os
import sys

import pytest

import pypto.language as pl
from pypto import ir, passes
from pypto.passes import IRProperty as P

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks"))

import _gen  # noqa: E402

REGISTRY = passes.PropertyVerifierRegistry


PIPELINE = ir.PassManager.get_strategy(ir.OptimizationStrategy.Default).passes


def _stages(source: str) -> list[ir.Program]:
    program = pl.parse(source)
    out = [program]
    with passes.PassContext([], verification_level=passes.VerificationLevel.NONE):
        for each in PIPELINE:
            out.append(each(out[-1]))
    return out


STAGES = _stages(_gen.many_functions_source(8))
# loops, carries, escapes and if-phis for ConvertToSSA; regions of every kind
PASS_STAGES = STAGES + _stages(_gen.deep_nests_source(1)) + _stages(_gen.long_function_source(2))


def _verifier_garbage(run) -> list[str]:
    """Classes of the ``pypto.passes`` objects ``run()`` leaves in reference cycles (a
    verifier's or a pass's)."""
    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        run()
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        found = sorted({type(obj).__qualname__ for obj in gc.garbage
                        if type(obj).__module__.startswith("pypto.passes")})
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was_enabled:
            gc.enable()
    return found


@pytest.mark.parametrize("prop", list(P), ids=lambda p: p.name)
def test_each_verifier_alone_leaves_no_cycle(prop):
    def run():
        for program in STAGES:
            REGISTRY.verify(passes.IRPropertySet([prop]), program)
    assert _verifier_garbage(run) == []


def test_all_verifiers_fused_leave_no_cycle():
    every = passes.IRPropertySet(list(P))

    def run():
        for program in STAGES:
            REGISTRY.verify(every, program)
    assert _verifier_garbage(run) == []


@pytest.mark.parametrize("index", range(len(PIPELINE)), ids=lambda i: PIPELINE[i].name)
def test_each_pass_leaves_no_cycle(index):
    # ConvertToSSA's converter and read rewriter kept tables of their own bound methods
    inputs = PASS_STAGES[index::len(PIPELINE) + 1]

    def run():
        with passes.PassContext([], verification_level=passes.VerificationLevel.NONE):
            for program in inputs:
                PIPELINE[index](program)
    assert _verifier_garbage(run) == []
