"""``pl.InOut[T]`` / ``pl.Out[T]``: parameter directions."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from ._annotation import AnnotationMeta

__all__ = ["InOut", "Out"]

if TYPE_CHECKING:
    # Type checkers read pl.Out[T] / pl.InOut[T] as T (the direction is the parser's
    # business); docs/guide/typing.md.
    from typing import Annotated
    _T = TypeVar("_T")
    InOut = Annotated[_T, "pl.InOut"]
    Out = Annotated[_T, "pl.Out"]
else:
    class InOut(metaclass=AnnotationMeta):
        """``pl.InOut[T]``: a parameter the function reads and writes."""

    class Out(metaclass=AnnotationMeta):
        """``pl.Out[T]``: a parameter the function only writes."""
