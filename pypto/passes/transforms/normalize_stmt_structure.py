"""NormalizeStmtStructure (03-passes.md §9): flatten nested ``SeqStmts`` and unwrap
single-child ones, everywhere in a function; nothing else changes.

One walk over the statements (each visited once), so O(N).  Deep nesting is
handled under ``nesting_guard()``.  Unchanged subtrees keep their objects and
an already normalized function is returned as is.

Only statements that hold statements are entered; expressions are never looked
at, and a rebuilt statement changes its nested body fields only -- what the
generic ``IRMutator`` with identity expressions (``_Normalizer``) would give,
which still handles any statement class not known here.
"""

from __future__ import annotations

from typing import Union, cast

from ...ir import scope as S
from ...ir import stmt as St
from ...ir.depth import nesting_guard
from ...ir.function import Function
from ...ir.node import Expr, Stmt
from ...ir.visitor import IRMutator

__all__ = ["transform"]


class _Normalizer(IRMutator):
    """Only statements are rebuilt; expressions are returned untouched (no Var remaps)."""

    def visit_expr(self, op: Expr) -> Expr:
        return op

    def visit_stmt(self, op: Stmt) -> Stmt:
        return _normalize(op, self)

    def visit_seq_stmts(self, op: St.SeqStmts) -> Stmt:
        return _normalize(op, self)


# Statements with no nested statement: always kept as they are.
_LEAVES = frozenset((St.AssignStmt, St.EvalStmt, St.ReturnStmt, St.YieldStmt, St.BreakStmt,
                     St.ContinueStmt, St.InlineStmt))
# Statements whose only nested statement field is ``body``.
_BodyHolder = Union[St.ForStmt, St.WhileStmt, S.ScopeStmt]
_BODY_HOLDERS = frozenset((St.ForStmt, St.WhileStmt, S.ScopeStmt, S.InCoreScopeStmt,
                           S.ClusterScopeStmt, S.HierarchyScopeStmt, S.SpmdScopeStmt,
                           S.RuntimeScopeStmt, S.GraphScopeStmt, S.SplitAivScopeStmt))


def _normalize(stmt: Stmt, fallback: _Normalizer) -> Stmt:
    """``stmt`` normalized: the same object when nothing under it changes."""
    cls = type(stmt)
    if cls in _LEAVES:
        return stmt
    # (dispatch by exact class: mypy does not narrow through ``cls``, hence the casts)
    if cls is St.SeqStmts:
        seq = cast(St.SeqStmts, stmt)
        children = [child if type(child) in _LEAVES else _normalize(child, fallback)
                    for child in seq.stmts]
        redundant = len(children) == 1 or any(type(c) is St.SeqStmts for c in children)
        if not redundant and all(new is old for new, old in zip(children, seq.stmts)):
            return stmt
        return St.SeqStmts.flatten(children, stmt.span)
    if cls in _BODY_HOLDERS:
        holder = cast(_BodyHolder, stmt)
        body = _normalize(holder.body, fallback)
        return stmt if body is holder.body else holder.replace(body=body)
    if cls is St.IfStmt:
        branch = cast(St.IfStmt, stmt)
        then_body = _normalize(branch.then_body, fallback)
        else_body = None if branch.else_body is None else _normalize(branch.else_body, fallback)
        if then_body is branch.then_body and else_body is branch.else_body:
            return stmt
        return branch.replace(then_body=then_body, else_body=else_body)
    # Another statement class: the generic mutator, which comes back here for nested ones.
    return IRMutator.visit_stmt(fallback, stmt)


def transform(func: Function) -> Function:
    """``func`` with a normalized statement structure (the same object if it already is)."""
    with nesting_guard(func):
        body = _normalize(func.body, _Normalizer())
    return func if body is func.body else func.replace(body=body)
