"""BreakContinueValid and PipelineLoopValid verifiers.

* ``break``/``continue`` only inside Sequential/Pipeline ``for`` and ``while``
  bodies (the nearest enclosing loop decides; ifs and scopes are transparent);
  ``yield`` never in a function's own body (outside every loop and branch).
* ``kind == Pipeline`` if and only if ``attrs["pipeline_stages"]`` is present.
* UnrollResolved: no ``pl.unroll`` loop (``ForKind.Unroll``) is left.
* IterArgCarryClassified: every ``for`` loop with iter_args records, in
  ``attrs["iter_arg_carry"]``, what ClassifyIterArgCarry computes for it.
"""

from __future__ import annotations

from ...ir import stmt as St
from ...ir.enums import ForKind
from ...ir.function import Function, Program
from ...ir.node import Stmt
from ...ir.scope import ScopeStmt
from ..diagnostic import Diagnostic
from .checks import CheckVerifier, StmtCheck
from .walk import error

__all__ = ["BreakContinueValidVerifier", "PipelineLoopValidVerifier", "UnrollResolvedVerifier",
           "IterArgCarryClassifiedVerifier"]

_BREAKABLE = (ForKind.Sequential, ForKind.Pipeline)


class _BreakContinueCheck(StmtCheck):
    def __init__(self, program: Program, diagnostics: list[Diagnostic]) -> None:
        super().__init__(program, diagnostics)
        self.stmt_hooks = {St.BreakStmt: self.check, St.ContinueStmt: self.check}

    def begin_function(self, func: Function) -> bool:
        """A yield hands values to a loop or branch: in the function's own body
        (through sequences and regions) it has none to hand them to."""
        pending: list[Stmt] = [func.body]
        while pending:
            stmt = pending.pop()
            if isinstance(stmt, St.YieldStmt):
                self.diagnostics.append(error(
                    BreakContinueValidVerifier.rule_name, 1,
                    f"'yield' found outside any loop or branch in function '{func.name}'",
                    stmt.span))
            elif isinstance(stmt, St.SeqStmts):
                pending.extend(stmt.stmts)
            elif isinstance(stmt, ScopeStmt):
                pending.append(stmt.body)
        return super().begin_function(func)

    def check(self, stmt: Stmt, loop: Stmt | None) -> None:
        """The nearest enclosing loop decides; ifs and scopes are transparent."""
        if isinstance(loop, St.ForStmt):
            if loop.kind in _BREAKABLE:
                return
            where = f"in a {loop.kind.name} for loop"
        elif isinstance(loop, St.WhileStmt):
            return
        else:
            where = "outside any loop"
        word = "break" if isinstance(stmt, St.BreakStmt) else "continue"
        self.diagnostics.append(error(
            BreakContinueValidVerifier.rule_name, 0,
            f"'{word}' found {where} in function '{self.func.name}'; only "
            "Sequential/Pipeline for loops and while loops allow it", stmt.span))


class BreakContinueValidVerifier(CheckVerifier):
    rule_name = "BreakContinueValid"

    def make_check(self, program: Program, diagnostics: list[Diagnostic]) -> StmtCheck:
        return _BreakContinueCheck(program, diagnostics)


class _PipelineLoopCheck(StmtCheck):
    def __init__(self, program: Program, diagnostics: list[Diagnostic]) -> None:
        super().__init__(program, diagnostics)
        self.stmt_hooks = {St.ForStmt: self.check}

    def check(self, stmt: St.ForStmt, loop: Stmt | None) -> None:
        rule = PipelineLoopValidVerifier.rule_name
        has_stages = "pipeline_stages" in stmt._attrs
        if stmt.kind is ForKind.Pipeline and not has_stages:
            self.diagnostics.append(error(
                rule, 0, f"Pipeline for loop in function '{self.func.name}' has no "
                "attrs['pipeline_stages']", stmt.span))
        elif stmt.kind is not ForKind.Pipeline and has_stages:
            self.diagnostics.append(error(
                rule, 1, f"{stmt.kind.name} for loop in function '{self.func.name}' carries "
                "attrs['pipeline_stages'] (only Pipeline loops may)", stmt.span))


class PipelineLoopValidVerifier(CheckVerifier):
    rule_name = "PipelineLoopValid"

    def make_check(self, program: Program, diagnostics: list[Diagnostic]) -> StmtCheck:
        return _PipelineLoopCheck(program, diagnostics)


class _UnrollResolvedCheck(StmtCheck):
    def __init__(self, program: Program, diagnostics: list[Diagnostic]) -> None:
        super().__init__(program, diagnostics)
        self.stmt_hooks = {St.ForStmt: self.check}

    def check(self, stmt: St.ForStmt, loop: Stmt | None) -> None:
        if stmt.kind is ForKind.Unroll:
            self.diagnostics.append(error(
                UnrollResolvedVerifier.rule_name, 0, f"pl.unroll loop over "
                f"'{stmt.loop_var.name_hint}' left in function '{self.func.name}' "
                "(UnrollLoops expands them)", stmt.span))


class UnrollResolvedVerifier(CheckVerifier):
    rule_name = "UnrollResolved"

    def make_check(self, program: Program, diagnostics: list[Diagnostic]) -> StmtCheck:
        return _UnrollResolvedCheck(program, diagnostics)


class _IterArgCarryCheck(StmtCheck):
    def __init__(self, program: Program, diagnostics: list[Diagnostic]) -> None:
        super().__init__(program, diagnostics)
        self.stmt_hooks = {St.ForStmt: self.check}

    def check(self, stmt: St.ForStmt, loop: Stmt | None) -> None:
        from ..transforms.classify_iter_arg_carry import ATTR, classify
        if not stmt.iter_args:
            return
        recorded = stmt._attrs.get(ATTR)
        expected = classify(stmt)
        if recorded is None or list(recorded) != expected:
            what = "records no" if recorded is None else f"records {list(recorded)!r} as its"
            self.diagnostics.append(error(
                IterArgCarryClassifiedVerifier.rule_name, 0,
                f"for loop over '{stmt.loop_var.name_hint}' in function '{self.func.name}' "
                f"{what} iter_arg carry classification (expected {expected!r})", stmt.span))


class IterArgCarryClassifiedVerifier(CheckVerifier):
    rule_name = "IterArgCarryClassified"

    def make_check(self, program: Program, diagnostics: list[Diagnostic]) -> StmtCheck:
        return _IterArgCarryCheck(program, diagnostics)
