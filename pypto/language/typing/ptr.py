"""PyPTO's ``pypto.language.typing.ptr`` path: ``pl.Ptr`` (``pypto/language/array_types.py``)."""

from __future__ import annotations

from ..array_types import Ptr
from ...ir.node import Expr  # noqa: F401  (PyPTO's module-level name)

__all__ = ["Ptr"]
