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

__all__ = ["ArgumentTypeError", "ArgumentValueError", "argument_error", "call_site"]

ARGUMENT_MISMATCH = "E403"  # findings.JIT_ARGUMENT_MISMATCH
_PYPTO_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


class ArgumentTypeError(SourceDiagnostic, TypeError):
    """An argument of the wrong kind or dtype for its parameter, or a call that does
    not bind (too many arguments, an unknown keyword)."""

    code = ARGUMENT_MISMATCH


class ArgumentValueError(SourceDiagnostic, ValueError):
    """An argument of the right kind whose rank, shape, layout or dynamic size does not
    meet its parameter."""

    code = ARGUMENT_MISMATCH


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
    frame: Optional[FrameType] = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename.startswith(_PYPTO_DIR):
        frame = frame.f_back
    if frame is None:
        return None
    return format_location({"filename": frame.f_code.co_filename, "line": frame.f_lineno})
