"""Statement-level edits the outliner makes in the bodies it rewrites: finding the
assignments of a block, spotting the parser's task-id placeholder, and appending
carried values to the yield that ends a loop or branch body."""

from __future__ import annotations

from typing import Any

from ...ir import expr as E
from ...ir import scope as S
from ...ir import stmt as St
from ...ir.node import Expr, Stmt

__all__ = ["top_level_assigns", "is_task_id_placeholder", "extend_trailing_yield"]


def top_level_assigns(stmt: Stmt) -> list[St.AssignStmt]:
    """Assignments of ``stmt``'s own block, in order (scope bodies run once, in place)."""
    out: list[St.AssignStmt] = []
    stack = [stmt]
    while stack:
        node = stack.pop()
        if isinstance(node, St.AssignStmt):
            out.append(node)
        elif isinstance(node, St.SeqStmts):
            stack.extend(reversed(node.stmts))
        elif isinstance(node, S.ScopeStmt):
            stack.append(node.body)
    return out


def is_task_id_placeholder(stmt: Stmt, following: Stmt, target: type[S.ScopeStmt]) -> bool:
    if not (isinstance(stmt, St.AssignStmt) and isinstance(following, target)):
        return False
    value = stmt.value
    return (isinstance(value, E.Call) and value.op.name == "system.task_invalid"
            and following._attrs.get("task_id_var") is stmt.var)


def extend_trailing_yield(body: Stmt, values: list[Expr], span: Any) -> Stmt:
    """Append ``values`` to the yield ending ``body`` (creating one if there is none)."""
    if isinstance(body, St.YieldStmt):
        return body.replace(value=body.value + tuple(values))
    if isinstance(body, St.SeqStmts) and body.stmts:
        last = body.stmts[-1]
        if isinstance(last, (St.YieldStmt, S.RuntimeScopeStmt)):
            new_last = extend_trailing_yield(last, values, span)
            return St.SeqStmts.flatten([*body.stmts[:-1], new_last], span)
    if isinstance(body, S.RuntimeScopeStmt):
        inner = body.body
        if _ends_in_yield(inner):
            return body.replace(body=extend_trailing_yield(inner, values, span))
        # A body that is only a runtime scope: the yield follows the scope.
        return St.SeqStmts.flatten([body, St.YieldStmt(list(values), span)], span)
    return St.SeqStmts.flatten([body, St.YieldStmt(list(values), span)], span)


def _ends_in_yield(body: Stmt) -> bool:
    while True:
        if isinstance(body, St.YieldStmt):
            return True
        if isinstance(body, St.SeqStmts) and body.stmts:
            body = body.stmts[-1]
        elif isinstance(body, S.RuntimeScopeStmt):
            body = body.body
        else:
            return False
