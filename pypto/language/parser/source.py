"""Find the source text of decorated DSL code and map AST positions to file spans.

Lookup order (01-language.md §15): ``inspect.getsource``; the ``linecache`` entry of
the code object's file (IPython registers every cell there); for ``python -c``, the
program text in ``sys.orig_argv``.
"""

from __future__ import annotations

import ast
import inspect
import linecache
import re
import sys
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Iterator, Optional, Union

from . import pyast
from ...ir.span import Span
from .comment_extractor import extract_line_comments
from .diagnostics import ParserSyntaxError

__all__ = ["SourceInfo", "get_source_info", "register_source", "registered_source",
           "unregister_source", "locate_entity", "iter_definitions"]

# Python numbers lines at \r\n, \r and \n only; str.splitlines() also splits at \x0c etc.
_NEWLINE = re.compile(r"\r\n|\r|\n")
_UNKNOWN_SPAN = Span.unknown()


def _split_lines(text: str) -> list[str]:
    # Python's own line ends only (``str.splitlines`` also splits at form feeds etc.).
    lines = text.split("\n") if "\r" not in text else _NEWLINE.split(text)
    if lines and lines[-1] == "":
        lines.pop()  # the text ended with a newline
    return lines


@dataclass
class SourceInfo:
    """Source text of one entity (function, class or whole text) plus its file position.

    ``source`` is dedented; ``file line = ast lineno + line_offset`` and ``file column =
    character column on the dedented line + 1 + col_offset``.  ``file_lines`` holds the
    whole file's lines without line endings, for error snippets.
    """

    filename: str
    source: str
    line_offset: int
    col_offset: int
    file_lines: list[str] = field(repr=False)
    # 0-based indices of source lines the dedent could not strip (continuation lines
    # inside strings or brackets that sit left of the entity's indentation).
    _undedented_lines: frozenset = field(default=frozenset(), repr=False, compare=False)
    # Per source line, lazily: an int shift (ASCII line) or a byte-offset -> column list.
    _columns: list = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._source_lines = _split_lines(self.source)
        self._columns = [None] * len(self._source_lines)
        # The common case -- ASCII text, every line dedented alike -- maps every AST
        # column by one constant shift (``span`` runs for almost every AST node).
        uniform = self.source.isascii() and not self._undedented_lines
        self._uniform_shift: int | None = 1 + self.col_offset if uniform else None
        self._comments: tuple[list[int], list[str]] | None = None

    def full_line_comments(self) -> tuple[list[int], list[str]]:
        """Line numbers (1-based, sorted) and texts of the full-line ``#`` comments.

        Found once per text: every function parsed from a file-wide ``SourceInfo``
        (the decorators' per-file index) reads the same one.  Threads sharing it at
        worst both compute the same value."""
        found = self._comments
        if found is None:
            comments = extract_line_comments(self.source)
            found = self._comments = (list(comments), list(comments.values()))
        return found

    @classmethod
    def from_text(cls, text: str, filename: str, line_offset: int = 0) -> "SourceInfo":
        """Source info for text that starts at file line ``line_offset + 1``."""
        source, indent, undedented = _dedent(text)
        file_lines = [""] * line_offset + _split_lines(text)
        return cls(filename, source, line_offset, indent, file_lines, undedented)

    def span(self, node: ast.AST) -> Span:
        """File span of an AST node parsed from ``source``; unknown without a position."""
        shift = self._uniform_shift
        if shift is not None:
            # The hot path (ASCII text, every line dedented alike): plain attribute reads.
            try:
                end_line = node.end_lineno  # type: ignore[attr-defined]
                end_byte = node.end_col_offset  # type: ignore[attr-defined]
                if end_line is not None and end_byte is not None:
                    offset = self.line_offset
                    return Span(self.filename, node.lineno + offset,  # type: ignore[attr-defined]
                                node.col_offset + shift,  # type: ignore[attr-defined]
                                end_line + offset, end_byte + shift)
            except (AttributeError, TypeError):
                pass  # no position (or a hand-made node's None): read it field by field
        return self._general_span(node)

    def _general_span(self, node: ast.AST) -> Span:
        line = getattr(node, "lineno", None)
        if line is None:
            return _UNKNOWN_SPAN
        offset = self.line_offset
        end_line = getattr(node, "end_lineno", None)
        end_byte = getattr(node, "end_col_offset", None)
        begin_column = self._file_column(line, node.col_offset)  # type: ignore[attr-defined]  # (as above)
        if end_line is None:
            return Span(self.filename, line + offset, begin_column)
        end_column = -1 if end_byte is None else self._file_column(end_line, end_byte)
        return Span(self.filename, line + offset, begin_column, end_line + offset, end_column)

    def _file_column(self, line: int, byte_column: int) -> int:
        index = line - 1
        columns = self._columns
        if 0 <= index < len(columns):
            mapping = columns[index]
            if mapping is None:
                mapping = self._column_mapping(index)
        else:
            mapping = 1 + self.col_offset
        if mapping.__class__ is int:
            return byte_column + mapping
        if byte_column < len(mapping):
            return mapping[byte_column]
        return mapping[-1] + byte_column - (len(mapping) - 1)

    def _column_mapping(self, index: int) -> Union[int, list[int]]:
        shift = 1 + (0 if index in self._undedented_lines else self.col_offset)
        text = self._source_lines[index]
        if text.isascii():
            mapping: Union[int, list[int]] = shift
        else:
            # AST columns are UTF-8 byte offsets; map every byte to its character.
            mapping = []
            for char_index, char in enumerate(text):
                mapping.extend([char_index + shift] * len(char.encode("utf-8")))
            mapping.append(len(text) + shift)
        self._columns[index] = mapping
        return mapping


def _dedent(text: str) -> tuple[str, int, frozenset]:
    """Remove the first non-blank line's indentation from every line that has it.

    Returns the text, the number of characters removed, and the indices of lines that
    did not start with that indentation (left unchanged).
    """
    lines = _split_lines(text)
    first = next((line for line in lines if line.strip()), "")
    indent = first[:len(first) - len(first.lstrip())]
    if not indent:
        return "\n".join(lines) + "\n", 0, frozenset()
    dedented = []
    undedented = set()
    for index, line in enumerate(lines):
        if line.startswith(indent):
            dedented.append(line[len(indent):])
        elif not line.strip():
            dedented.append("")
        else:
            dedented.append(line)
            undedented.add(index)
    return "\n".join(dedented) + "\n", len(indent), frozenset(undedented)


# -- linecache registration ---------------------------------------------------------------

def register_source(text: str, filename: str) -> None:
    """Make ``text`` readable through ``linecache`` (and so ``inspect``) as ``filename``."""
    lines = [line + "\n" for line in _split_lines(text)]
    # mtime None: linecache.checkcache() leaves the entry alone.
    linecache.cache[filename] = (len(text), None, lines, filename)


def unregister_source(filename: str) -> None:
    """Drop the ``linecache`` entry for ``filename`` (no error when absent)."""
    linecache.cache.pop(filename, None)


@contextmanager
def registered_source(text: str, filename: str) -> Iterator[None]:
    """Register ``text`` for the duration of the block, then restore the previous entry."""
    previous = linecache.cache.get(filename)
    register_source(text, filename)
    try:
        yield
    finally:
        if previous is None:
            unregister_source(filename)
        else:
            linecache.cache[filename] = previous


# -- source lookup ------------------------------------------------------------------------

_Found = tuple[str, int, list[str], str]  # entity text, first line, file lines, filename


def get_source_info(obj: Any) -> SourceInfo:
    """Source of a function or class (§15 lookup order), dedented, with file offsets.

    Decorator lines are part of the source; the parser skips them itself.
    """
    target = obj.__func__ if isinstance(obj, (staticmethod, classmethod)) else obj
    if not (inspect.isclass(target) or inspect.isfunction(target)):
        raise TypeError(f"get_source_info() expects a function or a class, "
                        f"got {type(obj).__name__}")
    filename, first_line = _definition_site(target)
    found = (_lookup_with_inspect(target, filename)
             or _lookup_in_text(target, filename, first_line, _linecache_text(filename))
             or _lookup_in_text(target, filename, first_line, _command_line_text(filename)))
    if found is None:
        name = target.__name__
        span = {"filename": filename, "line": first_line} if filename and first_line else None
        raise ParserSyntaxError(
            f"Cannot retrieve source code for {name}", span=span,
            hint="pypto parses the Python source of decorated code, so it must come from a "
                 "file, an IPython/Jupyter cell or `python -c`; for source held in a "
                 "string, use pl.parse(text)")
    entity_text, start_line, file_lines, filename = found
    source, indent, undedented = _dedent(entity_text)
    return SourceInfo(filename, source, start_line - 1, indent, file_lines, undedented)


def _definition_site(target: Any) -> tuple[str, Optional[int]]:
    """(code filename, first line) of a function; for a class, taken from its methods."""
    if inspect.isfunction(target):
        code = target.__code__
        return code.co_filename, code.co_firstlineno
    method_sites = [(code.co_filename, code.co_firstlineno)
                    for code in _method_code_objects(target)]
    if method_sites:
        filename = method_sites[0][0]
        return filename, min(line for name, line in method_sites if name == filename)
    try:
        return inspect.getsourcefile(target) or inspect.getfile(target), None
    except (TypeError, OSError):
        return "", None


def _method_code_objects(cls: type) -> list[Any]:
    codes = []
    for member in vars(cls).values():
        if isinstance(member, (staticmethod, classmethod)):
            member = member.__func__
        member = getattr(member, "__wrapped__", member)  # functools.wraps-style tagging
        code = getattr(member, "__code__", None)
        if code is not None and getattr(member, "__module__", None) == cls.__module__:
            codes.append(code)
    return codes


def _file_lines(filename: str, entity_text: str, start_line: int) -> list[str]:
    """The whole file from linecache, else the entity padded to its position."""
    cached = linecache.getlines(filename) if filename else []
    if cached:
        return [line.rstrip("\r\n") for line in cached]
    return [""] * (start_line - 1) + _split_lines(entity_text)


def _lookup_with_inspect(target: Any, filename: str) -> Optional[_Found]:
    try:
        lines, start_line = inspect.getsourcelines(target)
        if not filename:
            filename = inspect.getsourcefile(target) or inspect.getfile(target)
    except (OSError, TypeError):
        return None
    entity_text = "".join(lines)
    return entity_text, start_line, _file_lines(filename, entity_text, start_line), filename


def _linecache_text(filename: str) -> Optional[str]:
    if not filename:
        return None
    lines = linecache.getlines(filename)
    return "".join(lines) if lines else None


def _command_line_text(filename: str) -> Optional[str]:
    """The program of ``python -c PROGRAM`` when the code came from it."""
    if filename != "<string>":
        return None
    arguments = iter(getattr(sys, "orig_argv", [])[1:])
    for argument in arguments:
        if argument == "--check-hash-based-pycs":
            next(arguments, None)
            continue
        if argument.startswith("--"):
            continue
        if not argument.startswith("-") or argument == "-":
            return None  # a script path or stdin: not -c
        flags = argument[1:]
        for position, flag in enumerate(flags):
            rest = flags[position + 1:]
            if flag == "c":
                return rest if rest else next(arguments, None)
            if flag == "m":
                return None
            if flag in "WX":  # these take a value, glued on or as the next argument
                if not rest:
                    next(arguments, None)
                break
    return None


def _lookup_in_text(target: Any, filename: str, first_line: Optional[int],
                    text: Optional[str]) -> Optional[_Found]:
    """Find the ``def``/``class`` of ``target`` in a whole module's text."""
    if text is None:
        return None
    try:
        tree = pyast.parse(text)
    except (SyntaxError, ValueError):
        return None
    is_class = inspect.isclass(target)
    kinds = (ast.ClassDef,) if is_class else (ast.FunctionDef, ast.AsyncFunctionDef)
    candidates = [node for node in ast.walk(tree)
                  if isinstance(node, kinds) and node.name == target.__name__]
    node = _pick_definition(candidates, first_line, is_class)
    if node is None:
        return None
    start_line = _first_line(node)
    lines = _split_lines(text)
    entity_text = "\n".join(lines[start_line - 1:node.end_lineno]) + "\n"
    return entity_text, start_line, lines, filename


def _first_line(node: Any) -> int:
    """The line of the first decorator, as in ``co_firstlineno``."""
    return min([node.lineno] + [decorator.lineno for decorator in node.decorator_list])


def _pick_definition(candidates: list, first_line: Optional[int], is_class: bool) -> Any:
    if first_line is None:
        return candidates[0] if len(candidates) == 1 else None
    if not is_class:
        return next((node for node in candidates if _first_line(node) == first_line), None)
    # A class is known by a method line inside it; ast.walk lists outer classes first,
    # so the last match is the innermost class of that name.
    matches = [node for node in candidates
               if _first_line(node) <= first_line <= (node.end_lineno or node.lineno)]
    return matches[-1] if matches else None


# -- fast path: one parse per file, shared by every decorated entity in it --------------------

class _ModuleIndex:
    """The parsed whole file: definitions by first line, and one file-wide SourceInfo.

    A file holding N decorated functions is parsed once, not N times (inspect
    re-tokenizes the file per lookup).  Keyed on the ``linecache`` list object,
    so an edited file (a new list) is re-parsed.
    """

    __slots__ = ("lines", "info", "functions", "classes")

    def __init__(self, filename: str, lines: list[str], tree: ast.Module | None = None) -> None:
        text = "".join(lines)
        if tree is None:
            tree = pyast.parse(text, filename)
        self.lines = lines
        self.info = SourceInfo(filename, text, 0, 0, [line.rstrip("\r\n") for line in lines])
        self.functions: dict[int, ast.FunctionDef | ast.AsyncFunctionDef] = {}
        self.classes: dict[str, list[ast.ClassDef]] = {}
        for node in iter_definitions(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.functions[_first_line(node)] = node
            elif isinstance(node, ast.ClassDef):
                self.classes.setdefault(node.name, []).append(node)


_MODULE_INDEX: dict[str, _ModuleIndex] = {}
_STMT_LISTS = ("body", "orelse", "finalbody")
_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def iter_definitions(tree: ast.AST) -> Any:
    """Every def/class statement of ``tree``, outer first (statements only: definitions
    never hide inside expressions, and skipping those makes this ~10x cheaper than
    ``ast.walk``)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, _DEFINITIONS):
            yield node
        fields = _BLOCK_FIELDS.get(type(node))
        if fields is None:
            fields = _BLOCK_FIELDS[type(node)] = _block_fields(type(node))
        if not fields:
            continue  # a simple statement: most of them
        children = []
        for name in fields:
            children.extend(getattr(node, name))
        stack.extend(reversed(children))


# Per AST class: its statement-list fields, in the walk's order.  ``handlers``
# (try/except) and ``cases`` (match) hold nodes whose own ``body`` is walked next.
_BLOCK_FIELDS: dict[type, tuple[str, ...]] = {}


def _block_fields(cls: type) -> tuple[str, ...]:
    own = getattr(cls, "_fields", ())
    return tuple(name for name in (*_STMT_LISTS, "handlers", "cases") if name in own)


def locate_entity(obj: Any) -> Optional[tuple[SourceInfo, ast.AST]]:
    """``(file-wide SourceInfo, def/class node)`` from a cached parse of the whole file,
    or ``None`` when the file text is not available (then use ``get_source_info``)."""
    target = obj.__func__ if isinstance(obj, (staticmethod, classmethod)) else obj
    if not (inspect.isclass(target) or inspect.isfunction(target)):
        return None
    filename, first_line = _definition_site(target)
    if not filename or first_line is None:
        return None
    lines = linecache.getlines(filename)
    if not lines:
        return None
    index = _MODULE_INDEX.get(filename)
    if index is None or index.lines is not lines:
        try:
            index = _ModuleIndex(filename, lines)
        except (SyntaxError, ValueError):
            return None
        if len(_MODULE_INDEX) > 64:
            _MODULE_INDEX.clear()
        _MODULE_INDEX[filename] = index
    if inspect.isfunction(target):
        node = index.functions.get(first_line)
        if node is None or node.name != target.__name__:
            return None
    else:
        node = _pick_definition(index.classes.get(target.__name__, []), first_line, True)
        if node is None:
            return None
    return index.info, node
