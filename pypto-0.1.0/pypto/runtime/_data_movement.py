"""NumPy implementations of creation, data movement, views and element access.

Aliasing model (what the pypto passes assume, 03-passes.md §10.3-§10.5): an op
that the registry declares as *writing* an operand (``tile.store`` arg 2,
``*.assemble`` arg 0, ``*.write`` arg 0) updates that operand's buffer in place
and returns the same buffer, so its result aliases the target.  A tensor slice, a
tensor reshape and a tensor view (``tensor.slice`` / ``reshape`` / ``view``: the
``"view"`` mode of their kernels) are *views* of their source, as they are on the
device: a kernel that writes into ``pl.slice(out, ...)`` writes into ``out``.  Where
NumPy cannot give a view (a slice whose window reaches past the source, only its
``valid_shape`` part inside it; a reshape of a strided slice), the result is a
read-only copy and a write into it fails naming the op, never lost silently.  Every
other op returns a fresh array: loads, moves, tile slices, tile reshapes and
transposes copy.  With
``atomic=pl.AtomicType.Add`` a store/assemble adds into the target instead of
overwriting it.  Creation ops return zero-filled buffers (the device leaves them
undefined; zeros keep runs reproducible).
"""

from __future__ import annotations

from typing import Any

from ..ir.enums import AtomicType
from ._array_math import scalar_as
from ._valid import is_partial, mark_valid, valid_part
from ._windows import check_sizes, point, shape_text, window
from .dtypes import INVALID_TASK_ID, numpy_dtype, np
from .errors import OpFailure
from .state import ExecState, OpInfo

__all__ = ["create", "full", "load", "store", "move", "slice_", "tensor_slice", "assemble",
           "reshape", "tensor_reshape", "as_view",
           "transpose", "read", "write", "dim", "block_idx", "block_num", "subblock_idx",
           "task_invalid"]


def _atomic_add(info: OpInfo) -> bool:
    return info.kwargs.get("atomic", AtomicType.None_) == AtomicType.Add


def _padded(data: Any, shape: tuple[int, ...]) -> Any:
    """``data`` in the top-left corner of a zero buffer of ``shape``."""
    if data.shape == shape:
        return data.copy()
    out = np.zeros(shape, dtype=data.dtype)
    out[tuple(slice(0, n) for n in data.shape)] = data
    return out


def _read_only(copy: Any) -> Any:
    copy.flags.writeable = False
    return copy


def _writable(target: Any, role: str) -> None:
    """A write into a read-only copy would be lost: refuse it (see the module notes)."""
    if not target.flags.writeable:
        raise OpFailure(f"the {role} is a copy, not a view, of the tensor it was sliced or "
                        "reshaped from (its window reaches past that tensor, or it reshapes a "
                        "strided slice), so a write into it would be lost; write into the "
                        "tensor itself instead")


def _valid_extent(sizes: tuple[int, ...], valid: Any) -> tuple[int, ...]:
    valid = check_sizes(valid, "valid_shape")
    if len(valid) != len(sizes) or any(v > s for v, s in zip(valid, sizes)):
        raise OpFailure(f"valid_shape {shape_text(valid)} does not fit in shape "
                        f"{shape_text(sizes)}")
    return valid


# -- creation ---------------------------------------------------------------------------

def create(args: list, info: OpInfo, state: ExecState) -> Any:
    """A new buffer: ``init_value`` where the op has one (``tensor.create``), else zeros."""
    shape = check_sizes(args[0], "shape")
    dtype = numpy_dtype(info.kwargs["dtype"])
    init = info.kwargs.get("init_value")
    if init is not None:
        return np.full(shape, scalar_as(dtype, init), dtype=dtype)
    return np.zeros(shape, dtype=dtype)


def full(args: list, info: OpInfo, state: ExecState) -> Any:
    shape = check_sizes(args[0], "shape")
    dtype = numpy_dtype(info.kwargs["dtype"])
    return np.full(shape, scalar_as(dtype, args[1]), dtype=dtype)


# -- windows: load / store / slice / assemble -----------------------------------------------

def load(args: list, info: OpInfo, state: ExecState) -> Any:
    """``tile.load(tensor, offsets, shapes[, valid_shape])``: a copy of the window; with
    ``valid_shape`` only that part is read (the tile's valid region, ``_valid``) and the
    rest of the tile is zero."""
    tensor, offsets, sizes = args[0], args[1], args[2]
    if len(args) > 3:
        sizes = check_sizes(sizes, "shape")
        valid = _valid_extent(sizes, args[3])
        data = tensor[window(offsets, valid, tensor.shape, "tensor")]
        return mark_valid(_padded(data, sizes), valid)
    return tensor[window(offsets, sizes, tensor.shape, "tensor")].copy()


def store(args: list, info: OpInfo, state: ExecState) -> Any:
    """``tile.store(tile, offsets, out[, shapes])``: writes the tile (its leading
    ``shapes`` part, or else its valid region) into ``out`` in place and returns ``out``."""
    tile, offsets, out = args[0], args[1], args[2]
    if len(args) > 3:
        sizes = check_sizes(args[3], "shape")
        if len(sizes) != tile.ndim or any(s > t for s, t in zip(sizes, tile.shape)):
            raise OpFailure(f"shape {shape_text(sizes)} does not fit in the tile's shape "
                            f"{shape_text(tile.shape)}")
        source = tile[tuple(slice(0, s) for s in sizes)]
    elif is_partial(tile):
        source = valid_part(tile, tuple(range(tile.ndim)))
        sizes = source.shape
    else:
        sizes, source = tile.shape, tile
    target = window(offsets, sizes, out.shape, "tensor")
    _writable(out, "output tensor")
    if _atomic_add(info):
        out[target] += source.astype(out.dtype, copy=False)
    else:
        out[target] = source
    return out


def move(args: list, info: OpInfo, state: ExecState) -> Any:
    return args[0].copy()


def slice_(args: list, info: OpInfo, state: ExecState) -> Any:
    """``slice(x, shape, offset[, valid_shape[, drop_dims]])``: a copy of the window
    (zero outside ``valid_shape``, its valid region) without the dropped size-1 dims."""
    x, offsets = args[0], args[2]
    sizes = check_sizes(args[1], "shape")
    extent = _valid_extent(sizes, args[3]) if len(args) > 3 and len(args[3]) else sizes
    result = _padded(x[window(offsets, extent, x.shape, "source")], sizes)
    return _drop_dims(result, args[4] if len(args) > 4 else (), extent)


def tensor_slice(args: list, info: OpInfo, state: ExecState) -> Any:
    """``tensor.slice``: a view of the window (writes land in the source), without the
    dropped size-1 dims.  With a ``valid_shape`` the view still covers the whole window
    when it fits (what lies outside the valid part is the source's data, as on the
    device); a window that fits only with its valid part is a read-only padded copy."""
    x, offsets = args[0], args[2]
    sizes = check_sizes(args[1], "shape")
    dropped = args[4] if len(args) > 4 else ()
    extent = sizes
    if len(args) > 3 and len(args[3]):
        extent = _valid_extent(sizes, args[3])
        fits = len(offsets) == len(sizes) == x.ndim and all(
            o + s <= d for o, s, d in zip(offsets, sizes, x.shape))
        if not fits:
            copy = _padded(x[window(offsets, extent, x.shape, "source")], sizes)
            return _read_only(_drop_dims(copy, dropped, extent))
    return _drop_dims(x[window(offsets, sizes, x.shape, "source")], dropped, extent)


def _drop_dims(result: Any, dropped: Any, extent: tuple[int, ...]) -> Any:
    """``result`` without its ``drop_dims`` axes (size 1; removing them keeps a view),
    valid over ``extent``."""
    if not dropped:
        return mark_valid(result, extent)
    axes = tuple(axis % result.ndim for axis in dropped)
    for axis in axes:
        if result.shape[axis] != 1:
            raise OpFailure(f"drop_dims axis {axis} has size {result.shape[axis]}; only "
                            "size-1 dims can be dropped")
    kept = [axis for axis in range(result.ndim) if axis not in axes]
    return mark_valid(result.reshape(tuple(result.shape[a] for a in kept)),
                      tuple(extent[a] for a in kept))


def assemble(args: list, info: OpInfo, state: ExecState) -> Any:
    """``assemble(target, source, offset)``: writes ``source`` into ``target`` in place
    and returns ``target``."""
    target, source, offsets = args[0], args[1], args[2]
    if source.ndim != target.ndim:
        raise OpFailure(f"source shape {shape_text(source.shape)} and target shape "
                        f"{shape_text(target.shape)} have different ranks")
    region = window(offsets, source.shape, target.shape, "target", "source shape")
    _writable(target, "target")
    if _atomic_add(info):
        target[region] += source.astype(target.dtype, copy=False)
    else:
        target[region] = source
    return target


# -- views ----------------------------------------------------------------------------------

def _reshape_shape(x: Any, sizes: Any) -> tuple[int, ...]:
    shape = check_sizes(sizes, "shape")
    count = 1
    for n in shape:
        count *= n
    if count != x.size:
        raise OpFailure(f"cannot reshape {shape_text(x.shape)} ({x.size} elements) to "
                        f"{shape_text(shape)} ({count} elements)")
    return shape


def reshape(args: list, info: OpInfo, state: ExecState) -> Any:
    """``tile.reshape``: a copy (tiles are values)."""
    x = args[0]
    return x.reshape(_reshape_shape(x, args[1])).copy()


def tensor_reshape(args: list, info: OpInfo, state: ExecState) -> Any:
    """``tensor.reshape``: a view of the same elements (see ``as_view``)."""
    x = args[0]
    return as_view(x, _reshape_shape(x, args[1]))


def as_view(x: Any, shape: tuple[int, ...]) -> Any:
    """``x`` seen with ``shape``: a view, or a read-only copy where NumPy cannot reshape
    without copying (a strided slice)."""
    view = x.view()
    try:
        view.shape = shape  # raises instead of copying
    except AttributeError:
        return _read_only(x.reshape(shape))
    return view


def _axis(value: Any, rank: int, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise OpFailure(f"{name} must be an integer, got {value!r}")
    if not -rank <= value < rank:
        raise OpFailure(f"{name} {value} is out of range for rank {rank}")
    return value % rank


def transpose(args: list, info: OpInfo, state: ExecState) -> Any:
    x = args[0]
    first, second = _axis(args[1], x.ndim, "axis1"), _axis(args[2], x.ndim, "axis2")
    return np.ascontiguousarray(np.swapaxes(x, first, second))


# -- element access -------------------------------------------------------------------------

def read(args: list, info: OpInfo, state: ExecState) -> Any:
    src = args[0]
    return src[point(args[1], src.shape, "source")].item()


def write(args: list, info: OpInfo, state: ExecState) -> Any:
    """``write(dst, offset, value)``: sets one element in place and returns ``dst``."""
    dst = args[0]
    index = point(args[1], dst.shape, "destination")
    _writable(dst, "destination")
    dst[index] = scalar_as(dst.dtype, args[2])
    return dst


def dim(args: list, info: OpInfo, state: ExecState) -> Any:
    x = args[0]
    return int(x.shape[_axis(args[1], x.ndim, "axis")])


# -- SPMD block ids and tasks -----------------------------------------------------------------

def block_idx(args: list, info: OpInfo, state: ExecState) -> Any:
    return state.block_idx


def block_num(args: list, info: OpInfo, state: ExecState) -> Any:
    return state.block_num


def subblock_idx(args: list, info: OpInfo, state: ExecState) -> Any:
    return state.subblock_idx


def task_invalid(args: list, info: OpInfo, state: ExecState) -> Any:
    return INVALID_TASK_ID
