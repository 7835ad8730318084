"""BreakContinueValid and PipelineLoopValid verifiers.

* ``break``/``continue`` only inside Sequential/Pipeline ``for`` and ``while``
  bodies (the nearest enclosing loop decides; ifs and scopes are transparent).
* ``kind == Pipeline`` if and only if ``attrs["pipeline_stages"]`` is present.
"""

from __future__ import annotations

from ...ir import scope as S
from ...ir import stmt as St
from ...ir.enums import ForKind
from ...ir.function import Program
from ...ir.node import Stmt
from ..diagnostic import Diagnostic
from ..verifier_registry import PropertyVerifier
from .walk import error, functions_of, iter_stmts

__all__ = ["BreakContinueValidVerifier", "PipelineLoopValidVerifier"]

_BREAKABLE = (ForKind.Sequential, ForKind.Pipeline)


class BreakContinueValidVerifier(PropertyVerifier):
    rule_name = "BreakContinueValid"

    def verify(self, program: Program, diagnostics: list[Diagnostic]) -> None:
        for func in functions_of(program):
            # (statement, nearest enclosing loop's description or None, may it break?)
            stack: list[tuple[Stmt, str | None, bool]] = [(func.body, None, False)]
            while stack:
                node, loop, breakable = stack.pop()
                if isinstance(node, (St.BreakStmt, St.ContinueStmt)):
                    if not breakable:
                        word = "break" if isinstance(node, St.BreakStmt) else "continue"
                        where = f"in a {loop}" if loop else "outside any loop"
                        diagnostics.append(error(
                            self.rule_name, 0,
                            f"'{word}' found {where} in function '{func.name}'; only "
                            "Sequential/Pipeline for loops and while loops allow it", node.span))
                elif isinstance(node, St.ForStmt):
                    stack.append((node.body, f"{node.kind.name} for loop",
                                  node.kind in _BREAKABLE))
                elif isinstance(node, St.WhileStmt):
                    stack.append((node.body, "while loop", True))
                elif isinstance(node, St.SeqStmts):
                    stack.extend((child, loop, breakable) for child in reversed(node.stmts))
                elif isinstance(node, St.IfStmt):
                    if node.else_body is not None:
                        stack.append((node.else_body, loop, breakable))
                    stack.append((node.then_body, loop, breakable))
                elif isinstance(node, S.ScopeStmt):
                    stack.append((node.body, loop, breakable))


class PipelineLoopValidVerifier(PropertyVerifier):
    rule_name = "PipelineLoopValid"

    def verify(self, program: Program, diagnostics: list[Diagnostic]) -> None:
        for func in functions_of(program):
            for stmt in iter_stmts(func.body):
                if not isinstance(stmt, St.ForStmt):
                    continue
                has_stages = "pipeline_stages" in stmt._attrs
                if stmt.kind is ForKind.Pipeline and not has_stages:
                    diagnostics.append(error(
                        self.rule_name, 0,
                        f"Pipeline for loop in function '{func.name}' has no "
                        "attrs['pipeline_stages']", stmt.span))
                elif stmt.kind is not ForKind.Pipeline and has_stages:
                    diagnostics.append(error(
                        self.rule_name, 1,
                        f"{stmt.kind.name} for loop in function '{func.name}' carries "
                        "attrs['pipeline_stages'] (only Pipeline loops may)", stmt.span))
