"""Map AST positions of DSL source to ``ir.Span``s (file line and character column)."""

from __future__ import annotations

from ... import ir  # noqa: F401 - PyPTO's module-level name of this path

import ast
from typing import Any, Sequence

from ...ir.span import Span
from .source import SourceInfo

__all__ = ["SpanTracker", "ast_column_to_span_column"]


def ast_column_to_span_column(line: str, col_offset: int) -> int:
    """The 1-based character column of the AST column ``col_offset`` (a UTF-8 byte
    offset) on ``line``."""
    return len(line.encode("utf-8")[:col_offset].decode("utf-8", errors="ignore")) + 1


class SpanTracker:
    """Spans of AST nodes parsed from ``source_lines`` (the dedented definition): file
    line = AST line + ``line_offset``, file column = character column + ``col_offset``.
    ``source_map`` (``@pl.jit``'s) maps positions in generated text back to the user's."""

    def __init__(self, source_file: str, source_lines: Sequence[str], line_offset: int = 0,
                 col_offset: int = 0, source_map: Any = None) -> None:
        lines = [line.rstrip("\r\n") for line in source_lines]
        info = SourceInfo(source_file, "\n".join(lines), line_offset, col_offset, lines)
        self._info = source_map.wrap(info) if source_map is not None else info

    def get_span(self, ast_node: ast.AST) -> Span:
        """The node's span (``Span.unknown()`` for a node without a position)."""
        return self._info.span(ast_node)

    def get_multiline_span(self, start_node: ast.AST, end_node: ast.AST) -> Span:
        """From the start of ``start_node`` to the end of ``end_node``."""
        start, end = self.get_span(start_node), self.get_span(end_node)
        return Span(start.filename, start.begin_line, start.begin_column, end.end_line,
                    end.end_column)
