"""OutlineClusterScopes: ``pl.cluster()`` regions become Group functions and standalone
``pl.spmd(n)`` regions become Spmd functions (03-passes.md §14).

A Spmd scope inside a cluster is unwrapped into its Group, and its launch spec
(``core_num``, ``sync_start``) moves to the *call* of the Group -- translated
from the Group's params to the call's arguments -- because the block count may
be a value the caller computes.  Standalone Spmd scopes are outlined the same
way: the launch spec always rides on the call, never on the callee.
"""

from __future__ import annotations

from typing import Any

from ...errors import InternalError
from ...ir import expr as E
from ...ir.dtype import DataType
from ...ir.enums import FunctionType
from ...ir.function import Function, Program
from ...ir.node import Expr, Stmt
from ...ir.scope import ClusterScopeStmt, SpmdScopeStmt
from ...ir.visitor import IRMutator
from ...ir.walk import def_sites, iter_stmts, iter_var_uses
from ..diagnostic import PassError, PassErrorCode
from ..names import source_name
from .driver import outline_program
from .outliner import OutlineConfig, Renamer

__all__ = ["transform", "CLUSTER_CONFIG", "SPMD_CONFIG"]

_PROCESSED = (FunctionType.Opaque, FunctionType.Orchestration, FunctionType.Graph)


def _attr_value(expr: Expr) -> Any:
    """Call attrs hold plain ints for INDEX literals: that is what ``4`` reparses to."""
    if isinstance(expr, E.ConstInt) and expr.dtype is DataType.INDEX:
        return expr.value
    return expr


def _launch_attrs(scope: SpmdScopeStmt) -> dict[str, Any]:
    attrs: dict[str, Any] = {"core_num": _attr_value(scope.core_num)}
    if scope.sync_start:
        attrs["sync_start"] = True
    return attrs


CLUSTER_CONFIG = OutlineConfig(
    pass_name="OutlineClusterScopes",
    target=ClusterScopeStmt,
    name_suffix=lambda scope: "_cluster_",
    signature=lambda scope: (FunctionType.Group, None, None),
    use_program=True,
)

SPMD_CONFIG = OutlineConfig(
    pass_name="OutlineClusterScopes",
    target=SpmdScopeStmt,
    name_suffix=lambda scope: "_spmd_",
    signature=lambda scope: (FunctionType.Spmd, None, None),
    call_attrs=_launch_attrs,
    use_program=True,
)


def _unwrap_spmd(group: Function) -> tuple[Function, SpmdScopeStmt | None]:
    """Replace the Group's Spmd scope by its body; return the scope removed."""
    scopes = [s for s in iter_stmts(group.body) if isinstance(s, SpmdScopeStmt)]
    if not scopes:
        return group, None
    if len(scopes) > 1:
        raise InternalError(f"OutlineClusterScopes: Group '{group.name}' holds "
                            f"{len(scopes)} pl.spmd() scopes; a cluster launches one")
    scope = scopes[0]
    if any(k in scope._attrs for k in ("task_id_var", "manual_dep_edges",
                                       "allow_early_resolve", "predicate")):
        raise InternalError(f"OutlineClusterScopes: the pl.spmd() inside Group '{group.name}' "
                            "carries dispatch options; the parser must reject them")

    class Unwrap(IRMutator):
        def visit_spmd_scope_stmt(self, op: SpmdScopeStmt) -> Stmt:
            return op.body if op is scope else super().visit_spmd_scope_stmt(op)

    body = Unwrap()(group.body)
    attrs = dict(group._attrs)
    attrs["spmd_unwrapped"] = True
    return group.replace(body=body, _attrs=attrs), scope


class _LaunchSpecMover(IRMutator):
    """Puts core_num / sync_start on every call of the Groups that lost a Spmd scope."""

    def __init__(self, launches: dict[str, tuple[Function, SpmdScopeStmt, set]]) -> None:
        super().__init__()
        self.launches = launches

    def visit_call(self, op: E.Call) -> Expr:
        new = super().visit_call(op)
        if not isinstance(new, E.Call):
            return new
        found = self.launches.get(new.op.name)
        if found is None:
            return new
        group, scope, group_locals = found
        core_num = Renamer(dict(zip(group.params, new.args)))(scope.core_num)
        for var in iter_var_uses(core_num):
            if var in group_locals:
                raise PassError(
                    f"pl.spmd() block count references '{source_name(var.name_hint)}', which "
                    "is defined inside the enclosing pl.cluster(); compute it before "
                    "`with pl.cluster():`",
                    scope.span, code=PassErrorCode.BLOCK_COUNT_FROM_CLUSTER)
        attrs = dict(new._attrs)
        attrs["core_num"] = _attr_value(core_num)
        if scope.sync_start:
            attrs["sync_start"] = True
        return new.replace(_attrs=attrs)


def _locals(group: Function) -> set[E.Var]:
    found: set[E.Var] = set()
    for stmt in iter_stmts(group.body):
        found.update(def_sites(stmt))
    return found


def transform(program: Program) -> Program:
    reserved = set(program._functions)
    processes = lambda f: f.func_type in _PROCESSED  # noqa: E731
    # The Spmd run does not verify again what the Cluster run verified or made: neither
    # unwrapping a Spmd scope (scopes open no SSA scope) nor a launch attr changes SSA form.
    ssa_known: set[str] = set()
    result, groups = outline_program(program, CLUSTER_CONFIG, processes, reserved=reserved,
                                     ssa_known=ssa_known)
    if groups:
        launches: dict[str, tuple[Function, SpmdScopeStmt, set]] = {}
        functions = dict(result._functions)
        for group in groups:
            unwrapped, scope = _unwrap_spmd(group)
            if scope is not None:
                functions[group.name] = unwrapped
                launches[group.name] = (group, scope, _locals(group))
        if launches:
            mover = _LaunchSpecMover(launches)
            for name, func in list(functions.items()):
                if func.func_type in _PROCESSED:
                    functions[name] = mover(func)
        result = result.with_functions(functions.values())
    final, _ = outline_program(result, SPMD_CONFIG, processes, reserved=reserved,
                               lookup_program=result, ssa_known=ssa_known)
    return final
