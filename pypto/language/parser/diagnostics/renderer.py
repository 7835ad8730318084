"""Render a parser error as a source snippet with carets (01-language.md §14.4).

The renderer reads errors by duck typing (``message``, ``span``, ``hint``, ``note``,
``source_lines``, ``previous_span``) so it does not depend on the error classes.
"""

from __future__ import annotations

import linecache
import os
import re
import sys
from typing import Any, Optional, Sequence

__all__ = ["ErrorRenderer", "color_disabled_by_env", "default_use_color", "format_location",
           "no_color_requested"]

_BOLD_RED = "\033[1;31m"
_BOLD_YELLOW = "\033[1;33m"
_CYAN = "\033[36m"
_GREEN = "\033[32m"
_RESET = "\033[0m"

_CONTEXT_LINES = 2
_TAB_WIDTH = 4
_MAX_CARET_LABEL = 50
_SENTENCE_END = re.compile(r"\.(?:\s|$)")


def no_color_requested() -> bool:
    """True when ``NO_COLOR`` is set to a non-empty value (the no-color.org convention)."""
    return bool(os.environ.get("NO_COLOR"))


def color_disabled_by_env() -> bool:
    """True when the environment asks for plain output (``NO_COLOR`` or ``TERM=dumb``)."""
    return no_color_requested() or os.environ.get("TERM") == "dumb"


def default_use_color() -> bool:
    """The colour decision when the caller does not force one."""
    if color_disabled_by_env():
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    stream = sys.stderr
    try:
        return bool(stream is not None and stream.isatty())
    except (AttributeError, ValueError, OSError):  # closed or exotic stream objects
        return False


def format_location(span: dict) -> str:
    """``file:line:col``, with ``:col`` omitted when the column is unknown (0).

    A notebook cell's code file reads as IPython names it, ``Cell In[5], line 4``.
    """
    filename = span.get("filename") or "<unknown>"
    cell = _ipython_cell_name(filename)
    if cell is not None:
        return f"{cell}, line {span.get('line', 0)}"
    location = f"{filename}:{span.get('line', 0)}"
    column = span.get("column") or 0
    return f"{location}:{column}" if column > 0 else location


def _ipython_cell_name(filename: str) -> Optional[str]:
    """``Cell In[5]`` when ``filename`` is the code of a cell of the running IPython."""
    ipython = sys.modules.get("IPython")
    get_ipython = getattr(ipython, "get_ipython", None)
    if get_ipython is None or not filename:
        return None
    try:
        shell = get_ipython()
        named = shell.compile.format_code_name(filename) if shell is not None else None
    except Exception:  # an old or exotic shell: keep the file name
        return None
    if not named:
        return None
    label, name = named
    return f"{label} {name}"


class ErrorRenderer:
    """Formats an error in the rustc-like layout of §14.4."""

    def __init__(self, use_color: Optional[bool] = None) -> None:
        self.use_color = default_use_color() if use_color is None else bool(use_color)

    def render(self, error: BaseException) -> str:
        err = error
        message = _message_of(err)
        source_lines = _as_line_list(getattr(err, "source_lines", None))
        if getattr(err, "severity", "error") == "warning":  # a Finding of a verifier warning
            out = [self._paint(f"Warning: {message}", _BOLD_YELLOW)]
        else:
            out = [self._paint(f"Error: {message}", _BOLD_RED)]

        span = getattr(err, "span", None)
        if isinstance(span, dict):
            out.append(self._paint(f"  --> {format_location(span)}", _CYAN))
            out.extend(self._snippet(span, source_lines, _caret_label(message)))

        previous_span = getattr(err, "previous_span", None)
        if isinstance(previous_span, dict):
            out.extend(self._previous_definition(previous_span, source_lines))

        hint = getattr(err, "hint", None)
        if hint:
            out.append(self._paint(f"   = help: {hint}", _GREEN))
        note = getattr(err, "note", None)
        if note:
            out.append(self._paint(f"   = note: {note}", _CYAN))
        return "\n".join(out)

    # -- pieces -------------------------------------------------------------------------

    def _snippet(self, span: dict, fallback: Optional[list[str]], label: str) -> list[str]:
        error_line = span.get("line", 0)
        lines = _lines_containing(span, error_line, fallback)
        if lines is None:
            return []
        first = max(1, error_line - _CONTEXT_LINES)
        last = min(len(lines), error_line + _CONTEXT_LINES)
        width = len(str(last))
        gutter = " " * (width + 1) + "|"
        rows = [gutter]
        for number in range(first, last + 1):
            text = _expand_tabs(_strip_eol(lines[number - 1])).rstrip()
            rows.append(f"{number:>{width}} |" + (f" {text}" if text else ""))
            if number == error_line:
                pad, count = _caret_geometry(_strip_eol(lines[number - 1]),
                                             span.get("column") or 0)
                marker = "^" * count + (f" {label}" if label else "")
                rows.append(f"{gutter} " + " " * pad + self._paint(marker, _BOLD_RED))
        rows.append(gutter)
        return rows

    def _previous_definition(self, span: dict,
                             fallback: Optional[list[str]]) -> list[str]:
        rows = ["",
                self._paint("   = note: Previous definition was here:", _CYAN),
                self._paint(f"     --> {format_location(span)}", _CYAN)]
        line_number = span.get("line", 0)
        lines = _lines_containing(span, line_number, fallback)
        if lines is None:
            return rows
        raw = _strip_eol(lines[line_number - 1])
        # Show the line without its indentation; shift the carets by the same amount.
        indent = _display_width(raw[:len(raw) - len(raw.lstrip())])
        pad, count = _caret_geometry(raw, span.get("column") or 0)
        rows.append("     " + _expand_tabs(raw).strip())
        rows.append("     " + " " * max(0, pad - indent) + self._paint("^" * count, _CYAN))
        return rows

    def _paint(self, text: str, color: str) -> str:
        return f"{color}{text}{_RESET}" if self.use_color else text


# -- helpers ------------------------------------------------------------------------------

def _message_of(err: BaseException) -> str:
    message = getattr(err, "message", None)
    return str(message) if message is not None else str(err)


def _as_line_list(lines: Any) -> Optional[list[str]]:
    if lines is None:
        return None
    if isinstance(lines, str):
        return lines.splitlines()
    try:
        return [str(line) for line in lines]
    except TypeError:
        return None


def _lines_containing(span: dict, line_number: int,
                      fallback: Optional[list[str]]) -> Optional[Sequence[str]]:
    """The file's lines from ``linecache`` (real file or registered text), else the
    error's own ``source_lines``; ``None`` when neither has ``line_number``."""
    if not isinstance(line_number, int) or line_number <= 0:
        return None
    filename = span.get("filename") or ""
    if filename:
        linecache.checkcache(filename)  # a file edited since parsing is re-read
        cached = linecache.getlines(filename)
        if len(cached) >= line_number:
            return cached
    if fallback is not None and len(fallback) >= line_number:
        return fallback
    return None


def _strip_eol(line: str) -> str:
    return line.rstrip("\r\n")


def _expand_tabs(text: str) -> str:
    return text.replace("\t", " " * _TAB_WIDTH)


def _display_width(text: str) -> int:
    return len(text) + text.count("\t") * (_TAB_WIDTH - 1)


def _is_identifier_char(char: str) -> bool:
    return char.isalnum() or char == "_"


def _caret_geometry(line: str, column: int) -> tuple[int, int]:
    """(spaces before the carets, number of carets) for a 1-based character column.

    Column 0 (unknown) points at the first non-blank character of the line.
    """
    index = column - 1 if column > 0 else len(line) - len(line.lstrip())
    pad = _display_width(line[:index]) + max(0, index - len(line))
    return pad, _token_length(line, index)


def _token_length(line: str, start: int) -> int:
    """Length of the identifier token at ``start``; ``pl.range`` counts as one token."""
    if start >= len(line) or not _is_identifier_char(line[start]):
        return 1
    end = start
    while end < len(line):
        char = line[end]
        if _is_identifier_char(char):
            end += 1
        elif char == "." and end + 1 < len(line) and _is_identifier_char(line[end + 1]):
            end += 1
        else:
            break
    return end - start


def _caret_label(message: str) -> str:
    """The message's first sentence, shown after the carets only when it is short."""
    first_line = message.split("\n", 1)[0]
    end = _SENTENCE_END.search(first_line)
    sentence = (first_line[:end.start()] if end else first_line).strip()
    return sentence if len(sentence) < _MAX_CARET_LABEL else ""


def __getattr__(name: str) -> Any:
    """PyPTO's module-level error names of this path, from ``exceptions`` (which imports
    this module, so they are looked up on first access)."""
    if name in ("ParserError", "SSAViolationError"):
        from . import exceptions
        return getattr(exceptions, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | {"ParserError", "SSAViolationError"})
