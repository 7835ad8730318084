"""The IR types of on-chip arrays, pointers and asynchronous prefetches.

* ``ArrayType(dtype, extent)``: a small array of scalars held on the chip
  (``pl.array.create(8, pl.INT32)``, annotation ``pl.Array[8, pl.INT32]``).  Its
  extent is a constant: the array is sized when the kernel is compiled.  Like a
  tensor or a tile it is a ``ShapedType`` (``shape == [extent]``), but no tensor or
  tile op accepts it: only the ``array.*`` ops read and write it.
* ``PtrType``: an address in one of the device's memories (``pl.tile.alloc``).
* ``PrefetchAsyncContextType``, ``AsyncSessionType``, ``AsyncEventType``: the
  handles of an asynchronous prefetch (``pl.prefetch.make_context`` /
  ``session`` / ``async_prefetch``).

The parameterless types are singletons (``PtrType.get()``), like the distributed
ones.  They live apart from ``types.py`` so the core types do not grow with them.
"""

from __future__ import annotations

from typing import Any

from .distributed_types import _UnitType
from .dtype import DataType
from .enums import MemorySpace
from .node import check_type
from .types import ShapedType

__all__ = ["ArrayType", "PtrType", "AsyncEventType", "AsyncSessionType",
           "PrefetchAsyncContextType"]

_set = object.__setattr__


def _extent(value: Any) -> int:
    from .expr import ConstInt
    if isinstance(value, ConstInt):
        value = value.value
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"ArrayType: field 'extent' expects a constant int, "
                        f"got {type(value).__name__}")
    if value <= 0:
        raise ValueError(f"ArrayType: extent must be positive, got {value}")
    return value


class ArrayType(ShapedType):
    """A fixed-size on-chip array of ``extent`` scalars of ``dtype``."""

    __slots__ = ("extent",)
    extent: int
    _fields = ("dtype", "extent")

    def __init__(self, dtype: DataType, extent: Any) -> None:
        from .expr import ConstInt
        check_type("ArrayType", "dtype", dtype, DataType, "DataType")
        extent = _extent(extent)
        _set(self, "dtype", dtype)
        _set(self, "extent", extent)
        _set(self, "shape", (ConstInt(extent, DataType.INDEX),))
        _set(self, "memref", None)
        _set(self, "_static", True)

    @property
    def memory_space(self) -> MemorySpace:
        """Arrays live in the scalar unit's local memory."""
        return MemorySpace.ScalarLocal

    def shares_memref_with(self, other: Any) -> bool:
        return False  # an array has no MemRef

    def _compute_plain_key(self) -> tuple | None:
        return ("array", self.dtype.code(), self.extent)


class PtrType(_UnitType):
    """An address in device memory (the result of ``pl.tile.alloc``)."""

    __slots__ = ()


class PrefetchAsyncContextType(_UnitType):
    """The context prefetches are issued in (``pl.prefetch.make_context()``)."""

    __slots__ = ()


class AsyncSessionType(_UnitType):
    """A session of a prefetch context (``pl.prefetch.session(ctx)``)."""

    __slots__ = ()


class AsyncEventType(_UnitType):
    """The completion event of one prefetch (``pl.prefetch.async_prefetch``)."""

    __slots__ = ()
