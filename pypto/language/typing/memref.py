"""``pl.MemRef(...)`` in a ``pl.Tensor``/``pl.Tile`` annotation: the IR's ``MemRef``
(one definition, in ``pypto.ir.types``)."""

from __future__ import annotations

from ...ir.types import MemRef
# PyPTO's module-level names of this path
from ...ir.array_types import PtrType  # noqa: E402,F401
from ...ir.enums import MemorySpace  # noqa: E402,F401
from ...ir.expr import Var  # noqa: E402,F401
from ...ir.node import Expr  # noqa: E402,F401
from ...ir.span import Span  # noqa: E402,F401
from .scalar import Scalar  # noqa: E402,F401

__all__ = ["MemRef"]
