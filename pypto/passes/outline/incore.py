"""OutlineIncoreScopes: ``with pl.at(level=pl.Level.CORE_GROUP)`` regions become InCore
kernels (03-passes.md §13).

An Opaque parent that loses at least one region becomes Orchestration (it now
only dispatches); Orchestration and Graph parents keep their type, so a Graph
function made by OutlineGraphScopes stays a Graph.  A live-out scalar is one of
the kernel's outputs, as in PyPTO (conformance 0515, 0286); in a Graph parent one
computed from the scope's inputs alone is recomputed by the caller (hoist.py).
"""

from __future__ import annotations

from typing import Any

from ...ir import expr as E
from ...ir import stmt as St
from ...ir.enums import FunctionType, Level, Role, SplitMode
from ...ir.function import Function, Program, is_orchestration_like
from ...ir.node import Stmt
from ...ir.scope import InCoreScopeStmt
from ...ir.types import TensorType
from ...ir.visitor import IRMutator
from ...ir.walk import iter_stmts
from ..diagnostic import PassError, PassErrorCode
from .driver import has_scope, outline_program
from .outliner import OutlineConfig

__all__ = ["transform", "CONFIG", "fold_dims"]

_PROCESSED = (FunctionType.Opaque, FunctionType.Orchestration, FunctionType.Graph)


def _function_attrs(scope: InCoreScopeStmt) -> dict[str, Any]:
    attrs: dict[str, Any] = {}
    if scope.split is not SplitMode.NONE:
        attrs["split"] = scope.split
    if "slot_num" in scope._attrs:
        attrs["slot_num"] = scope._attrs["slot_num"]
    return attrs


CONFIG = OutlineConfig(
    pass_name="OutlineIncoreScopes",
    target=InCoreScopeStmt,
    name_suffix=lambda scope: "_incore_",
    signature=lambda scope: (FunctionType.InCore, None, None),
    function_attrs=_function_attrs,
    hoist_scalar_outputs_in=(FunctionType.Graph,),
    reorder_returns_by_param=True,
    # Callee directions: a capture a called kernel writes is Out / InOut, not In.  PyPTO
    # runs this outliner without the program (docs/guide/differences.md).
    use_program=True,
    nested_targets=False,
)


class _DimFolder(IRMutator):
    """``x = tensor.dim(param, k)`` with a dynamic extent: drop it, use the dim Var."""

    def visit_assign_stmt(self, op: St.AssignStmt) -> Stmt:
        value = self.visit_expr(op.value)
        if isinstance(value, E.Call) and value.op.name == "tensor.dim" and len(value.args) == 2:
            tensor, axis = value.args
            t = tensor.type
            if isinstance(axis, E.ConstInt) and isinstance(t, TensorType) \
                    and 0 <= axis.value < len(t.shape) and isinstance(t.shape[axis.value], E.Var):
                self.var_remap[op.var] = t.shape[axis.value]
                return St.SeqStmts([], op.span)
        if value is op.value:
            return op
        return op.replace(value=value)


def _has_dim_assign(func: Function) -> bool:
    """Only ``x = tensor.dim(...)`` statements fold; most functions have none."""
    return any(isinstance(s, St.AssignStmt) and isinstance(s.value, E.Call)
               and s.value.op.name == "tensor.dim" for s in iter_stmts(func.body))


def fold_dims(func: Function) -> Function:
    """One forward pass; a folded Var's later uses see the dynamic dim directly."""
    return _DimFolder()(func)


def _promote(func: Function, outlined: list[Function]) -> Function:
    """An Opaque parent that now only dispatches kernels becomes Orchestration.

    A parent pinned to another hierarchy level (e.g. a HOST function made by
    OutlineHierarchyScopes) stays Opaque: Orchestration implies CHIP, and
    silently moving the function to another level would change its meaning.
    """
    compatible = (func.level in (None, Level.CHIP)
                  and func.role in (None, Role.Orchestrator))
    if outlined and func.func_type is FunctionType.Opaque and compatible:
        return Function(func.name, list(zip(func.params, func.param_directions)),
                        func.return_types, func.body, func.span,
                        type=FunctionType.Orchestration, attrs=func._attrs,
                        requires_runtime_binding=func.requires_runtime_binding)
    return func


def _check_dispatch(program: Program) -> None:
    """A predicate must not survive where nothing can honour it (§13, should).

    Only the functions this pass leaves alone can hold either: processed functions
    lose every InCore scope, and the launches the pass creates sit in them.  A
    launch (``pl.submit``) is always the value of an assignment, so one statement
    walk per function suffices.
    """
    for func in program._functions.values():
        if func.func_type in _PROCESSED:
            continue
        check_launches = not is_orchestration_like(func.func_type)
        for stmt in iter_stmts(func.body):
            if isinstance(stmt, InCoreScopeStmt) and "predicate" in stmt._attrs:
                raise PassError(f"an InCore scope in function '{func.name}' still carries a "
                                "dispatch predicate", stmt.span,
                                code=PassErrorCode.PREDICATE_OUTSIDE_ORCHESTRATION,
                                pass_name="OutlineIncoreScopes")
            if check_launches and isinstance(stmt, St.AssignStmt) \
                    and isinstance(stmt.value, E.Submit) and stmt.value.predicate is not None:
                raise PassError(f"a predicated task launch in {func.func_type.name} function "
                                f"'{func.name}'; predicates need an orchestration body",
                                stmt.span, code=PassErrorCode.PREDICATE_OUTSIDE_ORCHESTRATION,
                                pass_name="OutlineIncoreScopes")


def transform(program: Program) -> Program:
    folded = []
    changed = False
    for func in program._functions.values():
        if func.func_type is FunctionType.Opaque and _has_dim_assign(func) \
                and has_scope(func, InCoreScopeStmt):
            new = fold_dims(func)
            changed = changed or new is not func
            folded.append(new)
        else:
            folded.append(func)
    if changed:
        program = program.with_functions(folded)
    result, created = outline_program(program, CONFIG, lambda f: f.func_type in _PROCESSED,
                                      finish=_promote)
    if created:
        _check_dispatch(result)
    return result
