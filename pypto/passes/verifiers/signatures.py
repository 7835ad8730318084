"""ReturnParamsExplicit: a function the program calls, whose results are its own written
parameters and whose callers read them item by item, returns them in parameter order
(what NormalizeReturnOrder establishes)."""

from __future__ import annotations

from ...ir.function import Program
from ..diagnostic import Diagnostic
from ..verifier_registry import PropertyVerifier
from .walk import error

__all__ = ["ReturnParamsExplicitVerifier"]


class ReturnParamsExplicitVerifier(PropertyVerifier):
    rule_name = "ReturnParamsExplicit"

    def get_name(self) -> str:
        return self.rule_name

    def verify(self, program: Program, diagnostics: list[Diagnostic]) -> None:
        from ..transforms.call_sites import callers
        from ..transforms.normalize_return_order import needs_reordering
        calls = callers(program)
        for func in program.functions.values():
            if calls.get(func.name) and needs_reordering(program, func):
                names = ", ".join(f"'{p.name_hint}'" for p in func.params)
                diagnostics.append(error(
                    self.rule_name, 0, f"Function '{func.name}' returns its written parameters "
                    f"out of parameter order (parameters: {names}); NormalizeReturnOrder "
                    "orders them", func.span))
