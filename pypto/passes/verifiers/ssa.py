"""SSAForm verifier (rule ``SSAVerify``).

Per function: params and the Vars inside param/return types are pre-defined;
loop bodies and if branches open a scope, scope statements do not.  Every
message ends with ``In function '<f>'`` and the printed function.
"""

from __future__ import annotations

import enum

from ...ir import expr as E
from ...ir import stmt as St
from ...ir.function import Function, Program
from ...ir.node import Stmt
from ...ir.span import Span
from ..diagnostic import Diagnostic
from ..verifier_registry import PropertyVerifier
from .def_use import DefUseWalker
from .walk import error, functions_of, print_function, trailing_yield

__all__ = ["SSAErrorType", "SSAVerifier"]

RULE = "SSAVerify"


class SSAErrorType(enum.IntEnum):
    """The kind of an SSA violation; the value is the diagnostic's error code."""

    MULTIPLE_ASSIGNMENT = 0
    NAME_SHADOWING = 1
    SCOPE_VIOLATION = 2
    MISSING_YIELD = 3
    ITER_ARGS_RETURN_VARS_MISMATCH = 4
    YIELD_COUNT_MISMATCH = 5


class _SSAWalker(DefUseWalker):
    """Records findings as (kind, message, span) in walk order."""

    def __init__(self, func: Function) -> None:
        super().__init__(func)
        self.findings: list[list] = []
        self.def_counts: dict[E.Var, int] = {}
        self.repeat_finding: dict[E.Var, list] = {}
        self.seen_defined: set[E.Var] = set()
        self.scope_reported: set[E.Var] = set()
        # name -> [(var, frame depth)] of visible definitions, outermost first
        self.names: dict[str, list[tuple[E.Var, int]]] = {}

    def _add(self, kind: SSAErrorType, message: str, span: Span) -> list:
        finding = [kind, message, span]
        self.findings.append(finding)
        return finding

    # -- visibility with name tracking --------------------------------------------------
    def bind(self, var: E.Var) -> None:
        super().bind(var)
        self.names.setdefault(var.name_hint, []).append((var, len(self.frames) - 1))

    def unbind(self, var: E.Var) -> None:
        super().unbind(var)
        entries = self.names[var.name_hint]
        entries.pop()
        if not entries:
            del self.names[var.name_hint]

    # -- hooks --------------------------------------------------------------------------
    def on_define(self, var: E.Var, stmt: Stmt | None) -> None:
        span = stmt.span if stmt is not None else var.span
        count = self.def_counts.get(var, 0) + 1
        self.def_counts[var] = count
        if count == 2:  # message completed once the total is known
            self.repeat_finding[var] = self._add(SSAErrorType.MULTIPLE_ASSIGNMENT, "", span)
        entries = self.names.get(var.name_hint)
        if entries:
            outer_var, outer_depth = entries[0]
            if outer_var is not var and outer_depth < len(self.frames) - 1:
                self._add(SSAErrorType.NAME_SHADOWING,
                          f"Variable '{var.name_hint}' shadows a variable of the same name "
                          "defined in an enclosing scope", span)
        self.seen_defined.add(var)

    def on_use(self, var: E.Var, stmt: Stmt) -> None:
        if var in self.visible or var not in self.seen_defined or var in self.scope_reported:
            return
        self.scope_reported.add(var)
        self._add(SSAErrorType.SCOPE_VIOLATION,
                  f"Variable '{var.name_hint}' used outside its defining scope", stmt.span)

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

    def visit_for(self, stmt: St.ForStmt) -> None:
        self._check_loop(stmt)
        super().visit_for(stmt)

    def visit_while(self, stmt: St.WhileStmt) -> None:
        self._check_loop(stmt)
        super().visit_while(stmt)

    def visit_if(self, stmt: St.IfStmt) -> None:
        n_ret = len(stmt.return_vars)
        if n_ret and stmt.else_body is None:
            self._add(SSAErrorType.MISSING_YIELD,
                      f"IfStmt with {n_ret} return vars must have an else branch", stmt.span)
        self._check_yield(stmt.then_body, n_ret, "IfStmt", "return vars", stmt.span, n_ret > 0)
        if stmt.else_body is not None:
            self._check_yield(stmt.else_body, n_ret, "IfStmt", "return vars", stmt.span,
                              n_ret > 0)
        super().visit_if(stmt)

    def finish(self) -> None:
        for var, finding in self.repeat_finding.items():
            finding[1] = (f"Variable '{var.name_hint}' is assigned more than once "
                          f"({self.def_counts[var]} times), violating SSA form")


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
