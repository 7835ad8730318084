"""Attributes shared by several op entries, with PyPTO's names, kinds and defaults."""

from __future__ import annotations

from ..enums import AtomicType, PadValue
from .registry import BOOL, INT, STR, KwargSpec, enum_kind

__all__ = ["HIGH_PRECISION", "CMP_TYPE", "CAST_MODE", "ATOMIC", "PAD_VALUE", "CMP_TYPE_NAMES",
           "CAST_MODES", "row_reduce_attrs", "col_reduce_attrs"]

# cmp_type codes, in order: ==, !=, <, <=, >, >=.
CMP_TYPE_NAMES = ("EQ", "NE", "LT", "LE", "GT", "GE")
CAST_MODES = ("none", "rint", "round", "floor", "ceil", "trunc", "odd")

HIGH_PRECISION = KwargSpec("high_precision", BOOL, default=False)
CMP_TYPE = KwargSpec("cmp_type", INT, default=0, choices=tuple(range(len(CMP_TYPE_NAMES))))
CAST_MODE = KwargSpec("mode", STR, default="round", choices=CAST_MODES)
# AtomicType.Add makes the written target ReadWrite (the op reads its old value).
ATOMIC = KwargSpec("atomic", enum_kind(AtomicType), default=AtomicType.None_)
PAD_VALUE = KwargSpec("pad_value", enum_kind(PadValue), default=PadValue.zero)


def _reduce_attrs(axis: int) -> tuple[KwargSpec, ...]:
    # PyPTO's reductions carry keep_dim/axis; its wrappers set them, users never do.
    return (KwargSpec("keep_dim", BOOL, default=True, hidden=True),
            KwargSpec("axis", INT, default=axis, hidden=True))


row_reduce_attrs = _reduce_attrs(-1)
col_reduce_attrs = _reduce_attrs(-2)
