"""Names of PyPTO's ``pl.tile`` module besides the op wrappers: the mask patterns of
``gather_mask``/``scatter_mask``, the ``MemRefType`` marker, the scalar ``max``/``min``
and three helpers of its wrappers."""

from __future__ import annotations

import os
import sys
from types import FrameType
from typing import Any

import pypto
from pypto import ir
from ..typing.scalar import predicate_to_expr

__all__ = ["MaskPattern", "MemRefType", "max", "min", "caller_warning_stacklevel",
           "has_partial_valid_region", "predicate_to_expr"]


_PACKAGE_DIR = os.path.dirname(os.path.abspath(pypto.__file__)) + os.sep


class MaskPattern:
    """``gather_mask``/``scatter_mask`` patterns: which elements of every group along the
    last dim are kept (the bit string reads right to left, element 0 first)."""

    P0101 = 1  # the even positions
    P1010 = 2  # the odd positions
    P0001 = 3  # the first of every four
    P0010 = 4  # the second of every four
    P0100 = 5  # the third of every four
    P1000 = 6  # the fourth of every four
    P1111 = 7  # every element


class MemRefType:
    """PyPTO's marker for memory-reference typed values (no members)."""


def max(lhs, rhs, span=None):  # noqa: A001
    """The larger of two scalars (``ir.max_``)."""
    return ir.max_(lhs, rhs, span=span)


def min(lhs, rhs, span=None):  # noqa: A001
    """The smaller of two scalars (``ir.min_``)."""
    return ir.min_(lhs, rhs, span=span)


def caller_warning_stacklevel() -> int:
    """The ``stacklevel`` for ``warnings.warn`` in the function that calls this one, so
    that the warning points at the first frame outside pypto (the user's code)."""
    level = 1
    frame: FrameType | None = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame, level = frame.f_back, level + 1
    return level


def has_partial_valid_region(expr: Any) -> bool:
    """Does ``expr``'s type declare a valid shape smaller than its shape (a
    ``TileView``/``TensorView`` ``valid_shape``)?"""
    t = getattr(expr, "type", None)
    view = getattr(t, "tile_view", None) or getattr(t, "tensor_view", None)
    valid = getattr(view, "valid_shape", None)
    if not valid or t is None:
        return False
    return not all(ir.structural_equal(v, d) for v, d in zip(valid, t.shape))
