"""Helpers PyPTO's ``pypto.ir.utils`` offers op-building code: cast-mode names, the
partial-valid-region test, and the warning stack level of the user's caller."""

from __future__ import annotations

import sys
from types import FrameType

from .dtype import DataType  # noqa: F401 - importable from ir.utils, as in PyPTO
from .node import Expr
from .ops.keywords import CAST_MODES
from .structural import structural_equal
from .types import TensorType, TensorView, TileType, TileView, Type

__all__ = ["CAST_MODE_NAMES", "resolve_cast_mode", "has_partial_valid_region",
           "caller_warning_stacklevel"]

# PyPTO's cast rounding modes by name, with their codes.
CAST_MODE_NAMES: dict[str, int] = {name: code for code, name in enumerate(CAST_MODES)}


def resolve_cast_mode(mode: str | int) -> int:
    """The code of a cast mode given by name (``"round"``) or code (``2``)."""
    if isinstance(mode, str):
        if mode not in CAST_MODE_NAMES:
            raise ValueError(f"unknown cast mode {mode!r}; expected one of "
                             f"{list(CAST_MODE_NAMES)}")
        return CAST_MODE_NAMES[mode]
    if isinstance(mode, int) and not isinstance(mode, bool) and 0 <= mode < len(CAST_MODES):
        return mode
    raise ValueError(f"cast mode must be a name or a code 0..{len(CAST_MODES) - 1}, got {mode!r}")


def has_partial_valid_region(expr: Expr | Type) -> bool:
    """Does ``expr``'s tile or tensor view mark a valid region smaller than its shape?"""
    t = expr.type if isinstance(expr, Expr) else expr
    view: TileView | TensorView | None
    if isinstance(t, TileType):
        view = t.tile_view
    elif isinstance(t, TensorType):
        view = t.tensor_view
    else:
        return False
    if view is None or not view.valid_shape:
        return False
    if len(view.valid_shape) != len(t.shape):
        return True
    return any(not structural_equal(v, d) for v, d in zip(view.valid_shape, t.shape))


def caller_warning_stacklevel() -> int:
    """The ``stacklevel`` for ``warnings.warn`` that points at the first frame outside
    pypto (the user's line), counted from the function calling this one."""
    frame: FrameType | None = sys._getframe(1)
    level = 1
    while frame is not None and frame.f_globals.get("__name__", "").split(".")[0] == "pypto":
        frame = frame.f_back
        level += 1
    return level
