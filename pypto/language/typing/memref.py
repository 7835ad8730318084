"""``pl.MemRef(...)`` in a ``pl.Tensor``/``pl.Tile`` annotation: the IR's ``MemRef``
(one definition, in ``pypto.ir.types``)."""

from __future__ import annotations

from ...ir.types import MemRef

__all__ = ["MemRef"]
