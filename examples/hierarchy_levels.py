"""Execution levels: GLOBAL -> HOST -> CHIP -> CORE_GROUP.

``pl.at(level=..., role=...)`` marks the part of a function that runs at one level
of the machine hierarchy.  OutlineHierarchyScopes lifts every such region into an
Opaque function tagged with that level and role, innermost first, so the names
chain (``main_global_orch_0_host_orch_0_chip_0``).  ``pl.at(level=CORE_GROUP)`` is
different: it is the kernel boundary, and OutlineIncoreScopes turns it into an
InCore function.

Run it:  pypto compile examples/hierarchy_levels.py
"""
# pl.Tensor[[64], pl.FP32] takes dims and a dtype, not types: docs/guide/typing.md
# pyright: reportInvalidTypeArguments=false

from __future__ import annotations

from typing import TypeAlias

import pypto.language as pl

N = 256
Vector: TypeAlias = pl.Tensor[[N], pl.FP32]


@pl.program
class HierarchyLevels:
    @pl.function
    def main(self, x: Vector, out: pl.Out[Vector]) -> Vector:
        with pl.at(level=pl.Level.GLOBAL, role=pl.Role.Orchestrator):
            with pl.at(level=pl.Level.HOST, role=pl.Role.Orchestrator):
                with pl.at(level=pl.Level.CHIP):
                    with pl.at(level=pl.Level.CORE_GROUP):
                        t = pl.load(x, [0], [N])
                        y = pl.store(pl.exp(t), [0], out)
        return y


if __name__ == "__main__":
    from pypto import ir

    manager = ir.PassManager.get_strategy(ir.OptimizationStrategy.Default)
    print(manager.run_passes(HierarchyLevels).as_python())
