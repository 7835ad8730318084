"""Scalar-output hoisting in Graph functions (03-passes.md §10.3 step 2, §15).

A kernel returns its live-out scalars like any other output, as PyPTO's
outliner does.  Inside a Graph function that would hand a scalar from one
recorded task to the next, which a replayed graph cannot patch (the seed's
"a scalar derived inside the region has no argument slot").  So there a live-out
scalar computed only from constants, arithmetic and values that flow into the
scope is recomputed by the caller instead: its defining chain moves out of the
body, in body order, and is emitted just before the call, where
LegalizeGraphBoundary lifts it to the graph's call site.  Any other scalar (one
read from device data) stays a kernel output; LegalizeGraphBoundary judges how
the graph uses it.
"""

from __future__ import annotations

from typing import Callable

from ...ir import expr as E
from ...ir import stmt as St
from ...ir.node import Expr, Stmt

__all__ = ["hoist_scalar_outputs"]


def hoist_scalar_outputs(body: Stmt, live_scalars: list[E.Var]
                         ) -> tuple[Stmt, list[St.AssignStmt]]:
    """The body without the hoistable chains of ``live_scalars``, and those chains."""
    top = list(body.stmts) if isinstance(body, St.SeqStmts) else [body]
    defining: dict[E.Var, int] = {}
    assigns: dict[int, St.AssignStmt] = {}  # position in ``top`` -> the assignment there
    for i, stmt in enumerate(top):
        if isinstance(stmt, St.AssignStmt):
            defining[stmt.var] = i
            assigns[i] = stmt
    defined_inside = _all_definitions(body)
    memo: dict[E.Var, bool] = {}

    def hoistable(var: E.Var, stack: tuple = ()) -> bool:
        if var in memo:
            return memo[var]
        if var in stack:
            return False
        position = defining.get(var)
        ok = position is not None and _pure_scalar(
            assigns[position].value, lambda v: v not in defined_inside
            or hoistable(v, stack + (var,)))
        memo[var] = ok
        return ok

    # The chain: the hoistable live-out scalars and the body scalars they are computed from.
    wanted: set[E.Var] = set()
    stack = [var for var in live_scalars if hoistable(var)]
    while stack:
        item = stack.pop()
        if item in wanted or item not in defining or not memo.get(item):
            continue
        wanted.add(item)
        stack.extend(_vars(assigns[defining[item]].value))
    chosen = sorted(defining[v] for v in wanted)
    chosen_set = set(chosen)
    hoisted = [assigns[i] for i in chosen]
    keep = [stmt for i, stmt in enumerate(top) if i not in chosen_set]
    return St.SeqStmts.flatten(keep, body.span), hoisted


def _pure_scalar(expr: Expr, var_ok: Callable[[E.Var], bool]) -> bool:
    """Constants, scalar operators and acceptable Vars only (no calls)."""
    stack = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, (E.ConstInt, E.ConstFloat, E.ConstBool)):
            continue
        if isinstance(node, E.Var):
            if not var_ok(node):
                return False
        elif isinstance(node, E.BinaryExpr):
            stack.extend((node.left, node.right))
        elif isinstance(node, E.UnaryExpr):
            stack.append(node.operand)
        else:
            return False
    return True


def _vars(expr: Expr) -> list[E.Var]:
    out, stack = [], [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, E.Var):
            out.append(node)
        elif isinstance(node, E.BinaryExpr):
            stack.extend((node.left, node.right))
        elif isinstance(node, E.UnaryExpr):
            stack.append(node.operand)
    return out


def _all_definitions(body: Stmt) -> set[E.Var]:
    from ...ir.walk import def_sites, iter_stmts
    out: set[E.Var] = set()
    for stmt in iter_stmts(body):
        out.update(def_sites(stmt))
    return out
