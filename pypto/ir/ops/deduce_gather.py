"""Type rules of the tile gathers, scatters and sorts, and of the cross-core and system
ops (pipes, flags, barriers).  Same contract as ``deduce``: ``rule(args, kwargs) ->
Type``, ``ValueError`` without the op's name."""

from __future__ import annotations

from typing import Any, Callable, Mapping

from ..dtype import DataType
from ..enums import MemorySpace
from ..types import ScalarType, TileType, TupleType, Type, UnknownType
from .deduce import _require_same_dtype
from .shapes import (ONE, check_rank, dims_equal, elements, shape_text, shaped_like,
                     static_dim)

__all__ = ["MASK_KEEP", "gather_flat", "gather_mask", "gather_compare_tile", "gatherb", "mgather",
           "mscatter", "scatter_flat", "scatter_mask_tile", "mrgsort_merge", "tpop", "no_value",
           "address", "count", "task_id", "bool_scalar"]

Args = tuple
Kwargs = Mapping[str, Any]

# PyPTO's MaskPattern codes -> (elements kept of every group, group size):
# P0101 = 1 keeps the even positions, P1010 = 2 the odd ones, P0001 ... P1000 = 3 ... 6
# the first ... fourth of every four, P1111 = 7 all of them.
MASK_KEEP = {1: (1, 2), 2: (1, 2), 3: (1, 4), 4: (1, 4), 5: (1, 4), 6: (1, 4), 7: (1, 1)}


def _index_operand(t: Any, name: str) -> None:
    if not t.dtype.is_int():
        raise ValueError(f"operand '{name}' must have an integer dtype, got "
                         f"{t.dtype.to_string()}")


def gather_flat(args: Args, kwargs: Kwargs) -> Type:
    """``tile.gather(src, indices, tmp)``: ``out[i, j] = src.flat[indices[i, j]]``: the
    indices' shape, the source's dtype and memory."""
    src, indices = args[0].type, args[1].type
    _index_operand(indices, "indices")
    return shaped_like(src, indices.shape, src.dtype)


def _pattern(kwargs: Kwargs) -> tuple[int, int]:
    code = kwargs["mask_pattern"]
    if code not in MASK_KEEP:
        raise ValueError(f"mask_pattern must be a MaskPattern code 1..7, got {code}")
    return MASK_KEEP[code]


def _reinterpreted(src_dtype: DataType, dtype: DataType | None) -> DataType:
    if dtype is None:
        return src_dtype
    if dtype.get_bit() != src_dtype.get_bit():
        raise ValueError(f"output_dtype {dtype.to_string()} must have the width of the source's "
                         f"{src_dtype.to_string()} (its bits are reinterpreted)")
    return dtype


def gather_mask(args: Args, kwargs: Kwargs) -> Type:
    """The elements the pattern keeps of every group along the last dim; the result's
    last dim shrinks by the pattern's ratio, ``output_dtype`` reinterprets the bits."""
    x = args[0].type
    keep, group = _pattern(kwargs)
    last = static_dim(x.shape[-1])
    if last is None or last % group:
        raise ValueError(f"the last dim ({shape_text(x.shape)}) must be a static multiple of "
                         f"{group} for this mask pattern")
    dtype = _reinterpreted(x.dtype, kwargs.get("output_dtype"))
    return shaped_like(x, [*x.shape[:-1], last // group * keep], dtype)


def scatter_mask_tile(args: Args, kwargs: Kwargs) -> Type:
    """``scatter_mask(dst, src)``: ``src``'s elements written at the positions the pattern
    selects in ``dst``; ``dst``'s type."""
    dst, src = args[0].type, args[1].type
    _require_same_dtype(dst, src, "dst", "src")
    keep, group = _pattern(kwargs)
    last, width = static_dim(dst.shape[-1]), static_dim(src.shape[-1])
    if last is not None and width is not None and (last % group or width != last // group * keep):
        raise ValueError(f"src {shape_text(src.shape)} does not fill the pattern's positions of "
                         f"dst {shape_text(dst.shape)}")
    return dst


def gather_compare_tile(args: Args, kwargs: Kwargs) -> Type:
    """``(indices [..., out_cols] INT32, counts [..., 1] count_dtype)``."""
    src = args[0].type
    rows = src.shape[:-1]
    count_dtype = kwargs.get("count_dtype") or DataType.INT32
    return TupleType([shaped_like(src, [*rows, kwargs["out_cols"]], DataType.INT32),
                      shaped_like(src, [*rows, ONE], count_dtype)])


def gatherb(args: Args, kwargs: Kwargs) -> Type:
    src, offset = args[0].type, args[1].type
    _index_operand(offset, "offset")
    return shaped_like(src, src.shape, _reinterpreted(src.dtype, kwargs.get("output_dtype")))


def mgather(args: Args, kwargs: Kwargs) -> Type:
    """``mgather(mem, idx)``: ``out[i, j] = mem.flat[idx[i, j]]``, a tile of the indices'
    shape in ``target_memory``."""
    mem, idx = args[0].type, args[1].type
    _index_operand(idx, "idx")
    if len(args) > 3:
        check_rank(elements(args[3]), len(idx.shape), "valid_shape", "idx")
    return TileType(idx.shape, mem.dtype, memory_space=kwargs["target_memory"])


def _same_shape(a: Any, b: Any, a_name: str, b_name: str) -> None:
    if len(a.shape) != len(b.shape) or not all(map(dims_equal, a.shape, b.shape)):
        raise ValueError(f"operands '{a_name}' {shape_text(a.shape)} and '{b_name}' "
                         f"{shape_text(b.shape)} must have the same shape")


def _flat_scatter(target: Any, target_name: str, src: Any, index: Any, index_name: str
                  ) -> Type:
    """``target.flat[index[i, j]] = src[i, j]``: integer indices of ``src``'s shape, one
    dtype; the target's type."""
    _index_operand(index, index_name)
    _same_shape(src, index, "src", index_name)
    _require_same_dtype(src, target, "src", target_name)
    return target


def mscatter(args: Args, kwargs: Kwargs) -> Type:
    """``mscatter(src, idx, output_tensor)`` into the tensor."""
    return _flat_scatter(args[2].type, "output_tensor", args[0].type, args[1].type, "idx")


def scatter_flat(args: Args, kwargs: Kwargs) -> Type:
    """``tile.scatter(dst, src, indexes)``: a copy of ``dst`` with ``src`` scattered in."""
    return _flat_scatter(args[0].type, "dst", args[1].type, args[2].type, "indexes")


def mrgsort_merge(args: Args, kwargs: Kwargs) -> Type:
    """``mrgsort_format2(src0, src1[, src2[, src3]], tmp)``: the sources (the operands
    before the trailing scratch) merged into one list: their last dims add up."""
    sources = [a.type for a in args[:-1]]
    first = sources[0]
    total = 0
    for position, src in enumerate(sources):
        _require_same_dtype(first, src, "src0", f"src{position}")
        if len(src.shape) != len(first.shape) or \
                not all(map(dims_equal, src.shape[:-1], first.shape[:-1])):
            raise ValueError(f"sources {shape_text(first.shape)} and {shape_text(src.shape)} "
                             "differ outside the last dim")
        width = static_dim(src.shape[-1])
        if width is None:
            raise ValueError("merge sort sources need a static last dim")
        total += width
    return shaped_like(first, [*first.shape[:-1], total], first.dtype)


# -- cross-core pipes and system ops ---------------------------------------------------------

def tpop(space: MemorySpace) -> Callable[[Args, Kwargs], Type]:
    """The rule of a pop into ``space``: the type its ``result_type`` or ``shape`` and
    ``dtype`` give."""
    def rule(args: Args, kwargs: Kwargs) -> Type:
        given = kwargs.get("result_type")
        if given is not None:
            if not isinstance(given, TileType) or given.memory_space not in (None, space):
                raise ValueError(f"result_type must be a Tile in {space.name}, got {given}")
            return TileType(given.shape, given.dtype, memory_space=space)
        if kwargs.get("shape") is None or kwargs.get("dtype") is None:
            raise ValueError("give the popped tile's shape= and dtype= (or result_type=)")
        return TileType(list(kwargs["shape"]), kwargs["dtype"], memory_space=space)
    rule.__name__ = f"tpop_{space.name.lower()}"
    return rule


def no_value(args: Args, kwargs: Kwargs) -> Type:
    """Ops that only act (barriers, flags, pushes): no value."""
    return UnknownType.get()


def address(args: Args, kwargs: Kwargs) -> Type:
    """A buffer address (an integer scalar)."""
    return ScalarType(DataType.INDEX)


def count(args: Args, kwargs: Kwargs) -> Type:
    return ScalarType(DataType.INDEX)


def task_id(args: Args, kwargs: Kwargs) -> Type:
    return ScalarType(DataType.TASK_ID)


def bool_scalar(args: Args, kwargs: Kwargs) -> Type:
    return ScalarType(DataType.BOOL)

