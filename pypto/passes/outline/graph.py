"""OutlineGraphScopes: ``with pl.graph("name")`` regions become ``FunctionType.Graph``
functions (seed: OutlineGraphScopes).

The point is convergence: afterwards a region marked in place and a function
decorated ``@pl.jit.graph`` have one shape (a Graph function plus a call), so
nothing downstream needs to know which form the user wrote.  The region name
is the function name (it is the runtime's graph key, so it is never
generated); same-name regions are disambiguated, never merged.  The parent's
type is unchanged.  Nested regions and regions left in functions this pass does
not outline are errors, never silent skips.
"""

from __future__ import annotations

from ...ir.enums import FunctionType
from ...ir.function import Function, Program
from ...ir.node import Stmt
from ...ir.scope import GraphScopeStmt
from ...ir.span import Span
from ...ir.walk import stmt_children as _children
from ..diagnostic import PassError, PassErrorCode
from .driver import has_scope, outline_program
from .outliner import OutlineConfig

PASS_NAME = "OutlineGraphScopes"

__all__ = ["transform", "CONFIG", "check_no_nested_graphs"]

_PROCESSED = (FunctionType.Opaque, FunctionType.Orchestration, FunctionType.Graph)

CONFIG = OutlineConfig(
    pass_name=PASS_NAME,
    target=GraphScopeStmt,
    name_suffix=lambda scope: "_graph_",
    # Level/role are derived (CHIP / Orchestrator) by the Function constructor, exactly
    # as for a @pl.jit.graph function.
    signature=lambda scope: (FunctionType.Graph, None, None),
    use_program=True,
    bind_store_targets=False,
)


def check_no_nested_graphs(func: Function) -> bool:
    """Reject a GraphScopeStmt inside another (however the IR was built).

    Returns whether ``func`` holds any region.  The runtime would silently
    replay a nested region as plain submits, so this must be a compile error.
    """
    found = False
    stack: list[tuple[Stmt, GraphScopeStmt | None]] = [(func.body, None)]
    while stack:
        stmt, enclosing = stack.pop()
        if isinstance(stmt, GraphScopeStmt):
            if enclosing is not None:
                raise PassError(
                    f'pl.graph("{stmt.name_hint}") is nested inside pl.graph('
                    f'"{enclosing.name_hint}") in function \'{func.name}\'. The host_build_graph '
                    "runtime cannot record a graph inside a graph, so keep the regions disjoint",
                    stmt.span, code=PassErrorCode.NESTED_GRAPH, pass_name=PASS_NAME)
            found = True
            enclosing = stmt
        for child in _children(stmt):
            stack.append((child, enclosing))
    return found


def _first_graph_span(func: Function) -> Span:
    """Where the first graph region of ``func`` starts (its ``with`` statement)."""
    stack: list[Stmt] = [func.body]
    while stack:
        stmt = stack.pop()
        if isinstance(stmt, GraphScopeStmt):
            return stmt.span
        stack.extend(reversed(_children(stmt)))
    return func.span


def transform(program: Program) -> Program:
    holding: set[str] = set()
    for func in program._functions.values():
        if has_scope(func, GraphScopeStmt) and check_no_nested_graphs(func):
            holding.add(func.name)
            if func.func_type not in _PROCESSED:
                raise PassError(
                    f"pl.graph(...) survives in function '{func.name}' "
                    f"(func_type={func.func_type.name}), which OutlineGraphScopes does not "
                    "outline. Run InlineFunctions before OutlineGraphScopes",
                    _first_graph_span(func), code=PassErrorCode.REGION_NOT_OUTLINED,
                    pass_name=PASS_NAME)
    if not holding:
        return program
    result, _ = outline_program(program, CONFIG, lambda f: f.name in holding)
    return result

