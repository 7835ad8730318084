"""Call-target verifiers: ManualDepsOnSubmitOnly, InlineFunctionsEliminated,
OrchestrationReferencesResolved.  Each is one walk over every call."""

from __future__ import annotations

from ...ir import expr as E
from ...ir.enums import FunctionType
from ...ir.function import Program
from ...ir.node import GlobalVar
from ..diagnostic import Diagnostic
from ..verifier_registry import PropertyVerifier
from .walk import error, functions_of, iter_calls

__all__ = ["ManualDepsOnSubmitOnlyVerifier", "InlineFunctionsEliminatedVerifier",
           "OrchestrationReferencesResolvedVerifier"]

# InlineFunctionsEliminated error codes
INLINE_SURVIVES = 0
CALLS_LIVE_INLINE = 1
CALLS_MISSING_FUNCTION = 2


class ManualDepsOnSubmitOnlyVerifier(PropertyVerifier):
    rule_name = "ManualDepsOnSubmitOnly"

    def verify(self, program: Program, diagnostics: list[Diagnostic]) -> None:
        for func in functions_of(program):
            for call, stmt in iter_calls(func.body):
                if (isinstance(call, E.Call) and isinstance(call.op, GlobalVar)
                        and "manual_dep_edges" in call._attrs):
                    diagnostics.append(error(
                        self.rule_name, 0,
                        f"Call to '{call.op.name}' in function '{func.name}' carries "
                        "attrs['manual_dep_edges']; manual dependencies are only allowed on a "
                        "Submit (pl.submit)", stmt.span))


class InlineFunctionsEliminatedVerifier(PropertyVerifier):
    rule_name = "InlineFunctionsEliminated"

    def verify(self, program: Program, diagnostics: list[Diagnostic]) -> None:
        functions = program._functions
        for func in functions.values():
            if func.func_type is FunctionType.Inline:
                diagnostics.append(error(
                    self.rule_name, INLINE_SURVIVES,
                    f"Inline function '{func.name}' survives (InlineFunctions should have "
                    "removed it)", func.span))
        for func in functions.values():
            for call, stmt in iter_calls(func.body):
                if not isinstance(call.op, GlobalVar):
                    continue
                callee = functions.get(call.op.name)
                if callee is None:
                    diagnostics.append(error(
                        self.rule_name, CALLS_MISSING_FUNCTION,
                        f"Function '{func.name}' calls '{call.op.name}', which does not exist "
                        "in the program (likely a former Inline callee that wasn't spliced)",
                        stmt.span))
                elif callee.func_type is FunctionType.Inline:
                    diagnostics.append(error(
                        self.rule_name, CALLS_LIVE_INLINE,
                        f"Function '{func.name}' calls Inline function '{callee.name}', which "
                        "should have been inlined", stmt.span))


class OrchestrationReferencesResolvedVerifier(PropertyVerifier):
    rule_name = "OrchestrationReferencesResolved"

    def verify(self, program: Program, diagnostics: list[Diagnostic]) -> None:
        functions = program._functions
        for func in functions.values():
            if func.func_type is not FunctionType.Orchestration:
                continue
            for call, stmt in iter_calls(func.body):
                if isinstance(call.op, GlobalVar) and call.op.name not in functions:
                    diagnostics.append(error(
                        self.rule_name, 0,
                        f"Orchestration function '{func.name}' references undefined function "
                        f"'{call.op.name}'", stmt.span))
