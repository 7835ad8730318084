"""Verifier diagnostics and the verification report (03-passes.md §4.3-§4.4)."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Iterable

from ..ir.span import Span

__all__ = ["DiagnosticSeverity", "Diagnostic", "format_report", "has_errors", "errors_of"]


class DiagnosticSeverity(enum.Enum):
    """Errors fail verification; warnings and performance hints are only reported."""

    Error = 0
    Warning = 1
    PerfHint = 2


# Upper-case labels of the report's ``[i] <LABEL> - <rule>`` lines.
_LABELS = {
    DiagnosticSeverity.Error: "ERROR",
    DiagnosticSeverity.Warning: "WARNING",
    DiagnosticSeverity.PerfHint: "PERF_HINT",
}


@dataclass(frozen=True)
class Diagnostic:
    """One finding of a property verifier."""

    severity: DiagnosticSeverity
    rule_name: str
    error_code: int
    message: str
    span: Span

    def __post_init__(self) -> None:
        if not isinstance(self.severity, DiagnosticSeverity):
            raise TypeError("Diagnostic: field 'severity' expects a DiagnosticSeverity, "
                            f"got {type(self.severity).__name__}")
        if not isinstance(self.span, Span):
            raise TypeError(f"Diagnostic: field 'span' expects a Span, "
                            f"got {type(self.span).__name__}")

    @property
    def is_error(self) -> bool:
        return self.severity is DiagnosticSeverity.Error


def has_errors(diagnostics: Iterable[Diagnostic]) -> bool:
    return any(d.is_error for d in diagnostics)


def errors_of(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    return [d for d in diagnostics if d.is_error]


def format_report(diagnostics: Iterable[Diagnostic]) -> str:
    """The text report of §4.4 (no trailing newline)."""
    diagnostics = list(diagnostics)
    n_errors = sum(1 for d in diagnostics if d.severity is DiagnosticSeverity.Error)
    n_warnings = sum(1 for d in diagnostics if d.severity is DiagnosticSeverity.Warning)
    lines = ["IR Verification Report",
             "======================",
             f"Total diagnostics: {len(diagnostics)} ({n_errors} errors, {n_warnings} warnings)",
             ""]
    for index, diag in enumerate(diagnostics, 1):
        lines += [f"[{index}] {_LABELS[diag.severity]} - {diag.rule_name}",
                  f"  Message: {diag.message}",
                  f"  Location: {diag.span.to_string()}",
                  f"  Error Code: {diag.error_code}",
                  ""]
    if n_errors:
        lines.append(f"Status: FAILED ({n_errors} error(s) found)")
    elif n_warnings:
        lines.append(f"Status: PASSED with {n_warnings} warning(s)")
    else:
        lines.append("Status: PASSED")
    return "\n".join(lines)
