"""Error types shared by every layer of pypto.

``Error`` is a user-facing failure that is not tied to source text (verification
failures, pipeline errors).  ``InternalError`` marks a broken invariant inside
pypto: it is a bug, so nothing ever wraps or softens it.

PyPTO's compiled core also names its own subclasses of the built-in errors
(``pypto.pypto_core.ValueError`` ...); they are defined here, under ``Core*`` names
so this module never shadows a built-in, and re-exported there under PyPTO's names.
"""

from __future__ import annotations

import os
from types import TracebackType
from typing import Any

__all__ = ["Error", "InternalError", "SourceDiagnostic", "CoreAssertionError", "CoreIndexError",
           "CoreNotImplementedError", "CoreRuntimeError", "CoreTypeError", "CoreValueError"]


class Error(Exception):
    """A pypto failure caused by the program being compiled (e.g. verification)."""


class InternalError(RuntimeError):
    """A broken invariant inside pypto.  Always a bug; never wrapped."""


class SourceDiagnostic(Exception):
    """A base of errors reported at a place in the user's own source, beside the
    parser's and the passes' classes: the executor's ``ExecutionError`` and the jit's
    argument errors.  Front ends (a script's excepthook, a notebook, the command line)
    show one as a snippet with a caret instead of pypto's stack.

    Each subclass keeps its own built-in base (``TypeError``, ``pypto.Error`` ...), so
    what users catch stays what it was; this class only adds what a snippet needs:
    ``span`` (an ``ir.Span``, a span dict, or ``None``), a stable ``code``, a ``hint``,
    a ``note``, ``source_lines`` (the text when no file holds it) and ``headline()``,
    the message without the location that ``str()`` may append.
    """

    code = ""  # each subclass names its stable code (docs/guide/diagnostics.md)
    span: Any = None  # an ``ir.Span`` or a span dict (this module imports no IR)
    hint: "str | None" = None
    note: "str | None" = None
    source_lines: "list[str] | None" = None

    def headline(self) -> str:
        return str(self)


# PyPTO shows both as top-level names of the package (``pypto.InternalError``), which
# is where pickling and tracebacks find them too.
Error.__module__ = InternalError.__module__ = "pypto"


def _core(builtin: type, doc: str) -> type:
    """A subclass of ``builtin`` that prints as PyPTO's ``pypto.pypto_core.<name>``."""
    return type(builtin.__name__, (builtin,), {"__doc__": doc, "__module__": "pypto.pypto_core"})


CoreAssertionError = _core(AssertionError, "A failed assertion reported by pypto.")
CoreIndexError = _core(IndexError, "An index out of range, reported by pypto.")
CoreNotImplementedError = _core(NotImplementedError, "A feature pypto does not provide.")
CoreRuntimeError = _core(RuntimeError, "A runtime failure reported by pypto.")
CoreTypeError = _core(TypeError, "A value of the wrong type, reported by pypto.")
CoreValueError = _core(ValueError, "A bad value given to pypto (``pypto.check``).")


# Built-in errors pypto raises only with a ``raise`` statement of its own.  One that
# comes from anything else in pypto's code (a failed lookup, attribute read or import)
# shows a defect there, not a mistake in the program it was given.
DEFECT_CLASSES = (AttributeError, ImportError, IndexError, KeyError, NameError)

_PYPTO_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep
_STDLIB_DIR = os.path.dirname(os.path.abspath(os.__file__)) + os.sep


def is_pypto_defect(exc: BaseException,
                    classes: tuple[type[BaseException], ...] = DEFECT_CLASSES) -> bool:
    """Whether ``exc`` was caused by a defect in pypto rather than by its input.

    True for an error of ``classes`` (default ``DEFECT_CLASSES``) whose innermost frame -- standard-library
    frames skipped: they do what pypto asked -- is in pypto and is not a ``raise``
    statement.  An error the user's own Python raised (a helper function, a constant
    expression evaluated for the parser) has its innermost frame there: never a defect.
    """
    if not isinstance(exc, classes):
        return False
    innermost: TracebackType | None = None
    in_pypto = False
    tb = exc.__traceback__
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if filename.startswith(_PYPTO_DIR):
            innermost, in_pypto = tb, True
        elif not _is_stdlib(filename):
            innermost, in_pypto = tb, False
        tb = tb.tb_next
    return in_pypto and innermost is not None and not _is_raise(innermost)


def _is_stdlib(filename: str) -> bool:
    return filename.startswith("<frozen ") or (
        filename.startswith(_STDLIB_DIR) and "-packages" + os.sep not in filename)


def _is_raise(tb: TracebackType) -> bool:
    import dis  # only when an error is judged: not at every ``import pypto``
    for instruction in dis.get_instructions(tb.tb_frame.f_code):
        if instruction.offset == tb.tb_lasti:
            return instruction.opname in ("RAISE_VARARGS", "RERAISE")
    return False
