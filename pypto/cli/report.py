"""Turn what went wrong into findings (``language.parser.findings.Finding``).

Parser errors, pass refusals and failed verifications know their findings
(``findings_of``); this module adds what only the command line meets: a Python
syntax error in the user's file (``E400``), an exception raised by the file's own
module code (``E401``, at the innermost line of that file on the traceback; a failure
of ``pypto.run`` or a jit call there is shown where the program failed, noting that
line), and a plain ``ValueError``/``TypeError`` of the user's making (no span).
"""

from __future__ import annotations

import linecache
import traceback
from dataclasses import replace
from typing import TYPE_CHECKING, Optional, cast

from ..language.parser.diagnostics import span_to_dict
from ..language.parser.diagnostics.renderer import format_location
from ..language.parser.display import BACKTRACE_SEPARATOR, backtrace_enabled
from ..language.parser.findings import (JIT_NEEDS_ARGUMENTS, PYTHON_EXCEPTION,
                                        PYTHON_SYNTAX_ERROR, Finding, finding_of_diagnostic,
                                        findings_of)
from ..passes.diagnostic import Diagnostic, PassErrorCode
from .errors import ProgramError
from .jit_values import is_missing_argument

if TYPE_CHECKING:  # the jit layer is imported only by files that use it (jit_values)
    from ..jit.signature import MissingArgumentError

__all__ = ["findings_of_error", "syntax_error_finding", "module_exception_finding",
           "run_failure_finding", "plain_finding", "diagnostic_finding", "program_error", "backtrace_text"]


def plain_finding(message: str, code: str = PassErrorCode.UNCLASSIFIED.code) -> Finding:
    return Finding("error", code, message)


def diagnostic_finding(diag: Diagnostic) -> Finding:
    return finding_of_diagnostic(diag)


def syntax_error_finding(err: SyntaxError) -> Finding:
    """A Python ``SyntaxError`` (or ``IndentationError``), located when it can be."""
    span = None
    if err.filename and err.lineno:
        span = span_to_dict({"filename": err.filename, "line": err.lineno,
                             "column": err.offset or 0})
    return Finding("error", PYTHON_SYNTAX_ERROR, f"{type(err).__name__}: {err.msg}", span,
                   origin="python")


def module_exception_finding(exc: BaseException, filename: str) -> Finding:
    """An exception raised by the user's own code while their file ran: at the
    innermost line of ``filename`` on the traceback (the line the user can act on)."""
    message = f"{type(exc).__name__}: {exc}"
    line = _innermost_line_in(exc, filename)
    if line is None:
        return Finding("error", PYTHON_EXCEPTION, f"running {filename} failed: {message}",
                       origin="python")
    text = linecache.getline(filename, line)
    column = len(text) - len(text.lstrip()) + 1 if text.strip() else 0
    span = span_to_dict({"filename": filename, "line": line, "column": column})
    return Finding("error", PYTHON_EXCEPTION, message, span, origin="python")


def run_failure_finding(err: BaseException, filename: str) -> Finding:
    """An executor or jit-call error of the file's own module code: where the program
    failed (as a script shows it), noting the module line that ran it; at that line when
    the error has no place of its own."""
    found = findings_of(err)
    if not found or found[0].span is None:
        return module_exception_finding(err, filename)
    finding = found[0]
    line = _innermost_line_in(err, filename)
    if line is None:
        return finding
    place = format_location({"filename": filename, "line": line})
    if finding.note and place in finding.note:  # a jit call's note names it already
        return finding
    ran = f"run from {place}"
    return replace(finding, note=f"{finding.note}; {ran}" if finding.note else ran)


def _innermost_line_in(exc: BaseException, filename: str) -> Optional[int]:
    line = None
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def findings_of_error(exc: BaseException) -> list[Finding]:
    """The findings of a user-facing error raised while compiling or checking."""
    if is_missing_argument(exc):
        return [missing_argument_finding(cast("MissingArgumentError", exc), "error")]
    found = findings_of(exc)
    if found:
        return found
    if isinstance(exc, SyntaxError):
        return [syntax_error_finding(exc)]
    return [plain_finding(str(exc) or type(exc).__name__)]


def missing_argument_finding(err: "MissingArgumentError", severity: str) -> Finding:
    """A jit entry that has no type until it is called, at the parameter that needs
    the argument."""
    return Finding(
        severity, JIT_NEEDS_ARGUMENTS,
        f"'{err.function}' cannot be specialised without a call: {err}",
        span=span_to_dict(err.span), source_lines=err.source_lines,
        hint=f"annotate '{err.parameter}' fully (e.g. pl.Tensor[[16, 64], pl.FP32]) to check "
             "the entry on its own, or check the script that calls it")


def program_error(exc: BaseException) -> ProgramError:
    return ProgramError(findings_of_error(exc), exc)


def backtrace_text(exc: BaseException) -> Optional[str]:
    """The Python traceback when ``PTO_BACKTRACE=1`` asks for it, else ``None``."""
    if not backtrace_enabled():
        return None
    trace = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    return f"{BACKTRACE_SEPARATOR}\n{trace.rstrip()}"

