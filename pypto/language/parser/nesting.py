"""The nesting limits (``pypto.ir.depth``) applied to source, before it is parsed.

The parser walks the syntax tree recursively, and so do the passes and the printer
the IR it builds goes through; none of them raises the recursion limit.  So source
nested deeper than ``MAX_EXPR_NESTING`` / ``MAX_STMT_NESTING`` is refused here, at the
line of its deepest expression, before anything recurses into it.  The check is
cheap: an expression written in fewer characters than the limit cannot be deeper
than the limit (each level takes at least one character), so only long expressions
are walked -- iteratively.
"""

from __future__ import annotations

import ast
import io
import tokenize
from types import MappingProxyType
from typing import Any, Callable

from ...ir.depth import MAX_EXPR_NESTING, MAX_STMT_NESTING
from ...ir.span import Span
from .diagnostics import ParserSyntaxError

__all__ = ["check_source_nesting", "deepest_source_line", "too_deep_for_python"]

_COMPOUND = (ast.For, ast.AsyncFor, ast.While, ast.If, ast.With, ast.AsyncWith, ast.Try,
             ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_BODIES = ("body", "orelse", "finalbody", "handlers")


def _short(node: ast.AST, above: int = 0) -> bool:
    """Written on one line in at most ``MAX_EXPR_NESTING - above`` characters: not too
    deep even ``above`` levels down (``a<b<c<...`` and ``a and b and ...`` take more
    than a character per level too)."""
    # Not every header part has a position (``ast.arguments``, ``ast.withitem`` ...).
    try:
        end_line = node.end_lineno  # type: ignore[attr-defined]
        end_col = node.end_col_offset  # type: ignore[attr-defined]
        if end_line is None or end_col is None:
            return False
        line: int = node.lineno  # type: ignore[attr-defined]
        col: int = node.col_offset  # type: ignore[attr-defined]
        return end_line == line and end_col - col <= MAX_EXPR_NESTING - above
    except AttributeError:
        return False


def _expr_depth(root: ast.AST) -> tuple[int, ast.AST]:
    """Levels of the expression ``root`` and its deepest node (iterative)."""
    deepest, where = 0, root
    stack: list[tuple[ast.AST, int]] = [(root, 1)]
    while stack:
        node, level = stack.pop()
        if level > deepest and hasattr(node, "lineno"):
            deepest, where = level, node
        step = _levels(node)
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, (ast.expr_context, ast.stmt)):
                stack.append((child, level + step))
    return deepest, where


def _levels(node: ast.AST) -> int:
    """IR levels one AST node becomes: ``a and b and c`` is one BoolOp, two Ands."""
    if isinstance(node, ast.BoolOp):
        return max(1, len(node.values) - 1)
    if isinstance(node, ast.Compare):
        return max(1, 2 * len(node.ops) - 1)  # a < b < c: (a < b) and (b < c)
    return 1


def _fields_outside_bodies(cls: type) -> tuple[str, ...]:
    return tuple(name for name in cls._fields if name not in _BODIES)  # type: ignore[attr-defined]


# Read-only after import: every statement class's fields that are not statement lists.
_EXPR_FIELDS = MappingProxyType({cls: _fields_outside_bodies(cls)
                                 for cls in ast.stmt.__subclasses__()})


def _expr_fields(cls: type) -> tuple[str, ...]:
    fields = _EXPR_FIELDS.get(cls)
    return fields if fields is not None else _fields_outside_bodies(cls)


# Statement classes without nested statements or parameters: written on one line in
# at most MAX_EXPR_NESTING characters, none of their expressions can be too deep.
_SIMPLE = frozenset(cls for cls in ast.stmt.__subclasses__()
                    if not {*_BODIES, "cases", "args"} & set(cls._fields))


# The header parts of the commonest compound statements, as _header_exprs groups them
# (each on its own, the levels above it): a header whose parts are all short has
# nothing the walk could refuse.
_HEADER_PARTS = MappingProxyType({ast.If: ("test",), ast.While: ("test",),
                                  ast.For: ("target", "iter")})


def _short_header(stmt: ast.stmt) -> bool:
    """Is every expression part of ``stmt``'s header short (``_short``)?  Answered for
    ``if``/``while``/``for``/``with`` only (False otherwise: the general walk decides)."""
    cls = stmt.__class__
    if cls is ast.With:
        return all(_short(item.context_expr, 1) and (item.optional_vars is None
                                                     or _short(item.optional_vars, 1))
                   for item in stmt.items)  # type: ignore[attr-defined]
    parts = _HEADER_PARTS.get(cls)
    return parts is not None and all(_short(getattr(stmt, name)) for name in parts)


def _header_exprs(stmt: ast.stmt) -> list[list[tuple[ast.AST, int]]]:
    """The expression parts of a statement (not its nested statement lists), in groups
    judged as one expression: each part with the levels above it in its group."""
    out: list[list[tuple[ast.AST, int]]] = []
    for name in _expr_fields(type(stmt)):
        value = getattr(stmt, name, None)
        for item in value if isinstance(value, list) else (value,):
            if item.__class__ is ast.arguments:
                out.append(_parameter_exprs(item))
            elif item.__class__ is ast.withitem:
                out.append(_with_item_exprs(item))
            elif isinstance(item, ast.AST) and not isinstance(item, ast.stmt):
                out.append([(item, 0)])
    return out


def _with_item_exprs(item: ast.withitem) -> list[tuple[ast.AST, int]]:
    """A ``with`` item (which has no position, so it is never short) as its parts, one
    level down, in the order a walk of the item meets them (the ``as`` target first):
    a short ``with pl.at(...):`` header then needs no walk."""
    out: list[tuple[ast.AST, int]] = []
    if item.optional_vars is not None:
        out.append((item.optional_vars, 1))
    out.append((item.context_expr, 1))
    return out


def _parameter_exprs(args: ast.arguments) -> list[tuple[ast.AST, int]]:
    """A parameter list as one expression, without walking the list itself (a long
    signature of short annotations needs no walk): each annotation sits two levels
    down (list, parameter), each default one; in the order a walk of the whole list
    meets them (last first), which decides between equally deep ones."""
    out: list[tuple[ast.AST, int]] = []
    defaults = [d for d in args.kw_defaults if d is not None]
    for arg in [*reversed(args.defaults), args.kwarg, *reversed(defaults),
                *reversed(args.kwonlyargs), args.vararg, *reversed(args.args),
                *reversed(args.posonlyargs)]:
        if arg is None:
            continue
        if arg.__class__ is ast.arg:
            if arg.annotation is not None:
                out.append((arg.annotation, 2))
        else:
            out.append((arg, 1))
    return out


def check_source_nesting(tree: ast.AST, span_of: Callable[[ast.AST], Span]) -> None:
    """``ParserSyntaxError`` at the deepest place of ``tree`` beyond the limits."""
    stack: list[tuple[ast.AST, int]] = [(tree, 0)]
    while stack:
        stmt, level = stack.pop()
        if level > MAX_STMT_NESTING:
            raise ParserSyntaxError(
                f"statements nested {level} levels deep; pypto accepts at most "
                f"{MAX_STMT_NESTING}", span_of(stmt),
                hint="move the inner levels into a function of their own")
        if stmt.__class__ in _SIMPLE:
            if _short(stmt):
                continue  # one short line and no body: no expression in it is too deep
            groups: list[list[tuple[ast.AST, int]]] = _header_exprs(stmt)
        elif not isinstance(stmt, ast.stmt) or _short_header(stmt):
            groups = []
        else:
            groups = _header_exprs(stmt)
        for group in groups:
            depth, where = 0, stmt
            for expr, above in group:
                if not _short(expr, above):
                    found, node = _expr_depth(expr)
                    if found + above > depth:
                        depth, where = found + above, node
            if depth > MAX_EXPR_NESTING:
                raise ParserSyntaxError(
                    f"an expression nested {depth} levels deep; pypto accepts at most "
                    f"{MAX_EXPR_NESTING}", span_of(where),
                    hint="split it into several assignments")
        inner = level + 1 if isinstance(stmt, _COMPOUND) else level
        for name in _BODIES:
            for child in getattr(stmt, name, ()) or ():
                if child.__class__ in _SIMPLE:
                    if inner <= MAX_STMT_NESTING and _short(child):
                        continue  # nothing in it can be refused (see the loop's top)
                    stack.append((child, inner))
                elif isinstance(child, ast.ExceptHandler):
                    stack.extend((s, inner) for s in child.body)
                elif isinstance(child, ast.stmt):
                    stack.append((child, inner))


def deepest_source_line(code: str) -> int:
    """The logical line of ``code`` with the most tokens (where Python's own parser ran
    out of recursion), found by the tokenizer, which does not recurse."""
    best_line, best_count = 1, -1
    start, count = 1, 0
    try:
        for token in tokenize.generate_tokens(io.StringIO(code).readline):
            if count == 0:
                start = token.start[0]
            count += 1
            if token.type in (tokenize.NEWLINE, tokenize.ENDMARKER):
                if count > best_count:
                    best_line, best_count = start, count
                count = 0
    except (tokenize.TokenError, SyntaxError):
        pass
    return best_line


def too_deep_for_python(code: str, filename: str, source_lines: Any = None) -> ParserSyntaxError:
    """The refusal of text whose syntax tree Python could not build (RecursionError)."""
    line = deepest_source_line(code)
    err = ParserSyntaxError(
        f"an expression nested too deeply to be read; pypto accepts at most "
        f"{MAX_EXPR_NESTING} levels", Span(filename, line, 1),
        hint="split it into several assignments")
    if source_lines is not None:
        err.with_source_lines(source_lines)
    return err
