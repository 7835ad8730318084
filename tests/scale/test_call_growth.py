"""Every stage's Python call count doubles when its input doubles.

Counting calls (``benchmarks/bench_calls.py``) is the clock-free half of the scale
benchmark: load on a shared machine moves times by 20% but never a count, so a stage
that starts doing per-statement work over all earlier statements fails here, at any
size, on any machine.  Sizes are small (the counts' ratio is already within a
percent of 2 at these sizes) and the timings stay in ``bench_scale.py``.
"""

from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks"))
import bench_calls  # noqa: E402

# (shape, N): each stage is counted at N and 2N (functions for ``functions``,
# statements otherwise).  Both sizes stay below the length at which the parser reads
# text in pieces (``CHUNK_MIN_CHARS``): crossing it adds a fixed cost, a step in the
# count rather than growth, which would read as a bend here.
SIZES = [("flat", 400), ("functions", 32), ("nested", 400), ("regions", 300)]


@pytest.mark.parametrize(("shape", "size"), SIZES, ids=[s for s, _ in SIZES])
def test_every_stage_s_calls_grow_linearly(shape: str, size: int) -> None:
    counts = bench_calls.count(shape, [size, 2 * size])
    assert set(counts) >= {"parse", "ConvertToSSA", "OutlineIncoreScopes", "pipeline",
                           "print", "reparse"}
    growth = {stage: calls[1] / calls[0] for stage, calls in counts.items()}
    assert all(ratio <= bench_calls.CALLS_TARGET for ratio in growth.values()), growth


def test_a_quadratic_stage_is_caught() -> None:
    calls = [bench_calls.calls_of(lambda n: [list(range(i)) for i in range(n)], n)
             for n in (200, 400)]
    assert bench_calls.doublings(calls)[0] <= bench_calls.CALLS_TARGET  # C work: unseen
    calls = [bench_calls.calls_of(lambda n: [sum(1 for _ in range(i)) for i in range(n)], n)
             for n in (200, 400)]
    assert bench_calls.doublings(calls)[0] > 3.5  # Python work per earlier item: seen
