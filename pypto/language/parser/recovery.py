"""Error recovery: report every independent error of a program, not just the first.

* **Statements.** ``FunctionParser.parse_block`` parses each statement on its own: a
  statement that fails is recorded, the names it would have bound are *poisoned*, and
  parsing goes on with the next statement.  A later statement that reads a poisoned
  name, calls a method that failed, or fails while an inner statement already
  reported an error, depends on an error already shown: it is dropped, not reported.
* **Functions and programs.** Every method of a ``@pl.program`` is parsed even when an
  earlier one failed; the program raises its first error, carrying the others in
  ``err.also`` (in the order found).
* **Files.** Inside ``collect_entity_errors()`` (``pypto check`` / ``pypto compile``
  running a file) ``@pl.program`` / ``@pl.function`` record their error and return a
  ``FailedEntity`` placeholder, so the module goes on and the next definitions are
  parsed too; a definition that uses a failed one depends on it and is not reported.

The state lives in the parse (``ProgramContext.errors``) and in a ``ContextVar``:
nothing process-wide, so threads and nested parses never see each other's errors.
"""

from __future__ import annotations

import ast
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Iterator, Optional

from .diagnostics import ParserError

__all__ = ["POISONED", "DependentError", "FailedEntity", "collect_entity_errors",
           "record_entity_error", "stored_names", "collected_error", "failed_entity_error"]


class _Poisoned:
    """The binding of a name whose defining statement failed."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<poisoned>"


POISONED = _Poisoned()


class DependentError(ParserError):
    """A statement that depends on an error already reported; never shown."""


def stored_names(node: ast.stmt) -> list[str]:
    """The names a statement (and every statement nested in it) would bind."""
    found: dict[str, None] = {}
    for child in ast.walk(node):
        if isinstance(child, ast.Name) and isinstance(child.ctx, ast.Store):
            found.setdefault(child.id, None)
    return list(found)


def collected_error(errors: list[ParserError], start: int = 0) -> Optional[ParserError]:
    """``errors[start]`` carrying ``errors[start + 1:]`` as ``also``; ``None`` if none."""
    if len(errors) <= start:
        return None
    first = errors[start]
    rest = [e for e in errors[start + 1:] if e is not first]
    first.also = tuple(_flatten(rest))
    return first


def _flatten(errors: list[ParserError]) -> Iterator[ParserError]:
    for err in errors:
        yield err
        yield from getattr(err, "also", ())
        err.also = ()


# -- whole files -----------------------------------------------------------------------

class FailedEntity:
    """What ``@pl.program`` / ``@pl.function`` return for a definition that failed to
    parse while errors are being collected: it stands for the name, nothing more."""

    def __init__(self, name: str, error: ParserError) -> None:
        self.name = name
        self.error = error

    def __repr__(self) -> str:
        return f"<'{self.name}': failed to parse>"

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise DependentError(f"'{self.name}' failed to parse (see its error)")

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        raise DependentError(f"'{self.name}' failed to parse (see its error)")


_collected: ContextVar[Optional[list[ParserError]]] = ContextVar("pypto_collected_errors",
                                                                 default=None)


@contextmanager
def collect_entity_errors() -> Iterator[list[ParserError]]:
    """Collect the errors of every DSL definition executed inside (see the module doc)."""
    errors: list[ParserError] = []
    token = _collected.set(errors)
    try:
        yield errors
    finally:
        _collected.reset(token)


def record_entity_error(name: str, err: ParserError) -> Optional[FailedEntity]:
    """When collecting: record ``err`` (unless it only depends on an earlier failure)
    and return the placeholder to bind instead; otherwise ``None`` (raise it)."""
    errors = _collected.get()
    if errors is None:
        return None
    if not isinstance(err, DependentError):
        errors.append(err)
    errors.extend(e for e in getattr(err, "also", ()) if not isinstance(e, DependentError))
    err.also = ()
    return FailedEntity(name, err)


def failed_entity_error(value: Any, span: Any) -> Optional[DependentError]:
    """The error to raise when a DSL body refers to a definition that failed."""
    if isinstance(value, FailedEntity):
        return DependentError(f"'{value.name}' failed to parse (see its error)", span)
    return None
