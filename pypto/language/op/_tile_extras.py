"""Names of PyPTO's ``pl.tile`` module besides the op wrappers: the mask patterns of
``gather_mask``/``scatter_mask``, the ``MemRefType`` marker, and the scalar
``max``/``min``."""

from __future__ import annotations

from pypto import ir

__all__ = ["MaskPattern", "MemRefType", "max", "min"]


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
