"""SSAForm verifier (rule ``SSAVerify``).

Per function: params and the Vars inside param/return types are pre-defined;
loop bodies and if branches open a scope, scope statements do not.  Every
message ends with ``In function '<f>'`` and the printed function.

The walk follows ``DefUseWalker`` (execution order, same visibility rules) but
is self-contained: the verifier runs after ConvertToSSA in every pipeline, and
inlining the define/use bookkeeping (no hook method per Var) halves its cost.
"""

from __future__ import annotations

import enum
from typing import Callable

from ...errors import InternalError
from ...ir import expr as E
from ...ir import scope as S
from ...ir import stmt as St
from ...ir._deep import deep_recursion
from ...ir.function import Function, Program
from ...ir.node import Expr, Stmt
from ...ir.span import Span
from ...ir.types import ScalarType
from ...ir.walk import CONST_TYPES, var_uses
from ..diagnostic import Diagnostic
from ..verifier_registry import PropertyVerifier
from .walk import error, functions_of, print_function, stmt_exprs, trailing_yield, type_vars

__all__ = ["SSAErrorType", "SSAVerifier"]

RULE = "SSAVerify"
_CONSTS = frozenset(CONST_TYPES)
_SCALAR = ScalarType
_BINARY = frozenset(E.BINARY_CLASSES)
_VAR, _ITER_ARG, _CALL, _MAKE_TUPLE = E.Var, E.IterArg, E.Call, E.MakeTuple


class SSAErrorType(enum.IntEnum):
    """The kind of an SSA violation; the value is the diagnostic's error code."""

    MULTIPLE_ASSIGNMENT = 0
    NAME_SHADOWING = 1
    SCOPE_VIOLATION = 2
    MISSING_YIELD = 3
    ITER_ARGS_RETURN_VARS_MISMATCH = 4
    YIELD_COUNT_MISMATCH = 5


class _SSAWalker:
    """Walks one function in execution order; records findings as (kind, message,
    span) in walk order.  A Var is visible while its frame is open (params and
    type Vars always); ``depth`` is the index of the innermost open frame."""

    def __init__(self, func: Function) -> None:
        self.func = func
        self.findings: list[list] = []
        self.visible: dict[E.Var, int] = {}           # Var -> open definitions
        self.frames: list[list[E.Var]] = [[]]         # definitions per open frame
        self.depth = 0
        self.def_counts: dict[E.Var, int] = {}
        self.repeat_finding: dict[E.Var, list] = {}
        self.seen_defined: set[E.Var] = set()
        self.scope_reported: set[E.Var] = set()
        # name -> [(var, frame depth)] of visible definitions, outermost first
        self.names: dict[str, list[tuple[E.Var, int]]] = {}
        self._dispatch: dict[type, Callable[[Stmt], None]] = {
            St.AssignStmt: self.visit_assign, St.EvalStmt: self.visit_eval,
            St.ReturnStmt: self.visit_values, St.YieldStmt: self.visit_values,
            St.SeqStmts: self.visit_seq, St.IfStmt: self.visit_if, St.ForStmt: self.visit_for,
            St.WhileStmt: self.visit_while, St.BreakStmt: _ignore, St.ContinueStmt: _ignore,
            St.InlineStmt: _ignore,
        }

    def _add(self, kind: SSAErrorType, message: str, span: Span) -> list:
        finding = [kind, message, span]
        self.findings.append(finding)
        return finding

    # -- visibility ---------------------------------------------------------------------
    def bind(self, var: E.Var) -> None:
        visible = self.visible
        visible[var] = visible.get(var, 0) + 1
        entries = self.names.get(var.name_hint)
        if entries is None:
            self.names[var.name_hint] = [(var, self.depth)]
        else:
            entries.append((var, self.depth))

    def open_frame(self) -> None:
        self.frames.append([])
        self.depth += 1

    def close_frame(self) -> None:
        """Hide the innermost frame's definitions."""
        visible, names = self.visible, self.names
        for var in self.frames.pop():
            count = visible[var] - 1
            if count:
                visible[var] = count
            else:
                del visible[var]
            entries = names[var.name_hint]
            entries.pop()
            if not entries:
                del names[var.name_hint]
        self.depth -= 1

    def define(self, var: E.Var, stmt: Stmt) -> None:
        """A definition inside the innermost frame (checks inlined: the hottest step)."""
        visible = self.visible
        var_type = var.type
        if type(var_type) is not _SCALAR:  # a scalar holds no Vars
            for dim_var in type_vars(var_type):
                if dim_var not in visible:
                    self.use_var(dim_var, stmt)  # type: ignore[arg-type]
        count = self.def_counts.get(var, 0) + 1
        self.def_counts[var] = count
        if count == 2:  # message completed once the total is known
            self.repeat_finding[var] = self._add(SSAErrorType.MULTIPLE_ASSIGNMENT, "",
                                                 stmt.span)
        depth = self.depth
        entries = self.names.get(var.name_hint)
        if entries is None:
            self.names[var.name_hint] = [(var, depth)]
        else:
            outer_var, outer_depth = entries[0]
            if outer_var is not var and outer_depth < depth:
                self._add(SSAErrorType.NAME_SHADOWING,
                          f"Variable '{var.name_hint}' shadows a variable of the same name "
                          "defined in an enclosing scope", stmt.span)
            entries.append((var, depth))
        self.seen_defined.add(var)
        visible[var] = visible.get(var, 0) + 1
        self.frames[-1].append(var)

    def note_definition(self, var: E.Var, stmt: Stmt | None) -> None:
        """``define``'s checks alone (params: bound by the caller, in no frame)."""
        span = stmt.span if stmt is not None else var.span
        count = self.def_counts.get(var, 0) + 1
        self.def_counts[var] = count
        if count == 2:
            self.repeat_finding[var] = self._add(SSAErrorType.MULTIPLE_ASSIGNMENT, "", span)
        entries = self.names.get(var.name_hint)
        if entries:
            outer_var, outer_depth = entries[0]
            if outer_var is not var and outer_depth < self.depth:
                self._add(SSAErrorType.NAME_SHADOWING,
                          f"Variable '{var.name_hint}' shadows a variable of the same name "
                          "defined in an enclosing scope", span)
        self.seen_defined.add(var)

    def use_var(self, var: E.Var, stmt: Stmt) -> None:
        if var in self.visible or var not in self.seen_defined or var in self.scope_reported:
            return
        self.scope_reported.add(var)
        self._add(SSAErrorType.SCOPE_VIOLATION,
                  f"Variable '{var.name_hint}' used outside its defining scope", stmt.span)

    def use(self, expr: Expr, stmt: Stmt) -> None:
        """Report each hidden Var of ``expr`` in evaluation order (``var_uses`` order)
        without building the list: most operands are Vars, constants and calls."""
        visible = self.visible
        cls = type(expr)
        if cls is _VAR or cls is _ITER_ARG:
            if expr not in visible:
                self.use_var(expr, stmt)  # type: ignore[arg-type]
            return
        if cls in _CONSTS:
            return
        stack = [expr]
        pop, push = stack.pop, stack.extend
        while stack:
            node = pop()
            cls = type(node)
            if cls is _VAR or cls is _ITER_ARG:
                if node not in visible:
                    self.use_var(node, stmt)  # type: ignore[arg-type]
            elif cls in _CONSTS:
                continue
            elif cls is _CALL and not node._attrs:  # type: ignore[attr-defined]
                push(reversed(node.args))  # type: ignore[attr-defined]
            elif cls is _MAKE_TUPLE:
                push(reversed(node.elements))  # type: ignore[attr-defined]
            elif cls in _BINARY:  # scalar arithmetic: conditions, bounds
                push((node.right, node.left))  # type: ignore[attr-defined]
            else:
                for var in var_uses(node):
                    if var not in visible:
                        self.use_var(var, stmt)

    # -- yields and arities -------------------------------------------------------------
    def _check_yield(self, body: Stmt | None, expected: int, owner: str, what: str,
                     span: Span, required: bool) -> None:
        found = trailing_yield(body)
        if found is None:
            if required:
                self._add(SSAErrorType.MISSING_YIELD,
                          f"{owner} with {expected} {what} must end with a yield", span)
            return
        if len(found.value) != expected:
            self._add(SSAErrorType.YIELD_COUNT_MISMATCH,
                      f"Yield has {len(found.value)} value(s) but the {owner} has "
                      f"{expected} {what}", found.span)

    def _check_loop(self, stmt: St.ForStmt | St.WhileStmt) -> None:
        owner = type(stmt).__name__
        n_iter, n_ret = len(stmt.iter_args), len(stmt.return_vars)
        if n_iter != n_ret:
            self._add(SSAErrorType.ITER_ARGS_RETURN_VARS_MISMATCH,
                      f"{owner} has {n_iter} iter_args but {n_ret} return vars", stmt.span)
        self._check_yield(stmt.body, n_iter, owner, "iter_args", stmt.span, n_iter > 0)

    # -- driver -------------------------------------------------------------------------
    def run(self) -> None:
        func = self.func
        with deep_recursion():
            for t in [*(p.type for p in func.params), *func.return_types]:
                for var in type_vars(t):
                    self.bind(var)
            for param in func.params:  # in no frame: never hidden
                self.note_definition(param, None)
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
        visit, dispatch = self.visit, self._dispatch
        for child in stmt.stmts:
            handler = dispatch.get(type(child))
            if handler is None:
                visit(child)
            else:
                handler(child)

    def visit_if(self, stmt: St.IfStmt) -> None:
        n_ret = len(stmt.return_vars)
        if n_ret and stmt.else_body is None:
            self._add(SSAErrorType.MISSING_YIELD,
                      f"IfStmt with {n_ret} return vars must have an else branch", stmt.span)
        self._check_yield(stmt.then_body, n_ret, "IfStmt", "return vars", stmt.span, n_ret > 0)
        if stmt.else_body is not None:
            self._check_yield(stmt.else_body, n_ret, "IfStmt", "return vars", stmt.span,
                              n_ret > 0)
        self.use(stmt.condition, stmt)
        for branch in (stmt.then_body, stmt.else_body):
            if branch is not None:  # both branches start from the same state
                self.open_frame()
                self.visit(branch)
                self.close_frame()
        for var in stmt.return_vars:
            self.define(var, stmt)

    def visit_for(self, stmt: St.ForStmt) -> None:
        self._check_loop(stmt)
        for bound in (stmt.start, stmt.stop, stmt.step):
            self.use(bound, stmt)
        for arg in stmt.iter_args:
            self.use(arg.initValue, stmt)
        self.open_frame()
        self.define(stmt.loop_var, stmt)
        for arg in stmt.iter_args:
            self.define(arg, stmt)
        self.visit(stmt.body)
        self.close_frame()
        for var in stmt.return_vars:
            self.define(var, stmt)

    def visit_while(self, stmt: St.WhileStmt) -> None:
        self._check_loop(stmt)
        for arg in stmt.iter_args:
            self.use(arg.initValue, stmt)
        self.open_frame()
        for arg in stmt.iter_args:
            self.define(arg, stmt)
        self.use(stmt.condition, stmt)
        self.visit(stmt.body)
        self.close_frame()
        for var in stmt.return_vars:
            self.define(var, stmt)

    def visit_scope(self, stmt: S.ScopeStmt) -> None:
        if stmt._attrs or isinstance(stmt, S.SpmdScopeStmt):  # others evaluate nothing
            for expr in stmt_exprs(stmt):
                self.use(expr, stmt)
        self.visit(stmt.body)

    def finish(self) -> None:
        for var, finding in self.repeat_finding.items():
            finding[1] = (f"Variable '{var.name_hint}' is assigned more than once "
                          f"({self.def_counts[var]} times), violating SSA form")


def _ignore(stmt: Stmt) -> None:
    pass


class SSAVerifier(PropertyVerifier):
    rule_name = RULE

    def verify(self, program: Program, diagnostics: list[Diagnostic]) -> None:
        for func in functions_of(program):
            walker = _SSAWalker(func)
            walker.run()
            walker.finish()
            if not walker.findings:
                continue
            suffix = f"\nIn function '{func.name}':\n{print_function(func)}"
            for kind, message, span in walker.findings:
                diagnostics.append(error(RULE, int(kind), message + suffix, span))
