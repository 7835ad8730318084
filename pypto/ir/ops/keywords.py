"""Keyword parameters shared by the tensor and tile op tables."""

from __future__ import annotations

from ..enums import AtomicType
from .registry import BOOL, INT, STR, KwargSpec, enum_kind

__all__ = ["HIGH_PRECISION", "CMP_TYPE", "CAST_MODE", "ATOMIC", "CMP_TYPE_NAMES",
           "CAST_MODES"]

# cmp_type codes, in order: ==, !=, <, <=, >, >=.
CMP_TYPE_NAMES = ("EQ", "NE", "LT", "LE", "GT", "GE")
CAST_MODES = ("none", "rint", "round", "floor", "ceil", "trunc", "odd")

HIGH_PRECISION = KwargSpec("high_precision", BOOL, default=False)
CMP_TYPE = KwargSpec("cmp_type", INT, default=0, choices=tuple(range(len(CMP_TYPE_NAMES))))
CAST_MODE = KwargSpec("mode", STR, default="round", choices=CAST_MODES)
# Set (to a member other than AtomicType.none) it makes the written target ReadWrite.
ATOMIC = KwargSpec("atomic", enum_kind(AtomicType))
