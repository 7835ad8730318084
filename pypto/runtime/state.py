"""Per-run execution state and the per-call facts op implementations receive."""

from __future__ import annotations

from typing import Any, Callable

from ..ir.dtype import DataType

__all__ = ["ExecState", "OpInfo", "OpImpl"]


class ExecState:
    """What an executing program can observe beyond its values.

    ``block_idx``/``block_num`` describe the SPMD block being run (0 of 1 outside
    any ``pl.spmd``); ``next_task_id`` numbers launched tasks 0, 1, 2, ...;
    ``call_depth`` counts active calls of program functions.  ``pipes`` holds the
    cross-core FIFOs (``tpush_*``/``tpop_*``: ``(direction, pipe id, lane)`` -> queued
    tiles) and ``buffers`` the addresses handed out by ``alloc``/``reserve_buffer``
    (see ``_cross_core``).
    """

    __slots__ = ("block_idx", "block_num", "subblock_idx", "next_task_id", "call_depth",
                 "pipes", "buffers", "ranks")

    def __init__(self, ranks: Any = None) -> None:
        # ``ranks``: the run's ``RankScheduler`` (distributed launches), shared by the host
        # and every rank task.
        self.ranks = ranks
        self.call_depth = 0
        self.block_idx = 0
        self.block_num = 1
        self.subblock_idx = 0
        self.next_task_id = 0
        self.pipes: dict = {}
        self.buffers: dict = {}

    def new_task_id(self) -> int:
        task_id = self.next_task_id
        self.next_task_id += 1
        return task_id


class OpInfo:
    """Facts about one op call site, computed once when the call is compiled.

    ``kwargs`` holds every declared keyword (defaults filled in); ``out_dtype`` is the
    deduced result dtype (``None`` when the call is untyped), with ``out_numpy`` its
    NumPy storage dtype; ``out_type`` the deduced result type itself (ops whose result
    shape no operand gives, like a cross-core pop, read it); ``attrs`` the call's attrs.
    """

    __slots__ = ("name", "kwargs", "out_dtype", "out_numpy", "span", "out_type", "attrs")

    def __init__(self, name: str, kwargs: dict[str, Any], out_dtype: DataType | None,
                 out_numpy: Any, span: Any = None, out_type: Any = None,
                 attrs: dict | None = None) -> None:
        self.span = span  # where the call is (ops that block name it in a deadlock report)
        self.name = name
        self.kwargs = kwargs
        self.out_dtype = out_dtype
        self.out_numpy = out_numpy
        self.out_type = out_type
        self.attrs = attrs or {}


# What an op does when run: its arguments, the call's description and the executor state.
OpImpl = Callable[[list, OpInfo, ExecState], Any]
