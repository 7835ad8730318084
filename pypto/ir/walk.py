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
from .types import ScalarType, ShapedType, TupleType, Type

__all__ = ["attr_exprs", "expr_children", "iter_var_uses", "type_vars", "trailing_yield", "iter_stmts", "stmt_exprs", "iter_exprs", "iter_calls", "def_sites", "collect_definitions", "stmt_children", "var_uses", "calls_in", "CONST_TYPES", "LEAF_TYPES",
           "leaf_call_reads", "arith_leaves", "StmtShape", "stmt_shape"]


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
    if handler is None:  # a subclass of a known node kind
        handler = _lookup_mro(_EXPR_CHILDREN, type(expr), _no_children)
    return handler(expr)


_VAR_TYPES = (E.Var, E.IterArg)
CONST_TYPES = (E.ConstInt, E.ConstFloat, E.ConstBool)
# The expressions with no operands: what three-address form puts in call arguments.
LEAF_TYPES = frozenset((*_VAR_TYPES, *CONST_TYPES))


def var_uses(expr: Expr) -> list[E.Var]:
    """Every Var (or IterArg) referenced by ``expr``, in evaluation order, as a list
    (a sub-expression shared by hand-built IR is walked once: linear in distinct nodes).

    The hottest walk of the compiler (every pass and verifier asks it), so the
    common node kinds are tested by exact class before the general dispatch.
    An IterArg's ``initValue`` is not a use at the IterArg's use site.
    """
    cls = type(expr)
    if cls is E.Var or cls is E.IterArg:
        return [expr]  # type: ignore[list-item]
    out: list[E.Var] = []
    stack = [expr]
    pop, push, found = stack.pop, stack.extend, out.append
    seen: set[int] | None = None  # composite nodes below the root, once each (DAGs)
    while stack:
        node = pop()
        cls = type(node)
        if cls is E.Var or cls is E.IterArg:
            found(node)  # type: ignore[arg-type]
            continue
        elif cls is E.ConstInt:
            continue
        if node is not expr:
            if seen is None:
                seen = set()
            elif id(node) in seen:
                continue
            seen.add(id(node))
        if cls is E.Call:
            if node._attrs:  # type: ignore[attr-defined]
                push(reversed(_call_children(node)))  # type: ignore[arg-type]
            else:
                push(reversed(node.args))  # type: ignore[attr-defined]
        elif cls is E.MakeTuple:
            push(reversed(node.elements))  # type: ignore[attr-defined]
        elif cls in CONST_TYPES:
            continue
        elif isinstance(node, E.Var):
            found(node)
        else:
            children = expr_children(node)
            if children:
                children.reverse()
                push(children)
    return out


def iter_var_uses(expr: Expr) -> Iterator[E.Var]:
    """Every Var (or IterArg) referenced by ``expr``, in evaluation order.

    An IterArg's ``initValue`` is not a use at the IterArg's use site.
    """
    return iter(var_uses(expr))


def type_vars(t: Type) -> list[E.Var]:
    """Vars inside a type (dynamic dims of shaped types, through tuples)."""
    if type(t) is ScalarType or (isinstance(t, ShapedType) and t.static_shape):
        return []  # nearly every type: nothing to walk
    out: list[E.Var] = []
    stack = [t]
    while stack:
        item = stack.pop()
        if isinstance(item, ShapedType):
            for dim in item.shape:
                out.extend(var_uses(dim))
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


class StmtShape:
    """How a statement class holds nested statements (``stmt_shape``)."""
    LEAF, SEQ, BRANCHES, BODY, LOOP = range(5)  # LOOP: a body that is a for / while


# Exact-type table; a subclass of a known kind is classified on first sight.
_STMT_SHAPE: dict[type, int] = {}


def stmt_shape(cls: type) -> int:
    """The ``StmtShape`` of statement class ``cls``."""
    shape = _STMT_SHAPE.get(cls)
    if shape is None:
        if issubclass(cls, St.SeqStmts):
            shape = StmtShape.SEQ
        elif issubclass(cls, St.IfStmt):
            shape = StmtShape.BRANCHES
        elif issubclass(cls, (St.ForStmt, St.WhileStmt)):
            shape = StmtShape.LOOP
        elif issubclass(cls, S.ScopeStmt):
            shape = StmtShape.BODY
        else:
            shape = StmtShape.LEAF
        _STMT_SHAPE[cls] = shape
    return shape


def iter_stmts(body: Stmt) -> Iterator[Stmt]:
    """Every statement of ``body`` in pre-order (iterative)."""
    shapes = _STMT_SHAPE
    stack = [body]
    while stack:
        node = stack.pop()
        yield node
        shape = shapes.get(type(node))
        if shape is None:
            shape = stmt_shape(type(node))
        if shape == StmtShape.LEAF:
            continue
        if shape == StmtShape.SEQ:
            stack.extend(reversed(node.stmts))  # type: ignore[attr-defined]
        elif shape != StmtShape.BRANCHES:
            stack.append(node.body)  # type: ignore[attr-defined]
        else:
            if node.else_body is not None:  # type: ignore[attr-defined]
                stack.append(node.else_body)  # type: ignore[attr-defined]
            stack.append(node.then_body)  # type: ignore[attr-defined]


def _for_exprs(stmt: St.ForStmt) -> list[Expr]:
    return [stmt.start, stmt.stop, stmt.step, *(a.initValue for a in stmt.iter_args)]


def _while_exprs(stmt: St.WhileStmt) -> list[Expr]:
    return [*(a.initValue for a in stmt.iter_args), stmt.condition]


def _scope_exprs(stmt: S.ScopeStmt) -> list[Expr]:
    return attr_exprs(stmt._attrs) if stmt._attrs else []


def _spmd_exprs(stmt: S.SpmdScopeStmt) -> list[Expr]:
    return [stmt.core_num, *attr_exprs(stmt._attrs)]


# Exact-type table of ``stmt_exprs`` (subclasses resolve through the MRO once).
_STMT_EXPRS: dict[type, Callable[[Any], list[Expr]]] = {
    St.AssignStmt: lambda s: [s.value],
    St.EvalStmt: lambda s: [s.expr],
    St.ReturnStmt: lambda s: list(s.value),
    St.YieldStmt: lambda s: list(s.value),
    St.IfStmt: lambda s: [s.condition],
    St.ForStmt: _for_exprs,
    St.WhileStmt: _while_exprs,
    S.SpmdScopeStmt: _spmd_exprs,
    S.ScopeStmt: _scope_exprs,
    St.SeqStmts: lambda s: [],
}


def stmt_exprs(stmt: Stmt) -> list[Expr]:
    """The expressions a statement itself evaluates (not those of nested bodies)."""
    handler = _STMT_EXPRS.get(type(stmt))
    if handler is None:
        handler = _lookup_mro(_STMT_EXPRS, type(stmt), lambda s: [])
    return handler(stmt)


def _lookup_mro(table: dict[type, Any], cls: type, default: Any) -> Any:
    """The entry of ``cls``'s nearest known base class (cached under ``cls``)."""
    for base in cls.__mro__[1:]:
        if base in table:
            table[cls] = table[base]
            return table[base]
    table[cls] = default
    return default


def leaf_call_reads(call: E.Call) -> list[E.Var] | None:
    """The Vars ``call`` reads, in order, when every argument is a leaf or a tuple of
    leaves (three-address form); ``None`` when an argument holds a deeper expression."""
    reads: list[E.Var] = []
    for arg in call.args:
        cls = type(arg)
        if cls is E.Var or cls is E.IterArg:
            reads.append(arg)  # type: ignore[arg-type]
        elif cls is E.MakeTuple:
            for item in arg.elements:  # type: ignore[attr-defined]
                kind = type(item)
                if kind is E.Var or kind is E.IterArg:
                    reads.append(item)
                elif kind not in CONST_TYPES:
                    return None
        elif cls not in CONST_TYPES:
            return None
    return reads


def arith_leaves(expr: Expr) -> list[E.Var] | None:
    """The Vars of ``expr`` when it is scalar arithmetic -- Vars and constants under
    binary / unary operators only -- else ``None``."""
    leaves: list[E.Var] = []
    stack = [expr]
    seen: set[int] = set()  # an operator node shared by hand-built IR: once
    while stack:
        node = stack.pop()
        if isinstance(node, E.Var):
            leaves.append(node)
        elif isinstance(node, (E.BinaryExpr, E.UnaryExpr)):
            if id(node) not in seen:
                seen.add(id(node))
                stack.extend(expr_children(node))
        elif not isinstance(node, CONST_TYPES):
            return None
    return leaves


def iter_exprs(expr: Expr) -> Iterator[Expr]:
    """``expr`` and all its sub-expressions in pre-order (iterative); a sub-expression
    shared by hand-built IR (a DAG) is yielded, and walked, once."""
    stack = [expr]
    seen: set[int] = set()
    while stack:
        node = stack.pop()
        children = expr_children(node)
        if children:
            if id(node) in seen:
                continue
            seen.add(id(node))
            children.reverse()
            stack.extend(children)
        yield node


_CALL_TYPES = (E.Call, E.Submit)


def calls_in(expr: Expr) -> list[E.Call | E.Submit]:
    """Every Call / Submit inside ``expr`` (itself included), in pre-order; one shared
    by several operands (hand-built IR) is listed once."""
    out: list[E.Call | E.Submit] = []
    stack = [expr]
    seen: set[int] = set()  # a sub-expression shared by hand-built IR: once
    while stack:
        node = stack.pop()
        cls = type(node)
        if cls is E.Var or cls in CONST_TYPES:
            continue  # the common leaves
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, _CALL_TYPES):
            out.append(node)
        children = expr_children(node)
        if children:
            children.reverse()
            stack.extend(children)
    return out


def iter_calls(body: Stmt) -> Iterator[tuple[E.Call | E.Submit, Stmt]]:
    """Every Call / Submit under ``body`` with its statement, in walk order."""
    for stmt in iter_stmts(body):
        for root in stmt_exprs(stmt):
            for call in calls_in(root):
                yield call, stmt


_DEF_SITES: dict[type, Callable[[Any], list[E.Var]]] = {
    St.AssignStmt: lambda s: [s.var],
    St.ForStmt: lambda s: [s.loop_var, *s.iter_args, *s.return_vars],
    St.WhileStmt: lambda s: [*s.iter_args, *s.return_vars],
    St.IfStmt: lambda s: list(s.return_vars),
}


def def_sites(stmt: Stmt) -> list[E.Var]:
    """Vars a statement defines itself (definition fields)."""
    handler = _DEF_SITES.get(type(stmt))
    if handler is None:
        handler = _lookup_mro(_DEF_SITES, type(stmt), lambda s: [])
    return handler(stmt)


def collect_definitions(func: Function) -> set[E.Var]:
    """Params plus every Var at a definition site of ``func``'s body."""
    defined: set[E.Var] = set(func.params)
    for stmt in iter_stmts(func.body):
        defined.update(def_sites(stmt))
    return defined


def stmt_children(stmt: Stmt) -> list[Stmt]:
    """The statements directly held by ``stmt`` (bodies and branches), in field order."""
    shape = stmt_shape(type(stmt))
    if shape == StmtShape.LEAF:
        return []
    if shape == StmtShape.SEQ:
        return list(stmt.stmts)  # type: ignore[attr-defined]
    if shape != StmtShape.BRANCHES:
        return [stmt.body]  # type: ignore[attr-defined]
    else_body = stmt.else_body  # type: ignore[attr-defined]
    return [stmt.then_body] if else_body is None else [stmt.then_body, else_body]  # type: ignore[attr-defined]
