"""``ir.op.prefetch``: PyPTO's builders of the ``prefetch.*`` ops (``span=None``), generated
from the registry entries."""

from __future__ import annotations

from ..expr import Call
from ..node import Expr
from ..span import Span
from ._namespace import fill_builders

__all__ = fill_builders(globals(), "prefetch")
# PyPTO's module-level names besides the builders
_ = (Call, Expr, Span)
