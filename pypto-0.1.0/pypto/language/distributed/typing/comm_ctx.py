"""``pld.CommCtx``: the communication context of a distributed tensor.

In a DSL body ``ctx = pld.get_comm_ctx(x)`` has type ``pld.CommCtx`` and the
annotation ``pld.CommCtx`` spells it; outside one, ``CommCtx(expr=e)`` wraps an IR
expression of that type (``unwrap()`` gives it back).
"""

from __future__ import annotations

from typing import Any

from ....ir.node import Expr

__all__ = ["CommCtx"]


class CommCtx:
    """A communication context value (``pld.CommCtx``)."""

    __slots__ = ("_expr",)

    def __init__(self, *, expr: Expr | None = None) -> None:
        if expr is not None and not isinstance(expr, Expr):
            raise TypeError(f"CommCtx(expr=...) expects an IR expression, "
                            f"got {type(expr).__name__}")
        self._expr = expr

    def unwrap(self) -> Any:
        """The IR expression of this context (``None`` if it wraps none)."""
        return self._expr

    def __repr__(self) -> str:
        return "pld.CommCtx" if self._expr is None else f"pld.CommCtx(expr={self._expr})"
