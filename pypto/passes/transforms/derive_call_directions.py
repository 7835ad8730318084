"""DeriveCallDirections: every call (and ``pl.submit``) of a program function records one
``ArgDirection`` per argument in ``attrs["arg_directions"]``, read off the callee's
parameter directions (docs/guide/passes.md, "DeriveCallDirections"):

* a scalar argument is ``Scalar``;
* a tensor for an ``In`` parameter is ``Input``; for ``InOut``, ``InOut``;
* a tensor for an ``Out`` parameter is ``Output`` when the caller made it with
  ``tensor.create`` (a fresh buffer the callee fills), else ``OutputExisting`` (the
  callee writes into a tensor that already holds data, e.g. the caller's parameter).

Directions already recorded are kept where they agree with the callee (``NoDep`` for an
``In`` tensor included: it drops the dependency on purpose); one that contradicts it
(``Input`` for an ``Out`` parameter, ...) is refused at the call (P601).  Op calls
(``tensor.add`` ...) are left alone: their operands' effects are the op's.
"""

from __future__ import annotations

from typing import Any, Sequence

from ...ir import expr as E
from ...ir import stmt as St
from ...ir.enums import ArgDirection as AD
from ...ir.enums import ParamDirection as PD
from ...ir.function import Function, Program
from ...ir.node import Expr, GlobalVar
from ...ir.types import ScalarType
from ...ir.walk import iter_stmts
from ..diagnostic import PassError, PassErrorCode
from .call_sites import FunctionCallRewriter, map_functions

__all__ = ["transform", "derived_directions", "compatible_directions", "PASS_NAME"]

PASS_NAME = "DeriveCallDirections"

# What a recorded direction may be for an argument of each kind.
_COMPATIBLE = {
    "scalar": (AD.Scalar,),
    PD.In: (AD.Input, AD.NoDep),
    PD.InOut: (AD.InOut,),
    PD.Out: (AD.Output, AD.OutputExisting),
}


def _kind(param: E.Var, direction: PD) -> Any:
    return "scalar" if isinstance(param.type, ScalarType) else direction


def compatible_directions(callee: Function) -> list[tuple[AD, ...]]:
    """Per parameter of ``callee``, the directions an argument for it may carry."""
    return [_COMPATIBLE[_kind(p, d)] for p, d in zip(callee.params, callee.param_directions)]


def derived_directions(callee: Function, args: Sequence[Expr],
                       fresh: set[E.Var]) -> list[AD]:
    out = []
    for param, direction, arg in zip(callee.params, callee.param_directions, args):
        kind = _kind(param, direction)
        if kind == "scalar":
            out.append(AD.Scalar)
        elif kind is PD.In:
            out.append(AD.Input)
        elif kind is PD.InOut:
            out.append(AD.InOut)
        else:
            out.append(AD.Output if arg in fresh else AD.OutputExisting)
    return out


def _created_tensors(func: Function) -> set[E.Var]:
    """Vars the function binds to a fresh ``tensor.create`` buffer."""
    return {s.var for s in iter_stmts(func.body)
            if isinstance(s, St.AssignStmt) and isinstance(s.value, E.Call)
            and not isinstance(s.value.op, GlobalVar) and s.value.op.name == "tensor.create"}


class _Deriver(FunctionCallRewriter):
    def __init__(self, program: Program, fresh: set[E.Var]) -> None:
        super().__init__()
        self._program = program
        self._fresh = fresh

    def rewrite_call(self, call: Any) -> Expr:
        callee = self._program.get_function(call.op.name)
        if callee is None or len(callee.params) != len(call.args) or not call.args:
            return call  # unresolved or mis-arity (the verifiers report it), or nothing to record
        derived = derived_directions(callee, call.args, self._fresh)
        recorded = call.arg_directions
        if recorded:
            allowed = compatible_directions(callee)
            for i, (given, ok) in enumerate(zip(recorded, allowed)):
                if given not in ok:
                    name = callee.params[i].name_hint
                    raise PassError(
                        f"the call of '{callee.name}' records argument {i} ('{name}') as "
                        f"{AD(given).name}, but the parameter is "
                        f"{_describe(callee, i)}; expected one of "
                        f"{', '.join(d.name for d in ok)}", call.span,
                        code=PassErrorCode.CALL_DIRECTION_CONFLICT, pass_name=PASS_NAME)
            return call
        attrs = dict(call._attrs)
        attrs["arg_directions"] = derived
        return call.replace(_attrs=attrs)


def _describe(callee: Function, index: int) -> str:
    param, direction = callee.params[index], callee.param_directions[index]
    return "a scalar" if isinstance(param.type, ScalarType) else f"an {direction.name} tensor"


def transform(program: Program) -> Program:
    return map_functions(program, lambda func: _Deriver(
        program, _created_tensors(func)).visit_function(func))
