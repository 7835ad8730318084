"""Communication windows on the CPU: every rank's copy of a window buffer is a byte
array of one shared ``WindowAllocation``; a ``DistributedArray`` views it per rank with
a shape and dtype (``pld.window``).

Inside a rank a distributed tensor is just that rank's NumPy array, so every ordinary
op works on it; ``window_of`` finds the window behind an array (or a view of one), which
is how the remote ops reach a peer's copy.
"""

from __future__ import annotations

from typing import Any

from ..dtypes import np
from ..errors import OpFailure

__all__ = ["WindowAllocation", "DistributedArray", "CommContext", "window_of"]


class WindowAllocation:
    """``pld.alloc_window_buffer(size, name=)``: ``size`` bytes on each of ``world_size``
    ranks, zero-filled."""

    def __init__(self, name: str, size: int, world_size: int) -> None:
        if isinstance(size, bool) or not isinstance(size, int) or size <= 0:
            raise OpFailure(f"the window buffer size must be a positive number of bytes, "
                            f"got {size!r}")
        self.name = name
        self.size = size
        self.per_rank = [np.zeros(size, dtype=np.uint8) for _ in range(world_size)]

    def __repr__(self) -> str:
        return f"<window buffer '{self.name}': {self.size} bytes x {len(self.per_rank)} ranks>"


class DistributedArray:
    """A window seen as ``shape``/``dtype`` on every rank (``per_rank[r]``).

    ``numpy.asarray`` of it stacks the ranks' copies: shape ``[world_size, *shape]``."""

    def __init__(self, allocation: WindowAllocation, shape: tuple[int, ...], dtype: Any) -> None:
        count = 1
        for extent in shape:
            count *= extent
        need = count * np.dtype(dtype).itemsize
        if need > allocation.size:
            raise OpFailure(f"a window of shape {list(shape)} needs {need} bytes but window "
                            f"buffer '{allocation.name}' has {allocation.size}")
        self.allocation = allocation
        self.shape = shape
        self.dtype = np.dtype(dtype)
        self.per_rank = [buf[:need].view(self.dtype).reshape(shape)
                         for buf in allocation.per_rank]
        self._owners = {id(array): rank for rank, array in enumerate(self.per_rank)}

    def rank_of(self, array: Any) -> int | None:
        return self._owners.get(id(array))

    def __array__(self, dtype: Any = None, copy: Any = None) -> Any:
        stacked = np.stack(self.per_rank)
        return stacked if dtype is None else stacked.astype(dtype)

    def __repr__(self) -> str:
        return (f"<distributed tensor {list(self.shape)} {self.dtype} on "
                f"{len(self.per_rank)} ranks>")


class CommContext:
    """``pld.get_comm_ctx(t)``: the rank running and the number of ranks."""

    __slots__ = ("rank", "nranks")

    def __init__(self, rank: int, nranks: int) -> None:
        self.rank = rank
        self.nranks = nranks

    def __repr__(self) -> str:
        return f"<comm ctx: rank {self.rank} of {self.nranks}>"


def window_of(array: Any, windows: dict[int, DistributedArray], what: str
              ) -> tuple[DistributedArray, int]:
    """The window whose rank copy ``array`` is, and that rank; ``OpFailure`` naming
    ``what`` if it is none (a slice or view of a window is not one either)."""
    found = windows.get(id(array))
    if found is not None:
        rank = found.rank_of(array)
        if rank is not None:
            return found, rank
    raise OpFailure(f"'{what}' is not a window tensor (make it with pld.window and pass it "
                    "to the rank as it is, not a slice or view of it)")
