"""The four advisory checks of ``DiagnosticCheck`` (docs/guide/passes.md, "Diagnostic
checks").  Each reads a program and yields ``Diagnostic``s at the user's statement;
none changes anything or fails a run.

* **UnusedVariable** (warning): an assignment whose name is never read anywhere in its
  function (not in an expression, not in a type).  Names starting with ``_`` are
  exempt, as in Python.
* **UnusedControlFlowResult** (warning; off by default, as in PyPTO): a value a
  ``for`` / ``while`` / ``if`` yields out (a return var) that nothing reads.
* **TileInnermostDimGranularity** (performance hint): a tile whose innermost dimension
  is not a whole number of 32-byte blocks (the Vec buffer's alignment), so every row
  is padded and moved in partial blocks.
* **OutParamWriteDropped** (warning): a call of a program function passes a tensor to
  an ``Out`` / ``InOut`` parameter and nothing reads the call's result, while the
  tensor is not the caller's own ``Out`` / ``InOut`` parameter: the caller may not
  read that tensor again (InOutUseValid), so what the callee wrote is lost.
"""

from __future__ import annotations

from typing import Callable, Iterator

from ..ir import expr as E
from ..ir import stmt as St
from ..ir.enums import ParamDirection
from ..ir.function import Function, Program
from ..ir.node import GlobalVar, Stmt
from ..ir.types import TileType
from ..ir.walk import iter_stmts, stmt_exprs, type_vars, var_uses
from .diagnostic import Diagnostic, DiagnosticSeverity
from .diagnostic_checks import DiagnosticCheck

__all__ = ["CHECKS", "CheckRule", "TILE_BLOCK_BYTES"]

TILE_BLOCK_BYTES = 32

CheckFn = Callable[[Function, Program], Iterator[Diagnostic]]


class CheckRule:
    """One advisory check: its member, severity, hint code and function."""

    def __init__(self, check: DiagnosticCheck, severity: DiagnosticSeverity, code: int,
                 fn: CheckFn, hint_code: str = "") -> None:
        self.check, self.severity, self.code, self.fn = check, severity, code, fn
        self.hint_code = hint_code

    def diagnostic(self, message: str, span: object) -> Diagnostic:
        return Diagnostic(self.severity, self.check.name, self.code, message, span,  # type: ignore[arg-type]
                          self.hint_code)

    def run(self, program: Program) -> list[Diagnostic]:
        out: list[Diagnostic] = []
        for func in program.functions.values():
            out.extend(self.fn(func, program))
        return out


def _reads(func: Function) -> set[E.Var]:
    """Every Var read in ``func``: in expressions and in the types of what it defines."""
    used: set[E.Var] = set()
    for param in func.params:
        used.update(type_vars(param.type))
    for stmt in iter_stmts(func.body):
        for expr in stmt_exprs(stmt):
            for var in var_uses(expr):
                used.add(var)
                used.update(type_vars(var.type))
        for var in _defined_here(stmt):
            used.update(type_vars(var.type))
    return used


def _defined_here(stmt: Stmt) -> tuple[E.Var, ...]:
    if isinstance(stmt, St.AssignStmt):
        return (stmt.var,)
    if isinstance(stmt, (St.ForStmt, St.WhileStmt, St.IfStmt)):
        return (*getattr(stmt, "iter_args", ()), *stmt.return_vars)
    return ()


def _exempt(var: E.Var) -> bool:
    return var.name_hint.startswith("_")


def _unused_variables(func: Function, program: Program) -> Iterator[Diagnostic]:
    used = _reads(func)
    reported: set[E.Var] = set()
    for stmt in iter_stmts(func.body):
        if isinstance(stmt, St.AssignStmt) and stmt.var not in used \
                and stmt.var not in reported and not _exempt(stmt.var):
            reported.add(stmt.var)
            yield UNUSED_VARIABLE.diagnostic(
                f"Variable '{stmt.var.name_hint}' is assigned but never used in function "
                f"'{func.name}'", stmt.span)


def _unused_results(func: Function, program: Program) -> Iterator[Diagnostic]:
    used = _reads(func)
    for stmt in iter_stmts(func.body):
        if not isinstance(stmt, (St.ForStmt, St.WhileStmt, St.IfStmt)):
            continue
        kind = {St.ForStmt: "for loop", St.WhileStmt: "while loop"}.get(type(stmt), "if")
        for var in stmt.return_vars:
            if var not in used and not _exempt(var):
                yield UNUSED_RESULT.diagnostic(
                    f"Result '{var.name_hint}' of the {kind} is never used in function "
                    f"'{func.name}'", stmt.span)


def _tile_granularity(func: Function, program: Program) -> Iterator[Diagnostic]:
    seen: set[int] = set()
    for stmt in iter_stmts(func.body):
        if not isinstance(stmt, St.AssignStmt) or not isinstance(stmt.var.type, TileType):
            continue
        tile = stmt.var.type
        if not tile.shape or not isinstance(tile.shape[-1], E.ConstInt) or id(stmt) in seen:
            continue
        seen.add(id(stmt))
        bits = tile.dtype.get_bit()
        inner = tile.shape[-1].value
        if (inner * bits) % (TILE_BLOCK_BYTES * 8):
            size = f"{inner * bits / 8:g}"
            advice = (f"; a multiple of {TILE_BLOCK_BYTES * 8 // bits} elements avoids it"
                      if (TILE_BLOCK_BYTES * 8) % bits == 0 else "")
            yield TILE_GRANULARITY.diagnostic(
                f"Tile '{stmt.var.name_hint}' has an innermost dimension of {inner} x "
                f"{tile.dtype.to_string()} = {size} bytes, not a multiple of "
                f"{TILE_BLOCK_BYTES} bytes: each row is moved in partial blocks{advice}",
                stmt.span)


def _dropped_out_writes(func: Function, program: Program) -> Iterator[Diagnostic]:
    used = _reads(func)
    own_outputs = {p for p, d in zip(func.params, func.param_directions)
                   if d is not ParamDirection.In}
    for stmt in iter_stmts(func.body):
        if isinstance(stmt, St.EvalStmt):
            call, result_read = stmt.expr, False
        elif isinstance(stmt, St.AssignStmt):
            call, result_read = stmt.value, stmt.var in used
        else:
            continue
        if result_read or not isinstance(call, E.Call) or not isinstance(call.op, GlobalVar):
            continue
        callee = program.get_function(call.op.name)
        if callee is None:
            continue
        for param, direction, arg in zip(callee.params, callee.param_directions, call.args):
            if direction is ParamDirection.In or not isinstance(arg, E.Var) \
                    or arg in own_outputs:
                continue
            yield OUT_WRITE_DROPPED.diagnostic(
                f"The write of '{callee.name}' into '{arg.name_hint}' (its {direction.name} "
                f"parameter '{param.name_hint}') is dropped in function '{func.name}': the "
                f"call's result is never used and '{arg.name_hint}' may not be read after "
                "the call; use the call's result", call.span)


_W, _HINT = DiagnosticSeverity.Warning, DiagnosticSeverity.PerfHint
UNUSED_VARIABLE = CheckRule(DiagnosticCheck.UnusedVariable, _W, 0, _unused_variables)
UNUSED_RESULT = CheckRule(DiagnosticCheck.UnusedControlFlowResult, _W, 1, _unused_results)
TILE_GRANULARITY = CheckRule(DiagnosticCheck.TileInnermostDimGranularity, _HINT, 2,
                             _tile_granularity, hint_code="PH001")
OUT_WRITE_DROPPED = CheckRule(DiagnosticCheck.OutParamWriteDropped, _W, 3, _dropped_out_writes)

CHECKS: dict[DiagnosticCheck, CheckRule] = {
    rule.check: rule for rule in (UNUSED_VARIABLE, UNUSED_RESULT, TILE_GRANULARITY,
                                  OUT_WRITE_DROPPED)}
