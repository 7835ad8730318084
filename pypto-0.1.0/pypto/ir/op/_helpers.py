"""PyPTO's small normalisers of ``ir.op`` arguments: cast modes, pad values and
gather-compare modes, each accepting the spellings PyPTO's builders accept."""

from __future__ import annotations

import math
from typing import Any

from ..enums import PadValue
from ..ops.keywords import CAST_MODES, CMP_TYPE_NAMES

__all__ = ["resolve_cast_mode", "normalize_pad_value", "resolve_gather_compare_cmp_mode"]


def resolve_cast_mode(mode: Any) -> int:
    """``"round"`` (or its index) -> the cast mode's index (``none`` = 0 ... ``odd`` = 6)."""
    if isinstance(mode, str) and mode in CAST_MODES:
        return CAST_MODES.index(mode)
    if isinstance(mode, int) and not isinstance(mode, bool) and 0 <= mode < len(CAST_MODES):
        return mode
    raise ValueError(f"cast mode must be one of {', '.join(CAST_MODES)}, got {mode!r}")


def normalize_pad_value(pad_value: Any) -> PadValue:
    """A ``PadValue``, or ``None``/0/``inf``/``-inf`` meaning null/zero/max/min."""
    if isinstance(pad_value, PadValue):
        return pad_value
    if pad_value is None:
        return PadValue.null
    if isinstance(pad_value, (int, float)) and not isinstance(pad_value, bool):
        if pad_value == 0:
            return PadValue.zero
        if math.isinf(pad_value):
            return PadValue.max if pad_value > 0 else PadValue.min
    raise ValueError(f"pad_value must be a PadValue, 0, inf or -inf, got {pad_value!r}")


def resolve_gather_compare_cmp_mode(cmp_mode: Any) -> int:
    """``"eq"``/``"EQ"`` ... (or its code) -> the comparison code (EQ = 0 ... GE = 5)."""
    if isinstance(cmp_mode, str) and cmp_mode.upper() in CMP_TYPE_NAMES:
        return CMP_TYPE_NAMES.index(cmp_mode.upper())
    if isinstance(cmp_mode, int) and not isinstance(cmp_mode, bool) \
            and 0 <= cmp_mode < len(CMP_TYPE_NAMES):
        return cmp_mode
    raise ValueError(f"cmp_mode must be one of {', '.join(CMP_TYPE_NAMES)}, got {cmp_mode!r}")
