"""``DefUseWalker``: one function in execution order, tracking visible Vars.

The SSA, UseAfterDef and InOutUseValid verifiers subclass it.  It recurses once
per statement nesting level and runs under ``deep_recursion()``.
"""

from __future__ import annotations

from typing import Callable, ClassVar, Iterable

from ...errors import InternalError
from ...ir import expr as E
from ...ir import scope as S
from ...ir import stmt as St
from ...ir._deep import deep_recursion
from ...ir.function import Function
from ...ir.node import Expr, Stmt
from ...ir.walk import var_uses
from .walk import stmt_exprs, type_vars

__all__ = ["DefUseWalker"]


class DefUseWalker:
    """Walks one function in execution order, tracking which Vars are visible.

    Params and the Vars inside param/return types are visible from the start.
    Loop vars and iter_args are visible in their body only; return vars after
    their statement.  Whether loop-body and plain-``if`` definitions stay
    visible afterwards is a policy of the subclass.  Scopes never hide names.
    Subclasses implement ``on_define`` / ``on_use``.
    """

    loop_body_leaks: ClassVar[bool] = False
    plain_if_leaks: ClassVar[bool] = False   # an ``if`` without return vars

    def __init__(self, func: Function) -> None:
        self.func = func
        self.visible: dict[E.Var, int] = {}
        self.frames: list[list[E.Var]] = [[]]
        self._dispatch: dict[type, Callable[[Stmt], None]] = {
            St.AssignStmt: self.visit_assign, St.EvalStmt: self.visit_eval,
            St.ReturnStmt: self.visit_values, St.YieldStmt: self.visit_values,
            St.SeqStmts: self.visit_seq, St.IfStmt: self.visit_if, St.ForStmt: self.visit_for,
            St.WhileStmt: self.visit_while, St.BreakStmt: _ignore, St.ContinueStmt: _ignore,
            St.InlineStmt: _ignore,
        }

    # -- hooks ----------------------------------------------------------------------
    def on_define(self, var: E.Var, stmt: Stmt | None) -> None:
        pass

    def on_use(self, var: E.Var, stmt: Stmt) -> None:
        pass

    # -- visibility -----------------------------------------------------------------
    def bind(self, var: E.Var) -> None:
        self.visible[var] = self.visible.get(var, 0) + 1

    def unbind(self, var: E.Var) -> None:
        count = self.visible[var] - 1
        if count:
            self.visible[var] = count
        else:
            del self.visible[var]

    def push(self) -> None:
        self.frames.append([])

    def pop(self) -> list[E.Var]:
        """Close the innermost frame, hiding its definitions; returns them."""
        closed = self.frames.pop()
        for var in closed:
            self.unbind(var)
        return closed

    def reveal(self, variables: Iterable[E.Var]) -> None:
        """Make closed-frame definitions visible in the current frame again (leaks)."""
        frame = self.frames[-1]
        for var in variables:
            self.bind(var)
            frame.append(var)

    def define(self, var: E.Var, stmt: Stmt | None) -> None:
        for dim_var in type_vars(var.type):
            self.on_use(dim_var, stmt)
        self.on_define(var, stmt)
        self.bind(var)
        self.frames[-1].append(var)

    def use(self, expr: Expr, stmt: Stmt) -> None:
        for var in var_uses(expr):
            self.on_use(var, stmt)

    # -- driver -----------------------------------------------------------------------
    def run(self) -> None:
        func = self.func
        with deep_recursion():
            for t in [*(p.type for p in func.params), *func.return_types]:
                for var in type_vars(t):
                    self.bind(var)
            for param in func.params:
                self.on_define(param, None)
                self.bind(param)
            self.visit(func.body)

    def visit(self, stmt: Stmt) -> None:
        handler = self._dispatch.get(type(stmt))
        if handler is None:
            if not isinstance(stmt, S.ScopeStmt):
                raise InternalError(f"{type(self).__name__}: unhandled statement "
                                    f"{type(stmt).__name__}")
            handler = self.visit_scope
        handler(stmt)

    def visit_assign(self, stmt: St.AssignStmt) -> None:
        self.use(stmt.value, stmt)
        self.define(stmt.var, stmt)

    def visit_eval(self, stmt: St.EvalStmt) -> None:
        self.use(stmt.expr, stmt)

    def visit_values(self, stmt: St.ReturnStmt | St.YieldStmt) -> None:
        for value in stmt.value:
            self.use(value, stmt)

    def visit_seq(self, stmt: St.SeqStmts) -> None:
        for child in stmt.stmts:
            self.visit(child)

    def visit_if(self, stmt: St.IfStmt) -> None:
        self.use(stmt.condition, stmt)
        self.push()
        self.visit(stmt.then_body)
        branch_defs = self.pop()
        if stmt.else_body is not None:
            self.push()   # both branches start from the same state
            self.visit(stmt.else_body)
            branch_defs = branch_defs + self.pop()
        if self.plain_if_leaks and not stmt.return_vars:
            self.reveal(branch_defs)
        for var in stmt.return_vars:
            self.define(var, stmt)

    def _loop_body(self, stmt: Stmt, loop_defs: list[E.Var], condition: Expr | None,
                   body: Stmt) -> None:
        self.push()
        for var in loop_defs:
            self.define(var, stmt)
        if condition is not None:
            self.use(condition, stmt)
        self.visit(body)
        closed = self.pop()
        if self.loop_body_leaks:
            own = set(loop_defs)
            self.reveal(var for var in closed if var not in own)

    def visit_for(self, stmt: St.ForStmt) -> None:
        for bound in (stmt.start, stmt.stop, stmt.step):
            self.use(bound, stmt)
        for arg in stmt.iter_args:
            self.use(arg.initValue, stmt)
        self._loop_body(stmt, [stmt.loop_var, *stmt.iter_args], None, stmt.body)
        for var in stmt.return_vars:
            self.define(var, stmt)

    def visit_while(self, stmt: St.WhileStmt) -> None:
        for arg in stmt.iter_args:
            self.use(arg.initValue, stmt)
        self._loop_body(stmt, list(stmt.iter_args), stmt.condition, stmt.body)
        for var in stmt.return_vars:
            self.define(var, stmt)

    def visit_scope(self, stmt: S.ScopeStmt) -> None:
        for expr in stmt_exprs(stmt):
            self.use(expr, stmt)
        self.visit(stmt.body)


def _ignore(stmt: Stmt) -> None:
    pass
