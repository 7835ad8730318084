"""PyPTO's ``ir.op._pad_value``: the spellings a pad value may take."""

from __future__ import annotations

import math
from typing import Any

from ..enums import PadValue
from ..expr import ConstFloat, ConstInt

__all__ = ["ConstFloat", "ConstInt", "PadValue", "normalize_pad_value"]


def normalize_pad_value(pad_value: Any) -> PadValue:
    """``PadValue`` for a member, ``0`` (zero), ``math.inf`` (max) or ``-math.inf`` (min),
    given as a Python number or an IR constant."""
    if isinstance(pad_value, PadValue):
        return pad_value
    value = pad_value.value if isinstance(pad_value, (ConstInt, ConstFloat)) else pad_value
    if not isinstance(value, bool) and isinstance(value, (int, float)):
        if value == 0:
            return PadValue.zero
        if math.isinf(value):
            return PadValue.max if value > 0 else PadValue.min
    raise ValueError(f"pad_value must be a PadValue, 0, math.inf or -math.inf, got {pad_value!r}")
