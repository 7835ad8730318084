"""How deeply a program may nest, and the refusal of deeper ones.

pypto's IR walkers (structural equality and hash, the printer, the visitor and
mutator, most passes) recurse once or a few times per nesting level.  They run at
whatever recursion limit the process has -- pypto never raises it: a raised limit is
process-wide, so it lets deep recursion overflow the C stack (a crash, not an error)
and changes the limit under every other thread.  So the nesting pypto accepts is
bounded, and a program beyond the bound is refused with a ``NestingError`` at its
deepest statement:

* ``MAX_STMT_NESTING`` compound statements (loops, branches, regions) inside each
  other -- CPython's own parser stops at 100 levels of indentation;
* ``MAX_EXPR_NESTING`` levels of one expression (``n + n + ... + n`` with 101 terms
  is 100 levels deep);
* ``MAX_EXPANDED_NODES`` nodes in one expression written out: IR built by hand may
  share a sub-expression (``e = x + x; e = e + e; ...``), a DAG of 19 nodes that prints
  as 2**19 terms.  Analyses, verifiers, equality and hashing visit each distinct node
  once; printing writes every use, so such a DAG is refused instead of printed.

``check_nesting`` measures a node without recursing (and visits each shared
sub-expression once).  ``nesting_guard`` is the backstop around every recursive
walk: a ``RecursionError`` inside it -- IR built by hand past the bound, or a walk
started on an already deep Python stack -- becomes a ``NestingError`` naming the
deepest place of the node being walked.
"""

from __future__ import annotations

from typing import Any

from ..errors import Error
from . import stmt as St
from .function import Function, Program
from .node import Expr, Stmt
from .span import Span
from . import expr as E
from .walk import LEAF_TYPES, expr_children, stmt_children, stmt_exprs

__all__ = ["MAX_STMT_NESTING", "MAX_EXPR_NESTING", "MAX_EXPANDED_NODES", "NestingError",
           "Nesting", "nesting_of", "check_nesting", "check_expansion", "ExpansionMemo",
           "nesting_guard"]

MAX_STMT_NESTING = 100
MAX_EXPR_NESTING = 100
MAX_EXPANDED_NODES = 100_000


class NestingError(Error, ValueError):
    """A program nested deeper than pypto's documented limits.

    ``span`` is the deepest statement or expression (``None`` when unknown);
    ``str(err)`` ends with its ``file:line:col``.
    """

    def __init__(self, message: str, span: Span | None = None) -> None:
        self.message = message
        self.span = span if span is not None and span.is_valid() else None
        where = f" [{self.span.filename}:{self.span.begin_line}:{self.span.begin_column}]" \
            if self.span is not None else ""
        super().__init__(message + where)


class Nesting:
    """The deepest statement and expression nesting of a node, and where they are."""

    __slots__ = ("stmt_depth", "stmt_span", "expr_depth", "expr_span", "expanded",
                 "expanded_span")

    def __init__(self) -> None:
        self.stmt_depth = 0
        self.stmt_span: Span | None = None
        self.expr_depth = 0
        self.expr_span: Span | None = None
        self.expanded = 0  # the largest expression, shared parts counted once per use
        self.expanded_span: Span | None = None

    def too_deep(self) -> NestingError | None:
        if self.stmt_depth > MAX_STMT_NESTING:
            return NestingError(
                f"statements nested {self.stmt_depth} levels deep; pypto accepts at most "
                f"{MAX_STMT_NESTING} (move the inner levels into a function)", self.stmt_span)
        if self.expr_depth > MAX_EXPR_NESTING:
            return NestingError(
                f"an expression nested {self.expr_depth} levels deep; pypto accepts at most "
                f"{MAX_EXPR_NESTING} (split it into several assignments)", self.expr_span)
        if self.expanded > MAX_EXPANDED_NODES:
            return NestingError(
                f"an expression whose shared sub-expressions, written out, make more than "
                f"{MAX_EXPANDED_NODES} nodes (bind the shared parts to names)",
                self.expanded_span)
        return None


def _expr_measure(root: Expr, memo: dict[int, tuple[int, int]],
                  keep: list[Expr]) -> tuple[int, int]:
    """``(levels, expanded size)`` of ``root``: a leaf is ``(1, 1)``; the size counts a
    shared sub-expression once per use (what printing writes out), each distinct node
    computed once (sizes are capped just past ``MAX_EXPANDED_NODES``)."""
    cls = type(root)
    if cls in LEAF_TYPES:
        return 1, 1
    if cls is E.Call and not root._attrs:  # type: ignore[attr-defined]
        levels, size = 2, 1  # three-address form: most calls, over leaves and [leaves]
        for arg in root.args:  # type: ignore[attr-defined]
            kind = type(arg)
            if kind in LEAF_TYPES:
                size += 1
            elif kind is E.MakeTuple and all(type(e) in LEAF_TYPES for e in arg.elements):
                levels, size = 3, size + 1 + len(arg.elements)
            else:
                break
        else:
            return levels, size
    found = memo.get(id(root))
    if found is not None:
        return found
    cap = MAX_EXPANDED_NODES + 1
    stack: list[tuple[Expr, bool]] = [(root, False)]
    while stack:
        node, expanded = stack.pop()
        if id(node) in memo:
            continue
        children = expr_children(node)
        if not expanded and children:
            stack.append((node, True))
            stack.extend((c, False) for c in children if id(c) not in memo)
            continue
        levels, size = 1, 1
        for child in children:
            child_levels, child_size = memo[id(child)]
            levels = max(levels, child_levels + 1)
            size += child_size
        memo[id(node)] = (levels, min(size, cap))
        keep.append(node)  # ids stay valid while the nodes are alive
    return memo[id(root)]


class ExpansionMemo:
    """What ``check_expansion`` has measured, for one printer's expressions."""

    __slots__ = ("memo", "keep")

    def __init__(self) -> None:
        self.memo: dict[int, tuple[int, int]] = {}
        self.keep: list[Expr] = []


def check_expansion(expr: Expr, memo: ExpansionMemo) -> None:
    """``NestingError`` when ``expr`` written out has more than ``MAX_EXPANDED_NODES``
    nodes (a hand-built DAG); linear in its distinct nodes."""
    _, size = _expr_measure(expr, memo.memo, memo.keep)
    if size > MAX_EXPANDED_NODES:
        raise NestingError(
            f"an expression whose shared sub-expressions, written out, make more than "
            f"{MAX_EXPANDED_NODES} nodes (bind the shared parts to names)", expr.span)


def _roots(node: Any) -> tuple[list[Stmt], list[Expr]]:
    if isinstance(node, Program):
        return [f.body for f in node.functions.values()], []
    if isinstance(node, Function):
        return [node.body], []
    if isinstance(node, Stmt):
        return [node], []
    if isinstance(node, Expr):
        return [], [node]
    return [], []


def nesting_of(node: Any) -> Nesting:
    """The nesting of a Program, Function, Stmt or Expr (anything else: none)."""
    result = Nesting()
    memo: dict[int, tuple[int, int]] = {}
    keep: list[Expr] = []
    stmts, exprs = _roots(node)

    def note_expr(expr: Expr) -> None:
        depth, size = _expr_measure(expr, memo, keep)
        if depth > result.expr_depth:
            result.expr_depth, result.expr_span = depth, _deepest_span(expr, memo)
        if size > result.expanded:
            result.expanded, result.expanded_span = size, expr.span

    for expr in exprs:
        note_expr(expr)
    # (statement, its level): a SeqStmts is no level of its own unless nested in another
    stack: list[tuple[Stmt, int]] = [(s, 0) for s in stmts]
    while stack:
        stmt, level = stack.pop()
        is_seq = type(stmt) is St.SeqStmts
        if not is_seq and level >= result.stmt_depth:
            known = result.stmt_span is not None and result.stmt_span.is_valid()
            if level > result.stmt_depth or not known:
                if stmt.span.is_valid() or not known:  # the deepest place with a span
                    result.stmt_span = stmt.span
                result.stmt_depth = level
        for expr in stmt_exprs(stmt):
            note_expr(expr)
        for child in stmt_children(stmt):
            nested_seq = is_seq and type(child) is St.SeqStmts
            stack.append((child, level + 1 if nested_seq or not is_seq else level))
    return result


def _deepest_span(expr: Expr, memo: dict[int, tuple[int, int]]) -> Span | None:
    """The span of the innermost node on ``expr``'s deepest path that has one."""
    best = expr.span if expr.span.is_valid() else None
    node = expr
    while True:
        children = expr_children(node)
        if not children:
            return best
        node = max(children, key=lambda c: memo.get(id(c), (1, 1))[0])
        if node.span.is_valid():
            best = node.span


def check_nesting(node: Any) -> None:
    """``NestingError`` when ``node`` nests deeper than the documented limits."""
    error = nesting_of(node).too_deep()
    if error is not None:
        raise error


class nesting_guard:  # noqa: N801 -- a context manager used like a function
    """``with nesting_guard(node):`` a ``RecursionError`` in the block becomes a
    ``NestingError`` at the deepest place of ``node``.

    A class rather than ``@contextmanager``: walkers enter it once per call, some
    once per outlined region, and a generator-based manager costs several times more.
    """

    __slots__ = ("node",)

    def __init__(self, node: Any = None) -> None:
        self.node = node

    def __enter__(self) -> None:
        return None

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        if exc_type is not None and issubclass(exc_type, RecursionError):
            raise too_deep(self.node) from None


def too_deep(node: Any) -> NestingError:
    """The refusal of ``node`` after a walk of it ran out of recursion."""
    nesting = nesting_of(node)
    error = nesting.too_deep()
    if error is not None:
        return error
    span = nesting.stmt_span or nesting.expr_span
    return NestingError(
        f"the program is nested too deeply for the Python stack left here "
        f"({nesting.stmt_depth} statement levels, expressions {nesting.expr_depth} levels "
        f"deep); pypto accepts {MAX_STMT_NESTING} and {MAX_EXPR_NESTING} from a shallow "
        f"stack", span)
