"""PyPTO's ``pypto.ir.type``: the shaped types and their views."""

from __future__ import annotations

from .dtype import DataType  # noqa: F401 - also importable from here, as in PyPTO
from .enums import CompactMode, MemorySpace, PadValue, TensorLayout, TileLayout  # noqa: F401
from .node import Expr  # noqa: F401
from .types import MemRef, TensorType, TensorView, TileType, TileView  # noqa: F401

__all__ = ["TensorType", "TensorView", "TileType", "TileView"]
