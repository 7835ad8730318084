"""Call-target verifiers: ManualDepsOnSubmitOnly, InlineFunctionsEliminated,
OrchestrationReferencesResolved, CallDirectionsResolved.  Each looks at every call (``StmtCheck.on_call``),
so they share one walk when verified together (``checks.py``)."""

from __future__ import annotations

from ...ir import expr as E
from ...ir.enums import FunctionType
from ...ir.function import Function, Program
from ...ir.node import Expr, GlobalVar, Stmt
from ..diagnostic import Diagnostic
from .checks import CheckVerifier, StmtCheck
from .walk import error

__all__ = ["ManualDepsOnSubmitOnlyVerifier", "InlineFunctionsEliminatedVerifier",
           "OrchestrationReferencesResolvedVerifier", "CallDirectionsResolvedVerifier"]

# InlineFunctionsEliminated error codes
INLINE_SURVIVES = 0
CALLS_LIVE_INLINE = 1
CALLS_MISSING_FUNCTION = 2


class _ManualDepsCheck(StmtCheck):
    function_calls_only = True  # on_call looks at GlobalVar ops only

    def on_call(self, call: E.Call | E.Submit, stmt: Stmt) -> None:
        if (isinstance(call, E.Call) and isinstance(call.op, GlobalVar)
                and "manual_dep_edges" in call._attrs):
            self.diagnostics.append(error(
                ManualDepsOnSubmitOnlyVerifier.rule_name, 0,
                f"Call to '{call.op.name}' in function '{self.func.name}' carries "
                "attrs['manual_dep_edges']; manual dependencies are only allowed on a "
                "Submit (pl.submit)", stmt.span))


class ManualDepsOnSubmitOnlyVerifier(CheckVerifier):
    rule_name = "ManualDepsOnSubmitOnly"

    def make_check(self, program: Program, diagnostics: list[Diagnostic]) -> StmtCheck:
        return _ManualDepsCheck(program, diagnostics)


class _InlineFunctionsCheck(StmtCheck):
    """Reports surviving Inline functions when made (before any call of the walk)."""
    function_calls_only = True  # on_call reads call.op.name of GlobalVar ops only

    def __init__(self, program: Program, diagnostics: list[Diagnostic]) -> None:
        super().__init__(program, diagnostics)
        self.functions = program._functions
        for func in self.functions.values():
            if func.func_type is FunctionType.Inline:
                diagnostics.append(error(
                    InlineFunctionsEliminatedVerifier.rule_name, INLINE_SURVIVES,
                    f"Inline function '{func.name}' survives (InlineFunctions should have "
                    "removed it)", func.span))

    def on_call(self, call: E.Call | E.Submit, stmt: Stmt) -> None:
        if not isinstance(call.op, GlobalVar):
            return
        callee = self.functions.get(call.op.name)
        rule = InlineFunctionsEliminatedVerifier.rule_name
        if callee is None:
            self.diagnostics.append(error(
                rule, CALLS_MISSING_FUNCTION,
                f"Function '{self.func.name}' calls '{call.op.name}', which does not exist "
                "in the program (likely a former Inline callee that wasn't spliced)",
                stmt.span))
        elif callee.func_type is FunctionType.Inline:
            self.diagnostics.append(error(
                rule, CALLS_LIVE_INLINE,
                f"Function '{self.func.name}' calls Inline function '{callee.name}', which "
                "should have been inlined", stmt.span))


class InlineFunctionsEliminatedVerifier(CheckVerifier):
    rule_name = "InlineFunctionsEliminated"

    def make_check(self, program: Program, diagnostics: list[Diagnostic]) -> StmtCheck:
        return _InlineFunctionsCheck(program, diagnostics)


class _OrchestrationReferencesCheck(StmtCheck):
    function_calls_only = True  # on_call looks at GlobalVar ops only

    def __init__(self, program: Program, diagnostics: list[Diagnostic]) -> None:
        super().__init__(program, diagnostics)
        self.functions = program._functions

    def applies_to(self, func: Function) -> bool:
        return func.func_type is FunctionType.Orchestration

    def on_call(self, call: E.Call | E.Submit, stmt: Stmt) -> None:
        if isinstance(call.op, GlobalVar) and call.op.name not in self.functions:
            self.diagnostics.append(error(
                OrchestrationReferencesResolvedVerifier.rule_name, 0,
                f"Orchestration function '{self.func.name}' references undefined function "
                f"'{call.op.name}'", stmt.span))


class OrchestrationReferencesResolvedVerifier(CheckVerifier):
    rule_name = "OrchestrationReferencesResolved"

    def make_check(self, program: Program, diagnostics: list[Diagnostic]) -> StmtCheck:
        return _OrchestrationReferencesCheck(program, diagnostics)


class _CallDirectionsCheck(StmtCheck):
    function_calls_only = True  # on_call looks at GlobalVar ops only

    def on_call(self, call: E.Call | E.Submit, stmt: Stmt) -> None:
        from ..transforms.derive_call_directions import compatible_directions
        if not isinstance(call.op, GlobalVar):
            return
        callee = self.program.get_function(call.op.name)
        if callee is None or len(callee.params) != len(call.args):
            return  # reported by the call-target and type verifiers
        recorded = call.arg_directions
        rule = CallDirectionsResolvedVerifier.rule_name
        if not recorded and call.args:  # (a call without arguments has nothing to record)
            self.diagnostics.append(error(
                rule, 0, f"the call of '{callee.name}' in function '{self.func.name}' records "
                "no argument directions (DeriveCallDirections records them)", call.span))
            return
        for i, (given, ok) in enumerate(zip(recorded, compatible_directions(callee))):
            if given not in ok:
                self.diagnostics.append(error(
                    rule, 1, f"the call of '{callee.name}' in function '{self.func.name}' "
                    f"records argument {i} as {given.name}; its parameter "
                    f"'{callee.params[i].name_hint}' allows {', '.join(d.name for d in ok)}",
                    call.span))


class CallDirectionsResolvedVerifier(CheckVerifier):
    rule_name = "CallDirectionsResolved"

    def make_check(self, program: Program, diagnostics: list[Diagnostic]) -> StmtCheck:
        return _CallDirectionsCheck(program, diagnostics)
