"""PyPTO's ``ir.tensor_view_semantics``: the strides a tensor layout implies.

A canonical view is the one its layout gives a dense tensor: ``ND`` is row-major
(the last dimension is contiguous), ``DN`` swaps the last two dimensions (the
second-to-last is contiguous).  The fractal layouts (``NZ``, ``MX_*``) have no
per-dimension strides; asking for them is a ``ValueError``.  Dimensions may be
symbolic: strides are then products of the dims; with ``relaxed_symbolic`` a stride
that is not a constant is accepted when it is not provably wrong.
"""

from __future__ import annotations

from typing import Any, Sequence

from . import expr as E
from .dtype import DataType
from .enums import TensorLayout
from .node import Expr
from .structural import structural_equal
from .types import TensorView

__all__ = ["build_logical_strides_from_layout", "canonicalize_view", "check_canonical_view",
           "compute_shape_product", "derive_layout_from_strides", "is_canonical_view"]

_INDEX = DataType.INDEX


def _dim(value: Any) -> Expr:
    if isinstance(value, Expr):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return E.ConstInt(value, _INDEX)
    raise TypeError(f"a shape or stride entry must be an int or ir.Expr, got "
                    f"{type(value).__name__}")


def _mul(a: Expr, b: Expr) -> Expr:
    if isinstance(a, E.ConstInt) and isinstance(b, E.ConstInt):
        return E.ConstInt(a.value * b.value, _INDEX)
    if isinstance(a, E.ConstInt) and a.value == 1:
        return b
    if isinstance(b, E.ConstInt) and b.value == 1:
        return a
    return E.Mul(a, b, _INDEX)


def _row_major(dims: list[Expr]) -> list[Expr]:
    strides: list[Expr] = []
    running: Expr = E.ConstInt(1, _INDEX)
    for dim in reversed(dims):
        strides.append(running)
        running = _mul(running, dim)
    return strides[::-1]


def build_logical_strides_from_layout(shape: Sequence[Any], layout: TensorLayout) -> list[Expr]:
    dims = [_dim(d) for d in shape]
    layout = TensorLayout(layout)
    if layout is TensorLayout.ND:
        return _row_major(dims)
    if layout is TensorLayout.DN:
        if len(dims) < 2:
            raise ValueError("the DN layout needs at least two dimensions")
        swapped = dims[:-2] + [dims[-1], dims[-2]]
        strides = _row_major(swapped)
        return strides[:-2] + [strides[-1], strides[-2]]
    raise ValueError(f"the {layout.name} layout has no per-dimension strides")


def canonicalize_view(shape: Sequence[Any], layout: TensorLayout) -> TensorView:
    return TensorView(build_logical_strides_from_layout(shape, layout), layout)


def compute_shape_product(shape: Sequence[Any]) -> int:
    """The number of elements; every dim must be a constant."""
    product = 1
    for dim in shape:
        dim = _dim(dim)
        if not isinstance(dim, E.ConstInt):
            raise ValueError("compute_shape_product: the shape has a dimension that is not "
                             "a constant")
        product *= dim.value
    return product


def _same(a: Expr, b: Expr, relaxed: bool) -> bool:
    if isinstance(a, E.ConstInt) and isinstance(b, E.ConstInt):
        return a.value == b.value
    return structural_equal(a, b) or relaxed


def check_canonical_view(shape: Sequence[Any], stride: Sequence[Any], layout: TensorLayout,
                         relaxed_symbolic: bool = True) -> tuple[bool, str]:
    """``(True, "")`` when ``stride`` is what ``layout`` gives ``shape``, else
    ``(False, reason)``."""
    if len(stride) != len(shape):
        return False, f"stride has {len(stride)} entries but the shape has {len(shape)}"
    try:
        expected = build_logical_strides_from_layout(shape, layout)
    except ValueError as exc:
        return False, str(exc)
    for axis, (want, got) in enumerate(zip(expected, (_dim(s) for s in stride))):
        if not _same(want, got, relaxed_symbolic):
            return False, (f"stride of dimension {axis} does not match the "
                           f"{TensorLayout(layout).name} layout")
    return True, ""


def is_canonical_view(shape: Sequence[Any], stride: Sequence[Any], layout: TensorLayout,
                      relaxed_symbolic: bool = True) -> bool:
    return check_canonical_view(shape, stride, layout, relaxed_symbolic)[0]


def derive_layout_from_strides(shape: Sequence[Any],
                               stride: Sequence[Any]) -> TensorLayout | None:
    """The layout whose canonical strides ``stride`` are (``ND`` first), or ``None``."""
    for layout in (TensorLayout.ND, TensorLayout.DN):
        if len(shape) < 2 and layout is TensorLayout.DN:
            continue
        if is_canonical_view(shape, stride, layout, relaxed_symbolic=False):
            return layout
    return None
