"""``self.kernel(..., device=r)``: launching a program function as rank ``r``."""

from __future__ import annotations

from typing import Any

from ...ir.enums import ParamDirection
from ..errors import ExecutionError
from ..state import ExecState
from ..values import UNSET, describe_value
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
        raise ExecutionError.at(what, span, f"device={device!r} is not a rank of "
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
    return task.results if task.done else _pending_results(callee, rank_args)


def _pending_results(callee: Any, args: tuple) -> tuple:
    """The results of a launch that has not finished: the buffers they will be.  A result
    the callee returns from a parameter is that argument; any other is taken to be the
    first unused ``Out``/``InOut`` argument of its type (a kernel returning the buffer it
    wrote), else it has no value until the launch finishes."""
    function = callee.function
    results = list(callee.results_when_skipped(args))
    free = [i for i, d in enumerate(function.param_directions)
            if d is not ParamDirection.In and i < len(args)]
    for i, value in enumerate(results):
        if value is not UNSET:
            continue
        wanted = function.return_types[i] if i < len(function.return_types) else None
        for index in free:
            if function.params[index].type == wanted:
                results[i] = args[index]
                free.remove(index)
                break
    return tuple(results)


def finish_launches(executor: Any, where: str, span: Any) -> None:
    """On the host: run the launched ranks to the end (a deadlock is an error)."""
    ranks = executor.state.ranks
    if ranks.current is None:
        executor.pending_ranks = False
        ranks.drain(executor, where, span)
