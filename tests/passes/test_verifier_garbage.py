"""Verification leaves no reference cycles behind.

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


def _stages() -> list[ir.Program]:
    program = pl.parse(_gen.many_functions_source(8))
    out = [program]
    with passes.PassContext([], verification_level=passes.VerificationLevel.NONE):
        for each in ir.PassManager.get_strategy(ir.OptimizationStrategy.Default).passes:
            out.append(each(out[-1]))
    return out


STAGES = _stages()


def _verifier_garbage(run) -> list[str]:
    """Classes of the ``pypto.passes`` objects ``run()`` leaves in reference cycles."""
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
