"""Verifier diagnostics, the verification report (03-passes.md §4.3-§4.4), and the two
errors a pass run raises for the user's program:

* ``PassError`` -- a pass refuses the program (a ``pypto.Error`` and a ``ValueError``),
  naming the pass and carrying the span of the user's statement;
* ``VerificationError`` -- a verification failed; it carries the ``Diagnostic``s.

Both keep the structured facts (span, code, hint, diagnostics) so that every front
end -- the command line, a notebook, a script's excepthook -- renders them as source
snippets; ``str()`` stays a complete one-line (or report) text for plain tracebacks.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Iterable, Optional, Sequence

from .._core_enum import CoreEnumRepr
from ..errors import Error
from ..ir.span import Span

__all__ = ["DiagnosticSeverity", "Diagnostic", "format_report", "has_errors", "errors_of",
           "PassError", "PassErrorCode", "VerificationError"]


class DiagnosticSeverity(CoreEnumRepr, enum.Enum):
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
    hint_code: str = ""  # PyPTO's code of a performance hint ("" for other findings)

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


# -- errors of a pass run -----------------------------------------------------------------

class PassErrorCode(enum.Enum):
    """The stable code of each kind of pass refusal (docs/guide/diagnostics.md)."""

    UNCLASSIFIED = ("P000", "a pass refused the program (no finer kind recorded)")
    PRECONDITION = ("P001", "a pass's required properties do not hold on its input "
                            "(pypto compile: a -p pipeline in the wrong order)")
    NESTING_TOO_DEEP = ("P002", "the program nests deeper than pypto's limits (100 statement "
                                "levels, expressions 100 levels deep)")
    INLINE_CYCLE = ("P100", "FunctionType.Inline functions call each other in a cycle")
    INLINE_NOT_SPLICEABLE = ("P101", "an Inline function is called inside an expression or "
                                     "submitted, where no splice can go")
    INLINE_AUTO_SCOPE_CONFLICT = (
        "P102", "an auto_scope=False Inline function with a hand-placed AUTO pl.scope() is "
                "called from an auto-scoped body")
    INLINE_REGION_NESTING = (
        "P103", "an Inline function's body holds a region its call site's region does not "
                "allow (a pl.graph inside pl.at, pl.cluster or pl.spmd; a launch in a kernel)")
    SSA_UNCONVERTIBLE = ("P200", "ConvertToSSA cannot put a function into SSA form")
    HOISTED_CONDITION_READS_CARRY = (
        "P300", "a call in a while condition reads a loop-carried value")
    OUTLINE_NEEDS_SSA = ("P400", "an outlining pass ran on a function not in SSA form")
    NESTED_GRAPH = ("P401", "a pl.graph region nested inside another")
    REGION_NOT_OUTLINED = ("P402", "a region survives in a function its pass does not outline")
    UNUSED_NO_DEP_ARG = ("P404", "no_dep_args names a tensor the region does not use")
    BLOCK_COUNT_FROM_CLUSTER = (
        "P405", "a pl.spmd block count is computed inside the enclosing pl.cluster")
    PREDICATE_OUTSIDE_ORCHESTRATION = (
        "P406", "a dispatch predicate where no orchestration body can evaluate it")
    UNDEFINED_IN_REGION = ("P407", "a region reads a variable defined nowhere")
    JUMP_OUT_OF_REGION = ("P408", "a break, continue or return would leave an outlined region")
    KERNEL_IN_KERNEL = ("P409", "an InCore region holds another one")
    GRAPH_BOUNDARY = ("P500", "a Graph function's boundary cannot be legalized")
    UNROLL_REFUSED = ("P600", "a pl.unroll loop cannot be unrolled (bounds not constant, "
                              "a break/continue, a reassigned loop variable)")
    CALL_DIRECTION_CONFLICT = ("P601", "a call's recorded argument directions contradict "
                                       "the callee's parameter directions")

    def __init__(self, code: str, summary: str) -> None:
        self.code = code
        self.summary = summary


class PassError(Error, ValueError):
    """A pass refuses the program because of something the user wrote.

    ``message`` says what is wrong (without location); ``span`` is the user's
    statement; ``pass_name`` is filled in by ``Pass.__call__`` when the raise site
    does not give it.  ``str(err)`` is ``"<Pass>: <message> [<file:line:col>]"``.
    """

    def __init__(self, message: str, span: Optional[Span] = None, *,
                 code: PassErrorCode = PassErrorCode.UNCLASSIFIED,
                 hint: Optional[str] = None, note: Optional[str] = None,
                 pass_name: Optional[str] = None) -> None:
        message = str(message)
        super().__init__(message)
        self.message = message
        self.span = span if span is not None and span.is_valid() else None
        self.code = code
        self.hint = hint
        self.note = note
        self.pass_name = pass_name

    def headline(self) -> str:
        """``"<Pass>: <message>"``: what a rendered snippet shows above the location."""
        if self.pass_name and not self.message.startswith(self.pass_name):
            return f"{self.pass_name}: {self.message}"
        return self.message

    def __str__(self) -> str:
        where = f" [{self.span.to_string()}]" if self.span is not None else ""
        return self.headline() + where


class VerificationError(Error):
    """A verification found errors.  ``str(err)`` is the report (with a headline saying
    where verification ran, when known); ``diagnostics`` are the findings."""

    def __init__(self, text: str, diagnostics: Sequence[Diagnostic],
                 stage: Optional[str] = None) -> None:
        super().__init__(text)
        self.diagnostics = list(diagnostics)
        self.stage = stage
