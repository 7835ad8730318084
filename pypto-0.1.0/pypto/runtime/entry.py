"""Choosing the function ``pypto.run`` starts from.

With ``entry=None``: the program's single Orchestration function; else the single
function no other function calls; else the caller must say (``ValueError`` listing
the candidates).
"""

from __future__ import annotations

from ..ir.enums import FunctionType
from ..ir.function import Function, Program
from ..ir.node import GlobalVar
from ..ir.walk import iter_calls

__all__ = ["select_entry"]


def _called_by_others(program: Program) -> set[str]:
    called: set[str] = set()
    for name, func in program._functions.items():
        for call, _ in iter_calls(func.body):
            if isinstance(call.op, GlobalVar) and call.op.name != name:
                called.add(call.op.name)
    return called


def _names(functions: list[str]) -> str:
    return ", ".join(repr(name) for name in functions)


def select_entry(program: Program, entry: str | Function | None) -> str:
    functions = program._functions
    label = f"program '{program.name}'" if program.name else "the program"
    if entry is not None:
        name = entry.name if isinstance(entry, Function) else entry
        if not isinstance(name, str):
            raise TypeError(f"entry= expects a function name or an ir.Function, got "
                            f"{type(entry).__name__}")
        if name not in functions:
            raise ValueError(f"entry '{name}' is not a function of {label}; its functions are "
                             f"{_names(list(functions))}")
        return name
    orchestration = [n for n, f in functions.items()
                     if f.func_type is FunctionType.Orchestration]
    if len(orchestration) == 1:
        return orchestration[0]
    called = _called_by_others(program)
    roots = [n for n in functions if n not in called]
    if len(roots) == 1:
        return roots[0]
    if len(orchestration) > 1:
        why, candidates = "it has several Orchestration functions", orchestration
    elif roots:
        why, candidates = "several functions are not called by any other", roots
    else:
        why, candidates = "every function is called by another", list(functions)
    raise ValueError(f"pypto.run cannot choose an entry for {label}: {why}; pass "
                     f"entry= one of {_names(candidates)}")
