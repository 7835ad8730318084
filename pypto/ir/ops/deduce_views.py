"""Type rules of the view, gather/scatter and creation ops added for PyPTO's op set
(``tensor_memory_ops``).  Same contract as ``deduce``: ``rule(args, kwargs) -> Type``,
``ValueError`` without the op's name."""

from __future__ import annotations

from typing import Any, Mapping

from ..array_types import PtrType
from ..dtype import DataType
from ..expr import ConstInt
from ..types import TensorType, Type
from .deduce import _require_same_dtype, create_tensor
from .shapes import (check_positive_dims, check_rank, constant_int, dims_equal, elements,
                     shape_text, shaped_like, static_dim)

__all__ = ["arange", "view", "reinterpret_view", "set_validshape", "concat", "fillpad_expand",
           "expand_clone", "gather", "gather_mask", "gather_compare", "gather_row", "scatter",
           "scatter_mask", "sort32", "paged_gather", "random", "alloc"]

Args = tuple
Kwargs = Mapping[str, Any]


def arange(args: Args, kwargs: Kwargs) -> Type:
    """``ci(start, shape)``: ``Tensor[shape, dtype]`` counting from ``start``."""
    if not kwargs["dtype"].is_int():
        raise ValueError(f"dtype must be an integer type, got {kwargs['dtype'].to_string()}")
    return create_tensor(args[1:], kwargs)


def view(args: Args, kwargs: Kwargs) -> Type:
    """``view(input[, shape[, valid_shape]])``: the same elements seen as ``shape``."""
    x = args[0].type
    shape = elements(args[1]) if len(args) > 1 and elements(args[1]) else x.shape
    check_positive_dims(shape, "shape")
    _check_same_count(x.shape, shape)
    return TensorType(shape, x.dtype)


def _check_same_count(old: tuple, new: tuple) -> None:
    a, b = [static_dim(d) for d in old], [static_dim(d) for d in new]
    if None in a or None in b:
        return
    if _count(a) != _count(b):
        raise ValueError(f"cannot view {shape_text(old)} ({_count(a)} elements) as "
                         f"{shape_text(new)} ({_count(b)} elements)")


def _count(dims: list) -> int:
    out = 1
    for dim in dims:
        out *= dim
    return out


def reinterpret_view(args: Args, kwargs: Kwargs) -> Type:
    """The bytes of ``data`` read as ``dtype``: the last dim scales by the width ratio
    unless ``shape`` is given; a tile stays in its memory."""
    x, dtype = args[0].type, kwargs["dtype"]
    if len(args) > 1:
        return shaped_like(x, elements(args[1]), dtype)
    old_bits, new_bits = x.dtype.get_bit(), dtype.get_bit()
    last = static_dim(x.shape[-1]) if x.shape else None
    if last is None or (last * old_bits) % new_bits:
        raise ValueError(f"cannot reinterpret {shape_text(x.shape)} {x.dtype.to_string()} as "
                         f"{dtype.to_string()} without an explicit shape")
    return shaped_like(x, [*x.shape[:-1], last * old_bits // new_bits], dtype)


def set_validshape(args: Args, kwargs: Kwargs) -> Type:
    """``set_validshape(x, valid_rows, valid_cols)``: ``x``'s type (2-D); the valid
    region is a runtime fact."""
    x = args[0].type
    if len(x.shape) != 2:
        raise ValueError(f"the first operand must be 2-D, got shape {shape_text(x.shape)}")
    for name, value in (("valid_rows", args[1]), ("valid_cols", args[2])):
        if not value.type.dtype.is_int():
            raise ValueError(f"operand '{name}' must be an integer scalar")
    return x


def concat(args: Args, kwargs: Kwargs) -> Type:
    """``[..., M, A] ++ [..., M, B] -> [..., M, A + B]`` (along the last dim)."""
    a, b = args[0].type, args[1].type
    _require_same_dtype(a, b, "src0", "src1")
    if len(a.shape) != len(b.shape) or not all(map(dims_equal, a.shape[:-1], b.shape[:-1])):
        raise ValueError(f"shapes {shape_text(a.shape)} and {shape_text(b.shape)} differ "
                         "outside the last dim")
    sa, sb = static_dim(a.shape[-1]), static_dim(b.shape[-1])
    last = ConstInt(sa + sb, DataType.INDEX) if sa is not None and sb is not None \
        else a.shape[-1] + b.shape[-1]
    return shaped_like(a, [*a.shape[:-1], last], a.dtype)


def fillpad_expand(args: Args, kwargs: Kwargs) -> Type:
    x, shape = args[0].type, elements(args[1])
    check_rank(shape, len(x.shape), "shape", "the tensor")
    for axis, (old, new) in enumerate(zip(x.shape, shape)):
        so, sn = static_dim(old), static_dim(new)
        if so is not None and sn is not None and sn < so:
            raise ValueError(f"shape[{axis}] = {sn} is smaller than the tensor's dim {so}")
    return shaped_like(x, shape, x.dtype)


def expand_clone(args: Args, kwargs: Kwargs) -> Type:
    """``input`` broadcast to ``target``'s shape (size-1 dims stretch)."""
    x, target = args[0].type, args[1].type
    check_rank(x.shape, len(target.shape), "the input's shape", "the target")
    for axis, (a, b) in enumerate(zip(x.shape, target.shape)):
        if not (dims_equal(a, b) or static_dim(a) == 1):
            raise ValueError(f"dim {axis} of {shape_text(x.shape)} cannot expand to "
                             f"{shape_text(target.shape)}")
    return shaped_like(target, target.shape, x.dtype)


def _index_dtype(t: Any, name: str) -> None:
    if not t.dtype.is_int():
        raise ValueError(f"operand '{name}' must have an integer dtype, got "
                         f"{t.dtype.to_string()}")


def _gather_dim(kwargs: Kwargs, rank: int) -> int:
    dim = kwargs.get("dim", -1)
    if not -rank <= dim < rank:
        raise ValueError(f"dim {dim} is out of range for rank {rank}")
    return dim % rank


def gather(args: Args, kwargs: Kwargs) -> Type:
    """``out[i][j] = input[index[i][j]][j]`` along ``dim``: ``index``'s shape, input's dtype."""
    x, index = args[0].type, args[1].type
    _index_dtype(index, "index")
    check_rank(index.shape, len(x.shape), "the index's shape", "the input")
    _gather_dim(kwargs, len(x.shape))
    return shaped_like(index, index.shape, x.dtype)


def gather_mask(args: Args, kwargs: Kwargs) -> Type:
    x = args[0].type
    return shaped_like(x, x.shape, kwargs.get("output_dtype") or x.dtype)


def gather_compare(args: Args, kwargs: Kwargs) -> Type:
    x = args[0].type
    rows = x.shape[:-1]
    return TensorType([*rows, kwargs["out_cols"]], kwargs.get("count_dtype") or DataType.INT32)


def gather_row(args: Args, kwargs: Kwargs) -> Type:
    """``gather_row(acc, src, dst_offset, src_offset, shapes)``: a window of ``src``
    written into ``acc``; the result is ``acc``'s type."""
    acc, src = args[0].type, args[1].type
    _require_same_dtype(acc, src, "acc", "src")
    shapes = elements(args[4])
    check_rank(elements(args[2]), len(acc.shape), "dst_offset", "acc")
    check_rank(elements(args[3]), len(src.shape), "src_offset", "src")
    check_rank(shapes, len(src.shape), "shapes", "src")
    return acc


def scatter(args: Args, kwargs: Kwargs) -> Type:
    """``scatter(input, index, src)``: ``input`` with ``src`` written at ``index``."""
    x, index, src = args[0].type, args[1].type, args[2].type
    _index_dtype(index, "index")
    _require_same_dtype(x, src, "input", "src")
    _gather_dim(kwargs, len(x.shape))
    return x


def scatter_mask(args: Args, kwargs: Kwargs) -> Type:
    return args[1].type


def sort32(args: Args, kwargs: Kwargs) -> Type:
    """Blocks of 32 sorted, each element paired with its index: ``[..., 2 N]``."""
    src = args[0].type
    last = static_dim(src.shape[-1])
    if last is None:
        raise ValueError("sort32 needs a static last dim")
    return shaped_like(src, [*src.shape[:-1], 2 * last], src.dtype)


def paged_gather(args: Args, kwargs: Kwargs) -> Type:
    src = args[0].type
    return TensorType([kwargs["max_indices"], kwargs["size"]], src.dtype)


def random(args: Args, kwargs: Kwargs) -> Type:
    for position, key in enumerate(args[:6]):
        if not key.type.dtype.is_int():
            raise ValueError(f"key/counter operand {position} must be an integer scalar")
    return create_tensor(args[6:], kwargs)


def alloc(args: Args, kwargs: Kwargs) -> Type:
    constant_int(args[0], "memory_space")
    return PtrType.get()
