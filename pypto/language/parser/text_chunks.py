"""DSL text read one definition at a time, so long text never has its whole syntax tree
in memory (issue 19).

``ast.parse`` of a whole text holds CPython's C syntax tree and the Python one at once:
about 150 bytes per character of text at its peak, 1.8 GB for a printed program of
50,000 statements.  Here the text is cut at the lines that begin a module-level
statement, and a ``@pl.program`` class at the lines that begin one of its members;
each piece is parsed alone.  A method is first read as its header only (decorators and
``def`` line, with a ``pass`` body); its body is parsed when the program parser comes
to it (``MethodBodies``), and dropped once its ``ir.Function`` is built.

A cut is only ever a guess from the text's lines -- but a wrong one (inside a string,
brackets or a line continuation, before an ``else``) leaves a piece that does not parse
on its own, and then ``split_text`` gives up (``None``) and the caller parses the text
whole.  Positions are exact: each piece's ``SourceInfo`` carries its line offset in the
file, so spans, comments and snippets are those of the whole-text parse.
"""

from __future__ import annotations

import ast
import re
from typing import Optional

from . import pyast
from .source import SourceInfo

__all__ = ["split_text", "MethodBodies", "Chunked", "CHUNK_MIN_CHARS"]

# Shorter text is parsed whole: the saving is in memory, and small text has little.
CHUNK_MIN_CHARS = 200_000
# A method body longer than twice this is parsed in groups of statements this long.
BODY_GROUP_CHARS = 64_000
# Line ends other than "\n" (Python's "\r", and those str.splitlines also honours, which
# the comment index uses) would number lines differently in a piece: parse such text whole.
_ODD_LINE_ENDS = re.compile("[\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
_NOT_A_START = frozenset(" \t#)]}")
_CONTINUATIONS = ("else", "elif", "except", "finally")
_WRAPPER = "class _:\n"  # puts an indented member at its own indentation


class _CannotSplit(Exception):
    """A piece does not parse alone (a wrong cut, or an error to report): parse whole."""


class MethodBodies:
    """The full ``def`` of each method read as a header, parsed on demand."""

    def __init__(self, info: SourceInfo, lines: list[str]) -> None:
        self._info = info
        self._lines = lines
        self._pieces: dict[int, tuple[int, int]] = {}  # id(header) -> lines [start, end)

    def defer(self, header: ast.FunctionDef, start: int, end: int) -> None:
        self._pieces[id(header)] = (start, end)

    def __call__(self, header: ast.FunctionDef) -> tuple[SourceInfo, ast.FunctionDef]:
        """``(SourceInfo, def)`` of a method: the header itself when it was read whole."""
        piece = self._pieces.get(id(header))
        if piece is None:
            return self._info, header
        start, end = piece
        lines = self._lines
        info = _member_info(self._info, lines, start, end)
        body_start = header.lineno  # the line after the def line (0-based)
        if _chars(lines, body_start, end) <= 2 * BODY_GROUP_CHARS:
            method = _only_method(_parse(info.source), header)
        else:
            method = _method_in_groups(lines, start, body_start, end, header)
        return info, method


class Chunked:
    """Module-level statements, each with the ``SourceInfo`` its positions refer to."""

    def __init__(self, statements: list[tuple[ast.stmt, SourceInfo]],
                 bodies: MethodBodies) -> None:
        self.statements = statements
        self.bodies = bodies


def split_text(code: str, info: SourceInfo,
               min_chars: int = CHUNK_MIN_CHARS) -> Optional[Chunked]:
    """``code`` (what ``info`` was made from, unindented) cut into pieces; ``None`` when
    it is short, has odd line ends, or a cut does not parse (the caller parses it whole)."""
    if len(code) < min_chars or info.col_offset or info.line_offset \
            or _ODD_LINE_ENDS.search(code):
        return None
    lines = code.split("\n")
    bodies = MethodBodies(info, lines)
    statements: list[tuple[ast.stmt, SourceInfo]] = []
    try:
        for start, end in _pieces(lines, 0, len(lines), ""):
            shell = _program_shell(info, lines, start, end, bodies)
            if shell is not None:
                statements.append((shell, info))
                continue
            piece = SourceInfo(info.filename, _text(lines, start, end), start, 0,
                               info.file_lines)
            statements.extend((stmt, piece) for stmt in _parse(piece.source).body)
    except _CannotSplit:
        return None
    return Chunked(statements, bodies)


# -- cutting -------------------------------------------------------------------------------

def _is_code(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith("#")


def _pieces(lines: list[str], lo: int, hi: int, indent: str) -> list[tuple[int, int]]:
    """Line ranges ``[start, end)`` of the statements at ``indent`` in ``lines[lo:hi]``:
    a piece starts at a line with exactly that indentation (not a comment, a closing
    bracket, an ``else``-like word, or the line after a decorator) and ends at its last
    code line (blank and comment lines between statements belong to none)."""
    starts = [lo]
    width = len(indent)
    after_decorator = False
    for index in range(lo, hi):
        line = lines[index]
        if not _is_code(line):
            continue
        at_indent = line.startswith(indent) and len(line) > width \
            and line[width] not in _NOT_A_START
        if not at_indent:
            continue  # inside a statement (a decorator's continuation lines too)
        if index != lo and not after_decorator and not line[width:].startswith(_CONTINUATIONS):
            starts.append(index)
        after_decorator = line[width] == "@"
    out = []
    for start, stop in zip(starts, starts[1:] + [hi]):
        end = stop
        while end > start and not _is_code(lines[end - 1]):
            end -= 1
        if end > start:
            out.append((start, end))
    return out


def _text(lines: list[str], start: int, end: int, prefix: str = "") -> str:
    return prefix + "\n".join(lines[start:end]) + "\n"


def _parse(text: str) -> ast.Module:
    try:
        return pyast.parse(text)
    except (SyntaxError, RecursionError, ValueError, MemoryError):
        raise _CannotSplit() from None


# -- a @pl.program class, member by member --------------------------------------------------

def _program_shell(info: SourceInfo, lines: list[str], start: int, end: int,
                   bodies: MethodBodies) -> Optional[ast.ClassDef]:
    """The class of ``lines[start:end]`` with its members read one by one (methods as
    headers, see ``MethodBodies``); ``None`` if the piece is not a class with a
    one-line ``class`` header."""
    header = next((i for i in range(start, end) if lines[i].startswith("class ")), None)
    if header is None or not lines[header].rstrip().endswith(":"):
        return None
    first = next((i for i in range(header + 1, end) if _is_code(lines[i])), None)
    if first is None:
        return None
    indent = lines[first][:len(lines[first]) - len(lines[first].lstrip())]
    if not indent:
        return None
    module = _parse(_text(lines, start, header + 1) + indent + "pass\n")
    if len(module.body) != 1 or not isinstance(module.body[0], ast.ClassDef):
        raise _CannotSplit()
    shell = module.body[0]
    ast.increment_lineno(shell, start)
    members: list[ast.stmt] = []
    for member_start, member_end in _pieces(lines, header + 1, end, indent):
        method = _method_header(info, lines, member_start, member_end, indent)
        if method is not None:
            bodies.defer(method, member_start, member_end)
            members.append(method)
            continue
        _, items = _parse_member_piece(info, lines, member_start, member_end)
        for item in items:
            ast.increment_lineno(item, member_start - 1)
        members.extend(items)
    shell.body = members
    shell.end_lineno = end
    shell.end_col_offset = len(lines[end - 1].encode("utf-8"))
    return shell


def _member_info(info: SourceInfo, lines: list[str], start: int, end: int) -> SourceInfo:
    """Info of the class members in ``lines[start:end]`` behind a wrapper line (which
    is file line ``start``)."""
    return SourceInfo(info.filename, _text(lines, start, end, _WRAPPER), start - 1, 0,
                      info.file_lines)


def _members(module: ast.Module) -> list[ast.stmt]:
    if len(module.body) != 1 or not isinstance(module.body[0], ast.ClassDef):
        raise _CannotSplit()
    return module.body[0].body


def _parse_member_piece(info: SourceInfo, lines: list[str], start: int,
                        end: int) -> tuple[SourceInfo, list[ast.stmt]]:
    """The class members of ``lines[start:end]``, positioned by the returned info."""
    piece = _member_info(info, lines, start, end)
    return piece, _members(_parse(piece.source))


def _only_method(module: ast.Module, header: ast.FunctionDef) -> ast.FunctionDef:
    items = _members(module)
    if len(items) != 1 or not isinstance(items[0], ast.FunctionDef) \
            or not _same_header(items[0], header):
        raise _CannotSplit()
    return items[0]


def _chars(lines: list[str], start: int, end: int) -> int:
    return sum(len(line) + 1 for line in lines[start:end])


def _method_in_groups(lines: list[str], start: int, body_start: int, end: int,
                      header: ast.FunctionDef) -> ast.FunctionDef:
    """A long method parsed a group of body statements at a time (CPython's parser peaks
    at twice the tree it returns): each group behind the method's own header, moved to
    its lines by blank ones, so every position is the one-piece parse's."""
    first = next((i for i in range(body_start, end) if _is_code(lines[i])), None)
    if first is None:
        raise _CannotSplit()
    indent = lines[first][:len(lines[first]) - len(lines[first].lstrip())]
    starts = [piece_start for piece_start, _ in _pieces(lines, body_start, end, indent)]
    groups, size, group_start = [], 0, body_start
    for here, after in zip(starts, starts[1:] + [end]):
        size += _chars(lines, here, after)
        if size >= BODY_GROUP_CHARS or after == end:
            groups.append((group_start, after))
            group_start, size = after, 0
    head = _text(lines, start, body_start, _WRAPPER)
    method: Optional[ast.FunctionDef] = None
    for group_start, group_end in groups:
        gap = "\n" * (group_start - body_start)
        part = _only_method(_parse(head + gap + _text(lines, group_start, group_end)), header)
        if method is None:
            method = part
        else:
            method.body.extend(part.body)
    assert method is not None
    last = method.body[-1]
    method.end_lineno, method.end_col_offset = last.end_lineno, last.end_col_offset
    return method


def _method_header(info: SourceInfo, lines: list[str], start: int, end: int,
                   indent: str) -> Optional[ast.FunctionDef]:
    """A method's decorators and one-line signature, body ``[]``, its ``lineno`` and
    ``end_lineno`` the file lines of its def and last line (the parse order reads
    them); ``None``
    for another member or a signature over several lines (read whole)."""
    line = lines[start]
    if not (line.startswith("@", len(indent)) or line.startswith("def ", len(indent))):
        return None
    def_line = next((i for i in range(start, end)
                     if lines[i].startswith("def ", len(indent))), None)
    if def_line is None or def_line + 1 == end or not lines[def_line].rstrip().endswith(":"):
        return None
    try:
        module = pyast.parse(_text(lines, start, def_line + 1, _WRAPPER) + indent * 2 + "pass\n")
    except (SyntaxError, RecursionError, ValueError, MemoryError):
        return None
    if len(module.body) != 1 or not isinstance(module.body[0], ast.ClassDef) \
            or len(module.body[0].body) != 1 or not isinstance(module.body[0].body[0],
                                                               ast.FunctionDef):
        return None
    method = module.body[0].body[0]
    # Only the def's own lines are moved to the file's (the parse order reads them);
    # its decorators and parameters keep the piece's, which only an error would show --
    # and an error reads the text whole.
    method.lineno += start - 1
    method.body = []
    method.end_lineno = end
    method.end_col_offset = len(lines[end - 1].encode("utf-8"))
    return method


def _same_header(full: ast.FunctionDef, header: ast.FunctionDef) -> bool:
    return full.name == header.name and len(full.decorator_list) == len(header.decorator_list) \
        and [a.arg for a in full.args.args] == [a.arg for a in header.args.args]
