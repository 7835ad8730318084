"""Shape arithmetic shared by the deduction rules: dim comparison, numpy-style
broadcasting, window bounds and axis normalisation.

A dim is an ``Expr``: a ``ConstInt`` (static) or a symbolic expression (a dynamic-dim
``Var`` or a composite).  Two symbolic dims are equal only when they are the same
object or structurally equal; nothing here tries to prove arithmetic identities.
"""

from __future__ import annotations

from typing import Any, Sequence, cast

from ..dtype import DataType
from ..enums import MemorySpace
from ..expr import ConstInt, MakeTuple, Var
from ..node import Expr
from ..structural import structural_equal
from ..types import ShapedType, TensorType, TileType

__all__ = ["static_dim", "dim_text", "shape_text", "dims_equal", "broadcast_shapes",
           "shaped_like", "elements", "constant_int", "normalize_axis", "check_rank",
           "check_positive_dims", "check_window", "ONE"]

ONE = ConstInt(1, DataType.INDEX)


def static_dim(dim: Expr) -> int | None:
    return dim.value if isinstance(dim, ConstInt) else None


def dim_text(dim: Expr) -> str:
    if isinstance(dim, ConstInt):
        return str(dim.value)
    if isinstance(dim, Var):
        return dim.name_hint
    return str(dim)


def shape_text(shape: Sequence[Expr]) -> str:
    return "[" + ", ".join(dim_text(d) for d in shape) + "]"


def dims_equal(a: Expr, b: Expr) -> bool:
    if a is b:
        return True
    sa, sb = static_dim(a), static_dim(b)
    if sa is not None or sb is not None:
        return sa == sb
    return structural_equal(a, b)


def broadcast_shapes(lhs: Sequence[Expr], rhs: Sequence[Expr], lhs_name: str = "lhs",
                     rhs_name: str = "rhs") -> tuple[Expr, ...]:
    """numpy broadcasting, right-aligned.  A static 1 yields to the other dim; other
    dims must be equal (static values, or the same / structurally equal expression)."""
    rank = max(len(lhs), len(rhs))
    lhs_pad = (None,) * (rank - len(lhs)) + tuple(lhs)
    rhs_pad = (None,) * (rank - len(rhs)) + tuple(rhs)
    out: list[Expr] = []
    for axis, (a, b) in enumerate(zip(lhs_pad, rhs_pad)):
        if a is None or b is None:  # padding on one side only: rank is the longer one's
            out.append(cast(Expr, b if a is None else a))
        elif dims_equal(a, b) or static_dim(b) == 1:
            out.append(a)
        elif static_dim(a) == 1:
            out.append(b)
        else:
            raise ValueError(f"shapes {shape_text(lhs)} ({lhs_name}) and {shape_text(rhs)} "
                             f"({rhs_name}) are not broadcastable: dim {axis} is "
                             f"{dim_text(a)} vs {dim_text(b)}")
    return tuple(out)


def shaped_like(template: ShapedType, shape: Sequence[Any], dtype: DataType,
                memory_space: MemorySpace | None = None) -> ShapedType:
    """A Tensor or Tile (as ``template``) of ``shape``/``dtype``; a Tile keeps the
    template's memory space unless ``memory_space`` overrides it."""
    if isinstance(template, TileType):
        space = template.memory_space if memory_space is None else memory_space
        return TileType(shape, dtype, memory_space=space)
    return TensorType(shape, dtype)


def elements(tuple_arg: Expr) -> tuple[Expr, ...]:
    """The items of an IndexTuple operand (the registry has checked it is a MakeTuple)."""
    assert isinstance(tuple_arg, MakeTuple)
    return tuple_arg.elements


def constant_int(value: Expr, what: str) -> int:
    if not isinstance(value, ConstInt):
        raise ValueError(f"{what} must be a constant integer, got {dim_text(value)}")
    return value.value


def normalize_axis(axis: int, rank: int, what: str) -> int:
    if not -rank <= axis < rank:
        raise ValueError(f"{what} {axis} is out of range for rank {rank}")
    return axis + rank if axis < 0 else axis


def check_rank(items: Sequence[Expr], rank: int, what: str, of: str) -> None:
    if len(items) != rank:
        raise ValueError(f"{what} has {len(items)} item(s) but {of} has rank {rank}")


def check_positive_dims(shape: Sequence[Expr], what: str) -> None:
    for axis, dim in enumerate(shape):
        value = static_dim(dim)
        if value is not None and value <= 0:
            raise ValueError(f"{what}[{axis}] must be positive, got {value}")


def check_window(offsets: Sequence[Expr], sizes: Sequence[Expr], dims: Sequence[Expr],
                 what: str) -> None:
    """Where offset, size and dim are all static: ``0 <= offset`` and
    ``offset + size <= dim``.  Symbolic positions are left to the runtime."""
    for axis, (off, size, dim) in enumerate(zip(offsets, sizes, dims)):
        o, s, d = static_dim(off), static_dim(size), static_dim(dim)
        if o is not None and o < 0:
            raise ValueError(f"offset {o} in dim {axis} is negative")
        if o is not None and s is not None and d is not None and o + s > d:
            raise ValueError(f"window [{o}, {o + s}) in dim {axis} exceeds {what} dim {d}")
