"""How the command line reports problems: the two failure kinds and their text.

``UsageError`` (exit 2) is a mistake on the command line; ``ProgramError`` (exit 1)
carries the rendered diagnostics of a problem in the user's program.  The render
functions turn an exception or a verifier finding into text; nothing here prints.
Parser errors and everything else that has a source position are shown with the
parser's snippet renderer (01-language.md §14.4), so ``pypto compile`` looks the
same as an uncaught error in a script; the rest becomes ``error: <message>``.
"""

from __future__ import annotations

import linecache
import traceback
from dataclasses import dataclass
from typing import Optional

from ..ir.span import Span
from ..language.parser.diagnostics import ParserError, span_to_dict
from ..language.parser.display import BACKTRACE_SEPARATOR, backtrace_enabled
from ..language.parser.render import ErrorRenderer
from ..passes.diagnostic import Diagnostic, PassError

__all__ = ["UsageError", "ProgramError", "Located", "render_located", "render_parser_error",
           "render_syntax_error", "render_exception_in_file", "render_diagnostic", "plain_error",
           "with_backtrace"]


class UsageError(Exception):
    """A mistake on the command line (bad option, unknown pass, missing file, ...).

    Shown as one line; the command exits with status 2.
    """


class ProgramError(Exception):
    """The user's program has a problem; ``text`` is what to show (exit status 1).

    ``cause`` is the original exception, kept for ``PTO_BACKTRACE=1``.
    """

    def __init__(self, text: str, cause: Optional[BaseException] = None) -> None:
        super().__init__(text)
        self.text = text
        self.cause = cause


@dataclass(frozen=True)
class Located:
    """A message with a source position, in the shape ``ErrorRenderer`` reads."""

    message: str
    span: Optional[dict]
    hint: Optional[str] = None
    note: Optional[str] = None
    source_lines: Optional[list[str]] = None


def render_located(located: Located, use_color: Optional[bool] = None) -> str:
    return ErrorRenderer(use_color).render(located)  # type: ignore[arg-type]  # duck-typed


def render_parser_error(err: ParserError, use_color: Optional[bool] = None) -> str:
    return ErrorRenderer(use_color).render(err)


def render_syntax_error(err: SyntaxError, use_color: Optional[bool] = None) -> str:
    """A Python ``SyntaxError`` (or ``IndentationError``) with a snippet when located."""
    span = None
    if err.filename and err.lineno:
        span = span_to_dict({"filename": err.filename, "line": err.lineno,
                             "column": err.offset or 0})
    message = f"{type(err).__name__}: {err.msg}"
    return render_located(Located(message, span), use_color)


def render_exception_in_file(exc: BaseException, filename: str,
                             use_color: Optional[bool] = None) -> str:
    """An exception raised by the user's own code while their file ran.

    Points at the innermost line of ``filename`` on the traceback (that is the line
    the user can act on), or gives the bare message when the file is not on it.
    """
    message = f"{type(exc).__name__}: {exc}"
    line = _innermost_line_in(exc, filename)
    if line is None:
        return plain_error(f"running {filename} failed: {message}")
    text = linecache.getline(filename, line)
    column = len(text) - len(text.lstrip()) + 1 if text.strip() else 0
    span = span_to_dict({"filename": filename, "line": line, "column": column})
    return render_located(Located(message, span), use_color)


def _innermost_line_in(exc: BaseException, filename: str) -> Optional[int]:
    line = None
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def render_diagnostic(diag: Diagnostic, use_color: Optional[bool] = None) -> str:
    """One verifier finding: a snippet for errors, one line for warnings and hints."""
    label = f"[{diag.rule_name}] {diag.message}"
    if not diag.is_error:
        return f"warning: {label} (at {_location(diag.span)})"
    return render_located(Located(label, span_to_dict(diag.span)), use_color)


def render_pass_error(err: PassError, use_color: Optional[bool] = None) -> str:
    """A pass refusal: a snippet at the user's statement, or one line without a span."""
    if err.span is None:
        return plain_error(err.headline())
    return render_located(Located(err.headline(), span_to_dict(err.span), err.hint, err.note),
                          use_color)


def _location(span: Span) -> str:
    return span.to_string() if span.is_valid() else "unknown location"


def plain_error(message: str) -> str:
    return f"error: {message}"


def with_backtrace(text: str, exc: BaseException) -> str:
    """Append the Python traceback when ``PTO_BACKTRACE=1`` asks for it."""
    if not backtrace_enabled():
        return text
    trace = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    return f"{text}\n{BACKTRACE_SEPARATOR}\n{trace.rstrip()}"
