"""The ``array.*`` and ``prefetch.*`` op tables (reference: ops.md, groups ``array`` and
``prefetch``).

* ``array.*``: a small array of scalars on the chip (``pl.Array[8, pl.INT32]``),
  created with a constant extent, read and written one element at a time.
  ``update_element`` writes in place (its array operand is ``ReadWrite``) and returns
  the array, so ``a = pl.array.update_element(a, i, v)`` carries it through a loop.
* ``prefetch.*``: asynchronous prefetches of a tensor into on-chip memory.  A context
  issues prefetches, each gives an event; a session waits for events.  On the CPU
  executor the data is simply there: the handles are tokens and ``wait`` returns true
  at once (docs/guide/differences.md).
"""

from __future__ import annotations

from . import deduce_array as rule
from .registry import DTYPE, ArgKind, Effect, KwargSpec, OpDef, ParamSpec, Semantics, register_op

__all__ = ["ARRAY_OPS", "PREFETCH_OPS"]

A, S, T, V = ArgKind.Array, ArgKind.Scalar, ArgKind.Tensor, ArgKind.Value
P, K, X = ParamSpec, KwargSpec, Semantics

ARRAY_OPS: tuple[OpDef, ...] = (
    OpDef("array.create", [P("extent", S)], rule.array_create,
          [K("dtype", DTYPE, required=True)], semantics=X("array_create")),
    OpDef("array.get_element", [P("array", A), P("index", S)], rule.array_get,
          semantics=X("array_get")),
    OpDef("array.update_element", [P("array", A, Effect.ReadWrite), P("index", S),
                                   P("value", S)], rule.array_update,
          semantics=X("array_update")),
)

PREFETCH_OPS: tuple[OpDef, ...] = (
    OpDef("prefetch.async_prefetch", [P("src", T), P("ctx", V)], rule.prefetch_event,
          semantics=X("prefetch_handle", ("event",))),
    OpDef("prefetch.make_context", [], rule.prefetch_context,
          semantics=X("prefetch_handle", ("context",))),
    OpDef("prefetch.session", [P("ctx", V)], rule.prefetch_session,
          semantics=X("prefetch_handle", ("session",))),
    OpDef("prefetch.wait", [P("event", V), P("session", V)], rule.prefetch_wait,
          semantics=X("prefetch_wait"), pl="event, session_handle:session",
          ir="event, session_handle:session, span"),
)

for _entry in ARRAY_OPS + PREFETCH_OPS:
    register_op(_entry)
