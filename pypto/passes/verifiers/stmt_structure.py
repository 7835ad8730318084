"""NormalizedStmtStructure and NoRedundantBlocks verifiers.

Both forbid a ``SeqStmts`` with a single child and a ``SeqStmts`` directly inside
another one, anywhere (function bodies, control-flow and scope bodies).  They
are separate properties because ConvertToSSA invalidates the first while the
second is structural: every builder goes through ``SeqStmts.flatten``.
"""

from __future__ import annotations

from ...ir import stmt as St
from ...ir.function import Program
from ..diagnostic import Diagnostic
from ..verifier_registry import PropertyVerifier
from .walk import error, functions_of, iter_stmts

__all__ = ["NormalizedStmtStructureVerifier", "NoRedundantBlocksVerifier"]

SINGLE_CHILD_CODE = 0
NESTED_CODE = 1


class _SeqStmtsShapeVerifier(PropertyVerifier):
    def verify(self, program: Program, diagnostics: list[Diagnostic]) -> None:
        rule = self.rule_name
        for func in functions_of(program):
            for stmt in iter_stmts(func.body):
                if not isinstance(stmt, St.SeqStmts):
                    continue
                if len(stmt.stmts) == 1:
                    diagnostics.append(error(
                        rule, SINGLE_CHILD_CODE,
                        f"SeqStmts with a single statement in function '{func.name}' "
                        "(should have been unwrapped)", stmt.span))
                for child in stmt.stmts:
                    if isinstance(child, St.SeqStmts):
                        diagnostics.append(error(
                            rule, NESTED_CODE,
                            f"SeqStmts nested directly in SeqStmts in function '{func.name}' "
                            "(should have been flattened)", child.span))


class NormalizedStmtStructureVerifier(_SeqStmtsShapeVerifier):
    rule_name = "NormalizedStmtStructure"


class NoRedundantBlocksVerifier(_SeqStmtsShapeVerifier):
    rule_name = "NoRedundantBlocks"
