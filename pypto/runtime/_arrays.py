"""Kernels of the ``array.*`` and ``prefetch.*`` ops.

An on-chip array is a one-dimensional NumPy array of its dtype (zero-filled when
created); ``update_element`` writes it in place, as the device does, and returns it.

A prefetch copies a tensor into on-chip memory ahead of its use.  The executor reads
tensors where they are, so a prefetch has nothing to do: contexts, sessions and events
are tokens (``PrefetchHandle``) and ``wait`` is true at once.
"""

from __future__ import annotations

from typing import Any

from ._array_math import scalar_as
from .dtypes import numpy_dtype, np
from .errors import OpFailure
from .state import ExecState, OpInfo, OpImpl

__all__ = ["PrefetchHandle", "array_create", "array_get", "array_update", "prefetch_handle",
           "prefetch_wait"]


def _position(array: Any, index: Any) -> int:
    position = int(index)
    if not 0 <= position < array.shape[0]:
        raise OpFailure(f"index {position} is out of range for an array of extent "
                        f"{array.shape[0]}")
    return position


def array_create(args: list, info: OpInfo, state: ExecState) -> Any:
    return np.zeros((int(args[0]),), dtype=numpy_dtype(info.kwargs["dtype"]))


def array_get(args: list, info: OpInfo, state: ExecState) -> Any:
    array = args[0]
    return array[_position(array, args[1])].item()


def array_update(args: list, info: OpInfo, state: ExecState) -> Any:
    array = args[0]
    array[_position(array, args[1])] = scalar_as(array.dtype, args[2])
    return array


class PrefetchHandle:
    """A prefetch context, session or event on the CPU: only its kind and identity."""

    __slots__ = ("kind",)

    def __init__(self, kind: str) -> None:
        self.kind = kind

    def __repr__(self) -> str:
        return f"<prefetch {self.kind}>"


def prefetch_handle(kind: str) -> OpImpl:
    def impl(args: list, info: OpInfo, state: ExecState) -> Any:
        return PrefetchHandle(kind)
    return impl


def prefetch_wait(args: list, info: OpInfo, state: ExecState) -> Any:
    """The prefetched data is already where the executor reads it."""
    return True
