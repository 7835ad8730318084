"""``pl.Tile[[d0, d1], dtype, ...]``."""

from __future__ import annotations

from typing import Any

from .._value_surface import ShapedSurface
from ._annotation import AnnotationMeta, AnnotationRecord, WrappedExpr
# PyPTO's module-level names of this path
from ...ir.dtype import DataType  # noqa: E402,F401
from ...ir.enums import MemorySpace  # noqa: E402,F401
from ...ir.node import Expr  # noqa: E402,F401
from ...ir.types import MemRef, TileView  # noqa: E402,F401

__all__ = ["Tile"]


class TileMeta(AnnotationMeta):
    """``pl.Tile[...]``."""


class Tile(WrappedExpr, ShapedSurface, metaclass=TileMeta):
    """``pl.Tile[[d0, d1], dtype(, memory space, pl.MemRef(...), pl.TileView(...))]``.

    ``pl.Tile(shape=..., dtype=..., memory_space=..., memref=..., tile_view=...)`` is the
    same annotation spelled as a call; ``pl.Tile(expr=e)`` wraps a tile IR expression
    built at Python level.
    """

    __slots__ = ()
    _ir_type = "TileType"

    def __new__(cls, shape: Any = None, dtype: Any = None, expr: Any = None, memref: Any = None,
                memory_space: Any = None, tile_view: Any = None,
                _annotation_only: bool = False) -> Any:
        if expr is not None:
            if shape is not None or dtype is not None or memref is not None \
                    or memory_space is not None or tile_view is not None:
                raise TypeError("pl.Tile(expr=e) takes the tile's type from e; "
                                "give no shape/dtype/memref/memory_space/tile_view with it")
            return super().__new__(cls)
        if shape is None or dtype is None:
            raise TypeError("pl.Tile(...) needs shape= and dtype= (or expr=); use "
                            "pl.create_tile(...) or pl.load(...) inside a @pl.function body "
                            "to make a tile")
        extras = tuple(x for x in (memory_space, memref, tile_view) if x is not None)
        return AnnotationRecord("Tile", (shape, dtype, *extras))

    def __init__(self, shape: Any = None, dtype: Any = None, expr: Any = None,
                 memref: Any = None, memory_space: Any = None, tile_view: Any = None,
                 _annotation_only: bool = False) -> None:
        self._wrap(expr)
