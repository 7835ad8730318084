"""``pl.at(..., optimizations=[...])`` entries: ``pl.split(mode)`` and
``pl.cross_core_slot(slot_num=N)`` (PyPTO's ``pypto.language.optimizations``).

The parser reads these calls from the AST; at Python level they build the records
below, so a list of optimizations can be built, inspected and compared as data.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

from ..ir.enums import SplitMode

__all__ = ["Optimization", "Split", "CrossCoreSlot", "split", "cross_core_slot"]

SPLIT_SLOT_NUM_DEPRECATION = (
    "pl.split(mode, slot_num=N) is deprecated: the number of cross-core pipe slots is its own "
    "optimization now. Write optimizations=[pl.split(mode), pl.cross_core_slot(slot_num=N)] "
    "instead; pl.split(..., slot_num=N) still sets the slot count for now and will stop "
    "accepting slot_num in a later release.")


class Optimization:
    """Base of the entries of an ``optimizations=`` list."""

    __slots__ = ()


@dataclass(frozen=True)
class Split(Optimization):
    """``pl.split(mode)``: split the region's work between the cube and vector cores."""

    mode: SplitMode
    slot_num: int | None = None


@dataclass(frozen=True)
class CrossCoreSlot(Optimization):
    """``pl.cross_core_slot(slot_num=N)``: the number of cross-core pipe slots."""

    slot_num: int


def split(mode: SplitMode, *, slot_num: int | None = None) -> Split:
    """``pl.split(pl.SplitMode.UP_DOWN)``; ``slot_num=`` is deprecated (use
    ``pl.cross_core_slot``)."""
    if not isinstance(mode, SplitMode):
        raise TypeError(f"pl.split expects a pl.SplitMode member, got {mode!r}")
    if slot_num is not None:
        warnings.warn(SPLIT_SLOT_NUM_DEPRECATION, DeprecationWarning, stacklevel=2)
        _check_slot_num("pl.split", slot_num)
    return Split(mode, slot_num)


def cross_core_slot(*, slot_num: int) -> CrossCoreSlot:
    """``pl.cross_core_slot(slot_num=2)``."""
    _check_slot_num("pl.cross_core_slot", slot_num)
    return CrossCoreSlot(slot_num)


def _check_slot_num(where: str, slot_num: object) -> None:
    if type(slot_num) is not int or slot_num <= 0:
        raise ValueError(f"{where}: slot_num must be a positive int, got {slot_num!r}")
