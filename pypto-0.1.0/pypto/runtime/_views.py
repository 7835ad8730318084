"""NumPy implementations of the view, padding, gather/scatter and partial ops of
PyPTO's op set (``pypto/ir/ops/tensor_memory_ops.py``).  Same contract as
``_data_movement``: ``impl(args, info, state)``; every result is a fresh array except
``view``'s (a view of its source, like a tensor slice).
"""

from __future__ import annotations

from typing import Any, Callable

from ..ir.enums import PadValue
from ._valid import is_partial, valid_shape_of
from ._windows import check_sizes, shape_text, window
from .dtypes import numpy_dtype, np
from .errors import OpFailure
from .state import ExecState, OpInfo

__all__ = ["arange", "view", "reinterpret_view", "identity", "concat", "fillpad",
           "fillpad_inplace", "fillpad_expand", "expand_clone", "gather", "gather_row", "scatter",
           "scatter_update", "partial"]


def arange(args: list, info: OpInfo, state: ExecState) -> Any:
    """``ci(start, shape)``: ``start, start + 1, ...`` in row-major order (descending:
    ``start, start - 1, ...``)."""
    shape = check_sizes(args[1], "shape")
    count = int(np.prod(shape, dtype=np.int64))
    step = -1 if info.kwargs.get("descending") else 1
    values = int(args[0]) + step * np.arange(count, dtype=np.int64)
    return values.astype(numpy_dtype(info.kwargs["dtype"])).reshape(shape)


def view(args: list, info: OpInfo, state: ExecState) -> Any:
    """``tensor.view``: the same elements under another shape, a view (writes land in
    the source; a read-only copy where NumPy cannot view, see ``_data_movement``)."""
    from ._data_movement import as_view
    x = args[0]
    shape = check_sizes(args[1], "shape") if len(args) > 1 and len(args[1]) else x.shape
    if int(np.prod(shape, dtype=np.int64)) != x.size:
        raise OpFailure(f"cannot view {shape_text(x.shape)} as {shape_text(shape)}")
    return as_view(x, tuple(shape))


def reinterpret_view(args: list, info: OpInfo, state: ExecState) -> Any:
    """The same bytes read as ``dtype`` (little-endian, as NumPy stores them)."""
    x = np.ascontiguousarray(args[0])
    data = x.view(numpy_dtype(info.kwargs["dtype"]))
    if len(args) > 1:
        data = data.reshape(check_sizes(args[1], "shape"))
    else:
        data = data.reshape(x.shape[:-1] + (-1,))
    return data.copy()


def identity(args: list, info: OpInfo, state: ExecState) -> Any:
    """Ops that only change what the device knows about a value (the cores it is split
    over): on the CPU the data is unchanged."""
    return args[0].copy()


def concat(args: list, info: OpInfo, state: ExecState) -> Any:
    a, b = args[0], args[1]
    if a.shape[:-1] != b.shape[:-1]:
        raise OpFailure(f"shapes {shape_text(a.shape)} and {shape_text(b.shape)} differ "
                        "outside the last dim")
    return np.concatenate([a, b], axis=-1)


def _pad_scalar(dtype: Any, pad: PadValue) -> Any:
    if pad == PadValue.max:
        return np.finfo(dtype).max if dtype.kind == "f" else np.iinfo(dtype).max
    if pad == PadValue.min:
        return np.finfo(dtype).min if dtype.kind == "f" else np.iinfo(dtype).min
    return dtype.type(0)


def _padded_copy(x: Any, info: OpInfo, shape: tuple[int, ...]) -> Any:
    """A whole array of ``shape``: ``x``'s valid region (``_valid``) in its corner, the
    pad value elsewhere."""
    out = np.full(shape, _pad_scalar(x.dtype, info.kwargs.get("pad_value", PadValue.zero)),
                  dtype=x.dtype)
    region = tuple(slice(0, n) for n in valid_shape_of(x))
    out[region] = np.asarray(x)[region]
    return out


def fillpad(args: list, info: OpInfo, state: ExecState) -> Any:
    """Elements outside the valid region take the pad value; the result is whole (a
    whole input is copied unchanged)."""
    return _padded_copy(args[0], info, args[0].shape)


def fillpad_inplace(args: list, info: OpInfo, state: ExecState) -> Any:
    """``fillpad`` into the tile itself (its entry declares the write): afterwards the
    tile is whole."""
    x = args[0]
    x[...] = _padded_copy(x, info, x.shape)
    if is_partial(x):
        x.valid_shape = None
    return x


def fillpad_expand(args: list, info: OpInfo, state: ExecState) -> Any:
    """The valid region of ``tensor`` in the top-left corner of ``shape``, the rest the
    pad value."""
    return _padded_copy(args[0], info, check_sizes(args[1], "shape"))


def expand_clone(args: list, info: OpInfo, state: ExecState) -> Any:
    x, target = args[0], args[1]
    try:
        return np.broadcast_to(x, target.shape).copy()
    except ValueError:
        raise OpFailure(f"cannot expand {shape_text(x.shape)} to {shape_text(target.shape)}") \
            from None


def _dim(info: OpInfo, rank: int) -> int:
    dim = info.kwargs.get("dim", -1)
    return dim % rank


def _indices(index: Any, size: int, what: str) -> Any:
    if np.any(index < 0) or np.any(index >= size):
        raise OpFailure(f"{what} index out of range [0, {size})")
    return index.astype(np.int64)


def gather(args: list, info: OpInfo, state: ExecState) -> Any:
    """``out[i][j] = input[index[i][j]][j]`` (``dim`` 0), like ``numpy.take_along_axis``."""
    x, index = args[0], args[1]
    axis = _dim(info, x.ndim)
    return np.take_along_axis(x, _indices(index, x.shape[axis], "gather"), axis=axis)


def scatter(args: list, info: OpInfo, state: ExecState) -> Any:
    """``input`` with ``src[i][j]`` written at ``index[i][j]`` along ``dim``."""
    x, index, src = args[0], args[1], args[2]
    axis = _dim(info, x.ndim)
    out = x.copy()
    np.put_along_axis(out, _indices(index, x.shape[axis], "scatter"),
                      src.astype(x.dtype, copy=False), axis=axis)
    return out


def scatter_update(args: list, info: OpInfo, state: ExecState) -> Any:
    """Rows (slices along ``dim``, default the first) of ``input`` replaced by ``src``'s,
    at the positions ``index`` lists."""
    x, index, src = args[0], args[1], args[2]
    axis = info.kwargs.get("dim", 0) % x.ndim
    positions = _indices(index.reshape(-1), x.shape[axis], "scatter_update")
    out = x.copy()
    moved = np.moveaxis(out, axis, 0)
    moved[positions] = np.moveaxis(src, axis, 0).reshape((len(positions),) + moved.shape[1:])
    return out


def gather_row(args: list, info: OpInfo, state: ExecState) -> Any:
    """The ``shapes`` window of ``src`` at ``src_offset`` (transposed if asked) written
    into a copy of ``acc`` at ``dst_offset``."""
    acc, src, dst_offset, src_offset = args[0], args[1], args[2], args[3]
    sizes = check_sizes(args[4], "shapes")
    block = src[window(src_offset, sizes, src.shape, "src")]
    if info.kwargs.get("transpose"):
        block = block.T
    out = acc.copy()
    out[window(dst_offset, block.shape, acc.shape, "acc")] = block
    return out


def partial(combine: Callable[[Any, Any], Any]) -> Callable[[list, OpInfo, ExecState], Any]:
    """``part_*``: where both operands have an element they are combined, elsewhere the
    one that has it is taken (the result covers both)."""
    def impl(args: list, info: OpInfo, state: ExecState) -> Any:
        a, b = args[0], args[1]
        shape = tuple(max(x, y) for x, y in zip(a.shape, b.shape))
        out = np.zeros(shape, dtype=a.dtype)
        out[tuple(slice(0, n) for n in b.shape)] = b
        out[tuple(slice(0, n) for n in a.shape)] = a
        common = tuple(slice(0, min(x, y)) for x, y in zip(a.shape, b.shape))
        out[common] = combine(a[common], b[common])
        return out
    return impl
