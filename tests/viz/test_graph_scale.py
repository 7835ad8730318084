"""Drawing is linear in the program: the doubling ratio of ``draw_program`` on a
compiled program with many Graph functions stays near 2 (no quadratic layout)."""

from __future__ import annotations

import os
import sys

import pypto.language as pl
from pypto import ir, passes
from pypto.viz import draw_program

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks"))
from _timing import best_pair  # noqa: E402

MAX_DOUBLING = 2.3


def _graphs(count: int) -> tuple[ir.Program, ir.Program]:
    lines = ["import pypto.language as pl", "T = pl.Tensor[[64], pl.FP32]", "@pl.program",
             "class P:", "    @pl.function(type=pl.FunctionType.Orchestration)",
             "    def main(self, x: T, acc: pl.InOut[T]) -> T:"]
    for i in range(count):
        lines += [f"        with pl.graph('g{i}'):",
                  "            with pl.at(level=pl.Level.CORE_GROUP):",
                  "                t = pl.add(pl.load(x, [0], [64]), pl.load(acc, [0], [64]))",
                  "                pl.store(t, [0], acc)"]
    source = pl.parse("\n".join(lines + ["        return acc", ""]))
    with passes.PassContext([], verification_level=passes.VerificationLevel.NONE):
        compiled = ir.PassManager.get_strategy().run_passes(source)
    return source, compiled


def test_drawing_scales_linearly():
    small, large = _graphs(200), _graphs(400)
    assert len(large[1].functions) == 801
    t_small, t_large = best_pair(lambda: draw_program(*small), lambda: draw_program(*large),
                                 repeats=5)
    assert t_large / t_small <= MAX_DOUBLING, (t_small, t_large)
