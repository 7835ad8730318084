"""Sequential meanings of the cross-core, buffer and task ops.

The device runs a cube core (AIC) and its two vector cores (AIV) at once; the pipes
between them are FIFOs of tile slots, and a pop waits for its push.  The executor runs
one statement after the other, so a pipe is a FIFO per (direction, pipe ``id``, lane):

* a push queues a copy of the tile.  Without ``split`` it goes to the direction's
  shared queue; with ``split`` (``pl.SplitMode``: 1 = UP_DOWN rows, 2 = LEFT_RIGHT
  columns) a cube-to-vector push queues one half per vector lane, and a vector-to-cube
  push queues the pushing lane's half (``get_subblock_idx``);
* a pop takes the oldest entry of its queue: a vector lane its own half, the cube the
  two lanes' halves joined.  Each consumer gets what the device gives it, in the same
  order.  A pop that finds its queue empty (in program order the consumer ran first) or
  an entry of another shape or dtype is an error naming the pipe.

Barriers, flags, fences and frees order concurrent work; in program order they already
hold (``noop``).  Buffer addresses (``tile.alloc``, ``reserve_buffer``,
``import_peer_buffer``) only identify buffers here: they are handed out per run, the
same name gets the same address on both sides.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from ..ir.enums import SplitMode
from ._valid import mark_valid, valid_shape_of
from .dtypes import INVALID_TASK_ID, numpy_dtype, np
from .errors import OpFailure
from .state import ExecState, OpInfo, OpImpl

__all__ = ["tpush", "tpop", "noop", "alloc", "reserve_buffer", "import_peer_buffer",
           "core_count", "task_dummy", "task_is_valid", "CORES"]

LANES = 2  # vector cores per cube core
CORES = {"aiv": 2, "cluster": 1}  # the machine the executor models: one cluster
_ALIGN = 512  # buffer addresses are handed out in aligned blocks


def _axis(split: int) -> int:
    if split == SplitMode.UP_DOWN:
        return -2
    if split == SplitMode.LEFT_RIGHT:
        return -1
    raise OpFailure(f"split must be 0 (none), 1 (UP_DOWN) or 2 (LEFT_RIGHT), got {split}")


def _copy(tile: Any) -> Any:
    return mark_valid(np.array(tile), valid_shape_of(tile))


def _queue(state: ExecState, key: tuple) -> deque:
    return state.pipes.setdefault(key, deque())


def _pipe_name(key: tuple) -> str:
    direction, pipe, lane = key
    side = "cube to vector" if direction == "c2v" else "vector to cube"
    where = "" if lane is None else f", lane {lane}"
    return f"the {side} pipe {0 if pipe is None else pipe}{where}"


def tpush(direction: str) -> OpImpl:
    def impl(args: list, info: OpInfo, state: ExecState) -> Any:
        tile, split, pipe = args[0], info.kwargs.get("split") or 0, info.kwargs.get("id")
        if not split:
            _queue(state, (direction, pipe, None)).append(_copy(tile))
            return None
        axis = _axis(split)
        if tile.shape[axis] % LANES:
            raise OpFailure(f"cannot split {tile.shape[axis]} {'rows' if axis == -2 else 'columns'}"
                            f" over {LANES} lanes")
        if direction == "v2c":  # a vector lane pushes its own half
            _queue(state, (direction, pipe, state.subblock_idx)).append(_copy(tile))
            return None
        for lane, piece in enumerate(np.split(np.asarray(tile), LANES, axis=axis)):
            _queue(state, (direction, pipe, lane)).append(_copy(piece))
        return None
    return impl


def _take(state: ExecState, key: tuple) -> Any:
    queue = state.pipes.get(key)
    if not queue:
        raise OpFailure(f"nothing was pushed into {_pipe_name(key)} before this pop: in "
                        "program order the consumer runs before its producer")
    return queue.popleft()


def tpop(direction: str) -> OpImpl:
    def impl(args: list, info: OpInfo, state: ExecState) -> Any:
        split, pipe = info.kwargs.get("split") or 0, info.kwargs.get("id")
        if not split:
            tile = _take(state, (direction, pipe, None))
        elif direction == "c2v":
            tile = _take(state, (direction, pipe, state.subblock_idx))
        else:  # the cube joins the halves of both lanes
            tile = np.concatenate([np.asarray(_take(state, (direction, pipe, lane)))
                                   for lane in range(LANES)], axis=_axis(split))
        want = tuple(int(d.value) for d in info.out_type.shape)
        if tile.shape != want or tile.dtype != numpy_dtype(info.out_type.dtype):
            raise OpFailure(f"the popped tile is {tile.dtype}{list(tile.shape)}, the pop "
                            f"expects {numpy_dtype(info.out_type.dtype)}{list(want)}")
        return tile
    return impl


def noop(args: list, info: OpInfo, state: ExecState) -> Any:
    """Synchronisation and cache maintenance: in program order there is nothing to do."""
    return None


def _fresh_address(state: ExecState, pool: Any, size: int) -> int:
    key = ("next", pool)
    address = state.buffers.get(key, 0)
    state.buffers[key] = address + (max(int(size), 1) + _ALIGN - 1) // _ALIGN * _ALIGN
    return address


def alloc(args: list, info: OpInfo, state: ExecState) -> Any:
    """``tile.alloc(memory_space, size[, addr, alloc_id])`` / ``tensor.alloc(memory_space,
    size)``: ``addr`` when given, else the next free address of that memory space in
    this run."""
    if len(args) > 2:
        return int(args[2])
    return _fresh_address(state, ("space", int(args[0])), args[1])


def reserve_buffer(args: list, info: OpInfo, state: ExecState) -> Any:
    """The address of the buffer ``name``: ``base`` when given (>= 0), else one handed
    out for the name (the same one ``import_peer_buffer`` of the name gets)."""
    name, base = info.kwargs["name"], info.kwargs.get("base", -1)
    key = ("buffer", name)
    if base >= 0:
        state.buffers[key] = base
    elif key not in state.buffers:
        state.buffers[key] = _fresh_address(state, "buffers", info.kwargs["size"])
    return state.buffers[key]


def import_peer_buffer(args: list, info: OpInfo, state: ExecState) -> Any:
    """The address of the peer's buffer ``name`` (handed out now if the peer has not
    reserved it yet in program order)."""
    key = ("buffer", info.kwargs["name"])
    if key not in state.buffers:
        state.buffers[key] = _fresh_address(state, "buffers", 1)
    return state.buffers[key]


def core_count(kind: str) -> OpImpl:
    def impl(args: list, info: OpInfo, state: ExecState) -> Any:
        return CORES[kind]
    return impl


def task_dummy(args: list, info: OpInfo, state: ExecState) -> Any:
    """A task that only joins its dependencies (already complete in program order)."""
    return state.new_task_id()


def task_is_valid(args: list, info: OpInfo, state: ExecState) -> Any:
    return int(args[0]) != INVALID_TASK_ID
