"""Valid regions of tiles.

On the device a tile has a shape (its buffer) and a valid region: the leading
``valid_shape`` elements of each dim that hold data.  Elements outside it are
undefined; ops work on the valid region only.  ``tile.load``/``tile.slice`` with a
``valid_shape``, ``set_validshape`` and the creation ops with a ``valid_shape`` make a
*partial* tile.  The executor keeps the region with the array: a partial tile is a
``PartialTile`` (an ``ndarray`` with a ``valid_shape``); every other array is whole.

What each op family does with it (``op_semantics`` wires it up):

* elementwise, unary, casts, compares, selects, broadcasts and moves keep the first
  operand's region (``keep_valid``);
* row reductions reduce over the valid columns, column reductions over the valid rows,
  matmuls over the valid K (``valid_part``); their results are valid where the
  operands' valid rows and columns meet;
* ``fillpad*`` write the pad value outside the region and give a whole tile;
* ``tile.store`` without ``shapes`` writes the valid region only.

Everything else sees the whole buffer (what the device leaves undefined is whatever the
buffer holds here: zeros after a load).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Literal

if TYPE_CHECKING:  # a checker reads NumPy's own types (at run time it is loaded on demand)
    import numpy as np
else:
    from .dtypes import np

__all__ = ["PartialTile", "mark_valid", "valid_shape_of", "is_partial", "valid_part",
           "keep_valid"]


class PartialTile(np.ndarray):
    """An array whose valid region is ``valid_shape``.  Arrays NumPy derives from it
    (views, results of ufuncs) start out whole: only the ops that know what they do
    with a region set one (``mark_valid``); ``copy()`` keeps it."""

    valid_shape: tuple[int, ...] | None

    def __array_finalize__(self, obj: Any) -> None:
        self.valid_shape = None

    def copy(self, order: Literal["K", "A", "C", "F"] | None = "C") -> "PartialTile":
        """A copy keeps the region (a copied partial tile is the same partial tile)."""
        out = super().copy(order)
        out.valid_shape = self.valid_shape
        return out


def mark_valid(array: Any, valid: tuple[int, ...] | None) -> Any:
    """``array`` with the valid region ``valid`` (clipped to its shape); a region that
    covers the whole array gives a plain array."""
    if not isinstance(array, np.ndarray) or valid is None:
        return array
    valid = tuple(min(int(v), n) for v, n in zip(valid, array.shape))
    if len(valid) != array.ndim or valid == array.shape:
        return array.view(np.ndarray) if type(array) is PartialTile else array
    out = array.view(PartialTile)
    out.valid_shape = valid
    return out


def valid_shape_of(array: Any) -> tuple[int, ...]:
    """The valid region of ``array``: its ``valid_shape``, or its whole shape."""
    valid = getattr(array, "valid_shape", None)
    return array.shape if valid is None else valid


def is_partial(array: Any) -> bool:
    return type(array) is PartialTile and array.valid_shape is not None


def valid_part(array: Any, axes: tuple[int, ...]) -> Any:
    """``array`` cut to its valid extent along ``axes`` (the others whole), as a plain
    array: what an op that works on the valid region reads."""
    if not is_partial(array):
        return array
    index = [slice(None)] * array.ndim
    for axis in axes:
        index[axis] = slice(0, array.valid_shape[axis])
    return array.view(np.ndarray)[tuple(index)]


def keep_valid(impl: Callable) -> Callable:
    """``impl`` whose result keeps the first operand's valid region (same shape)."""
    def keeping(args: list, info: Any, state: Any) -> Any:
        out = impl(args, info, state)
        first: Any = args[0] if args else None
        if is_partial(first) and isinstance(out, np.ndarray) and out.shape == first.shape:
            return mark_valid(out, first.valid_shape)
        return out
    return keeping
