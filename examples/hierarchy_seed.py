"""The OutlineHierarchyScopes design-note examples.

Two programs live in this file, so pick one with ``--entry``:

    pypto compile examples/hierarchy_seed.py --entry SingleScope
    pypto compile examples/hierarchy_seed.py --entry NestedScopes -p convert-to-ssa,outline-hierarchy-scopes

* ``SingleScope``: one ``pl.at(HOST, Orchestrator)`` region becomes
  ``main_host_orch_0``, an Opaque function carrying level HOST and role
  Orchestrator; ``main`` stays Opaque and calls it.
* ``NestedScopes``: the inner HOST region is outlined first, then the outer GLOBAL
  one, so the names chain: ``main_global_orch_0`` calls
  ``main_global_orch_0_host_orch_0``.
"""
# pl.Tensor[[64], pl.FP32] takes dims and a dtype, not types: docs/guide/typing.md
# pyright: reportInvalidTypeArguments=false

from __future__ import annotations

from typing import TypeAlias

import pypto.language as pl

Vector: TypeAlias = pl.Tensor[[64], pl.FP32]


@pl.program
class SingleScope:
    @pl.function  # Opaque: the pass never changes the parent's type
    def main(self, x: Vector) -> Vector:
        with pl.at(level=pl.Level.HOST, role=pl.Role.Orchestrator):
            y: Vector = pl.add(x, x)
        return y


@pl.program
class NestedScopes:
    @pl.function
    def main(self, x: Vector) -> Vector:
        with pl.at(level=pl.Level.GLOBAL, role=pl.Role.Orchestrator):
            y: Vector = pl.add(x, x)
            with pl.at(level=pl.Level.HOST, role=pl.Role.Orchestrator):
                z: Vector = pl.mul(y, y)
        return z


if __name__ == "__main__":
    from pypto import passes

    outline = passes.build_pipeline("convert-to-ssa,outline-hierarchy-scopes")
    for program in (SingleScope, NestedScopes):
        print(outline.run(program).as_python())
        print()
