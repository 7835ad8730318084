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
on its own, and then ``split_text`` gives up (``None``), or a method body read later
raises ``CannotSplit``, and the caller parses the text whole.  The caller catches only
that (and its own "the whole tree is needed"): any other error of a piecewise reading
is a defect here and surfaces, not hidden by the whole-text reading.  Positions are exact: each piece's ``SourceInfo`` carries its line offset in the
file, so spans, comments and snippets are those of the whole-text parse.
"""

from __future__ import annotations

import ast
import re
from typing import Optional

from . import pyast
from .source import SourceInfo

__all__ = ["split_text", "MethodBodies", "Chunked", "CannotSplit", "CHUNK_MIN_CHARS"]

# Shorter text is parsed whole: the saving is in memory (CPython's parser peaks at about
# 150 bytes per character: 150 MB here), and reading in pieces costs time (up to a fifth
# of pl.parse on one long function, measured in stop 26).
CHUNK_MIN_CHARS = 1_000_000
# A method body longer than twice this is parsed in groups of statements this long.
BODY_GROUP_CHARS = 64_000
# Line ends other than "\n" (Python's "\r", and those str.splitlines also honours, which
# the comment index uses) would number lines differently in a piece: parse such text whole.
_ODD_LINE_ENDS = re.compile("[\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
_NOT_A_START = frozenset(" \t#)]}")
_CONTINUATIONS = ("else", "elif", "except", "finally")
_WRAPPER = "class _:\n"  # puts an indented member at its own indentation


class CannotSplit(Exception):
    """A piece does not parse alone (a wrong cut, or an error to report): parse whole."""


class MethodBodies:
    """The full ``def`` of each method read as a header, parsed on demand: with the
    methods after it in the class, up to ``BODY_GROUP_CHARS`` of text in one parse
    (kept until asked for: the program parser mostly goes in class order)."""

    def __init__(self, info: SourceInfo, lines: list[str]) -> None:
        self._info = info
        self._lines = lines
        self._index: dict[int, int] = {}  # id(header) -> position in _methods
        # (header, first line, end line, follows the previous method directly)
        self._methods: list[tuple[ast.FunctionDef, int, int, bool]] = []
        self._ready: dict[int, tuple[SourceInfo, ast.FunctionDef]] = {}
        self._taken: set[int] = set()

    def defer(self, header: ast.FunctionDef, start: int, end: int, adjacent: bool) -> None:
        self._index[id(header)] = len(self._methods)
        self._methods.append((header, start, end, adjacent))

    def last_header(self) -> Optional[ast.FunctionDef]:
        return self._methods[-1][0] if self._methods else None

    def __call__(self, header: ast.FunctionDef) -> tuple[SourceInfo, ast.FunctionDef]:
        """``(SourceInfo, def)`` of a method: the header itself when it was read whole."""
        index = self._index.get(id(header))
        if index is None:
            return self._info, header
        self._taken.add(index)
        ready = self._ready.pop(index, None)
        if ready is not None:
            return ready
        _, start, end, _ = self._methods[index]
        lines = self._lines
        if _chars(lines, header.lineno, end) > 2 * BODY_GROUP_CHARS:
            return _member_info(self._info, lines, start, end), \
                _method_in_groups(lines, start, header.lineno, end, header)
        last, size = index, _chars(lines, start, end)
        while last + 1 < len(self._methods) and size < BODY_GROUP_CHARS:
            following, next_start, next_end, adjacent = self._methods[last + 1]
            size += _chars(lines, next_start, next_end)
            if not adjacent or last + 1 in self._taken or last + 1 in self._ready \
                    or size > BODY_GROUP_CHARS:
                break
            last += 1
        info = _member_info(self._info, lines, start, self._methods[last][2])
        items = _members(_parse(info.source))
        if len(items) != last - index + 1:
            raise CannotSplit()
        if len(self._ready) > 64:  # asked for out of order: parse those again later
            self._ready.clear()
        for position, item in zip(range(index, last + 1), items):
            self._ready[position] = (info, _as_method(item, self._methods[position][0]))
        return self._ready.pop(index)


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
    except CannotSplit:
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
    width = len(indent)
    not_a_start = _NOT_A_START
    at_indent = [index for index in range(lo, hi)
                 if (line := lines[index]).startswith(indent) and len(line) > width
                 and line[width] not in not_a_start]
    starts = [lo]
    after_decorator = False  # the previous line at the indentation was a decorator
    for index in at_indent:
        line = lines[index]
        if index != lo and not after_decorator and not line.startswith(_CONTINUATIONS, width):
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
        raise CannotSplit() from None


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
        raise CannotSplit()
    shell = module.body[0]
    ast.increment_lineno(shell, start)
    members: list[ast.stmt] = []
    pieces = _pieces(lines, header + 1, end, indent)
    headers = _method_headers(lines, pieces, indent)
    for (member_start, member_end), method in zip(pieces, headers):
        if method is not None:
            adjacent = bool(members) and members[-1] is bodies.last_header()
            bodies.defer(method, member_start, member_end, adjacent)
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
        raise CannotSplit()
    return module.body[0].body


def _parse_member_piece(info: SourceInfo, lines: list[str], start: int,
                        end: int) -> tuple[SourceInfo, list[ast.stmt]]:
    """The class members of ``lines[start:end]``, positioned by the returned info."""
    piece = _member_info(info, lines, start, end)
    return piece, _members(_parse(piece.source))


def _only_method(module: ast.Module, header: ast.FunctionDef) -> ast.FunctionDef:
    items = _members(module)
    if len(items) != 1:
        raise CannotSplit()
    return _as_method(items[0], header)


def _chars(lines: list[str], start: int, end: int) -> int:
    return sum(len(line) + 1 for line in lines[start:end])


def _method_in_groups(lines: list[str], start: int, body_start: int, end: int,
                      header: ast.FunctionDef) -> ast.FunctionDef:
    """A long method parsed a group of body statements at a time (CPython's parser peaks
    at twice the tree it returns): each group behind the method's own header, moved to
    its lines by blank ones, so every position is the one-piece parse's."""
    first = next((i for i in range(body_start, end) if _is_code(lines[i])), None)
    if first is None:
        raise CannotSplit()
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


def _def_line(lines: list[str], start: int, end: int, indent: str) -> Optional[int]:
    """The ``def`` line of a method piece with a one-line signature, else ``None``."""
    line = lines[start]
    if not (line.startswith("@", len(indent)) or line.startswith("def ", len(indent))):
        return None
    found = next((i for i in range(start, end) if lines[i].startswith("def ", len(indent))),
                 None)
    if found is None or found + 1 == end or not lines[found].rstrip().endswith(":"):
        return None
    return found


def _method_headers(lines: list[str], pieces: list[tuple[int, int]],
                    indent: str) -> list[Optional[ast.FunctionDef]]:
    """Per member piece, the method's header (``_as_header``) or ``None`` (another
    member, or a signature over several lines: read whole).  The headers are parsed
    ``BODY_GROUP_CHARS`` at a time (a parse of a few lines costs mostly its setup)."""
    out: list[Optional[ast.FunctionDef]] = [None] * len(pieces)
    batch: list[tuple[int, int]] = []  # (piece position, def line)
    texts: list[str] = []
    size = 0
    for position, (start, end) in enumerate(pieces):
        def_line = _def_line(lines, start, end, indent)
        if def_line is None:
            continue
        built = _built_header(lines, start, def_line, indent)
        if built is not None:
            out[position] = _as_header(built, def_line, end, lines)
            continue
        text = _text(lines, start, def_line) + _light_def(lines[def_line], indent) \
            + indent * 2 + "pass\n"
        batch.append((position, def_line))
        texts.append(text)
        size += len(text)
        if size >= BODY_GROUP_CHARS:
            _read_headers(lines, pieces, indent, batch, texts, out)
            batch, texts, size = [], [], 0
    if batch:
        _read_headers(lines, pieces, indent, batch, texts, out)
    return out


_DEF = re.compile(r"def\s+([A-Za-z_]\w*)\s*\(")
_PARAMETER = re.compile(r"[(,]\s*([A-Za-z_]\w*)\s*(?=[:,)])")


def _light_def(line: str, indent: str) -> str:
    """The def line without its annotations (``def name(self, x):``) when it is plain
    enough to read by pattern -- no defaults, ``*`` or ``/`` -- else itself.  What the
    header needs is the name and the parameter names; the body's parse reads the whole
    line again and must find the same (``_same_header``), else the text is read whole."""
    found = _DEF.match(line, len(indent))
    if found is None or "=" in line or "*" in line or "/" in line:
        return line + "\n"
    names = _PARAMETER.findall(line, found.end() - 1)
    return f"{indent}def {found.group(1)}({', '.join(names)}):\n"


_DECORATOR = re.compile(r"@([A-Za-z_]\w*)\.function(\(.*\))?$")


def _built_header(lines: list[str], start: int, def_line: int,
                  indent: str) -> Optional[ast.FunctionDef]:
    """The header of the common method -- one ``@x.function`` / ``@x.function(...)``
    line, then a plain def line -- built without a parse (``_same_header`` checks it
    against the body's parse); ``None`` for any other."""
    if def_line != start + 1:
        return None
    decorator = _DECORATOR.match(lines[start].rstrip(), len(indent))
    line = lines[def_line]
    found = _DEF.match(line, len(indent))
    if decorator is None or found is None or "=" in line or "*" in line or "/" in line:
        return None
    load = ast.Load()
    target: ast.expr = ast.Attribute(ast.Name(decorator.group(1), load), "function", load)
    if decorator.group(2) is not None:
        target = ast.Call(target, [], [])
    params = [ast.arg(name) for name in _PARAMETER.findall(line, found.end() - 1)]
    return ast.FunctionDef(found.group(1), ast.arguments([], params, None, [], [], None, []),
                           [], [target], None, None, lineno=def_line + 1,
                           col_offset=len(indent))


def _read_headers(lines: list[str], pieces: list[tuple[int, int]], indent: str,
                  batch: list[tuple[int, int]], texts: list[str],
                  out: list[Optional[ast.FunctionDef]]) -> None:
    try:
        items = pyast.parse(_WRAPPER + "".join(texts)).body[0].body
    except (SyntaxError, RecursionError, ValueError, MemoryError):
        items = []
    if len(items) != len(batch) or not all(isinstance(i, ast.FunctionDef) for i in items):
        items = [_one_header(text) for text in texts]  # which one is odd: read each alone
    for (position, def_line), item in zip(batch, items):
        if item is not None:
            out[position] = _as_header(item, def_line, pieces[position][1], lines)


def _one_header(text: str) -> Optional[ast.FunctionDef]:
    try:
        items = pyast.parse(_WRAPPER + text).body[0].body
    except (SyntaxError, RecursionError, ValueError, MemoryError):
        return None
    return items[0] if len(items) == 1 and isinstance(items[0], ast.FunctionDef) else None


def _as_header(method: ast.FunctionDef, def_line: int, end: int,
               lines: list[str]) -> ast.FunctionDef:
    """A parsed header as the program parser's first look at a method needs it: its
    ``lineno`` / ``end_lineno`` the file lines of its def and last line (the parse
    order reads them), no annotations (the body's parse reads the whole def again).
    Its decorators and parameters keep the header parse's positions, which only an
    error would show -- and an error reads the text whole."""
    method.lineno = def_line + 1
    method.body = []
    method.end_lineno = end
    method.end_col_offset = len(lines[end - 1].encode("utf-8"))
    args = method.args
    for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]:
        if arg is not None:
            arg.annotation = None
    method.returns = None
    return method


def _as_method(item: ast.stmt, header: ast.FunctionDef) -> ast.FunctionDef:
    if not isinstance(item, ast.FunctionDef) or not _same_header(item, header):
        raise CannotSplit()
    return item


def _same_header(full: ast.FunctionDef, header: ast.FunctionDef) -> bool:
    return full.name == header.name \
        and [_decorator_key(d) for d in full.decorator_list] \
        == [_decorator_key(d) for d in header.decorator_list] \
        and [a.arg for a in full.args.args] == [a.arg for a in header.args.args] \
        and not (full.args.posonlyargs or full.args.kwonlyargs or full.args.vararg
                 or full.args.kwarg or full.args.defaults)


def _decorator_key(node: ast.expr) -> tuple:
    """A decorator as the header's checks read it: called or not, and its dotted name."""
    called = isinstance(node, ast.Call)
    target = node.func if isinstance(node, ast.Call) else node
    chain: list[str] = []
    while isinstance(target, ast.Attribute):
        chain.append(target.attr)
        target = target.value
    chain.append(target.id if isinstance(target, ast.Name) else type(target).__name__)
    return called, tuple(chain)
