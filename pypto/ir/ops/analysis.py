"""Facts about calls that the parser and the outliners need (02-ir.md §11).

* ``deduce_call_return_type``: the type of ``self.f(args)``, with the callee's
  dynamic dims replaced by the caller's actual dims.
* ``call_write_targets``: which Var arguments a call writes, from the registry's
  per-argument effects or from the callee's ``Out``/``InOut`` parameters.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping

from ..depth import nesting_guard
from ..enums import ParamDirection
from ..expr import (Add, BinaryExpr, Call, ConstInt, FloorDiv, FloorMod, Max, Min, Mul, Sub,
                    Submit, UnaryExpr, Var)
from ..function import Program
from ..node import Expr, GlobalVar
from ..distributed_types import DistributedTensorType
from ..types import (ScalarType, ShapedType, TensorType, TileType, TupleType, Type,
                     has_dynamic_dims)
from .registry import Effect, OpDef, find_op

__all__ = ["deduce_call_return_type", "call_write_targets", "bind_call", "substitute_type"]

_PARAM_EFFECTS = {ParamDirection.Out: Effect.Write, ParamDirection.InOut: Effect.ReadWrite}

# Integer folding applied after substitution, so ``[M * 2]`` with ``M = 8`` gives ``[16]``.
_FOLD: dict[type, Callable[[int, int], int | None]] = {
    Add: lambda a, b: a + b, Sub: lambda a, b: a - b, Mul: lambda a, b: a * b,
    FloorDiv: lambda a, b: a // b if b else None, FloorMod: lambda a, b: a % b if b else None,
    Min: min, Max: max}


def _param_var(index: int, param: Any) -> Var:
    if isinstance(param, tuple) and len(param) == 2:  # (Var, ParamDirection), as Function takes
        param = param[0]
    if not isinstance(param, Var):
        raise TypeError(f"deduce_call_return_type: callee_params[{index}] must be a Var, "
                        f"got {type(param).__name__}")
    return param


def bind_call(params: list[Var], args: list[Expr]) -> dict[Var, Expr]:
    """Callee Var -> caller Expr: scalar params bind to their argument, and each Var
    dim of a shaped param binds to the argument's dim at the same position."""
    bindings: dict[Var, Expr] = {}
    for param, arg in zip(params, args):
        ptype, atype = param.type, arg.type
        if isinstance(ptype, ScalarType):
            bindings.setdefault(param, arg)
        elif isinstance(ptype, ShapedType) and isinstance(atype, ShapedType) \
                and len(ptype.shape) == len(atype.shape):
            for pdim, adim in zip(ptype.shape, atype.shape):
                if isinstance(pdim, Var):
                    bindings.setdefault(pdim, adim)
    return bindings


def _substitute(expr: Expr, bindings: Mapping[Var, Expr]) -> Expr:
    if isinstance(expr, Var):
        return bindings.get(expr, expr)
    if isinstance(expr, BinaryExpr):
        left, right = _substitute(expr.left, bindings), _substitute(expr.right, bindings)
        if left is expr.left and right is expr.right:
            return expr
        fold = _FOLD.get(type(expr))
        if fold is not None and isinstance(left, ConstInt) and isinstance(right, ConstInt):
            value = fold(left.value, right.value)
            if value is not None:
                return ConstInt(value, expr.dtype, expr.span)
        return expr.replace(left=left, right=right)
    if isinstance(expr, UnaryExpr):
        operand = _substitute(expr.operand, bindings)
        return expr if operand is expr.operand else expr.replace(operand=operand)
    return expr


def substitute_type(t: Type, bindings: Mapping[Var, Expr]) -> Type:
    if isinstance(t, TupleType):
        items = [substitute_type(item, bindings) for item in t.types]
        changed = any(new is not old for new, old in zip(items, t.types))
        return TupleType(items) if changed else t
    if not isinstance(t, ShapedType):
        return t
    shape = [_substitute(dim, bindings) for dim in t.shape]
    if all(new is old for new, old in zip(shape, t.shape)):
        return t
    if isinstance(t, TileType):
        return TileType(shape, t.dtype, t.memref, t.tile_view, t.memory_space)
    if isinstance(t, DistributedTensorType):
        return t.with_shape(shape)
    assert isinstance(t, TensorType)
    return TensorType(shape, t.dtype, t.memref, t.tensor_view)


def deduce_call_return_type(callee_params: Iterable[Any], args: Iterable[Expr],
                            return_types: Iterable[Type]) -> Type:
    """The type of a call to a function with ``callee_params``/``return_types``.

    Dynamic dims (Vars in the params' shapes) and scalar params used in return
    shapes are replaced by the caller's actual dims/values; integer arithmetic on
    the substituted constants is folded.  Returns the single return type, a
    ``TupleType`` for several, and ``TupleType([])`` when the callee returns
    nothing (a real Type, so it can be a Call's type as is).  Dims inside
    TensorView/TileView records are not substituted.
    """
    params = [_param_var(i, p) for i, p in enumerate(callee_params)]
    actual = list(args)
    for i, arg in enumerate(actual):
        if not isinstance(arg, Expr):
            raise TypeError(f"deduce_call_return_type: args[{i}] must be an Expr, "
                            f"got {type(arg).__name__}")
    if len(params) != len(actual):
        raise ValueError(f"deduce_call_return_type: the callee takes {len(params)} "
                         f"argument(s), got {len(actual)}")
    types = list(return_types)
    for i, t in enumerate(types):
        if not isinstance(t, Type):
            raise TypeError(f"deduce_call_return_type: return_types[{i}] must be a Type, "
                            f"got {type(t).__name__}")
    if any(has_dynamic_dims(t) for t in types):
        bindings = bind_call(params, actual)
        with nesting_guard():
            types = [substitute_type(t, bindings) for t in types]
    return types[0] if len(types) == 1 else TupleType(types)


def call_write_targets(call: Call | Submit,
                       program: Program | None = None) -> list[tuple[Var, int, Effect]]:
    """``[(var, arg_index, effect)]`` for each Var argument the call writes.

    Registered ops: arguments whose declared effect is ``Write``/``ReadWrite``
    (``ReadWrite`` when the op's atomic keyword is set).  ``GlobalVar`` callees
    (Call or Submit), only when ``program`` is given: arguments bound to ``Out``
    (``Write``) or ``InOut`` (``ReadWrite``) params; a Submit's args map to a prefix
    of the callee's params.  Unknown callees/ops write nothing as far as we know.
    """
    if not isinstance(call, (Call, Submit)):
        raise TypeError(f"call_write_targets expects an ir.Call or ir.Submit, "
                        f"got {type(call).__name__}")
    if program is not None and not isinstance(program, Program):
        raise TypeError(f"call_write_targets: program must be an ir.Program, "
                        f"got {type(program).__name__}")
    op = call.op
    out: list[tuple[Var, int, Effect]] = []
    if isinstance(op, GlobalVar):
        callee = program.get_function(op.name) if program is not None else None
        if callee is None:
            return out
        for index, (arg, direction) in enumerate(zip(call.args, callee.param_directions)):
            effect = _PARAM_EFFECTS.get(direction)
            if effect is not None and isinstance(arg, Var):
                out.append((arg, index, effect))
        return out
    opdef = op if isinstance(op, OpDef) else find_op(op.name)
    if opdef is None:
        return out
    args = call.args
    for index, _spec in opdef.written:  # (the operands that can be written, in order)
        if index >= len(args):
            break
        arg = args[index]
        effect = opdef.arg_effect(index, call._kwargs)
        if effect is not Effect.Read and isinstance(arg, Var):
            out.append((arg, index, effect))
    return out
