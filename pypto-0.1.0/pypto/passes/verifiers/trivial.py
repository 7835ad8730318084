"""Verifiers of properties whose subject is out of scope in pypto: they always pass.

The members exist for compatibility with the public project's property set
(memory planning, AIV splitting, distributed types, ...); no pypto IR can
violate them, so there is nothing to check.
"""

from __future__ import annotations

from ...ir.function import Program
from ..diagnostic import Diagnostic
from ..verifier_registry import PropertyVerifier

__all__ = ["AlwaysPassingVerifier"]


class AlwaysPassingVerifier(PropertyVerifier):
    def __init__(self, rule_name: str) -> None:
        self._rule_name = rule_name

    def get_name(self) -> str:
        return self._rule_name

    def verify(self, program: Program, diagnostics: list[Diagnostic]) -> None:
        pass
