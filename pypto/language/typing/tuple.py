"""``pl.Tuple[T1, T2]``: one tuple-typed value."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._annotation import AnnotationMeta

__all__ = ["Tuple"]


class TupleMeta(AnnotationMeta):
    """``pl.Tuple[...]``."""


if TYPE_CHECKING:
    # Type checkers read pl.Tuple[A, B] as a tuple (docs/guide/typing.md).
    from builtins import tuple as Tuple
else:
    class Tuple(metaclass=TupleMeta):
        """``pl.Tuple[T1, T2]``: one tuple-typed value."""
