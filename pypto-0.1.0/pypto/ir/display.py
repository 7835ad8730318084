"""How IR nodes show themselves: one-line ``repr``, and the notebook forms.

A notebook shows the canonical DSL text (``python_print``) with long ``def`` lines
wrapped at a hanging indent.  The wrap only breaks inside the parameter list's
parentheses, so the shown text is still valid DSL that ``pl.parse`` reads back.

HTML is highlighted by the pypto lexer (``highlight.py``) when Pygments is
importable, and is escaped text in a ``<pre>`` otherwise.  Colours are inline
styles chosen to keep a contrast of at least 3.5:1 on light backgrounds and on the
dark ones of JupyterLab and VS Code; no background is set, so the block takes
the notebook's own.
"""

from __future__ import annotations

import html
import re
from typing import Any

__all__ = ["DISPLAY_WIDTH", "display_text", "markdown_of", "html_of", "one_line_repr",
           "wrap_signatures"]

DISPLAY_WIDTH = 100
HANGING_INDENT = 8  # PEP 8: continuation lines further in than the body that follows
_DEF = re.compile(r"^(\s*)def \w+\(")
_CLOSE = {")": "(", "]": "[", "}": "{"}


def wrap_signatures(text: str, width: int = DISPLAY_WIDTH) -> str:
    """``text`` with every ``def`` line longer than ``width`` wrapped after its ``(``.

    Parameters are filled greedily onto continuation lines indented
    ``HANGING_INDENT`` past the ``def``; a parameter is never split.
    """
    return "\n".join(_wrap_line(line, width) for line in text.split("\n"))


def _wrap_line(line: str, width: int) -> str:
    match = _DEF.match(line)
    if match is None or len(line) <= width:
        return line
    params, tail = _split_params(line, match.end())
    if params is None:
        return line
    indent = match.group(1) + " " * HANGING_INDENT
    lines, current = [line[:match.end()]], ""
    for i, param in enumerate(params):
        piece = param + ("," if i < len(params) - 1 else tail)
        if current and len(indent) + len(current) + 1 + len(piece) > width:
            lines.append(indent + current)
            current = piece
        else:
            current = f"{current} {piece}" if current else piece
    lines.append(indent + current)
    return "\n".join(lines)


def _split_params(line: str, start: int) -> tuple[list[str] | None, str]:
    """The top-level parameters of the ``(`` ending at ``start``, and what follows ``)``."""
    params, depth, quote, begin = [], 0, "", start
    for i in range(start, len(line)):
        char = line[i]
        if quote:
            if char == quote and line[i - 1] != "\\":
                quote = ""
        elif char in "'\"":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in _CLOSE:
            if depth == 0:
                if char != ")":
                    return None, ""
                last = line[begin:i].strip()
                if last:
                    params.append(last)
                return (params or None), line[i:]
            depth -= 1
        elif char == "," and depth == 0:
            params.append(line[begin:i].strip())
            begin = i + 1
    return None, ""


def display_text(node: Any) -> str:
    """The DSL text a notebook shows for ``node``: canonical, long signatures wrapped."""
    return wrap_signatures(node.as_python())


def html_of(node: Any) -> str:
    text = display_text(node)
    try:
        from .highlight import highlight_html
    except ImportError:  # Pygments is an optional extra
        return f'<pre class="pypto-ir">{html.escape(text)}</pre>'
    return highlight_html(text)


def markdown_of(node: Any) -> str:
    text = display_text(node)
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)  # a fence no backtick run inside can close
    return f"{fence}python\n{text}\n{fence}"


def one_line_repr(node: Any) -> str:
    """``<Program 'P': 3 functions>``, ``<Function 'f': InCore, 2 params>``; a one-line
    node is its DSL text (``a + 1``); a longer one its class and first line."""
    from .function import Function, Program
    kind = type(node).__name__
    if isinstance(node, Program):
        count = len(node)
        named = f" {node.name!r}" if node.name else ""
        return f"<{kind}{named}: {count} function{'s' if count != 1 else ''}>"
    if isinstance(node, Function):
        count = len(node.params)
        return (f"<{kind} {node.name!r}: {node.func_type.name}, "
                f"{count} param{'s' if count != 1 else ''}>")
    try:
        text = node.as_python()
    except Exception as exc:  # repr must never fail
        return f"<{kind} (unprintable: {exc})>"
    if "\n" in text:
        return f"<{kind}: {text.split(chr(10), 1)[0].strip()} ...>"
    return text
