"""PyPTO's ``pypto.language.typing.array`` path: ``pl.Array`` (defined with the pointer
and prefetch handles in ``pypto/language/array_types.py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING  # noqa: F401 - PyPTO's module shows it

from ..array_types import Array, ArrayMeta
# PyPTO's module-level names of this path
from ...ir.dtype import DataType  # noqa: F401
from ...ir.node import Expr  # noqa: F401

__all__ = ["Array", "ArrayMeta"]
