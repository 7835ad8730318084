"""NormalizeStmtStructure (03-passes.md §9): flatten nested ``SeqStmts`` and unwrap
single-child ones, everywhere in a function; nothing else changes.

One walk over the statements (each visited once), so O(N).  Deep nesting is
handled under ``deep_recursion()``.  Unchanged subtrees keep their objects and
an already normalized function is returned as is.
"""

from __future__ import annotations

from ...ir import stmt as St
from ...ir._deep import deep_recursion
from ...ir.function import Function
from ...ir.node import Stmt
from ...ir.visitor import IRMutator

__all__ = ["transform"]


class _Normalizer(IRMutator):
    """Only statements are rebuilt; expressions are returned untouched (no Var remaps)."""

    def visit_expr(self, op):  # type: ignore[override]
        return op

    def visit_seq_stmts(self, op: St.SeqStmts) -> Stmt:
        children = [self.visit_stmt(child) for child in op.stmts]
        redundant = len(children) == 1 or any(type(c) is St.SeqStmts for c in children)
        if not redundant and all(new is old for new, old in zip(children, op.stmts)):
            return op
        return St.SeqStmts.flatten(children, op.span)


def transform(func: Function) -> Function:
    """``func`` with a normalized statement structure (the same object if it already is)."""
    with deep_recursion():
        body = _Normalizer().visit_stmt(func.body)
    return func if body is func.body else func.replace(body=body)
