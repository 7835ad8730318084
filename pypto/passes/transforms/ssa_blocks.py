"""Block assembly for ConvertToSSA: converted statement lists back into bodies, and
extra values appended to the yield that ends a body."""

from __future__ import annotations

from typing import Sequence

from ...ir import scope as S
from ...ir import stmt as St
from ...ir.node import Expr, Stmt
from ...ir.span import Span
from ...ir.utils import flatten_to_stmts

__all__ = ["extend_trailing_yield", "rebuilt_block", "unchanged"]


def unchanged(stmt: Stmt) -> Stmt:
    return stmt


def rebuilt_block(stmts: list[Stmt], original: Stmt | None, span: Span) -> Stmt:
    """``SeqStmts.flatten(stmts, span)`` for the converted block of ``original``.  A
    converted block holds no nested block, so it is spliced only in the odd case that
    one appears; a block replacing one of ``span`` is a copy of it with new statements."""
    if St.SeqStmts in map(type, stmts):
        return St.SeqStmts.flatten(stmts, span)
    if len(stmts) == 1:
        return stmts[0]
    if type(original) is St.SeqStmts and original.span is span:
        return original.replace(stmts=tuple(stmts))  # skips re-checking every statement
    return St.SeqStmts(stmts, span)


def extend_trailing_yield(body: list[Stmt], extra: Sequence[Expr]) -> list[Stmt] | None:
    """``body`` with ``extra`` appended to its trailing yield (runtime scopes are
    transparent), or ``None`` when it does not end with a yield."""
    if not body:
        return None
    last = body[-1]
    if isinstance(last, St.YieldStmt):
        if not extra:
            return body
        return body[:-1] + [last.replace(value=last.value + tuple(extra))]
    if isinstance(last, S.RuntimeScopeStmt):
        inner = extend_trailing_yield(flatten_to_stmts(last.body), extra)
        if inner is None:
            return None
        return body[:-1] + [last.replace(body=rebuilt_block(inner, last.body, last.body.span))]
    return None
