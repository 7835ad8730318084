"""``pl.MemRef(base, byte_offset, size)`` in a ``pl.Tensor``/``pl.Tile`` annotation.

As in PyPTO, ``pl.MemRef`` is a subclass of the IR's ``MemRef`` taking its arguments
as they come; calling it gives the IR's ``MemRef`` itself (so a program built from
Python compares, prints and serializes as a parsed one).  In an annotation the parser
reads the call (``pypto/language/parser/memref_slot.py``).
"""

from __future__ import annotations

from typing import Any

from ...ir import memref as _ir
# PyPTO's module-level names of this path
from ...ir.array_types import PtrType  # noqa: E402,F401
from ...ir.enums import MemorySpace  # noqa: E402,F401
from ...ir.expr import Var  # noqa: E402,F401
from ...ir.node import Expr  # noqa: E402,F401
from ...ir.span import Span  # noqa: E402,F401
from .scalar import Scalar  # noqa: E402,F401

__all__ = ["MemRef"]


class MemRef(_ir.MemRef):
    """``pl.MemRef(base, byte_offset, size, span=None, is_pinned=False, slots=1, slot=None)``:
    an ``ir.MemRef``; a ``str`` base names a fresh ``pl.Ptr`` buffer."""

    __slots__ = ()

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        return _ir.MemRef(*args, **kwargs)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        pass  # never reached: __new__ returns an ir.MemRef
