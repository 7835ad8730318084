"""Attributes shared by several op entries, with PyPTO's names, kinds and defaults."""

from __future__ import annotations

from typing import Any

from ..enums import AtomicType, PadValue
from .kinds import BadKwargValue, ValueKind, _unwrap_const
from .registry import BOOL, INT, STR, KwargSpec, enum_kind

__all__ = ["HIGH_PRECISION", "CMP_TYPE", "CAST_MODE", "ATOMIC", "PAD_VALUE", "CMP_TYPE_NAMES",
           "CAST_MODES", "CMP_MODE", "row_reduce_attrs", "col_reduce_attrs"]

# cmp_type codes, in order: ==, !=, <, <=, >, >=.
CMP_TYPE_NAMES = ("EQ", "NE", "LT", "LE", "GT", "GE")
CAST_MODES = ("none", "rint", "round", "floor", "ceil", "trunc", "odd")


def _to_cmp_mode(value: Any) -> int:
    """A comparison as its code: ``"eq"``/``"EQ"`` ... ``"ge"``, or the code 0..5."""
    value = _unwrap_const(value)
    if isinstance(value, str) and value.upper() in CMP_TYPE_NAMES:
        return CMP_TYPE_NAMES.index(value.upper())
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(CMP_TYPE_NAMES):
        return value
    raise BadKwargValue


# gather_compare's cmp_mode: PyPTO's wrapper takes the name, the IR holds the code.
CMP_MODE = ValueKind("a comparison ('eq', 'ne', 'lt', 'le', 'gt', 'ge' or 0..5)", _to_cmp_mode)

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
