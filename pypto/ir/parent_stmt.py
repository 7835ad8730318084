"""PyPTO's ``ir.ParentStmtAnalysis``: the statement directly enclosing each statement
of a function (a ``SeqStmts`` counts as a parent, as in the IR)."""

from __future__ import annotations

from .function import Function
from .node import Stmt
from .utils import child_stmts

__all__ = ["ParentStmtAnalysis"]


class ParentStmtAnalysis:
    def __init__(self) -> None:
        self._parents: dict[Stmt, Stmt] = {}

    def build_map(self, func: Function) -> None:
        """Record the parents of every statement of ``func`` (replacing earlier ones)."""
        if not isinstance(func, Function):
            raise TypeError(f"ParentStmtAnalysis.build_map expects an ir.Function, got "
                            f"{type(func).__name__}")
        self._parents = {}
        pending = [func.body] if func.body is not None else []
        while pending:
            stmt = pending.pop()
            for child in child_stmts(stmt):
                self._parents[child] = stmt
                pending.append(child)

    def get_parent(self, stmt: Stmt) -> Stmt | None:
        """The enclosing statement; ``None`` for the function body or an unknown one."""
        return self._parents.get(stmt)

    def has_parent(self, stmt: Stmt) -> bool:
        return stmt in self._parents

    def clear(self) -> None:
        self._parents = {}
