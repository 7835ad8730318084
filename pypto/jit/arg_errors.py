"""The errors of a ``@pl.jit`` call whose arguments do not fit the function.

They stay the ``TypeError`` / ``ValueError`` that Python (and PyPTO) raise for a bad
call, so ``pytest.raises(TypeError, match=...)`` reads the same; as
``SourceDiagnostic``s they also carry where the user wrote the parameter (or the
function), and a note naming the call, so a script, a notebook and the command line
show a snippet of the user's own lines instead of pypto's stack.
"""

from __future__ import annotations

import ast
import os
import sys
from types import FrameType
from typing import Optional

from ..errors import SourceDiagnostic
from ..language.parser.diagnostics.renderer import format_location
from .analysis import FunctionFacts

__all__ = ["ArgumentTypeError", "ArgumentValueError", "OptionTypeError", "OptionValueError",
           "argument_error", "option_error", "call_site"]

ARGUMENT_MISMATCH = "E403"  # findings.JIT_ARGUMENT_MISMATCH
BAD_OPTION = "E404"  # findings.JIT_BAD_OPTION
_PYPTO_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


class ArgumentTypeError(SourceDiagnostic, TypeError):
    """An argument of the wrong kind or dtype for its parameter, or a call that does
    not bind (too many arguments, an unknown keyword)."""

    code = ARGUMENT_MISMATCH


class ArgumentValueError(SourceDiagnostic, ValueError):
    """An argument of the right kind whose rank, shape, layout or dynamic size does not
    meet its parameter."""

    code = ARGUMENT_MISMATCH


class OptionTypeError(SourceDiagnostic, TypeError):
    """A ``@pl.jit`` decorator keyword its form does not take, or of the wrong type."""

    code = BAD_OPTION


class OptionValueError(SourceDiagnostic, ValueError):
    """A ``@pl.jit`` decorator option pypto cannot honour (external kernels)."""

    code = BAD_OPTION


def option_error(cls: type, message: str) -> SourceDiagnostic:
    """``cls(message)`` at the user's decorator: the frame that called into pypto."""
    err: SourceDiagnostic = cls(message)
    err.span = caller_span()
    return err


def argument_error(cls: type, message: str, facts: FunctionFacts,
                   node: Optional[ast.AST] = None,
                   hint: Optional[str] = None) -> SourceDiagnostic:
    """``cls(message)`` at ``node`` of the function's source (the function itself when
    ``node`` is None), with the call that passed the argument as its note."""
    err: SourceDiagnostic = cls(message)
    err.span = facts.info.span(node if node is not None else facts.node)
    err.source_lines = facts.info.file_lines
    err.hint = hint
    site = call_site()
    err.note = f"in the call at {site}" if site is not None else None
    return err


def call_site() -> Optional[str]:
    """Where the user's code called into pypto: the innermost frame of the stack that is
    not pypto's own (``file:line``, or ``Cell In[5], line 3`` in a notebook)."""
    span = caller_span()
    return format_location(span) if span is not None else None


def caller_span() -> Optional[dict]:
    """The span dict (file, line, column of the call) of the innermost frame of the
    stack that is not pypto's own."""
    frame: Optional[FrameType] = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename.startswith(_PYPTO_DIR):
        frame = frame.f_back
    if frame is None:
        return None
    code = frame.f_code
    column = 0
    co_positions = getattr(code, "co_positions", None)  # Python 3.11+; 3.10 has lines only
    positions = list(co_positions()) if co_positions is not None else []
    index = frame.f_lasti // 2  # the instruction running: the call, 2 bytes a code unit
    if 0 <= index < len(positions):
        start = positions[index][2]
        column = start + 1 if start is not None else 0
    return {"filename": code.co_filename, "line": frame.f_lineno, "column": column}
