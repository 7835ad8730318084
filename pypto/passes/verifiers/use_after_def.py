"""UseAfterDef verifier (rule ``UseAfterDefCheck``).

A Var defined somewhere in the function must be visible where it is used.
Loop vars and iter_args are visible in their body only, return vars after their
statement; other loop-body definitions stay visible after the loop and an ``if``
without return vars leaks its branch definitions (pre-SSA IR is Python-scoped).
Vars inside types are checked too.  A Var with no definition anywhere in the
function (a dynamic dim, a pass's placeholder) is free, not "used before
definition".
"""

from __future__ import annotations

import enum

from ..._core_enum import CoreEnumRepr
from ...ir import expr as E
from ...ir.function import Function, Program
from ...ir.node import Stmt
from ..diagnostic import Diagnostic
from ..verifier_registry import PropertyVerifier
from .def_use import DefUseWalker
from .walk import collect_definitions, error, functions_of

__all__ = ["UseAfterDefVerifier", "UseAfterDefErrorType"]

RULE = "UseAfterDefCheck"


class UseAfterDefErrorType(CoreEnumRepr, enum.IntEnum):
    """PyPTO's error code of the UseAfterDef rule."""

    USE_BEFORE_DEF = 401


class _UseAfterDefWalker(DefUseWalker):
    loop_body_leaks = True
    plain_if_leaks = True

    def __init__(self, func: Function, diagnostics: list[Diagnostic]) -> None:
        super().__init__(func)
        self.diagnostics = diagnostics
        self.defined_somewhere = collect_definitions(func)
        self.reported: set[E.Var] = set()

    def on_use(self, var: E.Var, stmt: Stmt) -> None:  # ``var`` is not visible here
        if var not in self.defined_somewhere or var in self.reported:
            return
        self.reported.add(var)
        self.diagnostics.append(error(
            RULE, int(UseAfterDefErrorType.USE_BEFORE_DEF), f"Variable '{var.name_hint}' used before definition in function "
                     f"'{self.func.name}'", stmt.span))


class UseAfterDefVerifier(PropertyVerifier):
    rule_name = RULE

    def verify(self, program: Program, diagnostics: list[Diagnostic]) -> None:
        for func in functions_of(program):
            _UseAfterDefWalker(func, diagnostics).run()
