"""Parser error classes and their helpers (01-language.md §14).

Importing this module installs the ``sys.excepthook`` wrapper that prints uncaught
parser errors as source snippets (§14.5); see ``parser.display`` and :mod:`.renderer`.
"""

from __future__ import annotations

from .... import ir  # noqa: F401 - PyPTO's module-level name of this path

import re
from typing import Any, Iterable, Mapping, Optional, Union

from ....errors import InternalError
from ....ir.span import Span
from ..display import (backtrace_enabled, ensure_ipython_handler, install_excepthook,
                       traceback_lines, uninstall_excepthook)
from .renderer import ErrorRenderer

__all__ = [
    "DSLSyntaxError",
    "InvalidOperationError",
    "ParserError",
    "ParserSyntaxError",
    "ParserTypeError",
    "SSAViolationError",
    "ScopeIsolationError",
    "UndefinedVariableError",
    "UnsupportedFeatureError",
    "backtrace_enabled",
    "concise_error_message",
    "install_excepthook",
    "span_to_dict",
    "uninstall_excepthook",
]

SpanLike = Union[Span, Mapping[str, Any], None]

# Exceptions that mean pypto itself is broken (never reported as the user's error).
BUG_CLASS_EXCEPTIONS = (InternalError, AssertionError)


def span_to_dict(span: SpanLike) -> Optional[dict]:
    """The plain-dict form of a span (§14.1); ``None`` when the position is unknown.

    Accepts an ``ir.Span`` or a mapping using either the short keys (``filename``,
    ``line``, ``column``) or the long ones (``file``, ``begin_line``, ``begin_column``).
    """
    if span is None:
        return None
    if isinstance(span, Span):
        filename, line, column = span.filename, span.begin_line, span.begin_column
        end_line, end_column = span.end_line, span.end_column
    elif isinstance(span, Mapping):
        filename = _first_present(span, "filename", "file", default="")
        line = _first_present(span, "line", "begin_line", default=-1)
        column = _first_present(span, "column", "begin_column", default=0)
        end_line = span.get("end_line", -1)
        end_column = span.get("end_column", -1)
    else:
        raise TypeError(f"span must be an ir.Span, a dict or None, "
                        f"got {type(span).__name__}")
    for key, value in (("line", line), ("column", column), ("end_line", end_line),
                       ("end_column", end_column)):
        if value is not None and not isinstance(value, int):
            raise TypeError(f"span {key} must be an int, got {type(value).__name__}")
    if line is None or line <= 0:
        return None
    filename = "" if filename is None else str(filename)
    column = column if column is not None and column > 0 else 0
    result = {"filename": filename, "line": line, "column": column,
              "file": filename, "begin_line": line, "begin_column": column}
    if end_line is not None and end_line > 0:
        result["end_line"] = end_line
    if end_column is not None and end_column > 0:
        result["end_column"] = end_column
    return result


def _first_present(mapping: Mapping[str, Any], *keys: str, default: Any) -> Any:
    for key in keys:
        if key in mapping:
            return mapping[key]
    return default


def _normalise_source_lines(lines: Union[Iterable[str], str, None]) -> Optional[list[str]]:
    if lines is None:
        return None
    if isinstance(lines, str):
        return lines.splitlines()
    result = []
    for line in lines:
        if not isinstance(line, str):
            raise TypeError(f"source_lines must contain str, got {type(line).__name__}")
        result.append(line.rstrip("\r\n"))
    return result


class ParserError(Exception):
    """Base class of every error the DSL parser reports against user source.

    ``str(err)`` is the message alone; :meth:`render` gives the full snippet.
    """

    # The independent errors found next to this one (parser/recovery.py), in order.
    also: tuple["ParserError", ...] = ()

    def __init__(self, message: str, span: SpanLike = None, hint: Optional[str] = None,
                 note: Optional[str] = None,
                 source_lines: Union[Iterable[str], str, None] = None) -> None:
        message = str(message)
        super().__init__(message)
        self.message = message
        self.span = span_to_dict(span)
        self.hint = hint
        self.note = note
        self.source_lines = _normalise_source_lines(source_lines)
        # A shell started after this module was imported still gets the handler.
        ensure_ipython_handler(ParserError)

    def __str__(self) -> str:
        return self.message

    def with_source_lines(self, lines: Union[Iterable[str], str, None], *,
                          replace: bool = False) -> "ParserError":
        """Attach the file's lines (for the snippet) and return ``self``.

        Keeps lines already attached unless ``replace``: the innermost context (e.g. a
        spliced ``@pl.inline`` from another file) knows the right file best.
        """
        if replace or self.source_lines is None:
            self.source_lines = _normalise_source_lines(lines)
        return self

    def render(self, use_color: Optional[bool] = None) -> str:
        return ErrorRenderer(use_color).render(self)

    def _render_traceback_(self) -> list[str]:
        """IPython's protocol: the lines a notebook shows instead of a stack (the
        snippets of this error and of the independent ones found next to it)."""
        return traceback_lines(self)


class ParserSyntaxError(ParserError):
    """DSL grammar or usage violation."""


class DSLSyntaxError(ParserSyntaxError, SyntaxError):
    """DSL text (``pl.parse`` / ``pl.loads``) that is not valid Python.

    A ``SyntaxError`` (with ``filename``, ``lineno``, ``offset``, ``text``) that renders
    as a snippet like every other parser error.
    """

    def __init__(self, message: str, span: SpanLike = None, hint: Optional[str] = None,
                 note: Optional[str] = None,
                 source_lines: Union[Iterable[str], str, None] = None) -> None:
        super().__init__(message, span, hint, note, source_lines)
        located = self.span or {}
        self.filename = located.get("filename")
        self.lineno = located.get("line")
        self.offset = located.get("column") or None
        lines = self.source_lines or []
        line = located.get("line") or 0
        self.text = lines[line - 1] if 0 < line <= len(lines) else None


class ParserTypeError(ParserError):
    """Annotation or type problem, closure value type, argument count."""


class UndefinedVariableError(ParserError):
    """Unknown name or unknown ``self.method``."""


class SSAViolationError(ParserError):
    """A name rebound under ``strict_ssa``; ``previous_span`` is the first binding."""

    def __init__(self, message: str, span: SpanLike = None, hint: Optional[str] = None,
                 note: Optional[str] = None,
                 source_lines: Union[Iterable[str], str, None] = None,
                 previous_span: SpanLike = None) -> None:
        super().__init__(message, span, hint, note, source_lines)
        self.previous_span = span_to_dict(previous_span)


class UnsupportedFeatureError(ParserError):
    """Unsupported statement, expression, call, operator or context manager."""


class InvalidOperationError(ParserError):
    """Unknown op, op wrapper failure, misplaced ``break``/``continue``."""


class ScopeIsolationError(ParserError):
    """Exported for API compatibility; no in-scope check raises it."""


# -- concise messages ---------------------------------------------------------------------

# A line that starts a dumped stack: everything from it on is noise for a one-line report.
_BACKTRACE_START = re.compile(
    r"^\s*(?:Traceback \(most recent call last\)|"
    r"(?:Stack ?trace|Backtrace|C\+\+ (?:stack|back)trace)\b)", re.IGNORECASE)
# Assertion-style trailers that restate the failed condition rather than the problem.
_CHECK_FAILURE = re.compile(r"^\s*(Check failed\b|Assertion failed\b)", re.IGNORECASE)
_TRAILING_SPAN = re.compile(r"\s*\[[^\[\]\n]*:\d+(:\d+)?\]\s*$")


def concise_error_message(exc: BaseException, strip_trailing_span: bool = False) -> str:
    """``str(exc)`` without trailing backtrace or check-failure noise (§14.2).

    With ``strip_trailing_span`` a final ``[file:line:col]`` is removed too.  Falls back
    to the exception's class name when nothing else is left.
    """
    kept: list[str] = []
    for line in str(exc).split("\n"):
        if _BACKTRACE_START.match(line):
            break
        kept.append(line)
    while kept and (not kept[-1].strip() or (_CHECK_FAILURE.match(kept[-1]) and len(kept) > 1)):
        kept.pop()
    message = "\n".join(kept).strip()
    if strip_trailing_span:
        message = _TRAILING_SPAN.sub("", message)
    return message or type(exc).__name__


install_excepthook(ParserError)
ensure_ipython_handler(ParserError)
