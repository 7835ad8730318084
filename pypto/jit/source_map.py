"""Map positions in program text written by ``pypto.jit.specializer`` back to the
user's code (``Specializer.source_map``).

The specializer rewrites copies of the user's ASTs; every node keeps (or, when
synthesized, borrows) the position of the user's node it stands for.  After the
module is written as text, the text is parsed again and walked in lockstep with the
rewritten trees, recording ``generated position -> user span``.  While
``pl.parse(text, source_map=...)`` runs, the parser asks ``JitSourceMap.wrap`` for the
``SourceInfo`` of the generated class and gets a ``MappedSourceInfo`` whose
``span(node)`` answers from that table, and whose ``filename``/``file_lines`` are the
user's file (01-language.md §13, §17.3).  (``@pl.jit`` itself parses the rewritten
trees directly and needs no map.)
"""

from __future__ import annotations

import ast
import bisect
from typing import Optional

from ..errors import InternalError
from ..ir.span import Span
from ..language.parser.diagnostics import ParserError, span_to_dict
from ..language.parser.source import SourceInfo

__all__ = ["JitSourceMap", "MappedSourceInfo"]

_UNKNOWN = Span.unknown()
_Position = tuple[int, int]


class JitSourceMap:
    """Generated (line, byte column) -> user ``Span``; one per generated program."""

    def __init__(self, filename: str, entry_info: SourceInfo, class_line: int) -> None:
        self.filename = filename
        self.entry_info = entry_info
        self.class_line = class_line  # generated line of the class's first decorator
        self._exact: dict[tuple[int, int, int, int], Span] = {}
        self._begin: dict[_Position, Span] = {}
        self._by_line: dict[int, list[tuple[int, Span]]] = {}
        self._line_columns: dict[int, list[int]] = {}  # sorted, built on first fallback
        self._file_lines: dict[str, list[str]] = {entry_info.filename: entry_info.file_lines}

    # -- building ----------------------------------------------------------------------
    def add_function(self, generated: ast.AST, rewritten: ast.AST, info: SourceInfo) -> None:
        """Record every node of ``generated`` (reparsed) against its twin in ``rewritten``."""
        self._file_lines.setdefault(info.filename, info.file_lines)
        stack = [(rewritten, generated)]
        while stack:
            original, produced = stack.pop()
            line = getattr(produced, "lineno", None)
            if line is not None and getattr(original, "lineno", None) is not None:
                self._record(produced, info.span(original))
            if type(original) is not type(produced):
                continue  # e.g. a literal the text spells differently: map it, stop there
            children = list(ast.iter_child_nodes(original))
            twins = list(ast.iter_child_nodes(produced))
            if len(children) == len(twins):
                stack.extend(zip(children, twins))

    def _record(self, node: ast.AST, span: Span) -> None:
        line, column = node.lineno, node.col_offset  # type: ignore[attr-defined]
        end = (getattr(node, "end_lineno", None) or line, getattr(node, "end_col_offset", None)
               or column)
        self._exact.setdefault((line, column) + end, span)
        self._begin.setdefault((line, column), span)  # outermost node first: keep it
        self._by_line.setdefault(line, []).append((column, span))

    def lines(self) -> dict[int, tuple[str, int]]:
        """Generated line -> (user file, line) of the first node on it."""
        return {line: (entries[0][1].filename, entries[0][1].begin_line)
                for line, entries in sorted(self._by_line.items())}

    # -- lookups ---------------------------------------------------------------------------
    def lookup(self, line: int, column: int, end_line: Optional[int] = None,
               end_column: Optional[int] = None) -> Span:
        if end_line is not None and end_column is not None:
            found = self._exact.get((line, column, end_line, end_column))
            if found is not None:
                return found
        found = self._begin.get((line, column))
        if found is not None:
            return found
        return self.line_span(line, column)

    def line_span(self, line: int, column: int = 0) -> Span:
        """Best effort for a position no node starts at: the nearest node to its left on
        the same generated line, else that line's first node."""
        entries = self._by_line.get(line)
        if not entries:
            return _UNKNOWN
        columns = self._line_columns.get(line)
        if columns is None:
            entries.sort(key=lambda item: item[0])
            columns = self._line_columns[line] = [col for col, _ in entries]
        index = bisect.bisect_right(columns, column) - 1
        span = entries[max(index, 0)][1]
        return Span(span.filename, span.begin_line, span.begin_column)

    # -- the parser hook -------------------------------------------------------------------
    def wrap(self, info: SourceInfo) -> "MappedSourceInfo":
        if info.col_offset:
            raise InternalError("the generated @pl.program class must start at column 0")
        return MappedSourceInfo(info, self)

    # -- errors raised outside the parser's span() -------------------------------------------
    def relocate(self, err: ParserError) -> None:
        """Point an error at the user's code and attach the right file's lines."""
        for field in ("span", "previous_span"):
            span = getattr(err, field, None)
            if isinstance(span, dict) and span.get("filename") == self.filename:
                mapped = self.line_span(span.get("line", 0), 0)
                setattr(err, field, span_to_dict(mapped))
        span = err.span
        filename = span.get("filename") if isinstance(span, dict) else None
        lines = self._file_lines.get(filename) if filename is not None else None
        if lines is not None:
            err.with_source_lines(lines, replace=True)
        elif isinstance(span, dict) and span.get("filename") == self.filename:
            err.span = None  # never show generated text as if it were the user's


class MappedSourceInfo(SourceInfo):
    """The generated class's ``SourceInfo`` as the parser should see it.

    ``source`` is the generated text (what the parser reads); ``filename``,
    ``file_lines`` and the offsets are the user's entry (so the program's own span
    and rendered snippets show the user's code); ``span`` maps through the table.
    """

    def __init__(self, inner: SourceInfo, source_map: JitSourceMap) -> None:
        user = source_map.entry_info
        # The parser places the program at (class decorator line in ``source`` + line
        # offset, 1 + col offset); make that the user's first decorator line and column.
        decorator_line = source_map.class_line - inner.line_offset
        super().__init__(user.filename, inner.source, user.line_offset + 1 - decorator_line,
                         user.col_offset, user.file_lines)
        self._generated_line_offset = inner.line_offset
        self._map = source_map

    def span(self, node: ast.AST) -> Span:
        line = getattr(node, "lineno", None)
        if line is None:
            return _UNKNOWN
        offset = self._generated_line_offset
        end_line = getattr(node, "end_lineno", None)
        return self._map.lookup(line + offset, node.col_offset,  # type: ignore[attr-defined]
                                None if end_line is None else end_line + offset,
                                getattr(node, "end_col_offset", None))
