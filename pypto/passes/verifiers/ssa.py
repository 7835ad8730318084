"""SSAForm verifier (rule ``SSAVerify``).

Per function: params and the Vars inside param/return types are pre-defined;
loop bodies and if branches open a scope, scope statements do not.  Every
message ends with ``In function '<f>'`` and the printed function.

The walk is ``DefUseWalker``'s; the verifier runs after ConvertToSSA in every
pipeline, so ``define`` (the hottest step) inlines its checks and bookkeeping.
"""

from __future__ import annotations

import enum

from ..._core_enum import CoreEnumRepr
from ...ir import expr as E
from ...ir import stmt as St
from ...ir.function import Function, Program
from ...ir.node import Stmt
from ...ir.span import Span
from ...ir.types import ScalarType
from ..diagnostic import Diagnostic
from ..run_memo import trusted_mark
from ..verifier_registry import PropertyVerifier
from .def_use import DefUseWalker
from .walk import error, functions_of, print_function, trailing_yield, type_vars

__all__ = ["SSAErrorType", "SSAVerifier", "SSA_BY_CONSTRUCTION", "shape_is_valid"]

RULE = "SSAVerify"

# The run memo's question (``run_memo.note``) under which ConvertToSSA marks a function
# it built in SSA form by construction: this walk could find nothing in it, so the
# pipeline's own verification in the same run skips it (``trusting_marks``).  Every
# other function, and every function an instrument or a user verifies, is walked.
SSA_BY_CONSTRUCTION = "SSAForm by construction"


class SSAErrorType(CoreEnumRepr, enum.IntEnum):
    """The kind of an SSA violation; the value is the diagnostic's error code."""

    MULTIPLE_ASSIGNMENT = 1
    NAME_SHADOWING = 2
    MISSING_YIELD = 3
    ITER_ARGS_RETURN_VARS_MISMATCH = 4
    YIELD_COUNT_MISMATCH = 5
    SCOPE_VIOLATION = 6


class _SSAWalker(DefUseWalker):
    """Records findings as (kind, message, span) in walk order.  ``depth`` is the
    index of the innermost open frame; ``names`` maps a name to its visible
    definitions, outermost first, for the shadowing check."""

    def __init__(self, func: Function) -> None:
        super().__init__(func)
        self.findings: list[list] = []
        self.depth = 0
        self.def_counts: dict[E.Var, int] = {}
        self.repeat_finding: dict[E.Var, list] = {}
        self.seen_defined: set[E.Var] = set()
        self.scope_reported: set[E.Var] = set()
        self.names: dict[str, list[tuple[E.Var, int]]] = {}

    def _add(self, kind: SSAErrorType, message: str, span: Span) -> list:
        finding = [kind, message, span]
        self.findings.append(finding)
        return finding

    def _found_repeat(self, var: E.Var, span: Span) -> None:
        # the message is completed by ``finish``, once the total is known
        self.repeat_finding[var] = self._add(SSAErrorType.MULTIPLE_ASSIGNMENT, "", span)

    def _found_shadowing(self, var: E.Var, span: Span) -> None:
        self._add(SSAErrorType.NAME_SHADOWING,
                  f"Variable '{var.name_hint}' shadows a variable of the same name "
                  "defined in an enclosing scope", span)

    # -- visibility with name tracking --------------------------------------------------
    def bind(self, var: E.Var) -> None:
        super().bind(var)
        entries = self.names.get(var.name_hint)
        if entries is None:
            self.names[var.name_hint] = [(var, self.depth)]
        else:
            entries.append((var, self.depth))

    def push(self) -> None:
        self.frames.append([])
        self.depth += 1

    def pop(self) -> list[E.Var]:
        """Hides the frame's definitions with ``unbind`` inlined, names included (the
        only place this walk hides a Var; every loop-body or branch definition)."""
        closed = self.frames.pop()
        visible, names = self.visible, self.names
        for var in closed:
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
        return closed

    # -- definitions and uses -----------------------------------------------------------
    def define(self, var: E.Var, stmt: Stmt) -> None:
        """``on_define`` + ``bind`` inlined (the hottest step): the name lookup of the
        shadowing check is the one that records the new definition."""
        visible = self.visible
        var_type = var.type
        if type(var_type) is not ScalarType:  # a scalar holds no Vars
            for dim_var in type_vars(var_type):
                if dim_var not in visible:
                    self.on_use(dim_var, stmt)
        count = self.def_counts.get(var, 0) + 1
        self.def_counts[var] = count
        if count == 2:
            self._found_repeat(var, stmt.span)
        depth = self.depth
        entries = self.names.get(var.name_hint)
        if entries is None:
            self.names[var.name_hint] = [(var, depth)]
        else:
            outer_var, outer_depth = entries[0]
            if outer_var is not var and outer_depth < depth:
                self._found_shadowing(var, stmt.span)
            entries.append((var, depth))
        self.seen_defined.add(var)
        visible[var] = visible.get(var, 0) + 1
        self.frames[-1].append(var)

    def on_define(self, var: E.Var, stmt: Stmt | None) -> None:
        """``define``'s checks alone, for params (bound by ``define_params``)."""
        span = stmt.span if stmt is not None else var.span
        count = self.def_counts.get(var, 0) + 1
        self.def_counts[var] = count
        if count == 2:
            self._found_repeat(var, span)
        entries = self.names.get(var.name_hint)
        if entries:
            outer_var, outer_depth = entries[0]
            if outer_var is not var and outer_depth < self.depth:
                self._found_shadowing(var, span)
        self.seen_defined.add(var)

    def on_use(self, var: E.Var, stmt: Stmt) -> None:
        if var not in self.seen_defined or var in self.scope_reported:
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

    def check_loop(self, stmt: St.ForStmt | St.WhileStmt) -> None:
        owner = type(stmt).__name__
        n_iter, n_ret = len(stmt.iter_args), len(stmt.return_vars)
        if n_iter != n_ret:
            self._add(SSAErrorType.ITER_ARGS_RETURN_VARS_MISMATCH,
                      f"{owner} has {n_iter} iter_args but {n_ret} return vars", stmt.span)
        self._check_yield(stmt.body, n_iter, owner, "iter_args", stmt.span, n_iter > 0)

    def check_if(self, stmt: St.IfStmt) -> None:
        n_ret = len(stmt.return_vars)
        if n_ret and stmt.else_body is None:
            self._add(SSAErrorType.MISSING_YIELD,
                      f"IfStmt with {n_ret} return vars must have an else branch", stmt.span)
        self._check_yield(stmt.then_body, n_ret, "IfStmt", "return vars", stmt.span, n_ret > 0)
        if stmt.else_body is not None:
            self._check_yield(stmt.else_body, n_ret, "IfStmt", "return vars", stmt.span,
                              n_ret > 0)

    def finish(self) -> None:
        for var, finding in self.repeat_finding.items():
            finding[1] = (f"Variable '{var.name_hint}' is assigned more than once "
                          f"({self.def_counts[var]} times), violating SSA form")


def _yield_fits(body: Stmt | None, expected: int) -> bool:
    found = trailing_yield(body)
    return expected == 0 if found is None else len(found.value) == expected


def shape_is_valid(stmt: St.ForStmt | St.WhileStmt | St.IfStmt) -> bool:
    """Would ``check_loop`` / ``check_if`` find nothing in ``stmt`` (its own arities
    and trailing yields; not its body's statements)?"""
    if isinstance(stmt, St.IfStmt):
        n_ret = len(stmt.return_vars)
        if stmt.else_body is None:
            return n_ret == 0 and _yield_fits(stmt.then_body, 0)
        return _yield_fits(stmt.then_body, n_ret) and _yield_fits(stmt.else_body, n_ret)
    loop = stmt
    return len(loop.iter_args) == len(loop.return_vars) \
        and _yield_fits(loop.body, len(loop.iter_args))


class SSAVerifier(PropertyVerifier):
    rule_name = RULE

    def verify(self, program: Program, diagnostics: list[Diagnostic]) -> None:
        for func in functions_of(program):
            if trusted_mark(SSA_BY_CONSTRUCTION, func):
                continue
            walker = _SSAWalker(func)
            walker.run()
            walker.finish()
            if not walker.findings:
                continue
            suffix = f"\nIn function '{func.name}':\n{print_function(func)}"
            for kind, message, span in walker.findings:
                diagnostics.append(error(RULE, int(kind), message + suffix, span))
