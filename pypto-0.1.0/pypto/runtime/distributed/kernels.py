"""The executor meaning of the distributed ops (the ``dist_*`` kernel families).

One-sided ops (``put``, ``get``, ``remote_load``, ``remote_store``, ``notify``) read or
write a peer's copy of a window at once.  ``wait`` blocks the rank until its signal
element compares true.  Collectives are rendezvous: each rank's *k*-th collective
meets every other rank's *k*-th; the last rank to arrive computes the result for all
(exactly: the ranks' data is combined in rank order) and the others go on.  See
``ranks.py`` for how ranks take turns.
"""

from __future__ import annotations

from typing import Any, Callable

from ...ir.enums import AtomicType, NotifyOp, ReduceOp, WaitCmp
from .._data_movement import load as _tile_load
from .._windows import point, window
from ..dtypes import np, numpy_dtype
from ..errors import OpFailure
from ..state import ExecState, OpInfo
from .windows import CommContext, DistributedArray, WindowAllocation, window_of

__all__ = ["DIST_KERNELS"]

_REDUCERS: dict[ReduceOp, Callable[..., Any]] = {
    ReduceOp.Sum: np.sum, ReduceOp.Max: np.max, ReduceOp.Min: np.min, ReduceOp.Prod: np.prod}


def _scheduler(state: ExecState, what: str, on_rank: bool = True) -> Any:
    sched = state.ranks
    if on_rank and sched.current is None:
        raise OpFailure(f"{what} runs on a rank: call the function that holds it with "
                        "device=r (self.kernel(..., device=r))")
    return sched


def _peer(sched: Any, peer: Any) -> int:
    if isinstance(peer, bool) or not isinstance(peer, (int, np.integer)) \
            or not 0 <= int(peer) < sched.world_size:
        raise OpFailure(f"peer {peer!r} is not a rank (the world has {sched.world_size} "
                        "ranks: 0 .. world_size - 1)")
    return int(peer)


def _index(values: Any) -> tuple[int, ...]:
    return tuple(int(v) for v in values)


# -- ranks and contexts -------------------------------------------------------------------

def world_size(args: list, info: OpInfo, state: ExecState) -> int:
    return state.ranks.world_size


def comm_ctx(args: list, info: OpInfo, state: ExecState) -> CommContext:
    sched = _scheduler(state, info.name)
    window_of(args[0], sched.windows, "dist_tensor")
    return CommContext(sched.current.rank, sched.world_size)


def rank(args: list, info: OpInfo, state: ExecState) -> int:
    return args[0].rank


def nranks(args: list, info: OpInfo, state: ExecState) -> int:
    return args[0].nranks


# -- windows --------------------------------------------------------------------------------

def alloc(args: list, info: OpInfo, state: ExecState) -> WindowAllocation:
    """On the host: a new window buffer.  On a rank: the ranks' n-th allocation of a name
    is one buffer (each rank allocates its own copy of it)."""
    sched = state.ranks
    size, name = int(args[0]), info.kwargs.get("name", "")
    task = sched.current
    if task is None:
        return WindowAllocation(name, size, sched.world_size)
    key = (name, task.allocations)
    task.allocations += 1
    found = sched.rank_allocations.get(key)
    if found is None:
        found = sched.rank_allocations[key] = WindowAllocation(name, size, sched.world_size)
    elif found.size != size:
        raise OpFailure(f"rank {task.rank} allocates window buffer '{name}' with {size} bytes, "
                        f"another rank with {found.size}")
    return found


def make_window(args: list, info: OpInfo, state: ExecState) -> Any:
    buf, shape = args[0], _index(args[1])
    if not isinstance(buf, WindowAllocation):
        raise OpFailure("'buf' is not a window buffer (from pld.alloc_window_buffer)")
    sched = state.ranks
    dist = DistributedArray(buf, shape, numpy_dtype(info.kwargs["dtype"]))
    for array in dist.per_rank:
        sched.windows[id(array)] = dist
    task = sched.current
    return dist if task is None else dist.per_rank[task.rank]


def _peer_copy(sched: Any, array: Any, peer: Any, what: str) -> Any:
    dist, _ = window_of(array, sched.windows, what)
    return dist.per_rank[_peer(sched, peer)]


def _copy(dst: Any, dst_offsets: Any, src: Any, src_offsets: Any, shape: Any,
          atomic: Any) -> None:
    sizes = _index(shape) if shape else src.shape
    dst_at = _index(dst_offsets) if dst_offsets else (0,) * dst.ndim
    src_at = _index(src_offsets) if src_offsets else (0,) * src.ndim
    data = src[window(src_at, sizes, src.shape, "src")]
    target = window(dst_at, data.shape, dst.shape, "dst")
    if atomic is AtomicType.Add:
        dst[target] += data.astype(dst.dtype, copy=False)
    else:
        dst[target] = data


def _copy_operands(args: list, info: OpInfo) -> tuple:
    """``(dst, peer, src, dst_offsets, src_offsets, shape)``: the tile forms carry their
    staging tiles at positions 3 and 4 (the CPU copies directly)."""
    first = 5 if info.name.startswith("pld.tile.") else 3
    rest = list(args[first:first + 3]) + [None] * (3 - len(args[first:first + 3]))
    return (args[0], args[1], args[2], *rest)


def put(args: list, info: OpInfo, state: ExecState) -> Any:
    sched = _scheduler(state, info.name)
    dst, peer, src, dst_offsets, src_offsets, shape = _copy_operands(args, info)
    _copy(_peer_copy(sched, dst, peer, "dst"), dst_offsets, src, src_offsets, shape,
          info.kwargs.get("atomic"))
    return dst


def get(args: list, info: OpInfo, state: ExecState) -> Any:
    sched = _scheduler(state, info.name)
    dst, peer, src, dst_offsets, src_offsets, shape = _copy_operands(args, info)
    _copy(dst, dst_offsets, _peer_copy(sched, src, peer, "src"), src_offsets, shape, None)
    return dst


def remote_store(args: list, info: OpInfo, state: ExecState) -> Any:
    sched = _scheduler(state, info.name)
    src, target, peer, offsets = args
    _copy(_peer_copy(sched, target, peer, "target"), offsets, src, None, None,
          info.kwargs.get("atomic"))
    return target


def remote_load(args: list, info: OpInfo, state: ExecState) -> Any:
    sched = _scheduler(state, info.name)
    peer_copy = _peer_copy(sched, args[0], args[1], "target")
    return _tile_load([peer_copy, *args[2:]], info, state)


# -- signals ----------------------------------------------------------------------------------

def notify(args: list, info: OpInfo, state: ExecState) -> None:
    sched = _scheduler(state, info.name)
    target, peer, offsets, value = args
    signal = _peer_copy(sched, target, peer, "target")
    at = point(offsets, signal.shape, "signal")
    if info.kwargs["op"] is NotifyOp.AtomicAdd:
        signal[at] += value
    else:
        signal[at] = value


def wait(args: list, info: OpInfo, state: ExecState) -> None:
    sched = _scheduler(state, info.name)
    signal, offsets, expected = args
    at = point(offsets, signal.shape, "signal")
    greater_equal = info.kwargs["cmp"] is WaitCmp.Ge
    word = ">=" if greater_equal else "=="

    def ready() -> bool:
        value = signal[at]
        return bool(value >= expected if greater_equal else value == expected)

    sched.block(ready, lambda: f"{info.name}: signal{list(at)} {word} {expected} (it is "
                               f"{signal[at]})", info.span)


# -- collectives ------------------------------------------------------------------------------

class _Rendezvous:
    __slots__ = ("name", "arrived", "done")

    def __init__(self, name: str) -> None:
        self.name = name
        self.arrived: dict[int, list] = {}
        self.done = False


def _collective(info: OpInfo, state: ExecState, args: list,
                combine: Callable[[list[list], dict], None]) -> None:
    """Meet every rank at this collective; the last one runs ``combine(operands by
    rank, attributes)``."""
    sched = _scheduler(state, info.name)
    task = sched.current
    index = task.collectives
    task.collectives += 1
    meeting = sched.collectives.get(index)
    if meeting is None:
        meeting = sched.collectives[index] = _Rendezvous(info.name)
    elif meeting.name != info.name:
        raise OpFailure(f"rank {task.rank} reached {info.name} as its collective #{index}, "
                        f"but other ranks reached {meeting.name} there")
    meeting.arrived[task.rank] = args
    world = sched.world_size
    if len(meeting.arrived) == world:
        combine([meeting.arrived[r] for r in range(world)], info.kwargs)
        meeting.done = True
        return

    def missing() -> str:
        absent = [r for r in range(world) if r not in meeting.arrived]
        return (f"{info.name} (collective #{index}) needs every rank; ranks "
                f"{', '.join(map(str, absent))} have not reached it")
    sched.block(lambda: meeting.done, missing, info.span)


def _reduce(arrays: list, op: ReduceOp) -> Any:
    return _REDUCERS[op](np.stack(arrays), axis=0).astype(arrays[0].dtype, copy=False)


def _chunks(array: Any, world: int, what: str) -> Any:
    if array.size % world:
        raise OpFailure(f"{what} has {array.size} elements, not divisible by the {world} ranks")
    return array.reshape(world, -1)


def _allreduce(ranks: list[list], kwargs: dict) -> None:
    total = _reduce([operands[0] for operands in ranks], kwargs["op"])
    for operands in ranks:
        operands[0][...] = total


def _reduce_scatter(ranks: list[list], kwargs: dict) -> None:
    world = len(ranks)
    total = _chunks(_reduce([operands[0] for operands in ranks], kwargs["op"]), world, "target")
    for r, operands in enumerate(ranks):
        _chunks(operands[0], world, "target")[r] = total[r]


def _broadcast(ranks: list[list], kwargs: dict) -> None:
    root = kwargs["root"]
    if not 0 <= root < len(ranks):
        raise OpFailure(f"root {root} is not a rank (the world has {len(ranks)} ranks)")
    data = ranks[root][0].copy()
    for operands in ranks:
        operands[0][...] = data


def _allgather(ranks: list[list], kwargs: dict) -> None:
    world = len(ranks)
    for operands in ranks:
        gathered = _chunks(operands[1], world, "target")
        for j, source in enumerate(ranks):
            if source[0].size != gathered.shape[1]:
                raise OpFailure(f"target holds {gathered.shape[1]} elements per rank, rank {j}'s "
                                f"input has {source[0].size}")
            gathered[j] = source[0].ravel()


def _all_to_all(ranks: list[list], kwargs: dict) -> None:
    world = len(ranks)
    sent = [_chunks(operands[0], world, "input").copy() for operands in ranks]
    for r, operands in enumerate(ranks):
        received = _chunks(operands[1], world, "target")
        for j in range(world):
            received[j] = sent[j][r]


def _counts(value: Any, world: int, what: str) -> list[int]:
    counts = [int(c) for c in np.asarray(value).ravel()]
    if len(counts) != world or any(c < 0 for c in counts):
        raise OpFailure(f"{what} must hold {world} non-negative counts, got {counts}")
    return counts


def _all_to_all_v(ranks: list[list], kwargs: dict) -> None:
    world = len(ranks)
    sends = [_counts(operands[3], world, "send_counts") for operands in ranks]
    recvs = [_counts(operands[4], world, "recv_counts") for operands in ranks]
    sent = [operands[0].copy() for operands in ranks]
    for r, operands in enumerate(ranks):
        target, row = operands[1], 0
        for j in range(world):
            if sends[j][r] != recvs[r][j]:
                raise OpFailure(f"rank {j} sends {sends[j][r]} rows to rank {r}, which expects "
                                f"{recvs[r][j]}")
            start = sum(sends[j][:r])
            target[row:row + recvs[r][j]] = sent[j][start:start + sends[j][r]]
            row += recvs[r][j]


def _collective_kernel(combine: Callable[[list[list], dict], None], result: int | None
                       ) -> Callable[[list, OpInfo, ExecState], Any]:
    def impl(args: list, info: OpInfo, state: ExecState) -> Any:
        _collective(info, state, list(args), combine)
        return None if result is None else args[result]
    return impl


def _fixed(impl: Any) -> Callable[[], Any]:
    return lambda: impl


DIST_KERNELS: dict[str, Callable[..., Any]] = {
    "dist_world_size": _fixed(world_size), "dist_comm_ctx": _fixed(comm_ctx),
    "dist_rank": _fixed(rank), "dist_nranks": _fixed(nranks), "dist_alloc": _fixed(alloc),
    "dist_window": _fixed(make_window), "dist_put": _fixed(put), "dist_get": _fixed(get),
    "dist_remote_store": _fixed(remote_store), "dist_remote_load": _fixed(remote_load),
    "dist_notify": _fixed(notify), "dist_wait": _fixed(wait),
    "dist_allreduce": _fixed(_collective_kernel(_allreduce, 0)),
    "dist_reduce_scatter": _fixed(_collective_kernel(_reduce_scatter, 0)),
    "dist_broadcast": _fixed(_collective_kernel(_broadcast, 0)),
    "dist_allgather": _fixed(_collective_kernel(_allgather, 1)),
    "dist_all_to_all": _fixed(_collective_kernel(_all_to_all, 1)),
    "dist_all_to_all_v": _fixed(_collective_kernel(_all_to_all_v, 1)),
    "dist_barrier": _fixed(_collective_kernel(lambda ranks, kwargs: None, None)),
}

