"""Scope-absence verifiers ("no scope of kind K here") and ``iter_scopes``.

``ScopeAbsenceVerifier`` is the one visitor behind every scope-absence property:
it reports every scope of the configured kinds and keeps descending, so nested
leftovers are all reported.  It is a statement check (``checks.py``), so several
share one walk.  ``iter_scopes`` reports every scope with the number of
enclosing scopes of its own kind (NoNestedInCore).  Both are iterative:
500-deep nesting costs no recursion.
"""

from __future__ import annotations

from typing import Callable, Iterator, Mapping

from ...ir import scope as S
from ...ir import stmt as St
from ...ir.enums import ScopeKind
from ...ir.function import Function, Program
from ...ir.node import Stmt
from ..diagnostic import Diagnostic
from .checks import CheckVerifier, StmtCheck
from .walk import error

__all__ = ["iter_scopes", "ScopeAbsenceVerifier"]

_NO_COUNTS: Mapping[ScopeKind, int] = {}


def iter_scopes(body: Stmt) -> Iterator[tuple[S.ScopeStmt, int]]:
    """Each scope under ``body`` (pre-order) with its count of same-kind ancestors."""
    stack: list[tuple[Stmt, Mapping[ScopeKind, int]]] = [(body, _NO_COUNTS)]
    while stack:
        node, counts = stack.pop()
        if isinstance(node, S.ScopeStmt):
            kind = node.scope_kind
            depth = counts.get(kind, 0)
            yield node, depth
            stack.append((node.body, {**counts, kind: depth + 1}))
        elif isinstance(node, St.SeqStmts):
            stack.extend((child, counts) for child in reversed(node.stmts))
        elif isinstance(node, St.IfStmt):
            if node.else_body is not None:
                stack.append((node.else_body, counts))
            stack.append((node.then_body, counts))
        elif isinstance(node, (St.ForStmt, St.WhileStmt)):
            stack.append((node.body, counts))


class _ScopeAbsenceCheck(StmtCheck):
    def __init__(self, config: "ScopeAbsenceVerifier", program: Program,
                 diagnostics: list[Diagnostic]) -> None:
        super().__init__(program, diagnostics)
        self.config = config
        self.stmt_hooks = {S.ScopeStmt: self.check}

    def applies_to(self, func: Function) -> bool:
        return self.config._applies_to(func)

    def check(self, scope: S.ScopeStmt, loop: Stmt | None) -> None:
        config = self.config
        message = config._messages.get(scope.scope_kind)
        if message is not None:
            self.diagnostics.append(error(config._rule_name, config._error_code,
                                          message, scope.span))


class ScopeAbsenceVerifier(CheckVerifier):
    """Reports every scope of the configured kinds in the functions it applies to."""

    def __init__(self, rule_name: str, messages: Mapping[ScopeKind, str],
                 applies_to: Callable[[Function], bool] = lambda func: True,
                 error_code: int = 0) -> None:
        self._rule_name = rule_name
        self._messages = dict(messages)
        self._applies_to = applies_to
        self._error_code = error_code

    def get_name(self) -> str:
        return self._rule_name

    def make_check(self, program: Program, diagnostics: list[Diagnostic]) -> StmtCheck:
        return _ScopeAbsenceCheck(self, program, diagnostics)
