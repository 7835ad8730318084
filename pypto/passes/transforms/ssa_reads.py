"""Read rewriting for ConvertToSSA: every Var an expression (or a type) reads is
replaced by its current version, and that version is recorded as read by real code.

The result is exactly ``IRMutator``'s copy-on-write rebuild with ``visit_var``
overridden; the common node kinds (Vars, constants, calls, scalar operators,
tuples) are rewritten here by exact class, since a generic mutator's hook lookup,
per-node type visit and attr scan dominated the pass.  Any other kind (``Submit``,
subclasses) goes through the mutator, whose Var hooks lead back to the same
``current`` lookup, so both paths agree node for node.
"""

from __future__ import annotations

from operator import is_
from typing import Any, Callable

from ...ir import expr as E
from ...ir.node import Expr
from ...ir.types import Type
from ...ir.visitor import IRMutator, is_static_type, map_attrs

__all__ = ["ReadRewriter"]


class _Substituter(IRMutator):
    """The general path: an IRMutator whose Var reads become current versions.

    It holds the lookups themselves, not the ``ReadRewriter``: the rewriter holds it,
    and a pointer back would make a reference cycle (freed only by the collector,
    which the command line pauses)."""

    def __init__(self, visible: Callable[[E.Var], E.Var | None],
                 latest: Callable[[E.Var, E.Var], E.Var], root: Callable[[E.Var], None],
                 outside: Callable[[E.Var], None]) -> None:
        super().__init__()
        self._visible, self._latest, self._root = visible, latest, root
        self._outside = outside

    def visit_var(self, op: E.Var) -> Expr:
        version = self._visible(op)
        if version is None:
            version = self._latest(op, op)
            if version is not op:
                self._outside(op)
        self._root(version)
        return version

    visit_iter_arg = visit_var


def _same(new: list | tuple, old: tuple) -> bool:
    if len(new) != len(old):
        return False
    for a, b in zip(new, old):
        if a is not b:
            return False
    return True


_CONSTS = frozenset((E.ConstInt, E.ConstFloat, E.ConstBool))


class ReadRewriter:
    """Rewrites each read of a source Var to its visible version (``visible``), else
    its last version (``latest``: a read outside the scope of its definition, which
    the SSA verifier reports; each such read is passed to ``outside``), else itself
    (free); adds each substitute to ``roots``."""

    def __init__(self, visible: Callable[[E.Var], E.Var | None],
                 latest: dict[E.Var, E.Var], roots: set,
                 outside: Callable[[E.Var], None]) -> None:
        self._visible = visible
        self._latest = latest.get
        self._root = roots.add
        self._outside = outside
        self._general = _Substituter(visible, self._latest, self._root, outside)

    def expr(self, op: Expr) -> Expr:
        cls = type(op)
        if cls is E.Var or cls is E.IterArg:  # the commonest node (no ``cast``: a call)
            var: Any = op
            version = self._visible(var)
            if version is None:
                version = self._latest(var, var)
                if version is not var:
                    self._outside(var)
            self._root(version)
            return version
        if cls is E.Call:
            return self._call(op)  # type: ignore[arg-type]
        if cls in _CONSTS:
            return op
        handler = _HANDLERS.get(cls)
        if handler is None:
            return self._general.visit_expr(op)
        return handler(self, op)

    def type(self, t: Type) -> Type:
        return t if is_static_type(t) else self._general.visit_type(t)

    def attrs(self, attrs: dict) -> dict:
        """``attrs`` with the expressions in it rewritten (the same dict if none changed)."""
        for value in attrs.values():
            if isinstance(value, (Expr, list, tuple)):
                return map_attrs(attrs, self.expr)
        return attrs  # plain values only (the usual case)

    # -- node kinds (the same rebuilds as IRMutator's) ----------------------------------
    def _call(self, op: E.Call) -> Expr:
        args = tuple(self._rewrite_all(op.args))
        attrs = self.attrs(op._attrs) if op._attrs else op._attrs
        t = op.type
        new_type = t if is_static_type(t) else self._general.visit_type(t)
        if new_type is t and attrs is op._attrs and all(map(is_, args, op.args)):
            return op
        return op.replace(args=args, _attrs=attrs, type=new_type)

    def _binary(self, op: E.BinaryExpr) -> Expr:
        left = self.expr(op.left)
        right = self.expr(op.right)
        if left is op.left and right is op.right:
            return op
        return op.replace(left=left, right=right)

    def _unary(self, op: E.UnaryExpr) -> Expr:
        operand = self.expr(op.operand)
        if operand is op.operand:
            return op
        return op.replace(operand=operand)

    def _make_tuple(self, op: E.MakeTuple) -> Expr:
        elements = self._rewrite_all(op.elements)
        if elements is op.elements or _same(elements, op.elements):
            return op
        return E.MakeTuple(tuple(elements), op.span)

    def _rewrite_all(self, items: tuple) -> list | tuple:
        """``[self.expr(e) for e in items]`` with Vars and constants handled inline (call
        arguments and tuple elements are nearly always those); ``items`` itself when
        it holds only constants."""
        consts = _CONSTS
        for item in items:
            if type(item) not in consts:
                break
        else:
            return items
        visible, latest, root, expr = self._visible, self._latest, self._root, self.expr
        out = []
        for item in items:
            cls = type(item)
            if cls is E.Var or cls is E.IterArg:
                version = visible(item)
                if version is None:
                    version = latest(item, item)
                    if version is not item:
                        self._outside(item)
                root(version)
                out.append(version)
            elif cls in consts:
                out.append(item)
            else:
                out.append(expr(item))
        return out

    def _tuple_get_item(self, op: E.TupleGetItemExpr) -> Expr:
        tup = self.expr(op.tuple)
        if tup is op.tuple:
            return op
        return E.TupleGetItemExpr(tup, op.index, op.span)


# Keyed by exact class, each handler taking the class it is stored under.  On the
# class, not the rewriter: a table of bound methods would be a reference cycle.
_HANDLERS: dict[type, Callable[[ReadRewriter, Any], Expr]] = {
    E.Call: ReadRewriter._call, E.MakeTuple: ReadRewriter._make_tuple,
    E.TupleGetItemExpr: ReadRewriter._tuple_get_item,
    **{cls: ReadRewriter._binary for cls in E.BINARY_CLASSES},
    **{cls: ReadRewriter._unary for cls in E.UNARY_CLASSES}}
