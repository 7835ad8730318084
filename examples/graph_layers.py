"""Graph regions: the OutlineGraphScopes design-note example as a runnable program.

Each loop iteration runs one ``pl.graph("accumulate_band")`` region.  The graph
runtime records the region's task topology once and replays it on later calls, so
the compiler lifts the region into its own ``FunctionType.Graph`` function and
leaves a call in the loop:

* OutlineGraphScopes turns the region into ``accumulate_band`` (a Graph function,
  level CHIP, role Orchestrator) and the region into ``self.accumulate_band(...)``;
* OutlineIncoreScopes then lifts the ``pl.at(CORE_GROUP)`` kernel out of it
  (``accumulate_band_incore_0``), exactly as it would for a hand-written
  ``@pl.jit.graph`` function;
* LegalizeGraphBoundary hoists ``base = i * ROWS`` to the call site: a scalar
  derived inside the region has no argument slot, so a replay would freeze it.

Run it:  pypto compile examples/graph_layers.py
"""
# pl.Tensor[[64], pl.FP32] takes dims and a dtype, not types: docs/guide/typing.md
# pyright: reportInvalidTypeArguments=false
from __future__ import annotations

from typing import TypeAlias

import pypto.language as pl

ROWS, COLS, LAYERS = 8, 16, 4
STACKED = LAYERS * ROWS  # a name: type checkers read dims that are names or literals
Weights: TypeAlias = pl.Tensor[[STACKED, COLS], pl.FP32]
Band: TypeAlias = pl.Tensor[[ROWS, COLS], pl.FP32]


@pl.program
class GraphLayers:
    @pl.function(type=pl.FunctionType.Orchestration)
    def entry(self, w: Weights, acc: pl.InOut[Band]) -> Band:
        for i in pl.range(LAYERS):
            with pl.graph("accumulate_band"):
                base = i * ROWS
                with pl.at(level=pl.Level.CORE_GROUP):
                    band = pl.load(w, [base, 0], [ROWS, COLS])
                    cur = pl.load(acc, [0, 0], [ROWS, COLS])
                    pl.store(pl.add(cur, band), [0, 0], acc)
        return acc


if __name__ == "__main__":
    from pypto import ir

    manager = ir.PassManager.get_strategy(ir.OptimizationStrategy.Default)
    print(manager.run_passes(GraphLayers).as_python())
