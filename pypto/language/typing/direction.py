"""``pl.InOut[T]`` / ``pl.Out[T]``: parameter directions."""

from __future__ import annotations

from ._annotation import AnnotationMeta

__all__ = ["InOut", "Out"]


class InOut(metaclass=AnnotationMeta):
    """``pl.InOut[T]``: a parameter the function reads and writes."""


class Out(metaclass=AnnotationMeta):
    """``pl.Out[T]``: a parameter the function only writes."""
