"""NormalizeReturnOrder: a function whose results are its own written parameters returns
them in parameter order (docs/guide/passes.md, "NormalizeReturnOrder").

A function qualifies when every ``return`` gives distinct ``Out`` / ``InOut`` parameters,
all returns the same ones, and the program calls it (a function nothing calls keeps
the order its user reads).  Its results are permuted into parameter order, its return
types with them, and every caller follows: the call's tuple type, and each
``tmp[i]`` read of a call's result tuple.  When some caller uses the result tuple any
other way (passes it on whole, returns it) or launches the function with ``pl.submit``,
the function is left as written.

What it produces is ``ReturnParamsExplicit``: each function returning only written
parameters returns them in parameter order (the InCore outliner already emits its
kernels that way; this pass does it for hand-written ones).
"""

from __future__ import annotations

from typing import Any, Optional

from ...ir import expr as E
from ...ir import stmt as St
from ...ir.enums import ParamDirection
from ...ir.function import Function, Program
from ...ir.node import Expr, GlobalVar, Stmt
from ...ir.types import TupleType
from ...ir.visitor import IRMutator
from ...ir.walk import expr_children, iter_stmts, stmt_exprs
from .call_sites import callers, map_functions

__all__ = ["transform", "returned_param_positions", "needs_reordering"]


def returned_param_positions(func: Function) -> Optional[list[int]]:
    """The parameter positions ``func`` returns, if every return gives the same distinct
    written parameters; else None."""
    found: Optional[list[int]] = None
    position = {p: i for i, p in enumerate(func.params)}
    for stmt in iter_stmts(func.body):
        if not isinstance(stmt, St.ReturnStmt):
            continue
        indices = [position.get(v) if isinstance(v, E.Var) else None for v in stmt.value]
        if not indices or None in indices or len(set(indices)) != len(indices):
            return None
        if any(func.param_directions[i] is ParamDirection.In for i in indices):  # type: ignore[index]
            return None
        if found is not None and found != indices:
            return None
        found = indices  # type: ignore[assignment]
    return found


def _permutation(func: Function) -> Optional[list[int]]:
    """``new[k] = old[perm[k]]``: the result order sorted by parameter position."""
    positions = returned_param_positions(func)
    if positions is None or len(positions) < 2 or positions == sorted(positions):
        return None
    return sorted(range(len(positions)), key=lambda k: positions[k])


def _tuple_uses_ok(program: Program, name: str) -> bool:
    """Every result of a call of ``name`` is read item by item: the call is a statement of
    its own or assigned to ``tmp``, and ``tmp`` (or the call) appears only as ``x[i]``."""
    for func in program.functions.values():
        tuple_vars = {stmt.var for stmt in iter_stmts(func.body)
                      if isinstance(stmt, St.AssignStmt) and _is_call_of(stmt.value, name)}
        for stmt in iter_stmts(func.body):
            whole = stmt.value if isinstance(stmt, St.AssignStmt) else \
                stmt.expr if isinstance(stmt, St.EvalStmt) else None
            for root in stmt_exprs(stmt):
                if not _items_only(root, root is whole, tuple_vars, name):
                    return False
    return True


def _is_call_of(expr: Expr, name: str) -> bool:
    return isinstance(expr, (E.Call, E.Submit)) and isinstance(expr.op, GlobalVar) \
        and expr.op.name == name


def _items_only(expr: Expr, is_whole: bool, tuple_vars: set[E.Var], name: str) -> bool:
    stack: list[tuple[Expr, bool]] = [(expr, is_whole)]
    while stack:
        node, allowed = stack.pop()
        if isinstance(node, E.Var):
            if node in tuple_vars and not allowed:
                return False
            continue
        if _is_call_of(node, name) and (isinstance(node, E.Submit) or not allowed):
            return False
        if isinstance(node, E.TupleGetItemExpr):
            stack.append((node.tuple, True))
            continue
        stack.extend((child, False) for child in expr_children(node))
    return True


class _Callers(IRMutator):
    def __init__(self, perms: dict[str, list[int]]) -> None:
        super().__init__()
        self._perms = perms
        self._tuples: dict[E.Var, list[int]] = {}  # new tuple Var -> its permutation

    def visit_call(self, op: E.Call) -> Expr:
        call = super().visit_call(op)
        perm = self._perms.get(call.op.name) if isinstance(call, E.Call) and \
            isinstance(call.op, GlobalVar) else None
        if perm is None or not isinstance(call.type, TupleType):
            return call
        return call.replace(type=TupleType([call.type.types[k] for k in perm]))

    def visit_assign_stmt(self, op: St.AssignStmt) -> Stmt:
        value = self.visit_expr(op.value)
        perm = _permuted_call(value, self._perms)
        if perm is None:
            var = self.visit_expr(op.var)
            if var is op.var and value is op.value:
                return op
            return St.AssignStmt(var, value, op.span)  # type: ignore[arg-type]  # a Var
        fresh = E.Var(op.var.name_hint, value.type, op.var.span)  # the permuted tuple type
        self.var_remap[op.var] = fresh
        self._tuples[fresh] = perm
        return St.AssignStmt(fresh, value, op.span)

    def visit_tuple_get_item_expr(self, op: E.TupleGetItemExpr) -> Expr:
        source = self.visit_expr(op.tuple)
        perm = self._tuples.get(source) if isinstance(source, E.Var) else \
            _permuted_call(source, self._perms)
        if perm is None:
            return op if source is op.tuple else E.TupleGetItemExpr(source, op.index, op.span)
        return E.TupleGetItemExpr(source, perm.index(op.index), op.span)


def _permuted_call(expr: Any, perms: dict[str, list[int]]) -> Optional[list[int]]:
    if isinstance(expr, E.Call) and isinstance(expr.op, GlobalVar):
        return perms.get(expr.op.name)
    return None


def needs_reordering(program: Program, func: Function) -> Optional[list[int]]:
    """The permutation putting ``func``'s results in parameter order, if it qualifies and
    is not in that order yet (callers are not checked here)."""
    perm = _permutation(func)
    return perm if perm is not None and _tuple_uses_ok(program, func.name) else None


def transform(program: Program) -> Program:
    calls = callers(program)
    perms: dict[str, list[int]] = {}
    for func in program.functions.values():
        if not calls.get(func.name):
            continue
        perm = needs_reordering(program, func)
        if perm is not None:
            perms[func.name] = perm
    if not perms:
        return program
    rewriter = _Callers(perms)

    def rewrite(func: Function) -> Function:
        func = rewriter.visit_function(func)
        perm = perms.get(func.name)
        return func if perm is None else _reorder_returns(func, perm)
    return map_functions(program, rewrite)


class _Returns(IRMutator):
    def __init__(self, perm: list[int]) -> None:
        super().__init__()
        self._perm = perm

    def visit_expr(self, op: Expr) -> Expr:
        return op

    def visit_return_stmt(self, op: St.ReturnStmt) -> Stmt:
        return St.ReturnStmt([op.value[k] for k in self._perm], op.span)


def _reorder_returns(func: Function, perm: list[int]) -> Function:
    body = _Returns(perm).visit_stmt(func.body)
    return func.replace(body=body, return_types=tuple(func.return_types[k] for k in perm))
