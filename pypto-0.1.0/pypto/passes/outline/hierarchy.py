"""OutlineHierarchyScopes: ``with pl.at(level=..., role=...)`` regions become Opaque
functions carrying the scope's level and role (seed: OutlineHierarchyScopes).

Only Opaque functions are processed, and the parent keeps its type: hierarchy
level is orthogonal to FunctionType.  Names are ``{func}_{level}[_{role}]_{n}``
with canonical level names (aliases resolved), nested regions chaining
(``main_global_orch_0_host_orch_0``).  Store targets are not exported: the
buffer is already visible to the caller through its argument.
"""

from __future__ import annotations

from ...errors import InternalError
from ...ir.enums import FunctionType, Level, Role
from ...ir.function import Program
from ...ir.scope import HierarchyScopeStmt
from .driver import find_scopes, has_scope, outline_program
from .outliner import OutlineConfig

__all__ = ["transform", "CONFIG", "LEVEL_SUFFIX", "ROLE_SUFFIX"]

LEVEL_SUFFIX = {
    Level.AIV: "aiv", Level.AIC: "aic", Level.CORE_GROUP: "core_group",
    Level.CHIP_DIE: "chip_die", Level.CHIP: "chip", Level.HOST: "host",
    Level.CLUSTER_0: "cluster0", Level.CLUSTER_1: "cluster1", Level.CLUSTER_2: "cluster2",
    Level.GLOBAL: "global",
}
ROLE_SUFFIX = {Role.Orchestrator: "orch", Role.SubWorker: "sub_worker"}


def _suffix(scope: HierarchyScopeStmt) -> str:
    role = f"_{ROLE_SUFFIX[scope.role]}" if scope.role is not None else ""
    return f"_{LEVEL_SUFFIX[scope.level]}{role}_"


CONFIG = OutlineConfig(
    pass_name="OutlineHierarchyScopes",
    target=HierarchyScopeStmt,
    name_suffix=_suffix,
    signature=lambda scope: (FunctionType.Opaque, scope.level, scope.role),
    export_store_targets=False,
)


def transform(program: Program) -> Program:
    for func in program._functions.values():
        if not has_scope(func, HierarchyScopeStmt):
            continue
        for scope in find_scopes(func, HierarchyScopeStmt):
            if "predicate" in scope._attrs:
                raise InternalError(
                    f"OutlineHierarchyScopes: a pl.at(level={scope.level.name}) scope in "
                    f"function '{func.name}' carries a dispatch predicate, which outlining "
                    "would drop; the parser must reject it")
    result, _ = outline_program(program, CONFIG,
                                lambda f: f.func_type is FunctionType.Opaque)
    return result
