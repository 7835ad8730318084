"""CanonicalizeIOOrder: the parameters of every kernel (InCore, AIC, AIV functions) the
program calls are put in the order inputs, then in/outs, then outputs -- ``In`` (scalars
and tensors), ``InOut``, ``Out`` -- keeping the written order within each group, and every
call and ``pl.submit`` of it passes its arguments (and their recorded directions) in the
new order (docs/guide/passes.md, "CanonicalizeIOOrder").

Functions nothing in the program calls keep their signature: a user (or the runtime)
calls them with arguments in the written order.
"""

from __future__ import annotations

from typing import Any

from ...ir.enums import ParamDirection
from ...ir.function import Function, Program, is_incore_type
from ...ir.node import Expr
from .call_sites import FunctionCallRewriter, callers, map_functions

__all__ = ["transform", "canonical_order"]

_RANK = {ParamDirection.In: 0, ParamDirection.InOut: 1, ParamDirection.Out: 2}


def canonical_order(func: Function) -> list[int]:
    """The parameter positions of ``func`` in canonical order."""
    return sorted(range(len(func.params)), key=lambda i: (_RANK[func.param_directions[i]], i))


class _Reorder(FunctionCallRewriter):
    def __init__(self, orders: dict[str, list[int]]) -> None:
        super().__init__()
        self._orders = orders

    def rewrite_call(self, call: Any) -> Expr:
        order = self._orders.get(call.op.name)
        if order is None or len(order) != len(call.args):
            return call
        changes: dict[str, Any] = {"args": tuple(call.args[i] for i in order)}
        directions = call._attrs.get("arg_directions")
        if directions:
            attrs = dict(call._attrs)
            attrs["arg_directions"] = [directions[i] for i in order]
            changes["_attrs"] = attrs
        return call.replace(**changes)


def transform(program: Program) -> Program:
    calls = callers(program)
    orders: dict[str, list[int]] = {}
    for func in program.functions.values():
        if not is_incore_type(func.func_type) or not calls.get(func.name):
            continue
        order = canonical_order(func)
        if order != list(range(len(order))):
            orders[func.name] = order
    if not orders:
        return program
    rewriter = _Reorder(orders)

    def rewrite(func: Function) -> Function:
        func = rewriter.visit_function(func)
        new_order = orders.get(func.name)
        if new_order is None:
            return func
        params = [(func.params[i], func.param_directions[i]) for i in new_order]
        return Function(func.name, params, func.return_types, func.body, func.span,
                        type=func.func_type, level=func.level, role=func.role,
                        attrs=func._attrs, requires_runtime_binding=func.requires_runtime_binding)
    return map_functions(program, rewrite)
