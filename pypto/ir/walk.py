"""IR walking vocabulary: expression children, Var uses, statement and call
iteration, trailing yields, definition sites.

Every walk here is iterative, so deep expression trees and 500-deep statement
nesting never recurse.  Verifiers and passes share these definitions.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

from . import expr as E
from . import scope as S
from . import stmt as St
from .function import Function
from .node import Expr, Stmt
from .types import ShapedType, TupleType, Type

__all__ = ["attr_exprs", "expr_children", "iter_var_uses", "type_vars", "trailing_yield", "iter_stmts", "stmt_exprs", "iter_exprs", "iter_calls", "def_sites", "collect_definitions", "stmt_children"]


def attr_exprs(attrs: dict) -> list[Expr]:
    """Expr values of an attrs dict (directly or inside a list/tuple), in order."""
    out: list[Expr] = []
    for value in attrs.values():
        if isinstance(value, Expr):
            out.append(value)
        elif isinstance(value, (list, tuple)):
            out.extend(item for item in value if isinstance(item, Expr))
    return out


def _call_children(expr: E.Call) -> list[Expr]:
    attrs = expr._attrs
    return [*expr.args, *attr_exprs(attrs)] if attrs else list(expr.args)


def _submit_children(expr: E.Submit) -> list[Expr]:
    out = [*expr.args, *expr.deps]
    if expr.core_num is not None:
        out.append(expr.core_num)
    if expr.predicate is not None:
        out.append(expr.predicate)
    return out + attr_exprs(expr._attrs)


def _no_children(expr: Expr) -> list[Expr]:
    return []


# Exact-type dispatch: these walks run over every node of every pass, and one dict
# lookup beats a chain of isinstance tests.
_EXPR_CHILDREN: dict[type, Callable[[Any], list[Expr]]] = {
    E.Call: _call_children,
    E.Submit: _submit_children,
    E.MakeTuple: lambda e: list(e.elements),
    E.TupleGetItemExpr: lambda e: [e.tuple],
    E.Var: _no_children, E.IterArg: _no_children, E.ConstInt: _no_children,
    E.ConstFloat: _no_children, E.ConstBool: _no_children,
    **{cls: (lambda e: [e.left, e.right]) for cls in E.BINARY_CLASSES},
    **{cls: (lambda e: [e.operand]) for cls in E.UNARY_CLASSES},
}


def expr_children(expr: Expr) -> list[Expr]:
    """Operand expressions of ``expr`` in evaluation order (Vars have none)."""
    handler = _EXPR_CHILDREN.get(type(expr))
    if handler is not None:
        return handler(expr)
    for cls in type(expr).__mro__[1:]:  # a subclass of a known node kind
        handler = _EXPR_CHILDREN.get(cls)
        if handler is not None:
            _EXPR_CHILDREN[type(expr)] = handler
            return handler(expr)
    return []


_VAR_TYPES = (E.Var, E.IterArg)


def iter_var_uses(expr: Expr) -> Iterator[E.Var]:
    """Every Var (or IterArg) referenced by ``expr``, in evaluation order.

    An IterArg's ``initValue`` is not a use at the IterArg's use site.
    """
    if type(expr) in _VAR_TYPES:
        yield expr  # type: ignore[misc]
        return
    stack = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, E.Var):
            yield node
            continue
        children = expr_children(node)
        if children:
            children.reverse()
            stack.extend(children)


def type_vars(t: Type) -> list[E.Var]:
    """Vars inside a type (dynamic dims of shaped types, through tuples)."""
    out: list[E.Var] = []
    stack = [t]
    while stack:
        item = stack.pop()
        if isinstance(item, ShapedType):
            for dim in item.shape:
                out.extend(iter_var_uses(dim))
        elif isinstance(item, TupleType):
            stack.extend(reversed(item.types))
    return out


def trailing_yield(body: Stmt | None) -> St.YieldStmt | None:
    """The yield ending ``body``; Runtime scopes are transparent."""
    node = body
    while node is not None:
        if isinstance(node, St.YieldStmt):
            return node
        if isinstance(node, St.SeqStmts):
            node = node.stmts[-1] if node.stmts else None
        elif isinstance(node, S.RuntimeScopeStmt):
            node = node.body
        else:
            return None
    return None


def iter_stmts(body: Stmt) -> Iterator[Stmt]:
    """Every statement of ``body`` in pre-order (iterative)."""
    stack = [body]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, St.SeqStmts):
            stack.extend(reversed(node.stmts))
        elif isinstance(node, St.IfStmt):
            if node.else_body is not None:
                stack.append(node.else_body)
            stack.append(node.then_body)
        elif isinstance(node, (St.ForStmt, St.WhileStmt, S.ScopeStmt)):
            stack.append(node.body)


def stmt_exprs(stmt: Stmt) -> list[Expr]:
    """The expressions a statement itself evaluates (not those of nested bodies)."""
    if isinstance(stmt, St.AssignStmt):
        return [stmt.value]
    if isinstance(stmt, St.EvalStmt):
        return [stmt.expr]
    if isinstance(stmt, (St.ReturnStmt, St.YieldStmt)):
        return list(stmt.value)
    if isinstance(stmt, St.IfStmt):
        return [stmt.condition]
    if isinstance(stmt, St.ForStmt):
        return [stmt.start, stmt.stop, stmt.step, *(a.initValue for a in stmt.iter_args)]
    if isinstance(stmt, St.WhileStmt):
        return [*(a.initValue for a in stmt.iter_args), stmt.condition]
    if isinstance(stmt, S.SpmdScopeStmt):
        return [stmt.core_num, *attr_exprs(stmt._attrs)]
    if isinstance(stmt, S.ScopeStmt):
        return attr_exprs(stmt._attrs)
    return []


def iter_exprs(expr: Expr) -> Iterator[Expr]:
    """``expr`` and all its sub-expressions in pre-order (iterative)."""
    stack = [expr]
    while stack:
        node = stack.pop()
        yield node
        children = expr_children(node)
        children.reverse()
        stack.extend(children)


def iter_calls(body: Stmt) -> Iterator[tuple[Expr, Stmt]]:
    """Every Call / Submit under ``body`` with its statement, in walk order."""
    for stmt in iter_stmts(body):
        for root in stmt_exprs(stmt):
            for node in iter_exprs(root):
                if isinstance(node, (E.Call, E.Submit)):
                    yield node, stmt


def def_sites(stmt: Stmt) -> list[E.Var]:
    """Vars a statement defines itself (definition fields)."""
    if isinstance(stmt, St.AssignStmt):
        return [stmt.var]
    if isinstance(stmt, St.ForStmt):
        return [stmt.loop_var, *stmt.iter_args, *stmt.return_vars]
    if isinstance(stmt, St.WhileStmt):
        return [*stmt.iter_args, *stmt.return_vars]
    if isinstance(stmt, St.IfStmt):
        return list(stmt.return_vars)
    return []


def collect_definitions(func: Function) -> set[E.Var]:
    """Params plus every Var at a definition site of ``func``'s body."""
    defined: set[E.Var] = set(func.params)
    for stmt in iter_stmts(func.body):
        defined.update(def_sites(stmt))
    return defined


def stmt_children(stmt: Stmt) -> list[Stmt]:
    """The statements directly held by ``stmt`` (bodies and branches), in field order."""
    if isinstance(stmt, St.SeqStmts):
        return list(stmt.stmts)
    if isinstance(stmt, St.IfStmt):
        return [stmt.then_body] if stmt.else_body is None else [stmt.then_body, stmt.else_body]
    if isinstance(stmt, (St.ForStmt, St.WhileStmt, S.ScopeStmt)):
        return [stmt.body]
    return []
