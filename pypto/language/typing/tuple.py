"""``pl.Tuple[T1, T2]``: one tuple-typed value."""

from __future__ import annotations

from ._annotation import AnnotationMeta

__all__ = ["Tuple"]


class TupleMeta(AnnotationMeta):
    """``pl.Tuple[...]``."""


class Tuple(metaclass=TupleMeta):
    """``pl.Tuple[T1, T2]``: one tuple-typed value."""
