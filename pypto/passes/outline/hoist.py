"""Scalar-output hoisting (03-passes.md §10.3 step 2).

A device kernel cannot return a scalar.  A live-out scalar computed only from
constants, arithmetic and values that flow into the scope is recomputed by the
caller instead: its defining chain moves out of the body, in body order, and
is emitted just before the call.  Anything else (a scalar read from device
data) is an error the user must resolve.
"""

from __future__ import annotations

from typing import Callable

from ...ir import expr as E
from ...ir import stmt as St
from ...ir.node import Expr, Stmt
from ..diagnostic import PassError, PassErrorCode
from ..names import base_name

__all__ = ["hoist_scalar_outputs"]


def hoist_scalar_outputs(body: Stmt, live_scalars: list[E.Var], pass_name: str,
                         func_name: str, scope_name: str) -> tuple[Stmt, list[St.AssignStmt]]:
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

    for var in live_scalars:
        if not hoistable(var):
            raise PassError(
                f"the scope outlined as '{scope_name}' in function '{func_name}' "
                f"computes scalar '{base_name(var.name_hint)}' from device-side data and uses it after the "
                "scope; a device kernel cannot return a scalar", var.span,
                code=PassErrorCode.KERNEL_RETURNS_SCALAR, pass_name=pass_name,
                hint="Write the value into a [1] tensor, or compute it before the scope")
    # The chain: the live-out scalars and the body scalars they are computed from.
    wanted: set[E.Var] = set()
    stack = list(live_scalars)
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
