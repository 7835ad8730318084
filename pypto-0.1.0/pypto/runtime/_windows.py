"""Index windows of data-movement ops: validation against the buffer and slicing.

Every message is the bare detail (the interpreter prefixes op name and span):
``offsets [64, 0] + shape [32, 32] exceed tensor shape [64, 128]``.
"""

from __future__ import annotations

from typing import Any, Sequence

from .errors import OpFailure

__all__ = ["shape_text", "window", "point", "check_sizes"]


def shape_text(shape: Sequence[Any]) -> str:
    return "[" + ", ".join(str(int(d)) for d in shape) + "]"


def _ints(values: Sequence[Any], what: str) -> tuple[int, ...]:
    out = []
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int):
            try:
                value = value.__index__()  # NumPy integers
            except (AttributeError, TypeError):
                raise OpFailure(f"{what} must be integers, got {list(values)}") from None
        out.append(value)
    return tuple(out)


def check_sizes(sizes: Sequence[Any], what: str) -> tuple[int, ...]:
    """``sizes`` as positive ints."""
    sizes = _ints(sizes, what)
    for axis, size in enumerate(sizes):
        if size <= 0:
            raise OpFailure(f"{what} {shape_text(sizes)} has a non-positive extent in dim {axis}")
    return sizes


def window(offsets: Sequence[Any], sizes: Sequence[Any], shape: Sequence[int],
           what: str = "tensor", size_name: str = "shape") -> tuple[slice, ...]:
    """The slices selecting ``sizes`` elements from ``offsets`` in a buffer of ``shape``."""
    if len(offsets) == len(sizes) == len(shape):
        slices = []
        for offset, size, extent in zip(offsets, sizes, shape):
            # Fast path: plain in-bounds ints (what MakeTuple operands evaluate to).
            if type(offset) is not int or type(size) is not int or offset < 0 or size <= 0 \
                    or offset + size > extent:
                break
            slices.append(slice(offset, offset + size))
        else:
            return tuple(slices)
    return _checked_window(offsets, sizes, shape, what, size_name)


def _checked_window(offsets: Sequence[Any], sizes: Sequence[Any], shape: Sequence[int],
                    what: str, size_name: str) -> tuple[slice, ...]:
    offsets = _ints(offsets, "offsets")
    sizes = check_sizes(sizes, size_name)
    rank = len(shape)
    if len(offsets) != rank:
        raise OpFailure(f"offsets {shape_text(offsets)} have {len(offsets)} item(s) but the "
                        f"{what} has rank {rank} (shape {shape_text(shape)})")
    if len(sizes) != rank:
        raise OpFailure(f"{size_name} {shape_text(sizes)} has {len(sizes)} item(s) but the "
                        f"{what} has rank {rank} (shape {shape_text(shape)})")
    for axis, offset in enumerate(offsets):
        if offset < 0:
            raise OpFailure(f"offsets {shape_text(offsets)} are negative in dim {axis}")
    if any(o + s > d for o, s, d in zip(offsets, sizes, shape)):
        raise OpFailure(f"offsets {shape_text(offsets)} + {size_name} {shape_text(sizes)} "
                        f"exceed {what} shape {shape_text(shape)}")
    return tuple(slice(o, o + s) for o, s in zip(offsets, sizes))


def point(offsets: Sequence[Any], shape: Sequence[int], what: str) -> tuple[int, ...]:
    """The index of one element, bounds-checked."""
    offsets = _ints(offsets, "offset")
    if len(offsets) != len(shape):
        raise OpFailure(f"offset {shape_text(offsets)} has {len(offsets)} item(s) but the "
                        f"{what} has rank {len(shape)} (shape {shape_text(shape)})")
    if any(o < 0 or o >= d for o, d in zip(offsets, shape)):
        raise OpFailure(f"offset {shape_text(offsets)} is outside {what} shape "
                        f"{shape_text(shape)}")
    return offsets
