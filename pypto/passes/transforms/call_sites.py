"""Who calls whom, for passes that change a function's signature and must rewrite every
call of it (CanonicalizeIOOrder, NormalizeReturnOrder)."""

from __future__ import annotations

from ...ir import expr as E
from ...ir.function import Function, Program
from ...ir.node import GlobalVar
from ...ir.walk import iter_calls

__all__ = ["callers", "called_functions", "is_rewritable_callee"]


def callers(program: Program) -> dict[str, list[E.Call | E.Submit]]:
    """Per function name, every Call / Submit of it anywhere in the program."""
    out: dict[str, list[E.Call | E.Submit]] = {}
    for func in program.functions.values():
        for call, _ in iter_calls(func.body):
            if isinstance(call.op, GlobalVar):
                out.setdefault(call.op.name, []).append(call)
    return out


def called_functions(program: Program) -> set[str]:
    return set(callers(program))


def is_rewritable_callee(func: Function, calls: dict[str, list[E.Call | E.Submit]]) -> bool:
    """A function whose signature may change: the program itself calls it (so every
    caller is rewritten with it), and it is not an entry a user calls from outside."""
    return bool(calls.get(func.name))
