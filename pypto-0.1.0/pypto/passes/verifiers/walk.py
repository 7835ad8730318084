"""Verifier helpers: diagnostics constructors and printing, plus the IR walking
vocabulary of ``pypto.ir.walk`` re-exported for the verifier modules."""

from __future__ import annotations

from typing import Iterable

from ...ir.function import Function, Program
from ...ir.span import Span
from ...ir.walk import (attr_exprs, collect_definitions, def_sites, expr_children, iter_calls,
                        iter_exprs, iter_stmts, iter_var_uses, stmt_exprs, trailing_yield,
                        type_vars)
from ..diagnostic import Diagnostic, DiagnosticSeverity

__all__ = ["error", "warning", "attr_exprs", "expr_children", "iter_var_uses", "type_vars",
           "trailing_yield", "callee_name", "print_function", "iter_stmts", "stmt_exprs",
           "iter_exprs", "iter_calls", "def_sites", "collect_definitions", "functions_of"]


def error(rule: str, code: int, message: str, span: Span) -> Diagnostic:
    return Diagnostic(DiagnosticSeverity.Error, rule, code, message, span)


def warning(rule: str, code: int, message: str, span: Span) -> Diagnostic:
    return Diagnostic(DiagnosticSeverity.Warning, rule, code, message, span)


def callee_name(op: object) -> str:
    return getattr(op, "name", type(op).__name__)


def print_function(func: Function) -> str:
    """The printed function for a diagnostic (never raises: it is only context)."""
    from ...ir.printer import python_print
    try:
        return python_print(func)
    except Exception as exc:  # a diagnostic must not fail on an unprintable body
        return f"<function '{func.name}' could not be printed: {exc}>"


def functions_of(program: Program) -> Iterable[Function]:
    return program._functions.values()
