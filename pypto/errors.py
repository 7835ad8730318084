"""Error types shared by every layer of pypto.

``Error`` is a user-facing failure that is not tied to source text (verification
failures, pipeline errors).  ``InternalError`` marks a broken invariant inside
pypto: it is a bug, so nothing ever wraps or softens it.

PyPTO's compiled core also names its own subclasses of the built-in errors
(``pypto.pypto_core.ValueError`` ...); they are defined here, under ``Core*`` names
so this module never shadows a built-in, and re-exported there under PyPTO's names.
"""

from __future__ import annotations

__all__ = ["Error", "InternalError", "CoreAssertionError", "CoreIndexError",
           "CoreNotImplementedError", "CoreRuntimeError", "CoreTypeError", "CoreValueError"]


class Error(Exception):
    """A pypto failure caused by the program being compiled (e.g. verification)."""


class InternalError(RuntimeError):
    """A broken invariant inside pypto.  Always a bug; never wrapped."""


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
