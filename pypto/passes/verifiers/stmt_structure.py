"""NormalizedStmtStructure and NoRedundantBlocks verifiers.

Both forbid a ``SeqStmts`` with a single child and a ``SeqStmts`` directly inside
another one, anywhere (function bodies, control-flow and scope bodies).  They
are separate properties because ConvertToSSA invalidates the first while the
second is structural: every builder goes through ``SeqStmts.flatten``.
"""

from __future__ import annotations

from ...ir import stmt as St
from ...ir.function import Program
from ...ir.node import Stmt
from ..diagnostic import Diagnostic
from .checks import CheckVerifier, StmtCheck
from .walk import error

__all__ = ["NormalizedStmtStructureVerifier", "NoRedundantBlocksVerifier"]

SINGLE_CHILD_CODE = 0
NESTED_CODE = 1


class _SeqStmtsShapeCheck(StmtCheck):
    def __init__(self, rule: str, program: Program, diagnostics: list[Diagnostic]) -> None:
        super().__init__(program, diagnostics)
        self.rule = rule
        self.stmt_hooks = {St.SeqStmts: self.check}

    def check(self, stmt: St.SeqStmts, loop: Stmt | None) -> None:
        if len(stmt.stmts) == 1:
            self.diagnostics.append(error(
                self.rule, SINGLE_CHILD_CODE,
                f"SeqStmts with a single statement in function '{self.func.name}' "
                "(should have been unwrapped)", stmt.span))
        for child in stmt.stmts:
            if isinstance(child, St.SeqStmts):
                self.diagnostics.append(error(
                    self.rule, NESTED_CODE,
                    f"SeqStmts nested directly in SeqStmts in function '{self.func.name}' "
                    "(should have been flattened)", child.span))


class _SeqStmtsShapeVerifier(CheckVerifier):
    def make_check(self, program: Program, diagnostics: list[Diagnostic]) -> StmtCheck:
        return _SeqStmtsShapeCheck(self.rule_name, program, diagnostics)


class NormalizedStmtStructureVerifier(_SeqStmtsShapeVerifier):
    rule_name = "NormalizedStmtStructure"


class NoRedundantBlocksVerifier(_SeqStmtsShapeVerifier):
    rule_name = "NoRedundantBlocks"
