"""Type-deduction rules (01-language.md §12.2).

A rule is ``rule(args, kwargs) -> Type``: ``args`` are the call's IR operands
(already kind-checked by the registry), ``kwargs`` its canonical keyword values.
Rules raise ``ValueError`` describing the problem; ``create_op_call`` prefixes the
op name, so rules never repeat it.
"""

from __future__ import annotations

from typing import Any, Mapping

from ..dtype import DataType
from ..enums import MemorySpace
from ..types import ScalarType, ShapedType, TensorType, TileType, Type
from .shapes import (ONE, broadcast_shapes, check_positive_dims, check_rank, check_window,
                     constant_int, dim_text, dims_equal, elements, normalize_axis,
                     shape_text, shaped_like, static_dim)

__all__ = [
    "same_as_first", "elementwise", "bitwise", "compare", "compare_scalar", "cast",
    "matmul", "matmul_acc", "row_reduce", "col_reduce", "row_expand", "col_expand",
    "select", "bitwise_scalar", "bitwise_unary", "partial", "compare_keep_dtype",
    "row_arg_reduce", "col_arg_reduce", "accumulator_dtype", "drop_dims", "create_tensor",
    "create_tile", "full", "load", "store", "move", "slice_",
    "assemble", "reshape", "transpose", "read", "write", "dim", "index_scalar", "task_id",
]

Args = tuple
Kwargs = Mapping[str, Any]


def _require_same_dtype(a: ShapedType | ScalarType, b: ShapedType | ScalarType,
                        a_name: str, b_name: str) -> None:
    if a.dtype is not b.dtype:
        raise ValueError(f"operands '{a_name}' and '{b_name}' have different dtypes "
                         f"({a.dtype.to_string()} vs {b.dtype.to_string()})")


def _require_min_rank(t: ShapedType, rank: int, name: str) -> None:
    if len(t.shape) < rank:
        raise ValueError(f"operand '{name}' must have rank >= {rank}, got shape "
                         f"{shape_text(t.shape)}")


def _require_shape(actual: tuple, expected: tuple, name: str, pattern: str) -> None:
    if len(actual) != len(expected) or not all(map(dims_equal, actual, expected)):
        raise ValueError(f"operand '{name}' must have shape {pattern} = "
                         f"{shape_text(expected)}, got {shape_text(actual)}")


# -- elementwise ---------------------------------------------------------------------

def same_as_first(args: Args, kwargs: Kwargs) -> Type:
    """Unary ops, scalar-operand forms, expands: the first operand's type."""
    return args[0].type


def elementwise(args: Args, kwargs: Kwargs) -> ShapedType:
    """Binary ops: equal dtypes, broadcast shape, the lhs's memory space."""
    lhs, rhs = args[0].type, args[1].type
    _require_same_dtype(lhs, rhs, "lhs", "rhs")
    return shaped_like(lhs, broadcast_shapes(lhs.shape, rhs.shape), lhs.dtype)


def bitwise(args: Args, kwargs: Kwargs) -> Type:
    """Bitwise binary ops: as ``elementwise``, integer or BOOL dtypes only."""
    dtype = args[0].type.dtype
    if not (dtype.is_int() or dtype is DataType.BOOL):
        raise ValueError(f"bitwise ops need integer or bool operands, got {dtype.to_string()}")
    return elementwise(args, kwargs)


def bitwise_scalar(args: Args, kwargs: Kwargs) -> Type:
    """Bitwise ops with a scalar rhs: integer or BOOL dtypes, the lhs's type."""
    return bitwise_unary(args, kwargs)


def bitwise_unary(args: Args, kwargs: Kwargs) -> Type:
    dtype = args[0].type.dtype
    if not (dtype.is_int() or dtype is DataType.BOOL):
        raise ValueError(f"bitwise ops need integer or bool operands, got {dtype.to_string()}")
    return args[0].type


def partial(args: Args, kwargs: Kwargs) -> Type:
    """part_*: equal dtypes and ranks; the result covers both operands (each dim is the
    larger of the two where both are static)."""
    a, b = args[0].type, args[1].type
    _require_same_dtype(a, b, "src0", "src1")
    if len(a.shape) != len(b.shape):
        raise ValueError(f"operands have ranks {len(a.shape)} and {len(b.shape)}")
    dims = []
    for x, y in zip(a.shape, b.shape):
        sx, sy = static_dim(x), static_dim(y)
        dims.append(x if sy is None or (sx is not None and sx >= sy) else y)
    return shaped_like(a, dims, a.dtype)


def compare_keep_dtype(args: Args, kwargs: Kwargs) -> Type:
    """tensor.cmp: as ``elementwise`` (PyPTO's result keeps the operands' dtype, 1/0)."""
    return elementwise(args, kwargs)


def compare(args: Args, kwargs: Kwargs) -> Type:
    """cmp: as ``elementwise`` but the result is BOOL."""
    result = elementwise(args, kwargs)
    return shaped_like(result, result.shape, DataType.BOOL)


def compare_scalar(args: Args, kwargs: Kwargs) -> Type:
    x = args[0].type
    return shaped_like(x, x.shape, DataType.BOOL)


def cast(args: Args, kwargs: Kwargs) -> Type:
    x = args[0].type
    return shaped_like(x, x.shape, kwargs["target_type"])


# -- matmul --------------------------------------------------------------------------

def _matrix_dims(t: ShapedType, name: str, transposed: bool) -> tuple:
    if len(t.shape) != 2:
        raise ValueError(f"operand '{name}' must be 2-D, got shape {shape_text(t.shape)}")
    rows, cols = t.shape
    return (cols, rows) if transposed else (rows, cols)


def _require_inner_match(k_lhs: Any, k_rhs: Any, lhs: ShapedType, rhs: ShapedType) -> None:
    if not dims_equal(k_lhs, k_rhs):
        raise ValueError(f"inner dims differ: lhs {shape_text(lhs.shape)} gives K = "
                         f"{dim_text(k_lhs)}, rhs {shape_text(rhs.shape)} gives K = "
                         f"{dim_text(k_rhs)}")


def accumulator_dtype(dtype: DataType) -> DataType:
    """Half-precision products accumulate into FP32, as PyPTO's matmul does."""
    return DataType.FP32 if dtype in (DataType.FP16, DataType.BF16) else dtype


def matmul(args: Args, kwargs: Kwargs) -> Type:
    """``[M, K] x [K, N] -> [M, N]``; ``a_trans``/``b_trans`` read lhs as ``[K, M]`` /
    rhs as ``[N, K]``.  Dtype ``out_dtype`` or the lhs's; a Tile result is in Acc."""
    lhs, rhs = args[0].type, args[1].type
    m, k_lhs = _matrix_dims(lhs, "lhs", kwargs.get("a_trans", False))
    k_rhs, n = _matrix_dims(rhs, "rhs", kwargs.get("b_trans", False))
    _require_inner_match(k_lhs, k_rhs, lhs, rhs)
    _require_same_dtype(lhs, rhs, "lhs", "rhs")
    dtype = kwargs.get("out_dtype") or accumulator_dtype(lhs.dtype)
    if isinstance(lhs, TileType):
        return TileType([m, n], dtype, memory_space=MemorySpace.Acc)
    return TensorType([m, n], dtype)


def matmul_acc(args: Args, kwargs: Kwargs) -> Type:
    """``acc[M, N] += lhs[M, K] x rhs[K, N]``: the accumulator's type."""
    acc, lhs, rhs = args[0].type, args[1].type, args[2].type
    m, k_lhs = _matrix_dims(lhs, "lhs", kwargs.get("a_trans", False))
    k_rhs, n = _matrix_dims(rhs, "rhs", kwargs.get("b_trans", False))
    _require_inner_match(k_lhs, k_rhs, lhs, rhs)
    _require_same_dtype(lhs, rhs, "lhs", "rhs")
    _require_shape(acc.shape, (m, n), "acc", "[M, N]")
    return acc


# -- reductions and row/column broadcasts --------------------------------------------

def row_reduce(args: Args, kwargs: Kwargs) -> ShapedType:
    """``[..., M, N] -> [..., M, 1]``; a tile's ``tmp_tile`` must share its dtype."""
    x = args[0].type
    _require_min_rank(x, 2, "x")
    if len(args) > 1:
        _require_same_dtype(x, args[1].type, "x", "tmp_tile")
    return shaped_like(x, x.shape[:-1] + (ONE,), x.dtype)


def row_arg_reduce(args: Args, kwargs: Kwargs) -> Type:
    """row_argmax/argmin: ``[..., M, N] -> [..., M, 1]`` INT32 indices."""
    result = row_reduce(args[:1], kwargs)
    return shaped_like(result, result.shape, DataType.INT32)


def col_arg_reduce(args: Args, kwargs: Kwargs) -> Type:
    """col_argmax/argmin: ``[..., M, N] -> [..., 1, N]`` INT32 indices."""
    result = col_reduce(args[:1], kwargs)
    return shaped_like(result, result.shape, DataType.INT32)


def col_reduce(args: Args, kwargs: Kwargs) -> ShapedType:
    """``[..., M, N] -> [..., 1, N]``."""
    x = args[0].type
    _require_min_rank(x, 2, "x")
    return shaped_like(x, x.shape[:-2] + (ONE, x.shape[-1]), x.dtype)


def row_expand(args: Args, kwargs: Kwargs) -> Type:
    """``lhs[..., M, N]`` combined with one value per row, ``vec[..., M, 1]``."""
    lhs, vec = args[0].type, args[1].type
    _require_min_rank(lhs, 2, "lhs")
    _require_same_dtype(lhs, vec, "lhs", "vec")
    _require_shape(vec.shape, lhs.shape[:-1] + (ONE,), "vec", "[..., M, 1]")
    return lhs


def col_expand(args: Args, kwargs: Kwargs) -> Type:
    """``lhs[..., M, N]`` combined with one value per column, ``vec[..., 1, N]``."""
    lhs, vec = args[0].type, args[1].type
    _require_min_rank(lhs, 2, "lhs")
    _require_same_dtype(lhs, vec, "lhs", "vec")
    _require_shape(vec.shape, lhs.shape[:-2] + (ONE, lhs.shape[-1]), "vec", "[..., 1, N]")
    return lhs


def select(args: Args, kwargs: Kwargs) -> Type:
    """sel(mask, lhs, rhs, tmp): lhs and rhs agree; the mask broadcasts to them."""
    mask, lhs, rhs = args[0].type, args[1].type, args[2].type
    _require_same_dtype(lhs, rhs, "lhs", "rhs")
    broadcast_shapes(lhs.shape, rhs.shape)
    broadcast_shapes(mask.shape, lhs.shape, "mask", "lhs")
    return lhs


# -- creation ------------------------------------------------------------------------

def create_tensor(args: Args, kwargs: Kwargs) -> Type:
    shape = elements(args[0])
    check_positive_dims(shape, "shape")
    return TensorType(shape, kwargs["dtype"])


def create_tile(args: Args, kwargs: Kwargs) -> Type:
    shape = elements(args[0])
    check_positive_dims(shape, "shape")
    return TileType(shape, kwargs["dtype"], memory_space=kwargs["target_memory"])


def full(args: Args, kwargs: Kwargs) -> Type:
    return create_tensor(args, kwargs)


# -- data movement -------------------------------------------------------------------

def load(args: Args, kwargs: Kwargs) -> Type:
    """``tile.load(tensor, offsets, shapes[, valid_shape])`` ->
    ``Tile[shapes, tensor.dtype, target_memory]``."""
    src = args[0].type
    offsets, sizes = elements(args[1]), elements(args[2])
    rank = len(src.shape)
    check_rank(offsets, rank, "offsets", "the tensor")
    check_rank(sizes, rank, "shapes", "the tensor")
    if len(args) > 3:
        check_rank(elements(args[3]), rank, "valid_shape", "the tensor")
    check_positive_dims(sizes, "shapes")
    check_window(offsets, sizes, src.shape, "tensor")
    return TileType(sizes, src.dtype, memory_space=kwargs["target_memory"])


def store(args: Args, kwargs: Kwargs) -> Type:
    """``tile.store(tile, offsets, output_tensor[, shapes])`` -> the output's type."""
    tile, out = args[0].type, args[2].type
    _require_same_dtype(tile, out, "tile", "output_tensor")
    rank = len(out.shape)
    offsets = elements(args[1])
    check_rank(offsets, rank, "offsets", "the output tensor")
    check_rank(tile.shape, rank, "the tile's shape", "the output tensor")
    sizes = tile.shape
    if len(args) > 3:
        sizes = elements(args[3])
        check_rank(sizes, rank, "shapes", "the output tensor")
    check_window(offsets, sizes, out.shape, "output tensor")
    return out


def move(args: Args, kwargs: Kwargs) -> Type:
    x = args[0].type
    return shaped_like(x, x.shape, x.dtype, kwargs["target_memory"])


def drop_dims(args: Args) -> tuple[int, ...]:
    """The constant axes of slice's ``drop_dims`` operand (``()`` when absent)."""
    if len(args) < 5:
        return ()
    return tuple(constant_int(axis, "drop_dims axis") for axis in elements(args[4]))


def slice_(args: Args, kwargs: Kwargs) -> Type:
    """``slice(x, shape, offset[, valid_shape])``: the window's shape without
    ``drop_dims`` (each dropped dim must have size 1)."""
    x = args[0].type
    sizes, offsets = elements(args[1]), elements(args[2])
    rank = len(x.shape)
    check_rank(sizes, rank, "shape", "the source")
    check_rank(offsets, rank, "offset", "the source")
    if len(args) > 3 and elements(args[3]):
        check_rank(elements(args[3]), rank, "valid_shape", "the source")
    check_positive_dims(sizes, "shape")
    check_window(offsets, sizes, x.shape, "source")
    dropped: set[int] = set()
    for axis in drop_dims(args):
        axis = normalize_axis(axis, rank, "drop_dims axis")
        if axis in dropped:
            raise ValueError(f"drop_dims names axis {axis} twice")
        size = static_dim(sizes[axis])
        if size is not None and size != 1:
            raise ValueError(f"drop_dims axis {axis} has size {size}; only size-1 dims can "
                             "be dropped")
        dropped.add(axis)
    if dropped and len(dropped) == rank:
        raise ValueError("drop_dims drops every dim; use read for a single element")
    kept = [dim for axis, dim in enumerate(sizes) if axis not in dropped]
    return shaped_like(x, kept, x.dtype)


def assemble(args: Args, kwargs: Kwargs) -> Type:
    """``assemble(target, source, offset)``: writes ``source`` into ``target``."""
    target, source = args[0].type, args[1].type
    _require_same_dtype(target, source, "target", "source")
    rank = len(target.shape)
    offsets = elements(args[2])
    check_rank(source.shape, rank, "the source's shape", "the target")
    check_rank(offsets, rank, "offset", "the target")
    check_window(offsets, source.shape, target.shape, "target")
    return target


def reshape(args: Args, kwargs: Kwargs) -> Type:
    x = args[0].type
    shape = elements(args[1])
    check_positive_dims(shape, "shape")
    old, new = [static_dim(d) for d in x.shape], [static_dim(d) for d in shape]
    if None not in old and None not in new:
        old_count, new_count = _product(old), _product(new)
        if old_count != new_count:
            raise ValueError(f"cannot reshape {shape_text(x.shape)} ({old_count} elements) "
                             f"to {shape_text(shape)} ({new_count} elements)")
    return shaped_like(x, shape, x.dtype)


def _product(values: list) -> int:
    out = 1
    for value in values:
        out *= value
    return out


def transpose(args: Args, kwargs: Kwargs) -> Type:
    x = args[0].type
    rank = len(x.shape)
    a = normalize_axis(constant_int(args[1], "axis1"), rank, "axis1")
    b = normalize_axis(constant_int(args[2], "axis2"), rank, "axis2")
    shape = list(x.shape)
    shape[a], shape[b] = shape[b], shape[a]
    return shaped_like(x, shape, x.dtype)


def read(args: Args, kwargs: Kwargs) -> Type:
    src = args[0].type
    offsets = elements(args[1])
    check_rank(offsets, len(src.shape), "offset", "the source")
    check_window(offsets, (ONE,) * len(offsets), src.shape, "source")
    return ScalarType(src.dtype)


def write(args: Args, kwargs: Kwargs) -> Type:
    dst = args[0].type
    offsets = elements(args[1])
    check_rank(offsets, len(dst.shape), "offset", "the destination")
    check_window(offsets, (ONE,) * len(offsets), dst.shape, "destination")
    return dst


def dim(args: Args, kwargs: Kwargs) -> Type:
    x = args[0].type
    normalize_axis(constant_int(args[1], "axis"), len(x.shape), "axis")
    return ScalarType(DataType.INDEX)


# -- scalars -------------------------------------------------------------------------

def index_scalar(args: Args, kwargs: Kwargs) -> Type:
    return ScalarType(DataType.INDEX)


def task_id(args: Args, kwargs: Kwargs) -> Type:
    return ScalarType(DataType.TASK_ID)
