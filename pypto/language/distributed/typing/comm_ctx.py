"""``pld.CommCtx``: the communication context of a distributed tensor.

In a DSL body ``ctx = pld.get_comm_ctx(x)`` has type ``pld.CommCtx`` and the
annotation ``pld.CommCtx`` spells it; outside one, ``CommCtx(expr=e)`` wraps an IR
expression of that type (``unwrap()`` gives it back), like the other handles
(``pl.AsyncEvent`` ..., ``pypto/language/array_types.py``).
"""

from __future__ import annotations

from ....ir.node import Expr  # noqa: F401 - PyPTO's module-level name of this path
from ...array_types import _Handle

__all__ = ["CommCtx"]


class CommCtx(_Handle):
    """A communication context value (``pld.CommCtx``)."""

    __slots__ = ()
    _spelling = "pld.CommCtx"
