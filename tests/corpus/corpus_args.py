"""Arguments for the corpus check: one set per ``Variant``, of the declared shapes and
dtypes, the same bits for the same variant (see ``corpus_check``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from pypto import ir
from pypto.ir import expr as E
from pypto.ir.types import ScalarType, ShapedType, TupleType
from pypto.runtime.dtypes import numpy_dtype

__all__ = ["Variant", "VARIANTS", "CLEAN_RUNS", "Unsupported", "make_args", "dims_of",
           "frozen", "show"]


@dataclass(frozen=True)
class Variant:
    dynamic: int  # every dynamic dim
    integer: int  # every integer scalar that is not a dynamic dim
    boolean: bool
    floating: float
    seed: int


# The second variant runs zero-trip loops (``pl.range(n)`` with n = 0) and the other arm
# of a branch on a bool.
VARIANTS = (Variant(64, 3, True, 0.75, 0), Variant(16, 0, False, -1.5, 1),
            Variant(128, 1, True, 2.0, 2), Variant(8, 2, False, 0.5, 3),
            Variant(1, 1, True, 1.0, 4))
CLEAN_RUNS = 3


class Unsupported(Exception):
    """A parameter the harness cannot make an argument for (the skip reason)."""


def dims_of(function: ir.Function) -> list[E.Var]:
    """The dynamic dims of ``function``'s parameter types, in order."""
    found: list[E.Var] = []
    for param in function.params:
        _collect_dims(param.type, found)
    return found


def _eval_dim(dim: Any, dims: dict[int, int]) -> int:
    if isinstance(dim, E.ConstInt):
        return dim.value
    if isinstance(dim, E.Var):
        return dims[id(dim)]
    ops: dict[type, Callable[[int, int], int]] = {
        E.Add: lambda a, b: a + b, E.Sub: lambda a, b: a - b, E.Mul: lambda a, b: a * b,
        E.FloorDiv: lambda a, b: a // b, E.FloorMod: lambda a, b: a % b,
        E.Min: min, E.Max: max}
    op = ops.get(type(dim))
    if op is None:
        raise Unsupported(f"dim expression {type(dim).__name__}")
    return op(_eval_dim(dim.left, dims), _eval_dim(dim.right, dims))


def _collect_dims(t: Any, out: list[E.Var]) -> None:
    if isinstance(t, ShapedType):
        for dim in t.shape:
            stack = [dim]
            while stack:
                d = stack.pop()
                if isinstance(d, E.Var):
                    if all(d is not v for v in out):
                        out.append(d)
                elif isinstance(d, E.BinaryExpr):
                    stack += [d.left, d.right]
    elif isinstance(t, TupleType):
        for item in t.types:
            _collect_dims(item, out)


def _value(t: Any, dims: dict[int, int], rng: np.random.Generator, v: Variant) -> Any:
    if isinstance(t, ShapedType) and type(t).__name__ in ("TensorType", "TileType"):
        shape = tuple(_eval_dim(d, dims) for d in t.shape)
        if any(n < 0 for n in shape):
            raise Unsupported("negative dim")
        storage = numpy_dtype(t.dtype)
        if t.dtype.is_float():
            return rng.standard_normal(shape).astype(storage)
        if storage == np.bool_:
            return rng.integers(0, 2, shape).astype(np.bool_)
        return rng.integers(1, 5, shape).astype(storage)  # no zero: integer division
    if isinstance(t, ScalarType):
        if t.dtype is ir.DataType.BOOL:
            return v.boolean
        return v.floating if t.dtype.is_float() else v.integer
    if isinstance(t, TupleType):
        return tuple(_value(item, dims, rng, v) for item in t.types)
    raise Unsupported(f"parameter of type {type(t).__name__}")


def make_args(function: ir.Function, v: Variant) -> tuple:
    """Fresh arguments for ``function``: the same bits for the same variant."""
    rng = np.random.default_rng(v.seed)
    found: list[E.Var] = []
    for param in function.params:
        _collect_dims(param.type, found)
    dims = {id(var): v.dynamic for var in found}
    args = []
    for param in function.params:
        if isinstance(param.type, ScalarType) and id(param) in dims:
            args.append(dims[id(param)])  # a scalar parameter naming a dynamic dim
        else:
            args.append(_value(param.type, dims, rng, v))
    return tuple(args)


def frozen(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return ("array", value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (tuple, list)):
        return tuple(frozen(v) for v in value)
    if isinstance(value, float) and value != value:
        return "nan"
    return value


def show(value: Any) -> str:
    if isinstance(value, tuple) and value and value[0] == "array":
        total = float(np.frombuffer(value[3], value[1]).astype(np.float64).sum())
        return f"{np.dtype(value[1]).name}{list(value[2])} sum={total:.9g}"
    if isinstance(value, tuple):
        return "(" + ", ".join(show(v) for v in value) + ")"
    return repr(value)
