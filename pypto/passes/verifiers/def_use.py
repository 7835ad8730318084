"""``DefUseWalker``: one function in execution order, tracking visible Vars.

The SSA, UseAfterDef and InOutUseValid verifiers subclass it.  It recurses once
per statement nesting level and runs under ``nesting_guard()``.

A subclass customises it at one of two levels.  The simple one is the hooks
``on_define`` (every definition) and ``on_use`` (a read of a Var that is not
visible there).  The fast one overrides the primitives themselves: ``define``,
``use``, ``bind``/``unbind`` and ``push``/``pop`` (the frames).  The SSA verifier
runs after every pass, so it inlines its bookkeeping into ``define``; InOutUseValid
tracks written buffers instead of visibility.  The statement order lives here once.
"""

from __future__ import annotations

from typing import Any, Callable, ClassVar, Iterable, cast

from ...errors import InternalError
from ...ir import expr as E
from ...ir import scope as S
from ...ir import stmt as St
from ...ir.depth import nesting_guard
from ...ir.function import Function
from ...ir.node import Expr, Stmt
from ...ir.types import ScalarType
from ...ir.walk import CONST_TYPES, var_uses
from .walk import stmt_exprs, type_vars

__all__ = ["DefUseWalker"]

# Exact-class tests of the hot paths (module constants: one global load each).
_CONSTS = frozenset(CONST_TYPES)
_BINARY = frozenset(E.BINARY_CLASSES)
_VAR, _ITER_ARG, _CALL, _MAKE_TUPLE = E.Var, E.IterArg, E.Call, E.MakeTuple


class DefUseWalker:
    """Walks one function in execution order, tracking which Vars are visible.

    Params and the Vars inside param/return types are visible from the start.
    Loop vars and iter_args are visible in their body only; return vars after
    their statement.  Whether loop-body and plain-``if`` definitions stay
    visible afterwards is a policy of the subclass.  Scopes never hide names.
    """

    loop_body_leaks: ClassVar[bool] = False
    plain_if_leaks: ClassVar[bool] = False   # an ``if`` without return vars

    def __init__(self, func: Function) -> None:
        self.func = func
        self.visible: dict[E.Var, int] = {}         # Var -> open definitions
        self.frames: list[list[E.Var]] = [[]]       # definitions per open frame

    # statement class -> the (plain function) visit of the class, per subclass.  Kept on
    # the class, not the walker: a table of bound methods on ``self`` is a reference
    # cycle, which kept every walker and the function it walked alive until the next
    # collection (until the process's exit under the command line's paused collector).
    _handlers: ClassVar[dict[type, Callable[[Any, Any], None]]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._handlers = _handlers_of(cls)

    # -- hooks ----------------------------------------------------------------------
    def on_define(self, var: E.Var, stmt: Stmt | None) -> None:
        """A definition of ``var`` (``stmt`` is None for a param)."""

    def on_use(self, var: E.Var, stmt: Stmt) -> None:
        """A read of ``var`` where it is not visible (visible reads cost nothing)."""

    def check_if(self, stmt: St.IfStmt) -> None:
        """Checks of the statement's own shape, before its walk."""

    def check_loop(self, stmt: St.ForStmt | St.WhileStmt) -> None:
        """Checks of the statement's own shape, before its walk."""

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
        """Open a frame: what is defined until ``pop`` is hidden again then."""
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

    def define(self, var: E.Var, stmt: Stmt) -> None:
        """A definition in the innermost frame; the dims of its type are read first."""
        var_type = var.type
        if type(var_type) is not ScalarType:  # a scalar type holds no Vars
            visible = self.visible
            for dim_var in type_vars(var_type):
                if dim_var not in visible:
                    self.on_use(dim_var, stmt)
        self.on_define(var, stmt)
        self.bind(var)
        self.frames[-1].append(var)

    def use(self, expr: Expr, stmt: Stmt) -> None:
        """``on_use`` for each hidden Var of ``expr`` in ``var_uses`` order, without
        building that list: most operands are Vars, constants, calls and arithmetic."""
        # (dispatch by exact class: mypy does not narrow through ``cls``, hence the cast
        # and the ``Any`` stack)
        visible = self.visible
        cls = type(expr)
        if cls is _VAR or cls is _ITER_ARG:
            if expr not in visible:
                self.on_use(cast(E.Var, expr), stmt)
            return
        if cls in _CONSTS:
            return
        stack: list[Any] = [expr]
        pop, push = stack.pop, stack.extend
        seen: set[int] = set()  # composite nodes shared by hand-built IR: walked once
        while stack:
            node = pop()
            cls = type(node)
            if cls is _VAR or cls is _ITER_ARG:
                if node not in visible:
                    self.on_use(node, stmt)
                continue
            if cls in _CONSTS or id(node) in seen:
                continue
            seen.add(id(node))
            if cls is _CALL and not node._attrs:
                push(reversed(node.args))
            elif cls is _MAKE_TUPLE:
                push(reversed(node.elements))
            elif cls in _BINARY:  # scalar arithmetic: conditions, bounds
                push((node.right, node.left))
            else:
                for var in var_uses(node):
                    if var not in visible:
                        self.on_use(var, stmt)

    # -- driver -----------------------------------------------------------------------
    def run(self) -> None:
        with nesting_guard(self.func):
            self.define_params()
            self.visit(self.func.body)

    def define_params(self) -> None:
        """Params and their type Vars: in no frame, so never hidden."""
        func = self.func
        for t in [*(p.type for p in func.params), *func.return_types]:
            for var in type_vars(t):
                self.bind(var)
        for param in func.params:
            self.on_define(param, None)
            self.bind(param)

    def visit(self, stmt: Stmt) -> None:
        handler = self._handlers.get(type(stmt))
        if handler is not None:
            handler(self, stmt)
        elif isinstance(stmt, S.ScopeStmt):
            self.visit_scope(stmt)
        else:
            raise InternalError(f"{type(self).__name__}: unhandled statement "
                                f"{type(stmt).__name__}")

    def visit_assign(self, stmt: St.AssignStmt) -> None:
        self.use(stmt.value, stmt)
        self.define(stmt.var, stmt)

    def visit_eval(self, stmt: St.EvalStmt) -> None:
        self.use(stmt.expr, stmt)

    def visit_values(self, stmt: St.ReturnStmt | St.YieldStmt) -> None:
        for value in stmt.value:
            self.use(value, stmt)

    def visit_return(self, stmt: St.ReturnStmt) -> None:
        self.visit_values(stmt)

    def visit_seq(self, stmt: St.SeqStmts) -> None:
        # ``visit`` inlined: a body is mostly a long run of plain statements
        visit, dispatch = self.visit, self._handlers
        for child in stmt.stmts:
            handler = dispatch.get(type(child))
            if handler is None:
                visit(child)
            else:
                handler(self, child)

    # An if or loop visits its bodies itself (no helper between): every nesting
    # level costs Python frames, and deep bodies pay for each one.
    def visit_if(self, stmt: St.IfStmt) -> None:
        self.check_if(stmt)
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

    def visit_for(self, stmt: St.ForStmt) -> None:
        self.check_loop(stmt)
        for bound in (stmt.start, stmt.stop, stmt.step):
            self.use(bound, stmt)
        for arg in stmt.iter_args:
            self.use(arg.initValue, stmt)
        self.push()
        self.define(stmt.loop_var, stmt)
        for arg in stmt.iter_args:
            self.define(arg, stmt)
        self.visit(stmt.body)
        self._end_loop(stmt)

    def visit_while(self, stmt: St.WhileStmt) -> None:
        self.check_loop(stmt)
        for arg in stmt.iter_args:
            self.use(arg.initValue, stmt)
        self.push()
        for arg in stmt.iter_args:
            self.define(arg, stmt)
        self.use(stmt.condition, stmt)
        self.visit(stmt.body)
        self._end_loop(stmt)

    def _end_loop(self, stmt: St.ForStmt | St.WhileStmt) -> None:
        """Close the body's frame (leaking its own definitions if the policy says so),
        then define the return vars."""
        closed = self.pop()
        if self.loop_body_leaks:
            own: set[E.Var] = set(stmt.iter_args)
            if isinstance(stmt, St.ForStmt):
                own.add(stmt.loop_var)
            self.reveal(var for var in closed if var not in own)
        for var in stmt.return_vars:
            self.define(var, stmt)

    def visit_scope(self, stmt: S.ScopeStmt) -> None:
        if stmt._attrs or isinstance(stmt, S.SpmdScopeStmt):  # others evaluate nothing
            for expr in stmt_exprs(stmt):
                self.use(expr, stmt)
        self.visit(stmt.body)


def _ignore(walker: DefUseWalker, stmt: Stmt) -> None:
    pass


def _handlers_of(cls: type[DefUseWalker]) -> dict[type, Callable[[Any, Any], None]]:
    return {
        St.AssignStmt: cls.visit_assign, St.EvalStmt: cls.visit_eval,
        St.ReturnStmt: cls.visit_return, St.YieldStmt: cls.visit_values,
        St.SeqStmts: cls.visit_seq, St.IfStmt: cls.visit_if, St.ForStmt: cls.visit_for,
        St.WhileStmt: cls.visit_while, St.BreakStmt: _ignore, St.ContinueStmt: _ignore,
        St.InlineStmt: _ignore,
    }


DefUseWalker._handlers = _handlers_of(DefUseWalker)
