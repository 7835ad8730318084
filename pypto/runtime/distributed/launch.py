"""``self.kernel(..., device=r)``: launching a program function as rank ``r``."""

from __future__ import annotations

from typing import Any

from ..errors import ExecutionError
from ..state import ExecState
from ..values import describe_value
from .windows import DistributedArray

__all__ = ["launch_on_rank", "finish_launches"]


def launch_on_rank(executor: Any, callee: Any, args: tuple, device: Any, blocks: Any,
                   span: Any, caller: str) -> tuple:
    """Start ``callee`` as rank ``device``; its results if it finished at once, else the
    buffers it returns from its parameters (they are filled when the launch finishes)."""
    ranks = executor.state.ranks
    name = callee.function.name
    what = f"call of '{name}'"
    if ranks.current is not None:
        raise ExecutionError.at(what, span, f"a rank ({ranks.current.label()}) cannot launch "
                                "another rank with device=; launch ranks from the host", caller)
    if isinstance(device, bool) or not isinstance(device, int) \
            or not 0 <= device < ranks.world_size:
        raise ExecutionError.at(what, span, f"device={describe_value(device)} is not a rank of "
                                f"this run (world size {ranks.world_size}: devices 0 .. "
                                f"{ranks.world_size - 1})", caller)
    if any(task.rank == device and not task.done for task in ranks.tasks):
        # A device runs its launches in order: the previous one finishes first.
        ranks.drain(executor, what, span)
    rank_args = tuple(a.per_rank[device] if isinstance(a, DistributedArray) else a
                      for a in args)
    if blocks is None:
        def body() -> tuple:
            return callee.invoke(rank_args, span)
    else:
        def body() -> tuple:
            return callee.launch(rank_args, blocks, span)
    executor.pending_ranks = True
    task = ranks.launch(device, name, ExecState(ranks), body, executor)
    return task.results if task.done else callee.results_when_skipped(rank_args)


def finish_launches(executor: Any, where: str, span: Any) -> None:
    """On the host: run the launched ranks to the end (a deadlock is an error)."""
    ranks = executor.state.ranks
    if ranks.current is None:
        executor.pending_ranks = False
        ranks.drain(executor, where, span)
