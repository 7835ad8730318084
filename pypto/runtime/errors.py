"""Errors raised by the reference executor (``pypto.run``).

``ExecutionError`` is what a user sees when a program fails while running: the
message names the op (or statement) and its source location, in the form
``tile.load at model.py:12:17: offsets [64, 0] + shape [32, 32] exceed tensor
shape [64, 128]``.  ``NumPyUnavailableError`` says how to install the optional
dependency.  ``OpFailure`` is internal: op and scalar semantics raise it with the
bare detail, and the interpreter, which knows the op and its span, turns it into
an ``ExecutionError``.

This module must not import NumPy: ``import pypto`` works without it.
"""

from __future__ import annotations

from ..errors import Error, SourceDiagnostic
from ..ir.span import Span

__all__ = ["ExecutionError", "NumPyUnavailableError", "OpFailure", "location_text"]

INSTALL_HINT = "pip install pypto[numpy]"


def location_text(span: Span | None) -> str:
    """``file:line:col`` (``file:line`` when the column is unknown), or ``<unknown location>``."""
    if span is None or not span.filename or span.begin_line <= 0:
        return "<unknown location>"
    if span.begin_column > 0:
        return f"{span.filename}:{span.begin_line}:{span.begin_column}"
    return f"{span.filename}:{span.begin_line}"


class ExecutionError(Error, SourceDiagnostic):
    """A program failed on the reference executor.

    Attributes: ``what`` (the op name, e.g. ``"tile.load"``, or the construct, e.g.
    ``"FloorDiv"``, ``"call of 'k'"``), ``span`` (its ``ir.Span`` or ``None``),
    ``detail`` (the message without the location prefix) and ``function`` (the name of
    the pypto function that was running, when known).  A script, a notebook and the
    command line show it as a snippet at ``span`` (a ``SourceDiagnostic``).
    """

    code = "R000"

    def __init__(self, message: str, *, what: str | None = None, span: Span | None = None,
                 detail: str | None = None, function: str | None = None,
                 hint: str | None = None) -> None:
        super().__init__(message)
        self.what = what
        self.span = span
        self.detail = message if detail is None else detail
        self.function = function
        self.hint = hint
        # (function, span of its call), innermost first: how the run got to ``span``.
        self.called_from: list[tuple[str, Span]] = []

    def add_call(self, function: str, span: Span) -> None:
        """The run got here through a call of ``function`` at ``span``; the note says
        ``'k' was called at model.py:18:13`` (a kernel's line alone does not say which
        call ran it), naming a notebook cell as IPython does."""
        # Loaded here, on the failure path, so importing the executor loads no parser.
        from ..language.parser.diagnostics.renderer import format_location
        self.called_from.append((function, span))
        place = {"filename": span.filename, "line": span.begin_line,
                 "column": span.begin_column}
        step = f"'{function}' was called at {format_location(place)}"
        self.note = step if self.note is None else f"{self.note}; {step}"

    def headline(self) -> str:
        """``"<what>: <detail>"`` (the snippet under it shows the location)."""
        if self.what is None:
            return str(self)
        named = self.function and f"'{self.function}'" not in self.what
        where = f" (in function '{self.function}')" if named else ""
        return f"{self.what}: {self.detail}{where}"

    @classmethod
    def at(cls, what: str, span: Span | None, detail: str,
           function: str | None = None) -> "ExecutionError":
        """``"<what> at <file:line:col>: <detail>"``."""
        return cls(f"{what} at {location_text(span)}: {detail}", what=what, span=span,
                   detail=detail, function=function)


class NumPyUnavailableError(Error, ImportError):
    """``pypto.run`` needs NumPy, which is an optional dependency of pypto."""

    def __init__(self, cause: str = "") -> None:
        reason = f" ({cause})" if cause else ""
        super().__init__(f"pypto.run executes programs with NumPy, which is not "
                         f"installed{reason}. Install it with: {INSTALL_HINT}")


class OpFailure(Exception):
    """Raised by an op or scalar implementation with the bare detail of a failure.

    Never escapes the executor: the interpreter re-raises it as an ``ExecutionError``
    naming the op and its span.
    """
