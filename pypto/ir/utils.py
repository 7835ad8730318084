"""Small IR helpers shared by the passes (02-ir.md §16).

* ``flatten_to_stmts`` / ``collect_def_vars``: statement lists and definitions.
* ``find_yield_stmt`` / ``get_last_yield_stmt``: the yield that ends a body.
* ``substitute_expr`` / ``substitute_stmt``: replace Vars/Exprs by identity.
* ``deep_clone``: copy a statement with fresh definition Vars (function inlining).

All walks are iterative or run on ``IRMutator`` (which guards deep nesting) and are
linear in the size of the IR they touch.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Callable, Iterable, Iterator, Mapping, Union

from .expr import IterArg, Var
from .function import Function
from .node import Expr, FieldKind, IRNode, Stmt
from .scope import RuntimeScopeStmt
from .span import AMBIENT_SPAN, Span
from .stmt import AssignStmt, ForStmt, IfStmt, SeqStmts, WhileStmt, YieldStmt, _splice
from .visitor import IRMutator
# PyPTO's ir.utils also holds op-building helpers; they live in op_helpers.py.
from .op_helpers import (CAST_MODE_NAMES, DataType, caller_warning_stacklevel,  # noqa: F401
                         has_partial_valid_region, resolve_cast_mode)

__all__ = ["flatten_to_stmts", "collect_def_vars", "find_yield_stmt", "get_last_yield_stmt",
           "substitute_expr", "substitute_stmt", "deep_clone", "child_stmts", "CAST_MODE_NAMES",
           "resolve_cast_mode", "has_partial_valid_region", "use_parser_span"]

_DEF = FieldKind.DEF

Pairs = Union[Mapping[Expr, Expr], Iterable[tuple[Expr, Expr]]]


def flatten_to_stmts(stmt: Stmt | None) -> list[Stmt]:
    """``stmt`` as a list with every (nested) ``SeqStmts`` spliced; ``None`` gives ``[]``."""
    if stmt is None:
        return []
    if not isinstance(stmt, Stmt):
        raise TypeError(f"flatten_to_stmts expects a Stmt, got {type(stmt).__name__}")
    out: list[Stmt] = []
    _splice((stmt,), out)
    return out


def child_stmts(node: IRNode) -> list[Stmt]:
    """The statements directly held by ``node`` (bodies and branches), in field order."""
    from .walk import stmt_children
    return stmt_children(node) if isinstance(node, Stmt) else []


def collect_def_vars(stmt: Stmt | Function) -> list[Var]:
    """Vars introduced by definition fields in ``stmt`` (a Stmt or a Function), in pre-order.

    Pre-order follows each class's field order (``ForStmt``: loop var, iter_args, the
    body's definitions, return vars).  A Var defined twice (non-SSA IR) is listed once,
    at its first definition.
    """
    node = stmt
    if not isinstance(node, (Stmt, Function)):
        raise TypeError(f"collect_def_vars expects a Stmt or Function, got {type(node).__name__}")
    out: list[Var] = []
    seen: set[Var] = set()
    stack: list[Any] = [node]  # items: a node to expand, or a Var to emit
    while stack:
        item = stack.pop()
        if isinstance(item, Var):
            if item not in seen:
                seen.add(item)
                out.append(item)
            continue
        pending: list[Any] = []
        for name, kind in type(item)._fields:
            value = getattr(item, name)
            if kind is _DEF:
                pending.extend(value if isinstance(value, tuple) else (value,))
            elif isinstance(value, Stmt):
                pending.append(value)
            elif isinstance(value, tuple):
                pending.extend(v for v in value if isinstance(v, Stmt))
        stack.extend(reversed(pending))
    return out


def _trailing_stmts(body: Stmt) -> list[Stmt]:
    """``body``'s statements with SeqStmts and runtime scopes opened (both are transparent
    when looking for the yield that ends a body, 03-passes.md §4)."""
    out = flatten_to_stmts(body)
    while out and isinstance(out[-1], RuntimeScopeStmt):
        out[-1:] = flatten_to_stmts(out[-1].body)
    return out


def find_yield_stmt(body: Stmt | None) -> YieldStmt | None:
    """The first ``YieldStmt`` that belongs to ``body`` (not to a nested if/loop), or None.

    Looks through SeqStmts and runtime scopes only.  Differs from
    ``get_last_yield_stmt`` when a yield is misplaced (not last), which is what
    verifiers need to detect.
    """
    stack = [body] if body is not None else []
    while stack:
        stmt = stack.pop()
        if isinstance(stmt, YieldStmt):
            return stmt
        if isinstance(stmt, SeqStmts):
            stack.extend(reversed(stmt.stmts))
        elif isinstance(stmt, RuntimeScopeStmt):
            stack.append(stmt.body)
    return None


def get_last_yield_stmt(body: Stmt | None) -> YieldStmt | None:
    """The ``YieldStmt`` that ends ``body`` (its last statement, looking through SeqStmts
    and runtime scopes), or None."""
    if body is None:
        return None
    stmts = _trailing_stmts(body)
    last = stmts[-1] if stmts else None
    return last if isinstance(last, YieldStmt) else None


# -- substitution ---------------------------------------------------------------------

def _pair_table(pairs: Pairs, owner: str) -> dict[Expr, Expr]:
    items = pairs.items() if isinstance(pairs, Mapping) else pairs
    table: dict[Expr, Expr] = {}
    for i, pair in enumerate(items):
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise TypeError(f"{owner}: pairs[{i}] must be an (old, new) pair")
        old, new = pair
        if not isinstance(old, Expr) or not isinstance(new, Expr):
            raise TypeError(f"{owner}: pairs[{i}] must map an Expr to an Expr, got "
                            f"({type(old).__name__}, {type(new).__name__})")
        table[old] = new  # keyed by identity (Expr hashes by identity)
    return table


class _Substituter(IRMutator):
    """Replaces every occurrence (by identity) of a table key, uses and definitions alike."""

    def __init__(self, table: dict[Expr, Expr]) -> None:
        super().__init__()
        self._table = table

    def visit_expr(self, op: Expr) -> Expr:
        found = self._table.get(op)
        if found is not None:
            return found
        return super().visit_expr(op)


def substitute_expr(expr: Expr, var_map: Pairs) -> Expr:
    """``expr`` with each ``old`` (matched by identity) replaced by ``new``.

    ``var_map`` is a mapping or a list of ``(old, new)``; replacement is simultaneous
    (a ``new`` is not substituted again).  Vars whose type mentions a replaced dim
    are re-minted (02-ir.md §15.3).  Unchanged subtrees are returned as is.
    """
    if not isinstance(expr, Expr):
        raise TypeError(f"substitute_expr expects an Expr, got {type(expr).__name__}")
    return _Substituter(_pair_table(var_map, "substitute_expr"))(expr)


def substitute_stmt(body: Stmt, var_map: Pairs) -> Stmt:
    """``body`` with each ``old`` replaced by ``new`` (see ``substitute_expr``).

    Definition sites are replaced too, so a Var that is defined in ``body`` must map
    to a Var (``TypeError`` naming the field otherwise).
    """
    if not isinstance(body, Stmt):
        raise TypeError(f"substitute_stmt expects a Stmt, got {type(body).__name__}")
    return _Substituter(_pair_table(var_map, "substitute_stmt"))(body)


# -- cloning --------------------------------------------------------------------------

class _Cloner(IRMutator):
    """Copies every node; definition Vars are re-minted at their (first) definition site.

    Uses before that site keep the incoming binding (``var_map`` or the Var itself),
    so a parameter that the cloned body reassigns still reads the argument first.
    """

    def __init__(self, var_map: dict[Expr, Expr], name_of: Callable[[Var], str] | None) -> None:
        super().__init__()
        self.var_remap.update(var_map)  # type: ignore[arg-type]
        self.def_map: dict[Var, Var] = {}
        self._name_of = name_of

    def define(self, var: Var) -> Var:
        fresh = self.def_map.get(var)
        if fresh is None:
            name = self._name_of(var) if self._name_of else var.name_hint
            new_type = self.visit_type(var.type)
            if isinstance(var, IterArg):
                init = self.visit_expr(var.initValue)
                fresh = IterArg(name, new_type, init, var.span)
            else:
                fresh = Var(name, new_type, var.span)
            self.def_map[var] = fresh
            self.var_remap[var] = fresh
        return fresh

    def _defines(self, old: tuple) -> tuple:
        return tuple([self.define(v) for v in old])

    # Free Vars stay themselves (unless remapped or their type changes); nothing else is shared.
    def visit_expr(self, op: Expr) -> Expr:
        new = super().visit_expr(op)
        if new is op and not isinstance(op, Var):
            new = op.replace()
        return new

    def visit_stmt(self, op: Stmt) -> Stmt:
        new = super().visit_stmt(op)
        return op.replace() if new is op else new

    def visit_iter_arg(self, op: IterArg) -> Expr:
        # A free IterArg (its loop is outside the clone) is a plain use: its init
        # belongs to the loop header, which is not being cloned.
        return self.visit_var(op)

    def visit_function(self, op: Function) -> Function:
        params = self._defines(op.params)
        return_types = tuple([self.visit_type(t) for t in op.return_types])
        body = self.visit_stmt(op.body)
        attrs = self._mutate_attrs(op._attrs)
        return op.replace(params=params, return_types=return_types, body=body, _attrs=attrs)

    def visit_assign_stmt(self, op: AssignStmt) -> AssignStmt:
        value = self.visit_expr(op.value)
        return op.replace(var=self.define(op.var), value=value)

    def visit_for_stmt(self, op: ForStmt) -> ForStmt:
        start, stop, step = (self.visit_expr(op.start), self.visit_expr(op.stop),
                             self.visit_expr(op.step))
        loop_var = self.define(op.loop_var)
        iter_args = self._defines(op.iter_args)
        body = self.visit_stmt(op.body)
        return op.replace(loop_var=loop_var, start=start, stop=stop, step=step,
                          iter_args=iter_args, body=body,
                          return_vars=self._defines(op.return_vars))

    def visit_while_stmt(self, op: WhileStmt) -> WhileStmt:
        iter_args = self._defines(op.iter_args)
        condition = self.visit_expr(op.condition)
        body = self.visit_stmt(op.body)
        return op.replace(condition=condition, iter_args=iter_args, body=body,
                          return_vars=self._defines(op.return_vars))

    def visit_if_stmt(self, op: IfStmt) -> IfStmt:
        condition = self.visit_expr(op.condition)
        then_body = self.visit_stmt(op.then_body)
        else_body = None if op.else_body is None else self.visit_stmt(op.else_body)
        return op.replace(condition=condition, then_body=then_body, else_body=else_body,
                          return_vars=self._defines(op.return_vars))


def deep_clone(body: Stmt | Expr | Function, var_map: Pairs | None = [], *,  # noqa: B006
               name_of: Callable[[Var], str] | None = None) -> tuple[Any, dict[Var, Var]]:
    """A copy of ``body`` sharing no Stmt/Expr object with it, and the def-var map.

    * Every Var defined in ``body`` (definition fields; Function params) gets one
      fresh Var of the same name (or ``name_of(old)``); IterArgs are re-minted with
      their cloned inits.  The returned ``def_var_map`` maps old -> fresh.
    * ``var_map`` (mapping or ``(old, new)`` pairs) replaces the remaining uses, e.g.
      callee params -> argument expressions when inlining; its values are inserted
      as given, not copied.
    * Free Vars stay the same objects (they refer to the enclosing scope).
    """
    if not isinstance(body, (Stmt, Expr, Function)):
        raise TypeError(f"deep_clone expects a Stmt, Expr or Function, got "
                        f"{type(body).__name__}")
    # The ``[]`` default is PyPTO's spelling; it is only read, never changed.
    table = _pair_table(var_map, "deep_clone") if var_map is not None else {}
    cloner = _Cloner(table, name_of)
    return cloner(body), cloner.def_map


@contextmanager
def use_parser_span(span: Span) -> Iterator[None]:
    """Within the block, op calls built without a ``span`` (``ir.op.tensor.add(a, b)``,
    ``pl.add`` outside a parse, ``ir.create_op_call``) get ``span``: code a DSL call
    runs at Python level (``invoke_dsl``) then points at the call site.  Blocks nest;
    the setting is local to the thread."""
    if not isinstance(span, Span):
        raise TypeError(f"use_parser_span expects an ir.Span, got {type(span).__name__}")
    token = AMBIENT_SPAN.set(span)
    try:
        yield
    finally:
        AMBIENT_SPAN.reset(token)
