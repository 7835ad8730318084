"""NoNestedCalls verifier (rule ``NoNestedCall``): three-address form.

No Call inside a call argument, an if/while condition, a for bound, a binary or
unary operand, or a return/yield value.  A Call at the root of an assignment's
value or an evaluated expression is fine.
"""

from __future__ import annotations

import enum

from ..._core_enum import CoreEnumRepr
from ...ir import expr as E
from ...ir import stmt as St
from ...ir.function import Program
from ...ir.node import Expr, Stmt
from ..diagnostic import Diagnostic
from .checks import CheckVerifier, StmtCheck
from .walk import callee_name, error, expr_children, stmt_exprs

__all__ = ["NoNestedCallsVerifier"]

RULE = "NoNestedCall"


class NestedCallErrorType(CoreEnumRepr, enum.IntEnum):
    """PyPTO's error codes of the NoNestedCall rule."""

    CALL_IN_CALL_ARGS = 201
    CALL_IN_IF_CONDITION = 202
    CALL_IN_FOR_RANGE = 203
    CALL_IN_BINARY_EXPR = 204
    CALL_IN_UNARY_EXPR = 205


def _nested_code(where: str) -> int:
    """The code for a call found in ``where`` (the context text of the message); 0 for
    the contexts PyPTO has no code for (return and yield values, while conditions)."""
    codes = NestedCallErrorType
    if where.startswith("an argument of "):
        return int(codes.CALL_IN_CALL_ARGS)
    if where == "an if condition":
        return int(codes.CALL_IN_IF_CONDITION)
    if where == "a for-loop bound":
        return int(codes.CALL_IN_FOR_RANGE)
    if where.startswith("an operand of "):
        binary = where.rsplit(" ", 1)[1] in _BINARY
        return int(codes.CALL_IN_BINARY_EXPR if binary else codes.CALL_IN_UNARY_EXPR)
    return 0


_BINARY = frozenset(cls.__name__ for cls in E.BinaryExpr.__subclasses__())


def _root_contexts(stmt: Stmt) -> list[tuple[Expr, str | None]]:
    """Each expression of ``stmt`` with the context that forbids a Call at its root."""
    if isinstance(stmt, (St.ReturnStmt, St.YieldStmt)):
        what = "a return value" if isinstance(stmt, St.ReturnStmt) else "a yield value"
        return [(value, what) for value in stmt.value]
    if isinstance(stmt, St.IfStmt):
        return [(stmt.condition, "an if condition")]
    if isinstance(stmt, St.WhileStmt):
        return ([(arg.initValue, None) for arg in stmt.iter_args]
                + [(stmt.condition, "a while condition")])
    if isinstance(stmt, St.ForStmt):
        return ([(bound, "a for-loop bound") for bound in (stmt.start, stmt.stop, stmt.step)]
                + [(arg.initValue, None) for arg in stmt.iter_args])
    return [(expr, None) for expr in stmt_exprs(stmt)]


def _check(root: Expr, context: str | None, stmt: Stmt, diagnostics: list[Diagnostic]) -> None:
    stack: list[tuple[Expr, str | None]] = [(root, context)]
    seen: set[int] = set()  # a sub-expression shared by hand-built IR: checked once
    while stack:
        node, where = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, (E.Call, E.Submit)):
            name = callee_name(node.op)
            if where is not None and isinstance(node, E.Call):
                diagnostics.append(error(RULE, _nested_code(where),
                                         f"Call to '{name}' is nested inside {where}",
                                         stmt.span))
            inner: str | None = f"an argument of '{name}'"
            items: list[tuple[Expr, str | None]] = [(arg, inner) for arg in node.args]
            items += [(child, where) for child in expr_children(node)[len(node.args):]]
        elif isinstance(node, E.BinaryExpr):
            inner = f"an operand of {type(node).__name__}"
            items = [(node.left, inner), (node.right, inner)]
        elif isinstance(node, E.UnaryExpr):
            items = [(node.operand, f"an operand of {type(node).__name__}")]
        else:
            items = [(child, where) for child in expr_children(node)]
        stack.extend(reversed(items))


class _NoNestedCallsCheck(StmtCheck):
    def __init__(self, program: Program, diagnostics: list[Diagnostic]) -> None:
        super().__init__(program, diagnostics)
        self.stmt_hooks = {Stmt: self.check}

    def check(self, stmt: Stmt, loop: Stmt | None) -> None:
        for root, context in _root_contexts(stmt):
            _check(root, context, stmt, self.diagnostics)


class NoNestedCallsVerifier(CheckVerifier):
    rule_name = RULE

    def make_check(self, program: Program, diagnostics: list[Diagnostic]) -> StmtCheck:
        return _NoNestedCallsCheck(program, diagnostics)
