"""Running an outliner over a program, and the preconditions every outliner checks."""

from __future__ import annotations

from typing import Callable

from ...ir.function import Function, Program
from ...ir.walk import iter_stmts
from ..diagnostic import PassError, PassErrorCode, errors_of
from ..properties import IRProperty
from ..run_memo import remembered
from .outliner import OutlineConfig, ScopeOutliner

__all__ = ["outline_program", "require_ssa", "find_scopes", "has_scope"]


def find_scopes(func: Function, kind: type) -> list:
    """Every scope of class ``kind`` in ``func`` (one linear scan)."""
    return [stmt for stmt in iter_stmts(func.body) if isinstance(stmt, kind)]


def has_scope(func: Function, kind: type) -> bool:
    """Does ``func`` hold a scope of class ``kind``?

    Answered from the set of statement classes in ``func``, gathered in one walk
    and remembered per function object for the run (``run_memo``): the outliners and
    their checks ask this of every function, and most functions come through a pass
    unchanged (IR is immutable, so the answer for an object never goes stale).
    """
    return any(issubclass(cls, kind) for cls in _statement_classes(func))


def _statement_classes(func: Function) -> frozenset[type]:
    return remembered("statement classes", func, _gather_classes)


def _gather_classes(func: Function) -> frozenset[type]:
    return frozenset(type(stmt) for stmt in iter_stmts(func.body))


def require_ssa(func: Function, pass_name: str, what: str) -> None:
    """A pass that needs SSA form names the function instead of producing nonsense.

    Inside a verifying pipeline that already established SSA form this is skipped:
    the pipeline checked it once after ConvertToSSA, and every later pass keeps it.
    """
    from ..pipeline import pipeline_guarantees
    if pipeline_guarantees(IRProperty.SSAForm):
        return
    from ..run_memo import trusting_marks
    from ..verifier_registry import PropertyVerifierRegistry
    with trusting_marks():  # the pass's own precondition, not an instrument
        diagnostics = errors_of(PropertyVerifierRegistry.verify(
            IRProperty.SSAForm, Program([func], "", func.span)))
    if diagnostics:
        first = diagnostics[0].message.split("\n", 1)[0]
        raise PassError(f"{pass_name} requires SSA form, but function '{func.name}' (which "
                        f"holds {what}) is not in SSA form: {first}", diagnostics[0].span,
                        code=PassErrorCode.OUTLINE_NEEDS_SSA, pass_name=pass_name,
                        hint="Run ConvertToSSA first")


def outline_program(program: Program, config: OutlineConfig,
                    processes: Callable[[Function], bool],
                    finish: Callable[[Function, list[Function]], Function] | None = None,
                    reserved: set[str] | None = None,
                    lookup_program: Program | None = None) -> tuple[Program, list[Function]]:
    """Outline ``config.target`` scopes in every function ``processes`` accepts.

    Functions are visited in name order, so the alphabetically first keeps a
    contested name.  Returns the new program (the input object when nothing was
    outlined) and the functions created.
    """
    outliner = ScopeOutliner(config, lookup_program or program,
                             set(program._functions) if reserved is None else reserved)
    functions: list[Function] = []
    created: list[Function] = []
    for func in program._functions.values():
        if not processes(func) or not has_scope(func, config.target):
            functions.append(func)
            continue
        require_ssa(func, config.pass_name, f"a {config.target.__name__}")
        new_func, outlined = outliner.outline_function(func)
        if finish is not None:
            new_func = finish(new_func, outlined)
        functions.append(new_func)
        functions.extend(outlined)
        created.extend(outlined)
    if not created:
        return program, []
    return program.with_functions(functions), created
