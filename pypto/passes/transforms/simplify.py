"""Simplify: every scalar expression of a function folded and normalised, wherever it
sits (assignments, loop bounds, conditions, op arguments, shapes in types, yields,
returns), without changing what the program computes (see ``simplify_expr.py`` for the
rules and why each keeps the meaning).  Statements are kept as they are: a branch whose
condition folds to a constant stays a branch.

Loop variables of loops with constant bounds are known to lie in their range while the
body runs, unless the function defines them anywhere else too (non-SSA input: an
assignment to the loop variable, or a second loop over the same name), so ``i // 16``
in ``for i in pl.range(16)`` is ``0``.
"""

from __future__ import annotations

from ...ir import expr as E
from ...ir import stmt as St
from ...ir.function import Function
from ...ir.node import Expr, Stmt
from ...ir.visitor import IRMutator
from ...ir.walk import def_sites, iter_stmts
from .scalar_values import const_value
from .simplify_expr import ExprSimplifier, Interval

__all__ = ["transform"]


class _Simplifier(IRMutator):
    def __init__(self, redefined: set[E.Var]) -> None:
        super().__init__()
        self._redefined = redefined
        self._exprs = ExprSimplifier(self._visit_atom)

    def _visit_atom(self, expr: Expr) -> Expr:
        return super().visit_expr(expr)

    def visit_binary_expr(self, op: E.BinaryExpr) -> Expr:
        return self._exprs.simplify(op)

    def visit_unary_expr(self, op: E.UnaryExpr) -> Expr:
        return self._exprs.simplify(op)

    def visit_for_stmt(self, op: St.ForStmt) -> Stmt:
        bound = self._range(op)
        if bound is None:
            return super().visit_for_stmt(op)
        bounds = self._exprs.bounds
        outer = bounds.get(op.loop_var)
        bounds[op.loop_var] = bound
        try:
            return super().visit_for_stmt(op)
        finally:
            if outer is None:
                del bounds[op.loop_var]
            else:
                bounds[op.loop_var] = outer

    def _range(self, op: St.ForStmt) -> Interval | None:
        """The values the loop variable takes, if the bounds are constants."""
        if op.loop_var in self._redefined:
            return None
        start, stop, step = (const_value(self.visit_expr(e)) for e in (op.start, op.stop,
                                                                        op.step))
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (start, stop, step)):
            return None
        if step > 0 and start < stop:
            return start, start + (stop - 1 - start) // step * step
        if step < 0 and start > stop:
            return start + (start - stop - 1) // -step * step, start
        return None  # the body never runs


def _redefined_vars(func: Function) -> set[E.Var]:
    """Vars with more than one definition site (non-SSA input: an assignment to a loop
    variable, or two loops over one name), whose loop range says nothing after the
    other definition."""
    seen: set[E.Var] = set(func.params)
    again: set[E.Var] = set()
    for stmt in iter_stmts(func.body):
        for var in def_sites(stmt):
            (again if var in seen else seen).add(var)
    return again


def transform(func: Function) -> Function:
    return _Simplifier(_redefined_vars(func)).visit_function(func)
