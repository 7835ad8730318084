"""The DSL's array, pointer and prefetch-handle classes: ``pl.Array``, ``pl.Ptr``,
``pl.AsyncEvent``, ``pl.AsyncSession``, ``pl.PrefetchAsyncContext``.

In a ``@pl.function`` body they are annotations, read from the source by the parser
(``a: pl.Array[8, pl.INT32] = pl.array.create(8, pl.INT32)``; ``pl.Ptr``).  Outside
one, ``Array(expr=e)`` ... wrap an IR expression of the matching type and ``unwrap()``
gives it back, as PyPTO's handles do.  ``pl.PtrType`` is the IR type itself
(``ir.PtrType``), as in PyPTO.
"""

from __future__ import annotations

from typing import Any

from ..ir.node import Expr
from .typing import AnnotationRecord

__all__ = ["Array", "ArrayMeta", "Ptr", "AsyncEvent", "AsyncSession", "PrefetchAsyncContext"]


class _Handle:
    """A DSL value standing for one IR expression (``unwrap()``)."""

    __slots__ = ("_expr",)
    _spelling = "pl.?"

    def __init__(self, *, expr: Expr | None = None) -> None:
        if expr is not None and not isinstance(expr, Expr):
            raise TypeError(f"{type(self).__name__}(expr=...) expects an IR expression, "
                            f"got {type(expr).__name__}")
        self._expr = expr

    def unwrap(self) -> Any:
        """The IR expression behind this value (``None`` if it wraps none)."""
        return self._expr

    def __repr__(self) -> str:
        return self._spelling if self._expr is None else f"{self._spelling}(expr={self._expr})"


class ArrayMeta(type):
    """``pl.Array[extent, dtype]`` as a Python value: the inert record of the annotation
    (the parser reads the annotation from the source, or this record for an alias)."""

    def __getitem__(cls, args: Any) -> AnnotationRecord:
        return AnnotationRecord("Array", args)

    def __repr__(cls) -> str:
        return "pl.Array"


class Array(_Handle, metaclass=ArrayMeta):
    """A small on-chip array of scalars (``pl.Array[8, pl.INT32]``)."""

    __slots__ = ()
    _spelling = "pl.Array"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        expr = kwargs.pop("expr", None)
        if args or kwargs:
            raise TypeError("pl.Array is an annotation (pl.Array[8, pl.INT32]); make an array "
                            "with pl.array.create(extent, dtype) inside a @pl.function body")
        super().__init__(expr=expr)


class Ptr(_Handle):
    """An address in device memory (``pl.Ptr``: the result of ``pl.tile.alloc``)."""

    __slots__ = ()
    _spelling = "pl.Ptr"


class _OpaqueHandle(_Handle):
    """A prefetch handle: nothing to read from it but its identity."""

    __slots__ = ()


class PrefetchAsyncContext(_OpaqueHandle):
    """``pl.prefetch.make_context()``: the context prefetches are issued in."""

    __slots__ = ()
    _spelling = "pl.PrefetchAsyncContext"


class AsyncSession(_OpaqueHandle):
    """``pl.prefetch.session(ctx)``: a session that waits for prefetches."""

    __slots__ = ()
    _spelling = "pl.AsyncSession"


class AsyncEvent(_OpaqueHandle):
    """``pl.prefetch.async_prefetch(src, ctx)``: the completion event of one prefetch."""

    __slots__ = ()
    _spelling = "pl.AsyncEvent"
