"""Calls of program functions, for the passes that rewrite them: who calls whom, a
mutator hook seeing every such call once its operands are rewritten, and a program
rebuilt function by function."""

from __future__ import annotations

from typing import Any, Callable

from ...ir import expr as E
from ...ir.function import Function, Program
from ...ir.node import Expr, GlobalVar
from ...ir.visitor import IRMutator
from ...ir.walk import iter_calls

__all__ = ["callers", "FunctionCallRewriter", "map_functions"]


def callers(program: Program) -> dict[str, list[E.Call | E.Submit]]:
    """Per function name, every Call / Submit of it anywhere in the program."""
    out: dict[str, list[E.Call | E.Submit]] = {}
    for func in program.functions.values():
        for call, _ in iter_calls(func.body):
            if isinstance(call.op, GlobalVar):
                out.setdefault(call.op.name, []).append(call)
    return out


class FunctionCallRewriter(IRMutator):
    """``rewrite_call`` sees every Call and ``pl.submit`` of a program function (after its
    operands were mutated) and returns its replacement."""

    def rewrite_call(self, call: Any) -> Expr:
        return call

    def visit_call(self, op: E.Call) -> Expr:
        return self._rewritten(super().visit_call(op))

    def visit_submit(self, op: E.Submit) -> Expr:
        return self._rewritten(super().visit_submit(op))

    def _rewritten(self, call: Expr) -> Expr:
        if isinstance(call, (E.Call, E.Submit)) and isinstance(call.op, GlobalVar):
            return self.rewrite_call(call)
        return call


def map_functions(program: Program, rewrite: Callable[[Function], Function]) -> Program:
    """``program`` with ``rewrite`` applied to each function; itself if none changed."""
    old = list(program.functions.values())
    new = [rewrite(func) for func in old]
    if all(a is b for a, b in zip(new, old)):
        return program
    return program.with_functions(new)
